#include "question_record.hpp"

#include <map>

#include "json/json_access.hpp"

namespace askhost {

namespace {

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
std::map<std::string, std::string> answers_in(const rapidjson::Value* structured, std::string_view text,
                                              const std::vector<Question>& qs) {
    std::map<std::string, std::string> out;
    const rapidjson::Value* answers = nullptr;
    // Claude Code keeps an MCP tool's structuredContent as JSON text (toolUseResult and content);
    // Codex hands the model the structuredContent as JSON text.
    rapidjson::Document parsed;
    const std::string_view as_text = structured && structured->IsString() ? json::str(*structured) : text;
    if ((!structured || !structured->IsObject()) && !as_text.empty() && as_text.front() == '{' &&
        !json::parse(parsed, as_text) && parsed.IsObject())
        structured = &parsed;
    if (structured && structured->IsObject()) {
        answers = json::member(*structured, "answers");
        if (!answers || !answers->IsObject())
            if (const auto* sc = json::member(*structured, "structuredContent")) answers = json::member(*sc, "answers");
    }
    if (answers && answers->IsObject()) {
        for (auto m = answers->MemberBegin(); m != answers->MemberEnd(); ++m)
            if (m->value.IsString()) out[std::string(json::str(m->name))] = std::string(json::str(m->value));
        return out;
    }
    for (std::size_t i = 0; i < qs.size(); ++i) {
        const std::string key = "\"" + qs[i].question + "\"=\"";
        const auto at = text.find(key);
        if (at == std::string_view::npos) continue;
        const auto start = at + key.size();
        auto end = std::string_view::npos;
        if (i + 1 < qs.size()) end = text.find("\", \"" + qs[i + 1].question + "\"=\"", start);
        if (end == std::string_view::npos) end = text.find("\".", start);
        if (end != std::string_view::npos) out[qs[i].question] = std::string(text.substr(start, end - start));
    }
    return out;
}

}  // namespace

std::vector<Question> questions_of_call(const rapidjson::Value& input) {
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

RecordedResult read_result(const std::vector<Question>& questions, const rapidjson::Value* structured,
                           std::string_view text, bool is_error) {
    RecordedResult r;
    if (text.find(kSubagentRefusal) != std::string_view::npos) {
        r.kind = RecordedResult::Kind::Refused;
        return r;
    }
    if (text.substr(0, 18) == "Questions pending.") {
        r.kind = RecordedResult::Kind::Pending;
        constexpr std::string_view saved = "Questions saved to: ";
        const auto at = text.find(saved);
        r.pending_file = at == std::string_view::npos
                             ? std::string(".askhost/pending-questions.json")
                             : std::string(text.substr(at + saved.size(), text.find('\n', at) - at - saved.size()));
        return r;
    }
    if (is_error) {
        r.kind = RecordedResult::Kind::Cancelled;
        return r;
    }
    const auto answers = answers_in(structured, text, questions);
    for (const auto& q : questions)
        if (auto a = answers.find(q.question); a != answers.end()) r.answers.push_back(answer_of(q, a->second));
    if (!r.answers.empty()) r.kind = RecordedResult::Kind::Answered;
    return r;
}

std::string_view summary_outcome(RecordedResult::Kind kind) {
    switch (kind) {
        case RecordedResult::Kind::Answered: return "answered";
        case RecordedResult::Kind::Pending: return "pending";
        case RecordedResult::Kind::Cancelled: return "cancelled";
        case RecordedResult::Kind::Refused:
        case RecordedResult::Kind::Unreadable: break;
    }
    return {};
}

}  // namespace askhost
