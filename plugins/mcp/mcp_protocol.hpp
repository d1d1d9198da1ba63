// The MCP messages `askhost mcp` reads and writes, as types (docs/mcp.md), each with its
// from_json or to_json. McpServer binds them to its handlers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "json/json_codec.hpp"
#include "transport/rpc_binder.hpp"

namespace askhost::mcp {

// initialize: read leniently, as clients send it (a wrong or missing field reads as absent).
struct InitializeParams {
    std::string protocol_version;
    std::string client_name;  // clientInfo.name, when a non-empty string
    bool elicits = false;     // capabilities.elicitation is there
};
json::FieldStatus from_json(const rapidjson::Value& v, InitializeParams& out, const json::Path& at);
struct InitializeResult {
    std::string protocol_version;  // the one negotiated
};
void to_json(const InitializeResult& r, json::Writer& w);

// server/discover's result (2026-07-28): the versions askhost speaks, newest first, its
// capabilities and who it is; the same for every client, so it may be cached a day.
struct DiscoverResult {
    std::vector<std::string> versions;
    bool tasks = false;  // the tasks extension, where askhost has a folder to keep tasks in
};
void to_json(const DiscoverResult& r, json::Writer& w);

// The result _meta member that says who answers, `"io.modelcontextprotocol/serverInfo":{...}` (no
// braces around it): 2026-07-28 asks a server to name itself in every result.
const std::string& server_info_member();

// The 2026-07-28 era's request _meta, on every request of a client that speaks it (read leniently;
// an empty protocol_version: a request of the 2025 era, whose client sent initialize).
struct RequestMeta {
    std::string protocol_version;  // io.modelcontextprotocol/protocolVersion
    std::string client_name;       // io.modelcontextprotocol/clientInfo's name
    bool elicits = false;          // io.modelcontextprotocol/clientCapabilities has elicitation
    bool tasks = false;            // and the tasks extension (extensions["io.modelcontextprotocol/tasks"])
    bool capabilities = false;     // io.modelcontextprotocol/clientCapabilities is there at all (required)
};
// The request meta from a request's params (anything that is not an object reads as none).
RequestMeta request_meta(const rapidjson::Value& params);

// tools/call's _meta, as far as askhost reads it (leniently).
struct ToolCallMeta {
    // REQ-AUQ-005: Codex 0.169 marks a sub-agent's call in x-codex-turn-metadata (thread_source
    // "subagent", a subagent_kind); Claude Code and Gemini CLI mark nothing here (docs/subagents.md).
    bool from_subagent = false;
    // Claude Code's "claudecode/toolUseId": the model's tool_use id, found again in its transcripts.
    std::string claude_tool_use_id;
    // The progress token (a string or a number) as the client wrote it, integers past 64 bits included.
    std::optional<std::string> progress_token;
};
json::FieldStatus from_json(const rapidjson::Value& v, ToolCallMeta& out, const json::Path& at);

struct CallToolParams {
    std::string name;
    json::Borrowed arguments;  // for parse_ask_input, which names the fields it refuses
    ToolCallMeta meta;
    // A retry after input_required (2026-07-28): the client's answers by input key, and the state
    // askhost gave it, echoed.
    json::Borrowed input_responses;
    std::string request_state;
};
json::FieldStatus from_json(const rapidjson::Value& v, CallToolParams& out, const json::Path& at);

// tasks/get, tasks/update and tasks/cancel (the tasks extension): the task, and for tasks/update
// the client's answers by input key.
struct TaskParams {
    std::string task_id;
    json::Borrowed input_responses;
};
json::FieldStatus from_json(const rapidjson::Value& v, TaskParams& out, const json::Path& at);

// notifications/cancelled.
struct CancelledParams {
    RequestId request_id;
};
json::FieldStatus from_json(const rapidjson::Value& v, CancelledParams& out, const json::Path& at);

// notifications/progress.
struct ProgressParams {
    std::string token_json;
    int progress = 0;
    std::string message;
};
void to_json(const ProgressParams& p, json::Writer& w);

// elicitation/create's result, read leniently: anything but an accept with content is a cancel.
struct ElicitResult {
    std::string action;      // accept, decline, cancel; "" when missing or no string
    json::Borrowed content;  // the form's values by field name, as the client wrote them
};
json::FieldStatus from_json(const rapidjson::Value& v, ElicitResult& out, const json::Path& at);

}  // namespace askhost::mcp
