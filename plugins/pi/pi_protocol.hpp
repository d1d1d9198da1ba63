// pi's RPC mode (`pi --mode rpc`) as askhost uses it (docs/pi.md): the events and dialog requests
// it reads, with from_json, and the commands and dialog answers it writes, with to_json. PiAdapter
// dispatches on them through a MessageTable. Everything is read leniently, as a real CLI's protocol
// must be: a missing or wrongly typed field reads as absent, and unknown fields are ignored.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/json_codec.hpp"

namespace askhost::pi {

// ---- what askhost reads ---------------------------------------------------------------------

// A content block; a block that is no object reads as one of no type.
struct ContentBlock {
    std::string type, text;
};
json::FieldStatus from_json(const rapidjson::Value& v, ContentBlock& out, const json::Path& at);

// A select's options: the strings among them (anything else is skipped).
struct Labels {
    std::vector<std::string> items;
};
json::FieldStatus from_json(const rapidjson::Value& v, Labels& out, const json::Path& at);

// A wait in milliseconds: any number.
struct Millis {
    double value = 0;
};
json::FieldStatus from_json(const rapidjson::Value& v, Millis& out, const json::Path& at);

// An extension dialog (select, input, confirm, editor) or a fire-and-forget request (notify,
// setStatus, ...).
struct UiRequest {
    std::string id, method, title;
    std::string message;      // confirm, notify
    std::string notify_type;  // notify
    std::string prefill;      // editor
    Labels options;           // select
    std::optional<Millis> timeout;
};
json::FieldStatus from_json(const rapidjson::Value& v, UiRequest& out, const json::Path& at);

struct ToolResult {
    std::vector<ContentBlock> content;
};
json::FieldStatus from_json(const rapidjson::Value& v, ToolResult& out, const json::Path& at);

// tool_execution_start (its arguments) and tool_execution_end (its result).
struct ToolExecution {
    std::string tool_call_id, tool_name;
    json::Borrowed args;
    bool is_error = false;
    ToolResult result;
};
json::FieldStatus from_json(const rapidjson::Value& v, ToolExecution& out, const json::Path& at);

// A message of the conversation; its content is absent unless it was an array.
struct AgentMessage {
    std::string role, error_message;
    std::optional<std::vector<ContentBlock>> content;
};
json::FieldStatus from_json(const rapidjson::Value& v, AgentMessage& out, const json::Path& at);

struct MessageEnd {
    AgentMessage message;
};
json::FieldStatus from_json(const rapidjson::Value& v, MessageEnd& out, const json::Path& at);

// pi's answer to a command of askhost's: only a failure is worth a word.
struct Response {
    std::string command, error;
    bool success = true;
};
json::FieldStatus from_json(const rapidjson::Value& v, Response& out, const json::Path& at);

// ---- what askhost writes --------------------------------------------------------------------

// A prompt; during a turn pi refuses one that does not say to follow up.
struct Prompt {
    std::string_view id, message;
    bool follow_up = false;  // streamingBehavior: followUp
};

struct Abort {
    std::string_view id;
};

// A dialog's answer: one of value (select, input, editor), confirmed (confirm) or cancelled.
struct UiResponse {
    std::string_view id;
    std::optional<std::string> value;
    std::optional<bool> confirmed;
    bool cancelled = false;

    static UiResponse of_value(std::string_view id, std::string value) { return {id, std::move(value), {}, false}; }
    static UiResponse of_confirm(std::string_view id, bool yes) { return {id, {}, yes, false}; }
    static UiResponse of_cancel(std::string_view id) { return {id, {}, {}, true}; }
};

void to_json(const Prompt& p, json::Writer& w);
void to_json(const Abort& a, json::Writer& w);
void to_json(const UiResponse& r, json::Writer& w);

}  // namespace askhost::pi
