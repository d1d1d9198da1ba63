#include "compact_hook.hpp"

#include "core/fd_io.hpp"
#include "json/json_access.hpp"
#include "store/fs_util.hpp"
#include "store/session_summary.hpp"

#include <map>

namespace askhost::claude {

namespace {

constexpr std::size_t kMaxTranscript = 256u << 20;  // read at most the last 256 MiB

bool is_question_tool(std::string_view name) {
    constexpr std::string_view suffix = "__ask_user_question";
    return name == "AskUserQuestion" || (name.substr(0, 5) == "mcp__" && name.size() > suffix.size() &&
                                         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0);
}

std::vector<Question> questions_of(const rapidjson::Value& input) {
    std::vector<Question> out;
    const auto* qs = json::member(input, "questions");
    if (!qs || !qs->IsArray()) return out;
    for (const auto& q : qs->GetArray()) {
        Question question;
        question.question = json::string_of(q, "question");
        if (question.question.empty()) continue;
        question.header = json::string_of(q, "header");
        if (const auto* m = json::member(q, "multiSelect"); m && m->IsBool()) question.multi_select = m->GetBool();
        if (const auto* opts = json::member(q, "options"); opts && opts->IsArray())
            for (const auto& o : opts->GetArray())
                if (auto label = json::string_of(o, "label"); !label.empty())
                    question.options.push_back({label, json::string_of(o, "description"), std::nullopt});
        out.push_back(std::move(question));
    }
    return out;
}

std::string text_of(const rapidjson::Value& content) {
    if (content.IsString()) return std::string(json::str(content));
    std::string out;
    if (content.IsArray())
        for (const auto& c : content.GetArray()) out += json::string_of(c, "text");
    return out;
}

// One answer's values: a multi-select answer is its labels joined with ", " (REQ-AUQ-002).
Answer answer_of(const Question& q, const std::string& value) {
    Answer a;
    a.question = q.question;
    a.multi = q.multi_select;
    auto is_label = [&](std::string_view v) {
        for (const auto& o : q.options)
            if (o.label == v) return true;
        return false;
    };
    if (q.multi_select) {
        std::vector<std::string> parts;
        bool all_labels = true;
        for (std::size_t start = 0; start <= value.size();) {
            auto comma = value.find(", ", start);
            if (comma == std::string::npos) comma = value.size();
            parts.push_back(value.substr(start, comma - start));
            all_labels = all_labels && is_label(parts.back());
            start = comma + 2;
        }
        if (all_labels) {
            a.values = std::move(parts);
            return a;
        }
    }
    a.values = {value};
    a.was_custom = !is_label(value);
    if (!a.was_custom && !q.multi_select) a.selected_option = value;
    return a;
}

// The answers a result gives, by question text: the reference's `answers` object (Claude's own
// tool, askhost mcp's structuredContent), else the model text `"q"="a", ... .`.
std::map<std::string, std::string> answers_in(const rapidjson::Value* tool_use_result, const std::string& text,
                                              const std::vector<Question>& qs) {
    std::map<std::string, std::string> out;
    const rapidjson::Value* answers = nullptr;
    // Claude Code keeps an MCP tool's structuredContent as JSON text (toolUseResult and content).
    rapidjson::Document parsed;
    const std::string_view as_text =
        tool_use_result && tool_use_result->IsString() ? json::str(*tool_use_result) : std::string_view(text);
    if ((!tool_use_result || !tool_use_result->IsObject()) && !as_text.empty() && as_text.front() == '{' &&
        !json::parse(parsed, as_text) && parsed.IsObject())
        tool_use_result = &parsed;
    if (tool_use_result && tool_use_result->IsObject()) {
        answers = json::member(*tool_use_result, "answers");
        if (!answers || !answers->IsObject())
            if (const auto* sc = json::member(*tool_use_result, "structuredContent"))
                answers = json::member(*sc, "answers");
    }
    if (answers && answers->IsObject()) {
        for (auto m = answers->MemberBegin(); m != answers->MemberEnd(); ++m)
            if (m->value.IsString()) out[std::string(json::str(m->name))] = std::string(json::str(m->value));
        return out;
    }
    for (std::size_t i = 0; i < qs.size(); ++i) {
        const std::string key = "\"" + qs[i].question + "\"=\"";
        const auto at = text.find(key);
        if (at == std::string::npos) continue;
        const auto start = at + key.size();
        auto end = std::string::npos;
        if (i + 1 < qs.size()) end = text.find("\", \"" + qs[i + 1].question + "\"=\"", start);
        if (end == std::string::npos) end = text.find("\".", start);
        if (end != std::string::npos) out[qs[i].question] = text.substr(start, end - start);
    }
    return out;
}

}  // namespace

std::vector<store::Exchange> exchanges_in_transcript(std::string_view jsonl) {
    std::vector<store::Exchange> out;
    std::map<std::string, std::vector<Question>> asked;  // tool_use id -> its questions
    std::size_t pos = 0;
    while (pos < jsonl.size()) {
        auto nl = jsonl.find('\n', pos);
        if (nl == std::string_view::npos) nl = jsonl.size();
        const std::string_view line = jsonl.substr(pos, nl - pos);
        pos = nl + 1;
        // Cheap first: only lines about a question tool or a tool result are parsed.
        if (line.find("ask_user_question") == std::string_view::npos &&
            line.find("AskUserQuestion") == std::string_view::npos &&
            line.find("tool_result") == std::string_view::npos)
            continue;
        rapidjson::Document entry;
        if (json::parse(entry, line) || !entry.IsObject()) continue;
        if (const auto* side = json::member(entry, "isSidechain"); side && side->IsBool() && side->GetBool()) continue;
        const auto* message = json::member(entry, "message");
        const auto* content = message ? json::member(*message, "content") : nullptr;
        if (!content || !content->IsArray()) continue;
        for (const auto& block : content->GetArray()) {
            const std::string type = json::string_of(block, "type");
            if (type == "tool_use" && is_question_tool(json::string_of(block, "name"))) {
                if (const auto* input = json::member(block, "input"))
                    asked[json::string_of(block, "id")] = questions_of(*input);
                continue;
            }
            if (type != "tool_result") continue;
            auto it = asked.find(json::string_of(block, "tool_use_id"));
            if (it == asked.end() || it->second.empty()) continue;
            store::Exchange e;
            e.agent = "claude";
            e.questions = std::move(it->second);
            asked.erase(it);
            const auto* result_content = json::member(block, "content");
            const std::string text = result_content ? text_of(*result_content) : std::string();
            const auto* is_error = json::member(block, "is_error");
            if (text.find(kSubagentRefusal) != std::string::npos) continue;  // not asked
            if (text.rfind("Questions pending.", 0) == 0) {
                e.outcome = "pending";
                const auto saved = text.find("Questions saved to: ");
                e.pending_file = saved == std::string::npos
                                     ? std::string(".askhost/pending-questions.json")
                                     : text.substr(saved + 20, text.find('\n', saved) - saved - 20);
            } else if (is_error && is_error->IsBool() && is_error->GetBool()) {
                e.outcome = "cancelled";
            } else {
                const auto answers = answers_in(json::member(entry, "toolUseResult"), text, e.questions);
                for (const auto& q : e.questions)
                    if (auto a = answers.find(q.question); a != answers.end())
                        e.answers.push_back(answer_of(q, a->second));
                if (e.answers.empty()) continue;
                e.outcome = "answered";
            }
            out.push_back(std::move(e));
        }
    }
    return out;
}

std::string compaction_instructions(const std::vector<store::Exchange>& exchanges) {
    const std::string prose = store::summary_text(exchanges);
    if (prose.empty()) return {};
    return "Keep in the summary what the user decided when asked, as it stands here (these are the user's own "
           "answers; later work should follow them): " +
           prose;
}

int run_precompact(const rapidjson::Value& input) {
    const std::string path = json::string_of(input, "transcript_path");
    if (path.empty()) return 0;
    auto text = store::read_whole(path);
    if (text.status != store::FileText::Status::Ok) return 0;
    std::string_view jsonl = text.data;
    if (jsonl.size() > kMaxTranscript) {
        jsonl.remove_prefix(jsonl.size() - kMaxTranscript);
        jsonl.remove_prefix(std::min(jsonl.size(), jsonl.find('\n') + 1));
    }
    const std::string out = compaction_instructions(exchanges_in_transcript(jsonl));
    if (!out.empty()) write_all(1, out + "\n");
    return 0;
}

}  // namespace askhost::claude
