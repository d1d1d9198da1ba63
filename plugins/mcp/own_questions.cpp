#include "own_questions.hpp"

#include <cstdlib>
#include <functional>
#include <map>

#include <unistd.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "json/json_access.hpp"

namespace askhost::mcp {

namespace {

constexpr const char* kGeminiTool = "ask_user";
constexpr const char* kCodexTool = "request_user_input";
// answered_words' frame: the list of answers stands between the two.
constexpr std::string_view kAnsweredHead =
    "The user answered your questions (in askhost, so the tool shows no result of its own; this is the user's "
    "answer, not an error):";
constexpr std::string_view kAnsweredTail = ". Continue with these answers in mind; do not ask them again.";
constexpr std::string_view kNotes = "\" (user's notes: ";

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

// How answered_words names an answer's key: Codex's ids ("[database] "), Gemini's not at all.
std::string key_prefix(OwnTool tool, const std::string& key) {
    return tool == OwnTool::CodexRequestUserInput ? "[" + key + "] " : std::string();
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
    std::string out(kAnsweredHead);
    for (std::size_t i = 0; i < request.ask.questions.size(); ++i) {
        const std::string& shown = request.ask.questions[i].question;
        const Answer* a = nullptr;
        for (const auto& candidate : answers)
            if (candidate.question == shown) a = &candidate;
        out += i == 0 ? " " : ", ";
        out += key_prefix(request.tool, request.keys[i]);
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
    out += kAnsweredTail;
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

OwnCall own_call_of(OwnTool tool, const rapidjson::Value& arguments) {
    OwnCall call;
    call.tool = tool;
    const auto* qs = json::member(arguments, "questions");
    if (!qs || !qs->IsArray()) return call;
    for (const auto& q : qs->GetArray()) {
        if (flag_of(q, "isSecret")) return OwnCall{tool, {}, {}};  // never askhost's to tell
        Question out;
        out.question = json::string_of(q, "question");
        if (out.question.empty()) continue;
        out.header = json::string_of(q, "header");
        const std::string type = json::string_of(q, "type");
        if (tool == OwnTool::GeminiAskUser && type == "yesno") {
            out.options = {{"Yes", {}, {}}, {"No", {}, {}}};
        } else if (type != "text") {
            out.options = options_of(q);
            out.multi_select = flag_of(q, "multiSelect");
        }
        const std::string id = json::string_of(q, "id");
        const std::string index = std::to_string(&q - qs->GetArray().Begin());
        call.keys.push_back(tool == OwnTool::CodexRequestUserInput && !id.empty() ? id : index);
        call.questions.push_back(std::move(out));
    }
    return call;
}

namespace {

// The answers in answered_words' list, by question text; a question it has no answer for is left out.
std::map<std::string, std::string> askhosts_answers(const OwnCall& call, std::string_view list) {
    std::map<std::string, std::string> out;
    std::size_t pos = 0;
    auto marker = [&](std::size_t i) {
        std::string m = i == 0 ? " " : ", ";
        m += key_prefix(call.tool, call.keys[i]);
        quoted(m, call.questions[i].question);
        return m + "=";
    };
    for (std::size_t i = 0; i < call.questions.size(); ++i) {
        const std::string here = marker(i);
        if (list.compare(pos, here.size(), here) != 0) break;  // not in the order asked: unreadable from here
        pos += here.size();
        std::size_t end = i + 1 < call.questions.size() ? list.find(marker(i + 1), pos) : list.size();
        if (end == std::string_view::npos) end = list.size();
        std::string_view chunk = list.substr(pos, end - pos);
        pos = end;
        if (chunk.size() < 2 || chunk.front() != '"') continue;  // (no answer)
        if (chunk.back() == ')')
            if (auto notes = chunk.find(kNotes); notes != std::string_view::npos) chunk = chunk.substr(0, notes + 1);
        if (chunk.back() != '"') continue;
        out[call.questions[i].question] = std::string(chunk.substr(1, chunk.size() - 2));
    }
    return out;
}

// The answers of the agent's own result ({"answers": {KEY: "a" | ["a", "b"] | {"answers": [...]}}}),
// by question text.
std::map<std::string, std::string> own_dialogs_answers(const OwnCall& call, std::string_view text) {
    std::map<std::string, std::string> out;
    const auto open = text.find('{');
    const auto close = text.rfind('}');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return out;
    rapidjson::Document doc;
    if (json::parse(doc, text.substr(open, close - open + 1)) || !doc.IsObject()) return out;
    const auto* answers = json::member(doc, "answers");
    if (!answers || !answers->IsObject()) return out;
    auto joined = [](const rapidjson::Value& v) {
        if (v.IsString()) return std::string(json::str(v));
        std::string all;
        if (v.IsArray())
            for (const auto& part : v.GetArray())
                if (part.IsString()) all += (all.empty() ? "" : ", ") + std::string(json::str(part));
        return all;
    };
    for (std::size_t i = 0; i < call.questions.size(); ++i) {
        const auto* a = json::member(*answers, call.keys[i].c_str());
        if (!a) continue;
        std::string value;
        if (a->IsObject()) {
            if (const auto* inner = json::member(*a, "answers")) value = joined(*inner);
        } else {
            value = joined(*a);
        }
        if (!value.empty()) out[call.questions[i].question] = value;
    }
    return out;
}

}  // namespace

RecordedResult read_own_result(const OwnCall& call, std::string_view text, bool is_error) {
    std::map<std::string, std::string> answers;
    if (const auto at = text.find(kAnsweredHead); at != std::string_view::npos) {
        std::string_view list = text.substr(at + kAnsweredHead.size());
        if (const auto end = list.rfind(kAnsweredTail); end != std::string_view::npos) list = list.substr(0, end);
        answers = askhosts_answers(call, list);
    } else if (text.find(kSubagentRefusal) != std::string_view::npos) {
        return read_result(call.questions, nullptr, text, is_error);  // refused: nothing was asked
    } else if (text.find(declined_text()) != std::string_view::npos || is_error ||
               text.find("User dismissed ask_user dialog") != std::string_view::npos) {
        return {.kind = RecordedResult::Kind::Cancelled};
    } else {
        answers = own_dialogs_answers(call, text);
    }
    // In the reference's structured shape, so that each answer is read as any recorded one is.
    rapidjson::Document structured(rapidjson::kObjectType);
    auto& alloc = structured.GetAllocator();
    rapidjson::Value by_text(rapidjson::kObjectType);
    for (const auto& [question, value] : answers)
        by_text.AddMember(rapidjson::Value(question.c_str(), alloc), rapidjson::Value(value.c_str(), alloc), alloc);
    structured.AddMember("answers", by_text, alloc);
    return read_result(call.questions, &structured, "", false);
}

}  // namespace askhost::mcp
