// Claude Code's stream-json messages as askhost uses them (docs/claude.md): what it reads of
// Claude's, with from_json, and what it writes, with to_json. ClaudeAdapter dispatches on them
// through a MessageTable. Everything is read leniently, as a real CLI's protocol must be: a missing
// or wrongly typed field reads as absent, and unknown fields are ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "json/json_codec.hpp"

namespace askhost::claude {

// Both ways: Claude's requests and askhost's, and the answers to them.
inline constexpr std::string_view kControlRequest = "control_request";
inline constexpr std::string_view kControlResponse = "control_response";

// ---- what askhost reads ---------------------------------------------------------------------

// What any message says of itself: enough to answer one too deep to read further, and all of
// control_cancel_request (Claude no longer wants request_id answered).
struct Envelope {
    std::string type, request_id;
};
json::FieldStatus from_json(const rapidjson::Value& v, Envelope& out, const json::Path& at);

// A control request's `request`: can_use_tool, or another subtype askhost does not handle.
struct ToolRequest {
    std::string subtype, tool_name;
    std::string agent_id;  // a sub-agent's call (Claude Code 2.1)
    json::Borrowed input;
    // The tool's input, or {} when there is none.
    const rapidjson::Value& input_or_empty() const;
};
json::FieldStatus from_json(const rapidjson::Value& v, ToolRequest& out, const json::Path& at);

struct ControlRequest {
    std::string request_id;
    std::optional<ToolRequest> request;  // no object: the message is ignored
};
json::FieldStatus from_json(const rapidjson::Value& v, ControlRequest& out, const json::Path& at);

// Claude's answer to askhost's own requests: only an error is worth a word.
struct ControlResponse {
    struct Body {
        std::string subtype, error;
    } response;
};
json::FieldStatus from_json(const rapidjson::Value& v, ControlResponse& out, const json::Path& at);

// A tool_result's content: a string, or blocks whose text is joined.
struct ResultText {
    std::string text;
};
json::FieldStatus from_json(const rapidjson::Value& v, ResultText& out, const json::Path& at);

// One block of a message's content; a block that is no object reads as one of no type.
struct ContentBlock {
    std::string type;
    std::string text;       // text
    std::string name;       // tool_use
    json::Borrowed input;   // tool_use
    ResultText content;     // tool_result
    bool is_error = false;  // tool_result
};
json::FieldStatus from_json(const rapidjson::Value& v, ContentBlock& out, const json::Path& at);

// assistant and user: one message of the conversation.
struct MessageBody {
    std::vector<ContentBlock> content;
};
json::FieldStatus from_json(const rapidjson::Value& v, MessageBody& out, const json::Path& at);
struct ConversationMessage {
    MessageBody message;
};
json::FieldStatus from_json(const rapidjson::Value& v, ConversationMessage& out, const json::Path& at);

// The end of a turn.
struct Result {
    std::string subtype, result;
    bool is_error = false;
};
json::FieldStatus from_json(const rapidjson::Value& v, Result& out, const json::Path& at);

// init (the session and model), api_retry (attempt and error), and others not shown.
struct System {
    std::string subtype, session_id, model, error;
    std::optional<std::int64_t> attempt;
};
json::FieldStatus from_json(const rapidjson::Value& v, System& out, const json::Path& at);

// ---- what askhost writes --------------------------------------------------------------------

// A prompt: the next user message.
struct UserMessage {
    std::string_view text;
};
void to_json(const UserMessage& m, json::Writer& w);

// askhost's own control requests: initialize (no hooks of askhost's), interrupt.
struct Initialize {
    std::string_view request_id;
};
struct Interrupt {
    std::string_view request_id;
};
void to_json(const Initialize& r, json::Writer& w);
void to_json(const Interrupt& r, json::Writer& w);

// can_use_tool's answers: allow with the tool's input (JSON text, numbers as Claude wrote them),
// or deny with the message the model reads.
struct Allow {
    std::string_view request_id, updated_input_json;
};
struct Deny {
    std::string_view request_id, message;
};
void to_json(const Allow& a, json::Writer& w);
void to_json(const Deny& d, json::Writer& w);

// A control request askhost does not handle, said so that Claude does not wait.
struct ControlError {
    std::string_view request_id, error;
};
void to_json(const ControlError& e, json::Writer& w);

// ---- what `askhost hook` prints -------------------------------------------------------------

// Allow the tool for the rest of Claude's session, as its own "don't ask again" does.
struct AllowAlways {
    std::string_view tool;
};
// hookSpecificOutput for a PreToolUse or PermissionRequest hook: the decision is can_use_tool's
// answer without its envelope (request_id unused; an Allow without updated input allows as asked).
struct HookOutput {
    std::string_view event;
    std::variant<Allow, Deny, AllowAlways> decision;
};
void to_json(const HookOutput& h, json::Writer& w);

}  // namespace askhost::claude
