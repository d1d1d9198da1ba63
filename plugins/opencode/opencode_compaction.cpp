// The pure half of `askhost opencode summary`: the session's question calls as the summary's exchanges.
#include "opencode_compaction.hpp"

#include <algorithm>

#include "json/json_access.hpp"
#include "store/session_summary.hpp"

namespace askhost::opencode {

std::vector<store::Exchange> exchanges_of_calls(const rapidjson::Value& request) {
    std::vector<store::Exchange> out;
    const auto* calls = json::member(request, "calls");
    if (!calls || !calls->IsArray()) return out;
    for (const auto& call : calls->GetArray()) {
        if (!json::is_object(call)) continue;
        store::Exchange e;
        e.agent = "opencode";
        if (const auto* qs = json::member(call, "questions"); qs && qs->IsArray())
            for (const auto& q : qs->GetArray()) {
                Question question;
                question.question = json::string_of(q, "question");
                if (question.question.empty()) continue;
                question.header = json::string_of(q, "header");
                if (const auto* m = json::member(q, "multiple"); m && m->IsBool()) question.multi_select = m->GetBool();
                if (const auto* opts = json::member(q, "options"); opts && opts->IsArray())
                    for (const auto& o : opts->GetArray())
                        if (auto label = json::string_of(o, "label"); !label.empty())
                            question.options.push_back({label, json::string_of(o, "description"), std::nullopt});
                e.questions.push_back(std::move(question));
            }
        if (e.questions.empty()) continue;
        const std::string status = json::string_of(call, "status");
        if (status == "error") {
            e.outcome = "cancelled";
            out.push_back(std::move(e));
            continue;
        }
        const auto* answers = json::member(call, "answers");
        if (status != "completed" || !answers || !answers->IsArray()) continue;
        // OpenCode's answers go by position, one list per question.
        for (rapidjson::SizeType i = 0; i < answers->Size() && i < e.questions.size(); ++i) {
            const Question& q = e.questions[i];
            Answer a;
            a.question = q.question;
            a.multi = q.multi_select;
            if ((*answers)[i].IsArray())
                for (const auto& v : (*answers)[i].GetArray())
                    if (v.IsString() && v.GetStringLength() > 0) a.values.emplace_back(json::str(v));
            if (a.values.empty()) continue;  // left unanswered
            const bool label = std::any_of(q.options.begin(), q.options.end(),
                                           [&](const Option& o) { return o.label == a.values.front(); });
            a.was_custom = !label;
            if (label && !q.multi_select) a.selected_option = a.values.front();
            e.answers.push_back(std::move(a));
        }
        if (e.answers.empty()) continue;
        e.outcome = "answered";
        out.push_back(std::move(e));
    }
    return out;
}

std::string compaction_context(const std::vector<store::Exchange>& exchanges) {
    const std::string prose = store::summary_text(exchanges);
    if (prose.empty()) return {};
    return "Keep in the summary what the user decided when asked, as it stands here (these are the user's own "
           "answers; later work should follow them): " +
           prose;
}

}  // namespace askhost::opencode
