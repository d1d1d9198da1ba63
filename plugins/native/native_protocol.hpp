// The native agent protocol's messages as types (docs/protocol.md, "Native agent protocol"): the
// envelopes the agent sends, read with from_json, and the response askhost writes, with to_json.
// NativeAdapter dispatches on them through a MessageTable.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

json::Status from_json(const rapidjson::Value& v, RequestId& out, const json::Path& at);
// The envelopes read leniently, as the adapter always has: a wrong field reads as absent.
json::Status from_json(const rapidjson::Value& v, Request& out, const json::Path& at);
json::Status from_json(const rapidjson::Value& v, Cancel& out, const json::Path& at);

void to_json(const RequestId& id, json::Writer& w);
void to_json(const Response& r, json::Writer& w);

// The message types the agent sends, each read into its struct and handed to its handler with the
// message (which the handler may take members from). A line of any other type is the agent's output.
class MessageTable {
public:
    template <class Message, class Handler>  // Handler: void(const Message&, rapidjson::Document&)
    MessageTable& on(std::string_view type, Handler handler) {
        handlers_.emplace_back(type, [handler = std::move(handler)](rapidjson::Document& doc) {
            Message message{};
            if (from_json(doc, message, json::Path(""))) return false;
            handler(message, doc);
            return true;
        });
        return *this;
    }

    // false when doc is no message of a type in the table (nothing was handled).
    bool dispatch(rapidjson::Document& doc) const;

private:
    std::vector<std::pair<std::string_view, std::function<bool(rapidjson::Document&)>>> handlers_;
};

}  // namespace askhost::native
