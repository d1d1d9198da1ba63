// The pure half of `askhost hook`: the hook input read, and the output for an outcome.
#include "hook_reply.hpp"

#include <cstdlib>
#include <variant>

#include <unistd.h>

#include "claude_protocol.hpp"
#include "claude_tools.hpp"
#include "common/tool_input.hpp"
#include "json/json_access.hpp"
#include "transport/jsonrpc.hpp"

namespace askhost::claude {

namespace {

std::string output(std::string_view event, std::variant<Allow, Deny, AllowAlways> decision) {
    return json::to_text(HookOutput{event, decision}) + "\n";
}

// What the hook prints for the outcome ("" for nothing: Claude's own dialog decides).
std::string answer_for_question(std::string_view event, const std::string& original, const Outcome& o) {
    switch (o.kind) {
        case OutcomeKind::Answered: {
            // Written from json::write's text: numbers keep the literal Claude sent.
            const std::string updated = input_with_answers(original, o.answers);
            return output(event, Allow{{}, updated});
        }
        // The person said no in askhost: a decline the model reads, never an empty answer.
        case OutcomeKind::Cancelled: return output(event, Deny{{}, declined_text(o.reason)});
        default: return {};  // timed out, gone, pending, refused: Claude asks in its own dialog
    }
}

std::string answer_for_permission(const PermissionRequest& req, const Outcome& o) {
    if (o.kind != OutcomeKind::Answered && o.kind != OutcomeKind::Cancelled) return {};
    constexpr std::string_view event = "PermissionRequest";
    PermissionDecision d = decide_permission(req, o);
    if (d.cancelled()) {
        const std::string why = "The user did not allow " + req.tool;
        return output(event, Deny{{}, why});
    }
    if (d.choice->kind == PermissionKind::AllowOnce) return output(event, Allow{});
    // Claude keeps the rule for the rest of its session, as its own "don't ask again" does.
    if (d.choice->kind == PermissionKind::AllowAlways) return output(event, AllowAlways{req.tool});
    const std::string why =
        d.message.empty() ? "The user denied " + req.tool : "The user denied " + req.tool + ": " + d.message;
    return output(event, Deny{{}, why});
}

std::string directory_of(const rapidjson::Value& hook) {
    std::string dir = json::string_of(hook, "cwd");
    if (dir.empty())
        if (const char* p = std::getenv("CLAUDE_PROJECT_DIR")) dir = p;
    if (dir.empty()) {
        char buf[4096];
        if (::getcwd(buf, sizeof buf)) dir = buf;
    }
    return dir;
}

}  // namespace

HookRequest read_hook_request(const rapidjson::Value& hook) {
    HookRequest r;
    r.event = json::string_of(hook, "hook_event_name");
    const std::string tool = json::string_of(hook, "tool_name");
    if (r.event != "PreToolUse" && r.event != "PermissionRequest") return r;  // not ours: no opinion
    // A sub-agent's hook input carries its agent_id: REQ-AUQ-005, it may not ask, through
    // AskUserQuestion or an MCP ask_user_question alike.
    if (r.event == "PreToolUse" && is_question_tool(tool) && !json::string_of(hook, "agent_id").empty()) {
        r.kind = HookRequest::Kind::Reply;
        r.reply = output(r.event, Deny{{}, kSubagentRefusal});
        return r;
    }
    const bool question = tool == kAskTool;
    if (r.event == "PreToolUse" && !question) return r;
    if (tool.empty()) {
        r.why = "a " + r.event + " hook without a tool_name";
        return r;
    }
    static const rapidjson::Value empty(rapidjson::kObjectType);
    const rapidjson::Value* input_v = json::member(hook, "tool_input");
    const rapidjson::Value& input = input_v && json::is_object(*input_v) ? *input_v : empty;
    if (question) {
        auto parsed = tool_ask_input(input, Profile::Strict);
        if (auto* refusal = std::get_if<Refusal>(&parsed)) {
            r.why = "left to Claude: " + refusal->message;
            return r;
        }
        auto in = std::get<AskInput>(std::move(parsed));
        if (!in.preset_answers.empty()) return r;  // already answered: nothing to ask
        r.ask.take_asked(std::move(in));
        r.kind = HookRequest::Kind::Question;
    } else {
        r.permission = tool_permission_request(tool, input);
        r.ask.take_asked(permission_ask(r.permission));
        r.kind = HookRequest::Kind::Permission;
    }
    r.ask.agent = "claude";
    r.ask.route = "hook";
    r.ask.profile = Profile::Strict;
    r.ask.cwd = directory_of(hook);
    r.original = askhost::to_json(input);
    return r;
}

std::string hook_reply(const HookRequest& request, const Outcome& outcome) {
    switch (request.kind) {
        case HookRequest::Kind::Question: return answer_for_question(request.event, request.original, outcome);
        case HookRequest::Kind::Permission: return answer_for_permission(request.permission, outcome);
        case HookRequest::Kind::Reply: return request.reply;
        case HookRequest::Kind::NotOurs: break;
    }
    return {};
}

}  // namespace askhost::claude
