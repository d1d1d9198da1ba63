// A JSON-RPC 2.0 endpoint over any message channel: requests, notifications and replies both ways.
// It knows nothing of bytes or questions: give it a `send` function and feed it message bodies.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "core/lifetime.hpp"
#include "transport/rpc_errors.hpp"

namespace askhost {

// The JSON-RPC 2.0 envelopes, written here and nowhere else. An id, a result, params and error
// data are JSON text; empty params or data are left out.
namespace jsonrpc {
std::string request(std::string_view id_json, std::string_view method, std::string_view params_json);
std::string notification(std::string_view method, std::string_view params_json);
// A notification up to its params ({"jsonrpc":"2.0","method":METHOD,"params":), for a caller that
// appends a large params text and the closing '}' itself, so the bulk is copied once.
std::string notification_head(std::string_view method);
std::string result(std::string_view id_json, std::string_view result_json);
std::string error(std::string_view id_json, int code, std::string_view message, std::string_view data_json = {});
}  // namespace jsonrpc

struct RpcError {
    int code = 0;
    std::string message;
};

// Replies to one incoming request, exactly once (a Responder dropped unanswered replies with an
// internal error, so a client never waits forever; with -32800 when the client cancelled it).
class Responder {
public:
    Responder() = default;
    // With an endpoint's token, send is not called once that endpoint was abandoned or destroyed.
    Responder(std::function<void(std::string)> send, std::string id_json,
              std::optional<Lifetime::Token> endpoint = std::nullopt);
    Responder(Responder&&) noexcept = default;
    Responder& operator=(Responder&&) noexcept = default;
    ~Responder();

    void result(std::string_view result_json);
    void error(int code, std::string_view message);
    // The peer cancelled it where a cancelled request gets no reply at all (MCP's
    // notifications/cancelled): nothing is sent for it, now or when it is dropped.
    void withhold() {
        if (state_) state_->done = true;
    }
    bool answered() const { return !state_ || state_->done; }
    // The request's id as JSON text (what a peer names in $/cancelRequest).
    std::string id_json() const { return state_ ? state_->id_json : std::string("null"); }

private:
    friend class RpcEndpoint;  // marks the request cancelled ($/cancelRequest)
    struct State {
        std::function<void(std::string)> send;
        std::string id_json;
        std::optional<Lifetime::Token> endpoint;
        bool done = false;
        bool cancelled = false;  // the peer sent $/cancelRequest for it
    };
    void send(std::string message);
    std::shared_ptr<State> state_;
};

class RpcEndpoint {
public:
    using Send = std::function<void(std::string body)>;
    using OnRequest = std::function<void(std::string_view method, const rapidjson::Value& params, Responder)>;
    using OnNotify = std::function<void(std::string_view method, const rapidjson::Value& params)>;
    // result is null when error is set.
    using OnReply = std::function<void(const rapidjson::Value* result, const RpcError* error)>;

    explicit RpcEndpoint(Send send);
    ~RpcEndpoint();
    RpcEndpoint(const RpcEndpoint&) = delete;
    RpcEndpoint& operator=(const RpcEndpoint&) = delete;

    OnRequest on_request;
    OnNotify on_notify;
    // A message that could not be used (parse error, bad shape): for the log.
    std::function<void(std::string_view problem)> on_problem;
    // Who is at the other end, as the problems name it.
    std::string peer = "the peer";
    // When not 0: a message nested deeper is refused whole (an error reply to a request, an error
    // for our call waiting for a reply, a problem for anything else), before any handler sees it.
    std::size_t max_depth = 0;

    // One complete message body. A $/cancelRequest (LSP's) marks the request it names, so that if
    // its handler drops it the peer hears -32800, and then goes to on_notify like any other.
    void receive(std::string_view body);
    // One message its channel has parsed already (with json::parse), e.g. to keep lines that are
    // not JSON for itself.
    void receive(const rapidjson::Value& message);

    void notify(std::string_view method, std::string_view params_json);
    // Sends a whole message built by the caller (see jsonrpc::notification_head).
    void send_message(std::string message);
    // Returns the request id (as JSON text) for $/cancelRequest.
    std::string call(std::string_view method, std::string_view params_json, OnReply on_reply);
    // The channel is gone: every outstanding call gets an error reply.
    void close(std::string_view reason);
    // The peer is gone and nothing waits on it: outstanding calls are dropped unanswered, and
    // nothing more is sent, not even by the Responders still held.
    void abandon();
    std::size_t outstanding() const { return calls_.size(); }

private:
    static constexpr std::size_t kPoolBytes = 8192;  // a message's values up to this size stay off the heap
    void send_error(std::string_view id_json, int code, std::string_view message);

    void reply_received(const rapidjson::Value& message, const std::string& id_json);
    Responder respond_to(const std::string& id_json);
    void cancel_requested(const rapidjson::Value& params);

    Send send_;
    // Ended when the endpoint is abandoned or destroyed: the Responders still held say nothing.
    Lifetime lifetime_;
    std::map<std::string, OnReply> calls_;  // id (JSON text) -> reply handler
    // The peer's requests not answered yet: id (JSON text) -> its Responder's state.
    std::map<std::string, std::weak_ptr<Responder::State>> unanswered_;
    long next_id_ = 1;
    bool closed_ = false;
};

// Serialises a rapidjson value compactly.
std::string to_json(const rapidjson::Value& v);
// A JSON string literal for s (quotes and escapes included).
std::string json_quote(std::string_view s);

}  // namespace askhost
