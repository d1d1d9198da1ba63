// A client of a running host's socket that asks through it (ask/submit): askhost mcp and askhost
// hook use it to put an agent's questions in front of the editor or terminal of that host. As a
// viewer it is shown the host's questions instead (askhost web).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "core/error.hpp"
#include "core/lifetime.hpp"
#include "core/model/outcome.hpp"
#include "json/json_codec.hpp"
#include "transport/connection.hpp"

namespace askhost {

// ask/submit's result, typed: the host's outcome (native shape) read back for the ask it answers
// (the ask is set first). Only an answer is checked; the rest reads leniently, as a cancel.
struct HostOutcome {
    Ask ask;
    Outcome outcome;
};
json::FieldStatus from_json(const rapidjson::Value& v, HostOutcome& out, const json::Path& at);

// What a client of a host's socket is to the host (initialize's capabilities, docs/protocol.md).
enum class ClientRole {
    Person,  // shown the host's asks to answer them (askhost attach)
    Asker,   // asks through the host and shows nothing (askhost mcp, askhost hook)
    Viewer,  // shown every ask without counting as a person there (askhost web)
};

// The handshake with a host, as its client: initialize as `client_name` in `role`, then
// initialized at once (the host handles messages in order, so requests may follow). `done` gets
// the host's refusal, or nullopt when it accepted.
void greet_host(RpcEndpoint& rpc, const std::string& client_name, ClientRole role, std::function<void(Status)> done);

class HostClient {
public:
    // `client_name` is what the host's log and clients see ("askhost mcp", "askhost hook").
    HostClient(boost::asio::io_context& io, std::string socket, std::string client_name);
    ~HostClient();
    HostClient(const HostClient&) = delete;
    HostClient& operator=(const HostClient&) = delete;

    // Before connect(): a passive viewer (askhost web). It is shown every ask (ask/show requests
    // reach on_request; $/cancelRequest, ask/state and the rest reach on_notify) without counting as
    // a person at the host: initialize says capabilities.passive (docs/protocol.md), and
    // capabilities.queued: the asks queued behind the one on screen are shown to it too.
    void view(RpcEndpoint::OnRequest on_request, RpcEndpoint::OnNotify on_notify);

    // Connects (once, again after the host went away); else why the host cannot be reached.
    Status connect();
    bool connected() const { return conn_ && !conn_->closed(); }
    // Bytes not yet written to the host (a process that ends waits for 0: its cancel must arrive).
    std::size_t queued_bytes() const { return conn_ ? conn_->queued_bytes() : 0; }
    const std::string& socket() const { return socket_; }

    // Asks through the host: ask.agent, ask.route and ask.cwd go along; `profile` is the rules the
    // questions were checked against. `reply` runs once (connectionLost when the host goes away)
    // unless the returned cancel function runs first; cancelling withdraws the ask in the host.
    std::function<void()> submit(const Ask& ask, Profile profile, OnOutcome reply);

    // The connection closed (the host exited); asks in flight got connectionLost.
    std::function<void()> on_closed;
    std::function<void(std::string_view)> on_log;

private:
    void log(std::string_view m) const;

    boost::asio::io_context& io_;
    std::string socket_, client_name_;
    std::shared_ptr<Connection> conn_;
    RpcEndpoint::OnRequest on_request_;
    RpcEndpoint::OnNotify on_notify_;
    Lifetime lifetime_;
};

}  // namespace askhost
