// Typed dispatch over an RpcEndpoint (clangd's LSPBinder): a method is one line,
//   bind.method("agent/start", &EditorClient::agent_start);
// where the handler takes its params as a struct (read with from_json) and a Reply<Result> (written
// with to_json). Params that do not read are refused with -32602 naming the field's path; an
// unknown method gets -32601; unknown notifications, and notifications whose params do not read,
// are ignored. The other direction, a call to the peer, is one line too:
//   call<InitializeResult>(rpc, "initialize", params, [](Result<InitializeResult> r) { ... });
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/error.hpp"
#include "json/json_codec.hpp"
#include "transport/jsonrpc.hpp"
#include "transport/rpc_errors.hpp"

namespace askhost {

// A JSON-RPC request id as its JSON text: a string or an integer, the only ids a peer is given
// (and serialising anything else would recurse as deep as a peer nests it).
struct RequestId {
    std::string json;
};
inline json::FieldStatus from_json(const rapidjson::Value& v, RequestId& out, const json::Path& at) {
    if (!v.IsString() && !v.IsInt64()) return json::invalid(at, "expected a string or an integer");
    out.json = to_json(v);
    return {};
}
inline void to_json(const RequestId& id, json::Writer& w) {
    if (id.json.empty()) {
        w.Null();
        return;
    }
    w.RawValue(id.json.data(), id.json.size(),
               id.json.front() == '"' ? rapidjson::kStringType : rapidjson::kNumberType);
}

// The reply to one request, typed. Copies share one Responder: the request is answered once, and
// when the last copy goes unanswered the peer gets an internal error (never waits forever).
template <class Result>
class Reply {
public:
    explicit Reply(Responder r) : r_(std::make_shared<Responder>(std::move(r))) {}
    void operator()(const Result& result) const { r_->result(json::to_text(result)); }
    void error(int code, std::string_view message) const { r_->error(code, message); }
    void error(const RpcError& e) const { r_->error(e.code, e.message); }
    // Nothing is sent for the request (Responder::withhold: the peer cancelled it, MCP).
    void withhold() const { r_->withhold(); }
    // The request's id as JSON text (what the peer names in a cancel).
    std::string id_json() const { return r_->id_json(); }

private:
    std::shared_ptr<Responder> r_;
};

// A call's error (Result<T>::error()) is the peer's error reply, or the channel closing, with its
// code; or a result that does not read: code 0, and a path that names the field.
inline bool unreadable(const Error& call_error) { return !call_error.path.empty(); }

// Calls the peer's `method` with params (written with to_json); `done` runs once with the result
// read with from_json at "result", or the error. A result read in the call's own context (an
// outcome against its ask) starts as `blank`. Returns the request id (JSON text) to cancel it by.
template <class Result, class Params>
std::string call(RpcEndpoint& rpc, std::string_view method, const Params& params,
                 std::function<void(askhost::Result<Result>)> done, Result blank = Result{}) {
    return rpc.call(
        method, json::to_text(params),
        [done = std::move(done), blank = std::move(blank)](const rapidjson::Value* raw, const RpcError* error) mutable {
            if (error) return done(Error::rpc(error->code, error->message));
            Result result = std::move(blank);
            if (auto e = from_json(*raw, result, json::Path("result"))) return done(Error::failed(e->message, e->path));
            done(std::move(result));
        });
}

// Typed dispatch to handlers that are functions (a client's lambdas); RpcBinder below binds an
// object's member functions.
class RpcDispatcher {
public:
    // Takes over the endpoint's on_request and on_notify.
    explicit RpcDispatcher(RpcEndpoint& rpc) {
        rpc.on_request = [this](std::string_view m, const rapidjson::Value& p, Responder r) {
            request(m, p, std::move(r));
        };
        rpc.on_notify = [this](std::string_view m, const rapidjson::Value& p) { notify(m, p); };
    }
    RpcDispatcher(const RpcDispatcher&) = delete;
    RpcDispatcher& operator=(const RpcDispatcher&) = delete;

    template <class Params, class Result>
    void method(std::string name, std::function<void(const Params&, Reply<Result>)> handler) {
        requests_[std::move(name)] = [handler = std::move(handler)](const rapidjson::Value& raw, Responder r) {
            Params params{};
            if (auto e = from_json(raw, params, json::Path("params")))
                return r.error(rpc_error::invalid_params, e->message);
            handler(params, Reply<Result>(std::move(r)));
        };
    }

    template <class Params>
    void notification(std::string name, std::function<void(const Params&)> handler) {
        notifications_[std::move(name)] = [handler = std::move(handler)](const rapidjson::Value& raw) {
            Params params{};
            if (!from_json(raw, params, json::Path("params"))) handler(params);
        };
    }

    // Asked before every request, known or not, is dispatched: an error refuses it (LSP's
    // "initialize first", a server shutting down, an id still in use).
    std::function<std::optional<RpcError>(std::string_view method, const Responder& r)> gate;
    // The words before the method's name in -32601's message.
    std::string not_found = "method not found: ";

private:
    void request(std::string_view method, const rapidjson::Value& params, Responder r) {
        if (gate)
            if (auto refused = gate(method, r)) return r.error(refused->code, refused->message);
        auto it = requests_.find(method);
        if (it == requests_.end()) return r.error(rpc_error::method_not_found, not_found + std::string(method));
        it->second(params, std::move(r));
    }

    void notify(std::string_view method, const rapidjson::Value& params) {
        auto it = notifications_.find(method);
        if (it != notifications_.end()) it->second(params);
    }

    std::map<std::string, std::function<void(const rapidjson::Value&, Responder)>, std::less<>> requests_;
    std::map<std::string, std::function<void(const rapidjson::Value&)>, std::less<>> notifications_;
};

template <class Owner>
class RpcBinder : public RpcDispatcher {
public:
    RpcBinder(RpcEndpoint& rpc, Owner& owner) : RpcDispatcher(rpc), owner_(owner) {}

    using RpcDispatcher::method;
    using RpcDispatcher::notification;

    template <class Params, class Result>
    void method(std::string name, void (Owner::*handler)(const Params&, Reply<Result>)) {
        RpcDispatcher::method<Params, Result>(
            std::move(name), [this, handler](const Params& p, Reply<Result> r) { (owner_.*handler)(p, std::move(r)); });
    }

    template <class Params>
    void notification(std::string name, void (Owner::*handler)(const Params&)) {
        RpcDispatcher::notification<Params>(std::move(name),
                                            [this, handler](const Params& p) { (owner_.*handler)(p); });
    }

private:
    Owner& owner_;
};

}  // namespace askhost
