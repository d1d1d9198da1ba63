#include "frontends/editor/host_client.hpp"

#include <algorithm>

#include <unistd.h>

#include "askhost_config.h"
#include "frontends/editor/ask_json.hpp"
#include "frontends/editor/editor_protocol.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "json/json_access.hpp"

namespace askhost {

json::FieldStatus from_json(const rapidjson::Value& v, HostOutcome& out, const json::Path& at) {
    json::ObjectReader r(v, at);
    if (!r.ok()) return r.status();
    bool answered = false;
    r.lenient("answered", answered);
    if (answered) return read_client_outcome(v, out.ask, out.outcome, at);
    if (const auto* err = r.member("error"); err && err->IsObject()) {
        out.outcome = Outcome::refused(
            {json::string_of(*err, "code"), json::string_of(*err, "path"), json::string_of(*err, "message")});
        return {};
    }
    bool timed_out = false, connection_lost = false;
    std::optional<std::string> pending;
    std::int64_t open_questions = 0;
    std::string reason;
    r.lenient("timedOut", timed_out).lenient("connectionLost", connection_lost).lenient("pendingFile", pending);
    r.lenient("openQuestions", open_questions);
    r.lenient("reason", reason);
    out.outcome = timed_out         ? Outcome::timed_out()
                  : connection_lost ? Outcome::connection_lost()
                  : pending         ? Outcome::pending(std::move(*pending),
                                                       static_cast<std::size_t>(std::max<std::int64_t>(open_questions, 0)))
                                    : Outcome::cancelled(std::move(reason));
    return {};
}

void greet_host(RpcEndpoint& rpc, const std::string& client_name, ClientRole role, std::function<void(Status)> done) {
    InitializeParams hello;
    hello.client_name = client_name;
    hello.client_version = ASKHOST_VERSION;
    if (role == ClientRole::Viewer) hello.passive = hello.queued = true;  // askhost web lists every waiting ask
    if (role == ClientRole::Asker) hello.show_asks = false;               // it asks; it shows nothing
    call<json::Ignored>(rpc, "initialize", hello, [done = std::move(done)](const Result<json::Ignored>& r) {
        done(r ? Status() : Status(Error::failed(r.error().message)));
    });
    rpc.notify("initialized", "{}");
}

HostClient::HostClient(boost::asio::io_context& io, std::string socket, std::string client_name)
    : io_(io), socket_(std::move(socket)), client_name_(std::move(client_name)) {}

HostClient::~HostClient() {
    lifetime_.end();
    if (conn_) conn_->close("client done");
    unbind();
}

// The face's handlers stay with this client: a connection that outlives it, or is replaced, calls
// none of them.
void HostClient::unbind() {
    if (conn_) {
        conn_->rpc().on_request = nullptr;
        conn_->rpc().on_notify = nullptr;
    }
    dispatch_.reset();
}

void HostClient::log(std::string_view m) const {
    if (on_log) on_log(m);
}

void HostClient::show_to(ClientRole role, HostFace face) {
    role_ = role;
    face_ = std::move(face);
}

void HostClient::bind(RpcDispatcher& dispatch) {
    if (face_.show) dispatch.method<AskShowParams, AskShowResult>("ask/show", face_.show);
    if (face_.withdrawn) dispatch.notification<CancelRequestParams>("$/cancelRequest", face_.withdrawn);
    if (face_.state) dispatch.notification<AskStateParams>("ask/state", face_.state);
    if (face_.output) dispatch.notification<AgentOutputParams>("agent/output", face_.output);
    if (face_.exited) dispatch.notification<AgentExitParams>("agent/exit", face_.exited);
}

Status HostClient::connect() {
    if (connected()) return std::nullopt;
    auto fd = connect_socket(socket_);
    if (!fd) return Error::failed("cannot reach askhost at " + socket_ + ": " + fd.error().message, socket_);
    unbind();
    conn_ = std::make_shared<Connection>(io_, *fd, ::dup(*fd));
    closed_because_.clear();
    conn_->on_problem = [this, alive = lifetime_.token()](std::string_view p) {
        if (alive) log("host connection: " + std::string(p));
    };
    conn_->on_closed = [this, alive = lifetime_.token()](std::string_view why) {
        if (!alive) return;
        closed_because_ = why;
        if (on_closed) on_closed();
    };
    if (role_ != ClientRole::Asker) {
        dispatch_ = std::make_unique<RpcDispatcher>(conn_->rpc());
        bind(*dispatch_);
    }
    conn_->start();
    greet_host(conn_->rpc(), client_name_, role_, [this, alive = lifetime_.token()](const Status& refused) {
        if (!alive) return;
        if (refused) log("the host refused: " + refused->message);
        if (on_greeted) on_greeted(refused);
    });
    return std::nullopt;
}

void HostClient::close(std::string_view why) {
    if (conn_ && !conn_->closed()) conn_->close(why);
}

CallTicket HostClient::submit(const Ask& ask, Profile profile, OnOutcome reply) {
    CallTicket ticket;
    auto conn = conn_;
    std::string id = call<HostOutcome>(
        conn->rpc(), "ask/submit", SubmitAsk{ask, profile},
        ticket.reply([this, reply = std::move(reply), alive = lifetime_.token()](Result<HostOutcome> r) {
            if (r) return reply(std::move(r->outcome));
            const Error& e = r.error();
            if (unreadable(e)) return reply(Outcome::cancelled("invalid answer: " + e.message));
            if (alive) log("the host could not ask: " + e.message);
            reply(Outcome::connection_lost());
        }),
        HostOutcome{ask, {}});
    ticket.on_cancel([conn, id] {
        if (!conn->closed()) conn->rpc().notify("$/cancelRequest", json::to_text(CancelParams{{id}}));
    });
    return ticket;
}

}  // namespace askhost
