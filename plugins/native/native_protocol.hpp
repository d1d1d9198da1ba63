// The native agent protocol's messages as types (docs/protocol.md, "Native agent protocol"): the
// envelopes the agent sends, read with from_json, and the response askhost writes, with to_json.
// NativeAdapter dispatches on them through a MessageTable (common/message_table.hpp).
#pragma once

#include <string>
#include <string_view>

#include "core/model/outcome.hpp"
#include "json/json_codec.hpp"

namespace askhost::native {

inline constexpr std::string_view kRequest = "ask_user_request";
inline constexpr std::string_view kCancel = "ask_user_cancel";
inline constexpr std::string_view kResponse = "ask_user_response";

// The requestId as the agent wrote it (JSON text): a string, or a number of any literal (kept byte
// for byte, 30 digits included). Empty when absent or of another kind; the response then says null.
struct RequestId {
    std::string json;
};

// ask_user_request's envelope. The tool's own fields (questions, metadata, answers, annotations)
// stay in the message for take_tool_ask_input, which checks them against the profile.
struct Request {
    RequestId request_id;
    bool subagent = false;  // REQ-AUQ-005: true is refused
};

// ask_user_cancel: the agent no longer wants request_id answered.
struct Cancel {
    RequestId request_id;
};

// ask_user_response: the outcome in the ask_user spec's shape (write_native_result).
struct Response {
    const RequestId& request_id;
    const Outcome& outcome;
};

json::FieldStatus from_json(const rapidjson::Value& v, RequestId& out, const json::Path& at);
// The envelopes read leniently, as the adapter always has: a wrong field reads as absent.
json::FieldStatus from_json(const rapidjson::Value& v, Request& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, Cancel& out, const json::Path& at);

void to_json(const RequestId& id, json::Writer& w);
void to_json(const Response& r, json::Writer& w);

}  // namespace askhost::native
