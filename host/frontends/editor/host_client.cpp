#include "frontends/editor/host_client.hpp"

#include <unistd.h>

#include "askhost_config.h"
#include "frontends/editor/ask_json.hpp"
#include "frontends/editor/editor_protocol.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "json/json_access.hpp"

namespace askhost {

Outcome outcome_from_native(const rapidjson::Value& result, const Ask& ask) {
    if (!result.IsObject()) return Outcome::cancelled("askhost returned no outcome");
    auto flag = [&](const char* key) {
        const auto* v = json::member(result, key);
        return v && v->IsBool() && v->GetBool();
    };
    if (flag("answered")) {
        auto parsed = parse_client_outcome(result, ask);
        if (auto* bad = std::get_if<Refusal>(&parsed)) return Outcome::cancelled("invalid answer: " + bad->message);
        return std::get<Outcome>(std::move(parsed));
    }
    if (const auto* err = json::member(result, "error"); err && err->IsObject())
        return Outcome::refused(
            {json::string_of(*err, "code"), json::string_of(*err, "path"), json::string_of(*err, "message")});
    if (flag("timedOut")) return Outcome::timed_out();
    if (flag("connectionLost")) return Outcome::connection_lost();
    if (const auto* pending = json::member(result, "pendingFile"); pending && pending->IsString())
        return Outcome::pending(pending->GetString());
    return Outcome::cancelled(json::string_of(result, "reason"));
}

HostClient::HostClient(boost::asio::io_context& io, std::string socket, std::string client_name)
    : io_(io), socket_(std::move(socket)), client_name_(std::move(client_name)) {}

HostClient::~HostClient() {
    *alive_ = false;
    if (conn_) conn_->close("client done");
}

void HostClient::log(std::string_view m) const {
    if (on_log) on_log(m);
}

Status HostClient::connect() {
    if (connected()) return std::nullopt;
    auto fd = connect_socket(socket_);
    if (!fd) return Error::failed("cannot reach askhost at " + socket_ + ": " + fd.error().message, socket_);
    conn_ = std::make_shared<Connection>(io_, *fd, ::dup(*fd));
    conn_->on_problem = [this, alive = alive_](std::string_view p) {
        if (*alive) log("host connection: " + std::string(p));
    };
    conn_->on_closed = [this, alive = alive_](std::string_view) {
        if (*alive && on_closed) on_closed();
    };
    conn_->start();
    // The host handles requests in order, so an ask may follow at once.
    InitializeParams hello;
    hello.client_name = client_name_;
    hello.client_version = ASKHOST_VERSION;
    hello.show_asks = false;  // it asks; it shows nothing
    conn_->rpc().call("initialize", json::to_text(hello),
                      [this, alive = alive_](const rapidjson::Value*, const RpcError* err) {
                          if (err && *alive) log("the host refused: " + err->message);
                      });
    conn_->rpc().notify("initialized", "{}");
    return std::nullopt;
}

std::function<void()> HostClient::submit(const Ask& ask, Profile profile, Reply reply) {
    const std::string params = json::to_text(SubmitAsk{ask, profile});
    auto done = std::make_shared<bool>(false);
    auto conn = conn_;
    std::string id = conn->rpc().call("ask/submit", params,
                                      [this, ask, reply = std::move(reply), done, alive = alive_](
                                          const rapidjson::Value* result, const RpcError* err) {
                                          if (*done) return;
                                          *done = true;
                                          if (err) {
                                              if (*alive) log("the host could not ask: " + err->message);
                                              reply(Outcome::connection_lost());
                                              return;
                                          }
                                          reply(outcome_from_native(*result, ask));
                                      });
    return [conn, id, done] {
        if (*done) return;
        *done = true;
        if (!conn->closed()) conn->rpc().notify("$/cancelRequest", json::to_text(CancelParams{{id}}));
    };
}

}  // namespace askhost
