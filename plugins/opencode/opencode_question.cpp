// The pure half of `askhost opencode ask`: the plugin's request read, the reply for an outcome.
#include "opencode_question.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "json/json_access.hpp"

namespace askhost::opencode {

namespace {

// OpenCode's question (header up to 30 characters, options required, `custom` allowing a typed
// answer, on unless false): askhost's lenient profile holds every one OpenCode accepts. Its
// "Other" is always offered; OpenCode takes a typed answer from the reply as it comes.
bool read_question(const rapidjson::Value& q, std::size_t i, Question& out, std::string& why) {
    const std::string at = "questions[" + std::to_string(i) + "]";
    if (!json::is_object(q)) {
        why = at + " is not an object";
        return false;
    }
    out.question = json::string_of(q, "question");
    out.header = json::string_of(q, "header");
    if (const auto* m = json::member(q, "multiple"); m && m->IsBool()) out.multi_select = m->GetBool();
    if (const auto* opts = json::member(q, "options"); opts && opts->IsArray()) {
        for (const auto& o : opts->GetArray()) {
            if (!json::is_object(o)) {
                why = at + ".options has an entry that is not an object";
                return false;
            }
            out.options.push_back({json::string_of(o, "label"), json::string_of(o, "description"), std::nullopt});
        }
    }
    return true;
}

}  // namespace

QuestionRequest read_question_request(const rapidjson::Value& request) {
    QuestionRequest r;
    if (!json::is_object(request)) {
        r.why = "the request is not a JSON object";
        return r;
    }
    r.id = json::string_of(request, "id");
    r.session = json::string_of(request, "sessionID");
    const auto* qs = json::member(request, "questions");
    if (r.id.empty() || !qs || !qs->IsArray() || qs->Empty()) {
        r.why = "the request has no id or no questions";
        return r;
    }
    if (qs->Size() > Limits::max_questions) {
        r.why = std::to_string(qs->Size()) + " questions, at most " + std::to_string(Limits::max_questions);
        return r;
    }
    std::size_t i = 0;
    for (const auto& q : qs->GetArray()) {
        Question question;
        if (!read_question(q, i++, question, r.why)) return r;
        r.ask.questions.push_back(std::move(question));
    }
    if (auto refusal = validate_questions(r.ask.questions, Profile::Lenient)) {
        r.why = refusal->message;
        r.ask.questions.clear();
        return r;
    }
    r.ask.agent = "opencode";
    r.ask.route = "plugin";
    r.ask.profile = Profile::Lenient;
    r.ask.cwd = json::string_of(request, "directory");
    r.ours = true;
    return r;
}

std::string question_reply(const QuestionRequest& request, const Outcome& outcome) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    switch (outcome.kind) {
        case OutcomeKind::Answered: {
            w.StartObject();
            w.Key("answers");
            w.StartArray();
            // In the order of OpenCode's questions, each found by its text (texts are unique); one
            // not answered (an empty multi-select) gets [].
            for (const auto& q : request.ask.questions) {
                const Answer* found = nullptr;
                for (const auto& a : outcome.answers)
                    if (a.question == q.question) found = &a;
                w.StartArray();
                if (found)
                    for (const auto& v : found->values) w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
                w.EndArray();
            }
            w.EndArray();
            w.EndObject();
            break;
        }
        case OutcomeKind::Cancelled:
            w.StartObject();
            w.Key("reject");
            w.Bool(true);
            w.EndObject();
            break;
        default: return {};
    }
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

}  // namespace askhost::opencode
