#include "own_questions.hpp"

#include <cstdlib>
#include <functional>

#include <unistd.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "json/json_access.hpp"

namespace askhost::mcp {

namespace {

constexpr const char* kGeminiTool = "ask_user";
constexpr const char* kCodexTool = "request_user_input";

std::string directory_of(const rapidjson::Value& hook) {
    std::string dir = json::string_of(hook, "cwd");
    if (dir.empty()) {
        char buf[4096];
        if (::getcwd(buf, sizeof buf)) dir = buf;
    }
    return dir;
}

bool flag_of(const rapidjson::Value& obj, const char* key) {
    const auto* v = json::member(obj, key);
    return v && v->IsBool() && v->GetBool();
}

const rapidjson::Value* questions_of(const rapidjson::Value& hook) {
    const auto* input = json::member(hook, "tool_input");
    if (!input || !input->IsObject()) return nullptr;
    const auto* qs = json::member(*input, "questions");
    return qs && qs->IsArray() ? qs : nullptr;
}

std::vector<Option> options_of(const rapidjson::Value& q) {
    std::vector<Option> out;
    const auto* opts = json::member(q, "options");
    if (!opts || !opts->IsArray()) return out;
    for (const auto& o : opts->GetArray()) {
        if (o.IsString()) {
            out.push_back({std::string(json::str(o)), {}, {}});
            continue;
        }
        out.push_back({json::string_of(o, "label"), json::string_of(o, "description"), {}});
    }
    return out;
}

// The questions read, checked by the lenient profile: a refusal leaves the call to the agent.
void finish(OwnRequest& r, const rapidjson::Value& hook, const char* agent) {
    if (auto refusal = validate_questions(r.ask.questions, Profile::Lenient)) {
        r.why = std::string("left to ") + (r.tool == OwnTool::GeminiAskUser ? "Gemini CLI" : "Codex") + ": " +
                refusal->message;
        r.ask.questions.clear();
        return;
    }
    r.ask.agent = agent;
    r.ask.route = "hook";
    r.ask.profile = Profile::Lenient;
    r.ask.cwd = directory_of(hook);
    r.kind = OwnRequest::Kind::Question;
}

void quoted(std::string& out, std::string_view s) {
    out += '"';
    out += s;
    out += '"';
}

std::string write_json(const std::function<void(rapidjson::Writer<rapidjson::StringBuffer>&)>& fill) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    fill(w);
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

void string_value(rapidjson::Writer<rapidjson::StringBuffer>& w, std::string_view s) {
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

// The blocked call whose reason the model reads, in each agent's shape.
std::string blocked(OwnTool tool, std::string_view reason) {
    if (tool == OwnTool::GeminiAskUser)
        return write_json([&](auto& w) {
            w.StartObject();
            w.Key("decision");
            w.String("deny");
            w.Key("reason");
            string_value(w, reason);
            w.EndObject();
        });
    return write_json([&](auto& w) {
        w.StartObject();
        w.Key("hookSpecificOutput");
        w.StartObject();
        w.Key("hookEventName");
        w.String("PreToolUse");
        w.Key("permissionDecision");
        w.String("deny");
        w.Key("permissionDecisionReason");
        string_value(w, reason);
        w.EndObject();
        w.EndObject();
    });
}

}  // namespace

OwnRequest read_gemini_request(const rapidjson::Value& hook) {
    OwnRequest r;
    r.tool = OwnTool::GeminiAskUser;
    if (json::string_of(hook, "hook_event_name") != "BeforeTool" || json::string_of(hook, "tool_name") != kGeminiTool)
        return r;
    const auto* qs = questions_of(hook);
    if (!qs) {
        r.why = "an ask_user call without questions: left to Gemini CLI";
        return r;
    }
    for (const auto& q : qs->GetArray()) {
        Question out;
        const std::string text = json::string_of(q, "question");
        out.question = text;
        out.header = json::string_of(q, "header");
        const std::string type = json::string_of(q, "type");
        if (type == "yesno") {
            out.options = {{"Yes", {}, {}}, {"No", {}, {}}};
        } else if (type != "text") {
            out.options = options_of(q);
            out.multi_select = flag_of(q, "multiSelect");
        }
        // A free-text question's placeholder: shown as a hint under the question.
        if (const std::string hint = json::string_of(q, "placeholder"); !hint.empty() && out.options.empty())
            out.question += "\n(for example: " + hint + ")";
        r.texts.push_back(text);
        r.keys.push_back(std::to_string(r.keys.size()));
        r.ask.questions.push_back(std::move(out));
    }
    finish(r, hook, "gemini");
    return r;
}

OwnRequest read_codex_request(const rapidjson::Value& hook) {
    OwnRequest r;
    r.tool = OwnTool::CodexRequestUserInput;
    if (json::string_of(hook, "hook_event_name") != "PreToolUse" || json::string_of(hook, "tool_name") != kCodexTool)
        return r;
    // A sub-agent's call carries its agent_id: REQ-AUQ-005, it may not ask (docs/subagents.md).
    if (!json::string_of(hook, "agent_id").empty()) {
        r.kind = OwnRequest::Kind::Reply;
        r.reply = blocked(r.tool, kSubagentRefusal);
        return r;
    }
    const auto* qs = questions_of(hook);
    if (!qs) {
        r.why = "a request_user_input call without questions: left to Codex";
        return r;
    }
    for (const auto& q : qs->GetArray()) {
        // A secret is typed where nobody else sees it, and askhost's faces and journal would: Codex asks.
        if (flag_of(q, "isSecret")) {
            r.why = "a secret question: left to Codex's own dialog";
            r.ask.questions.clear();
            return r;
        }
        Question out;
        out.question = json::string_of(q, "question");
        out.header = json::string_of(q, "header");
        out.options = options_of(q);
        out.multi_select = flag_of(q, "multiSelect");
        r.texts.push_back(out.question);
        std::string id = json::string_of(q, "id");
        r.keys.push_back(id.empty() ? std::to_string(r.keys.size()) : id);
        r.ask.questions.push_back(std::move(out));
    }
    finish(r, hook, "codex");
    return r;
}

std::string answered_words(const OwnRequest& request, const std::vector<Answer>& answers) {
    std::string out =
        "The user answered your questions (in askhost, so the tool shows no result of its own; this is the user's "
        "answer, not an error):";
    for (std::size_t i = 0; i < request.ask.questions.size(); ++i) {
        const std::string& shown = request.ask.questions[i].question;
        const Answer* a = nullptr;
        for (const auto& candidate : answers)
            if (candidate.question == shown) a = &candidate;
        out += i == 0 ? " " : ", ";
        if (request.tool == OwnTool::CodexRequestUserInput) out += "[" + request.keys[i] + "] ";
        quoted(out, i < request.texts.size() ? request.texts[i] : shown);
        out += '=';
        if (!a || a->values.empty()) {
            out += "(no answer)";
            continue;
        }
        std::string joined;
        for (const auto& v : a->values) joined += (joined.empty() ? "" : ", ") + v;
        quoted(out, joined);
        if (!a->notes.empty()) out += " (user's notes: " + a->notes + ")";
    }
    out += ". Continue with these answers in mind; do not ask them again.";
    return out;
}

std::string own_reply(const OwnRequest& request, const Outcome& outcome) {
    if (request.kind == OwnRequest::Kind::Reply) return request.reply;
    if (request.kind != OwnRequest::Kind::Question) return {};
    switch (outcome.kind) {
        case OutcomeKind::Answered: return blocked(request.tool, answered_words(request, outcome.answers));
        // The person said no in askhost: a decline the model reads, never an empty answer.
        case OutcomeKind::Cancelled: return blocked(request.tool, declined_text(outcome.reason));
        default: return {};  // timed out, gone, pending, refused: the agent asks in its own dialog
    }
}

}  // namespace askhost::mcp
