// askhost mcp with no host, for a client that declared elicitation: the questions as the
// client's own form (elicitation/create, form mode), and its result back as an outcome.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "json/json_access.hpp"
#include "mcp_server.hpp"

namespace askhost::mcp {

namespace {

// The choice that stands for "Other": the typed answer is in the question's text field.
constexpr std::string_view kOther = "Other (type below)";

std::string field(std::size_t i) { return "q" + std::to_string(i + 1); }

void str(JsonWriter& w, const char* key, std::string_view v) {
    w.Key(key);
    w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
}

}  // namespace

std::string elicitation_params(const Ask& ask) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    std::string message = (ask.agent.empty() ? std::string("The agent") : ask.agent) +
                          (ask.questions.size() == 1 ? " asks a question"
                                                     : " asks " + std::to_string(ask.questions.size()) + " questions") +
                          ". Pick an option, or type your own answer in the Other field.";
    str(w, "message", message);
    w.Key("requestedSchema");
    w.StartObject();
    str(w, "type", "object");
    w.Key("properties");
    w.StartObject();
    for (std::size_t i = 0; i < ask.questions.size(); ++i) {
        const Question& q = ask.questions[i];
        const std::string title = q.header.empty() ? "Question " + std::to_string(i + 1) : q.header;
        if (!q.options.empty()) {
            w.Key(field(i).c_str());
            w.StartObject();
            str(w, "title", title);
            str(w, "description", q.question);
            if (q.multi_select) {
                str(w, "type", "array");
                w.Key("items");
                w.StartObject();
                str(w, "type", "string");
                w.Key("enum");
                w.StartArray();
                for (const auto& o : q.options)
                    w.String(o.label.data(), static_cast<rapidjson::SizeType>(o.label.size()));
                w.EndArray();
                w.EndObject();
            } else {
                str(w, "type", "string");
                w.Key("oneOf");
                w.StartArray();
                for (const auto& o : q.options) {
                    w.StartObject();
                    str(w, "const", o.label);
                    str(w, "title", o.description.empty() ? o.label : o.label + ": " + o.description);
                    w.EndObject();
                }
                w.StartObject();
                str(w, "const", kOther);
                str(w, "title", kOther);
                w.EndObject();
                w.EndArray();
            }
            w.EndObject();
        }
        w.Key((field(i) + "_other").c_str());
        w.StartObject();
        str(w, "type", "string");
        str(w, "title", q.options.empty() ? title : title + ": Other");
        str(w, "description", q.options.empty() ? q.question : "Your own answer instead of the choices: " + q.question);
        w.EndObject();
    }
    w.EndObject();
    w.EndObject();
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize());
}

Outcome outcome_from_elicitation(const ElicitResult& result, const Ask& ask) {
    if (result.action == "decline") return Outcome::cancelled("declined in the client's form");
    if (result.action != "accept") return Outcome::cancelled("cancelled in the client's form");
    const rapidjson::Value* content = result.content.value;
    if (!content || !content->IsObject()) return Outcome::cancelled("the client's form returned no answers");
    std::vector<Answer> answers;
    for (std::size_t i = 0; i < ask.questions.size(); ++i) {
        const Question& q = ask.questions[i];
        std::string other = json::string_of(*content, (field(i) + "_other").c_str());
        const rapidjson::Value* choice = json::member(*content, field(i).c_str());
        Answer a;
        a.question = q.question;
        auto is_label = [&](std::string_view v) {
            for (const auto& o : q.options)
                if (o.label == v) return true;
            return false;
        };
        if (q.multi_select) {
            a.multi = true;
            if (choice && choice->IsArray())
                for (const auto& v : choice->GetArray())
                    if (v.IsString() && is_label(json::str(v))) a.values.emplace_back(json::str(v));
            if (!other.empty()) {
                a.values.push_back(other);
                a.was_custom = true;
            }
        } else if (!other.empty()) {
            a.values = {other};
            a.was_custom = true;
        } else if (choice && choice->IsString() && is_label(json::str(*choice))) {
            a.values = {std::string(json::str(*choice))};
            a.selected_option = a.values.front();
        }
        if (a.values.empty()) return Outcome::cancelled("the client's form left \"" + q.question + "\" unanswered");
        answers.push_back(std::move(a));
    }
    return Outcome::answered(std::move(answers));
}

}  // namespace askhost::mcp
