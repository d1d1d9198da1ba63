// The one client of a running host's socket that askhost's own programs use. As an asker it asks
// through the host (ask/submit): askhost mcp and askhost hook put an agent's questions in front of
// the editor or terminal of that host. As a person (askhost attach) or a viewer (askhost web) it
// is shown the host's questions instead, typed (editor_protocol.hpp), and answers them.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "core/call_ticket.hpp"
#include "core/error.hpp"
#include "core/lifetime.hpp"
#include "core/model/outcome.hpp"
#include "frontends/editor/editor_protocol.hpp"
#include "json/json_codec.hpp"
#include "transport/connection.hpp"
#include "transport/rpc_binder.hpp"

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

// What a face does with what a host shows its client, each message typed; a handler left empty
// ignores its message. The reply to an ask/show is the outcome (the host withdraws an ask with
// $/cancelRequest; the face then drops its reply, and the host hears -32800).
struct HostFace {
    std::function<void(const AskShowParams&, Reply<AskShowResult>)> show;  // ask/show
    std::function<void(const CancelRequestParams&)> withdrawn;             // $/cancelRequest
    std::function<void(const AskStateParams&)> state;                      // ask/state
    std::function<void(const AgentOutputParams&)> output;                  // agent/output
    std::function<void(const AgentExitParams&)> exited;                    // agent/exit
};

class HostClient {
public:
    // `client_name` is what the host's log and clients see ("askhost mcp", "askhost attach").
    HostClient(boost::asio::io_context& io, std::string socket, std::string client_name);
    ~HostClient();
    HostClient(const HostClient&) = delete;
    HostClient& operator=(const HostClient&) = delete;

    // Before connect(): shown the host's asks, as a Person (askhost attach: the host counts it as
    // one who may answer) or a Viewer (askhost web: shown every ask without counting as a person
    // there; initialize says capabilities.passive and capabilities.queued, docs/protocol.md, so the
    // asks queued behind the one on screen are shown to it too). Without it, an Asker.
    void show_to(ClientRole role, HostFace face);

    // Connects (once, again after the host went away); else why the host cannot be reached.
    Status connect();
    bool connected() const { return conn_ && !conn_->closed(); }
    // Leaves the host (a person detaching): it hears the connection close, which is no answer.
    void close(std::string_view why);
    // Why the connection closed, once it has ("end of input", or close()'s words).
    const std::string& closed_because() const { return closed_because_; }
    // Bytes not yet written to the host (a process that ends waits for 0: its cancel must arrive).
    std::size_t queued_bytes() const { return conn_ ? conn_->queued_bytes() : 0; }
    const std::string& socket() const { return socket_; }

    // Asks through the host: ask.agent, ask.route and ask.cwd go along; `profile` is the rules the
    // questions were checked against. `reply` runs once (connectionLost when the host goes away)
    // unless the ticket is cancelled first; cancelling withdraws the ask in the host.
    CallTicket submit(const Ask& ask, Profile profile, OnOutcome reply);

    // The connection closed (the host exited, or close()); asks in flight got connectionLost.
    std::function<void()> on_closed;
    // The host's answer to initialize: nullopt when it accepted, else its refusal (also logged).
    std::function<void(const Status&)> on_greeted;
    std::function<void(std::string_view)> on_log;

private:
    void log(std::string_view m) const;
    void bind(RpcDispatcher& dispatch);
    void unbind();

    boost::asio::io_context& io_;
    std::string socket_, client_name_;
    std::shared_ptr<Connection> conn_;
    std::unique_ptr<RpcDispatcher> dispatch_;  // the face's handlers, on conn_
    ClientRole role_ = ClientRole::Asker;
    HostFace face_;
    std::string closed_because_;
    Lifetime lifetime_;
};

}  // namespace askhost
