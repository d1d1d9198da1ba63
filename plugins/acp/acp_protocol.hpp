// The Agent Client Protocol's messages as askhost uses them (docs/acp.md): what it sends the agent
// and what it reads of the agent's, read with from_json and written with to_json. AcpAdapter binds
// them to its handlers. What the adapter only shows (titles, updates) reads leniently: a missing or
// wrongly typed field reads as absent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json_codec.hpp"
#include "transport/rpc_binder.hpp"

namespace askhost::acp {

inline constexpr int kProtocolVersion = 1;

// A content block as far as askhost reads it: its type, and the text of a "text" block.
struct ContentBlock {
    std::string type, text;
};
json::FieldStatus from_json(const rapidjson::Value& v, ContentBlock& out, const json::Path& at);
void to_json(const ContentBlock& c, json::Writer& w);

// ---- what askhost sends ---------------------------------------------------------------------

struct ClientCapabilities {
    bool read_text_file = true;
    bool write_text_file = true;
    bool terminal = false;
    bool form_elicitation = true;  // claude-agent-acp offers its AskUserQuestion tool only with it
};
struct ClientInfo {
    std::string name, version;
};
struct InitializeParams {
    int protocol_version = kProtocolVersion;
    ClientCapabilities client_capabilities;
    ClientInfo client_info;
};
void to_json(const InitializeParams& p, json::Writer& w);

// session/new: no MCP servers of askhost's own.
struct NewSessionParams {
    std::string cwd;
};
void to_json(const NewSessionParams& p, json::Writer& w);

struct PromptParams {
    std::string session_id;
    std::vector<ContentBlock> prompt;
};
void to_json(const PromptParams& p, json::Writer& w);

// session/cancel (a notification).
struct CancelNotification {
    std::string session_id;
};
void to_json(const CancelNotification& p, json::Writer& w);

// session/request_permission's result: the option chosen, or none (cancelled).
struct PermissionOutcome {
    std::optional<std::string> option_id;
};
void to_json(const PermissionOutcome& o, json::Writer& w);

struct ReadTextFileResult {
    std::string content;
};
void to_json(const ReadTextFileResult& r, json::Writer& w);

// ---- what askhost reads ---------------------------------------------------------------------

struct InitializeResult {
    std::optional<std::int64_t> protocol_version;
};
json::FieldStatus from_json(const rapidjson::Value& v, InitializeResult& out, const json::Path& at);

// A sessionId is required, and not empty.
struct NewSessionResult {
    std::string session_id;
};
json::FieldStatus from_json(const rapidjson::Value& v, NewSessionResult& out, const json::Path& at);

struct PromptResult {
    std::string stop_reason;
};
json::FieldStatus from_json(const rapidjson::Value& v, PromptResult& out, const json::Path& at);

struct ToolCallLocation {
    std::string path;
};
json::FieldStatus from_json(const rapidjson::Value& v, ToolCallLocation& out, const json::Path& at);

// One item of a tool call's content: its inner content block when it has one ("content"), or a
// file edit ("diff": the file's path and its new text, Gemini CLI's way of saying what an edit
// writes when it sends no rawInput).
struct ToolCallContent {
    std::string type;
    ContentBlock content;
    std::string path, new_text;
};
json::FieldStatus from_json(const rapidjson::Value& v, ToolCallContent& out, const json::Path& at);

// A tool call as session/update (tool_call, tool_call_update) and session/request_permission
// give it; every field is optional.
struct ToolCallUpdate {
    std::string tool_call_id, title, kind, status;
    std::string name;              // some agents name the tool
    std::string claude_tool_name;  // _meta.claudeCode.toolName (claude-agent-acp)
    json::Borrowed raw_input;
    std::vector<ToolCallLocation> locations;
    std::vector<ToolCallContent> content;
};
json::FieldStatus from_json(const rapidjson::Value& v, ToolCallUpdate& out, const json::Path& at);

struct PermissionOption {
    std::string option_id;  // required, not empty
    std::string name, kind;
};
json::FieldStatus from_json(const rapidjson::Value& v, PermissionOption& out, const json::Path& at);

// toolCall must be an object, options a non-empty array.
struct RequestPermissionParams {
    ToolCallUpdate tool_call;
    std::vector<PermissionOption> options;
};
json::FieldStatus from_json(const rapidjson::Value& v, RequestPermissionParams& out, const json::Path& at);

// A count of lines (line, limit): a non-negative integer, else absent.
struct Count {
    std::size_t value = 0;
};
json::FieldStatus from_json(const rapidjson::Value& v, Count& out, const json::Path& at);

struct ReadTextFileParams {
    std::string path;
    std::optional<Count> line, limit;
};
json::FieldStatus from_json(const rapidjson::Value& v, ReadTextFileParams& out, const json::Path& at);

struct WriteTextFileParams {
    std::string path;
    std::string_view content;  // borrowed from the message
};
json::FieldStatus from_json(const rapidjson::Value& v, WriteTextFileParams& out, const json::Path& at);

struct PlanEntry {
    std::string content, status;
};
json::FieldStatus from_json(const rapidjson::Value& v, PlanEntry& out, const json::Path& at);

// One session/update: sessionUpdate names the kind, and the fields of each kind share the object.
struct SessionUpdate {
    std::string kind;
    ContentBlock message;                           // agent_message_chunk's content
    ToolCallUpdate tool;                            // tool_call, tool_call_update
    std::optional<std::vector<PlanEntry>> entries;  // plan
};
json::FieldStatus from_json(const rapidjson::Value& v, SessionUpdate& out, const json::Path& at);

struct SessionNotification {
    SessionUpdate update;  // an object, else the notification is dropped
};
json::FieldStatus from_json(const rapidjson::Value& v, SessionNotification& out, const json::Path& at);

// $/cancel_request: the agent no longer wants its request answered.
struct CancelRequestParams {
    RequestId request_id;
};
json::FieldStatus from_json(const rapidjson::Value& v, CancelRequestParams& out, const json::Path& at);

}  // namespace askhost::acp
