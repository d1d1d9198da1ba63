#include "transport/jsonrpc.hpp"

#include <utility>
#include <vector>

#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "json/json_access.hpp"
#include "json/json_codec.hpp"

namespace askhost {

std::string to_json(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf(json::stack_allocator(), 256);
    json::Writer w(buf, json::stack_allocator());
    json::write(v, w);
    return std::string(buf.GetString(), buf.GetSize());
}

std::string json_quote(std::string_view s) {
    std::string out(2 + s.size() * 6, '\0');
    out.resize(static_cast<std::size_t>(write_string_literal(out.data(), s.data(), s.size()) - out.data()));
    return out;
}

namespace jsonrpc {

namespace {
constexpr std::string_view kOpen = "{\"jsonrpc\":\"2.0\"";

// {"jsonrpc":"2.0","id":ID,"method":METHOD,"params":PARAMS} with the parts that are there.
// Appends s to msg as a JSON string literal.
void append_quoted(std::string& msg, std::string_view s) {
    const std::size_t at = msg.size();
    msg.resize(at + 2 + s.size() * 6);
    msg.resize(static_cast<std::size_t>(write_string_literal(msg.data() + at, s.data(), s.size()) - msg.data()));
}

std::string call_message(std::string_view id_json, std::string_view method, std::string_view params_json) {
    std::string msg;
    // One allocation: the method's literal is at most 6 bytes a byte.
    msg.reserve(kOpen.size() + 32 + id_json.size() + 6 * method.size() + params_json.size());
    msg.append(kOpen);
    if (!id_json.empty()) {
        msg += ",\"id\":";
        msg.append(id_json);
    }
    msg += ",\"method\":";
    append_quoted(msg, method);
    if (!params_json.empty()) {
        msg += ",\"params\":";
        msg.append(params_json);
    }
    msg.push_back('}');
    return msg;
}

// {"jsonrpc":"2.0","id":ID,
std::string reply_head(std::string_view id_json) {
    std::string msg(kOpen);
    msg += ",\"id\":";
    msg.append(id_json);
    msg.push_back(',');
    return msg;
}
}  // namespace

std::string request(std::string_view id_json, std::string_view method, std::string_view params_json) {
    return call_message(id_json, method, params_json);
}

std::string notification(std::string_view method, std::string_view params_json) {
    return call_message({}, method, params_json);
}

std::string notification_head(std::string_view method) {
    return std::string(kOpen) + ",\"method\":" + json_quote(method) + ",\"params\":";
}

std::string result(std::string_view id_json, std::string_view result_json) {
    std::string msg = reply_head(id_json) + "\"result\":";
    msg.append(result_json);
    msg.push_back('}');
    return msg;
}

std::string error(std::string_view id_json, int code, std::string_view message, std::string_view data_json) {
    std::string msg =
        reply_head(id_json) + "\"error\":{\"code\":" + std::to_string(code) + ",\"message\":" + json_quote(message);
    if (!data_json.empty()) {
        msg += ",\"data\":";
        msg.append(data_json);
    }
    msg += "}}";
    return msg;
}

}  // namespace jsonrpc

Responder::Responder(std::function<void(std::string)> send, std::string id_json,
                     std::optional<Lifetime::Token> endpoint)
    : state_(std::make_shared<State>(State{std::move(send), std::move(id_json), std::move(endpoint)})) {}

Responder::~Responder() {
    if (!state_ || state_->done) return;
    if (state_->cancelled) error(rpc_error::request_cancelled, "request cancelled");
    else error(rpc_error::internal_error, "request dropped without a reply");
}

void Responder::send(std::string message) {
    state_->done = true;
    if (!state_->endpoint || *state_->endpoint) state_->send(std::move(message));
}

void Responder::result(std::string_view result_json) {
    if (!state_ || state_->done) return;
    send(jsonrpc::result(state_->id_json, result_json));
}

void Responder::error(int code, std::string_view message) {
    if (!state_ || state_->done) return;
    send(jsonrpc::error(state_->id_json, code, message));
}

RpcEndpoint::RpcEndpoint(Send send) : send_(std::move(send)) {}

// A Responder kept past its endpoint says nothing: the channel it would reply on is gone.
RpcEndpoint::~RpcEndpoint() { lifetime_.end(); }

void RpcEndpoint::send_error(std::string_view id_json, int code, std::string_view message) {
    send_(jsonrpc::error(id_json, code, message));
}

void RpcEndpoint::receive(std::string_view body) {
    // A message's values go in a buffer on the stack first: no 64 KiB heap chunk per message (the
    // pool takes more from the heap only for a message larger than the buffer).
    char pool_buffer[kPoolBytes];
    rapidjson::MemoryPoolAllocator<> pool(pool_buffer, sizeof pool_buffer);
    rapidjson::Document doc(&pool, 1024, json::stack_allocator());
    if (auto e = json::parse(doc, body, json::no_depth_limit)) {
        std::string why = "parse error at offset " + std::to_string(e->offset) + ": " + e->message;
        if (on_problem) on_problem(why);
        send_error("null", rpc_error::parse_error, why);
        return;
    }
    receive(doc);
}

void RpcEndpoint::receive(const rapidjson::Value& doc) {
    if (!json::is_object(doc)) {
        send_error("null", rpc_error::invalid_request,
                   doc.IsArray() ? "batches are not supported" : "a message must be a JSON object");
        return;
    }
    auto id_it = doc.FindMember("id");
    bool has_id = id_it != doc.MemberEnd() && !id_it->value.IsNull();
    // The type first: serialising a nested id would recurse as deep as it is nested.
    if (has_id && !id_it->value.IsString() && !id_it->value.IsInt64()) {
        send_error("null", rpc_error::invalid_request, "id must be a string or an integer");
        return;
    }
    std::string id_json = has_id ? to_json(id_it->value) : "null";
    auto method_it = doc.FindMember("method");
    const bool is_call = method_it != doc.MemberEnd();
    if (is_call && !method_it->value.IsString()) {
        if (has_id) send_error(id_json, rpc_error::invalid_request, "method: expected a string");
        else if (on_problem) on_problem("a notification whose method is not a string; ignored");
        return;
    }
    if (max_depth != 0 && json::deeper_than(doc, max_depth)) {
        // Copying or serialising its values would recurse as deep as they nest: refused whole,
        // with an error the peer (or our own call waiting for it) can act on.
        const std::string why = "message nested deeper than " + std::to_string(max_depth) + " levels";
        auto call = is_call || !has_id ? calls_.end() : calls_.find(id_json);
        if (is_call && has_id) {
            if (on_problem) on_problem("refused a request of " + peer + ": " + why);
            send_error(id_json, rpc_error::invalid_request, why);
        } else if (call != calls_.end()) {
            OnReply handler = std::move(call->second);
            calls_.erase(call);
            RpcError e{rpc_error::invalid_request, why};
            if (handler) handler(nullptr, &e);
        } else if (on_problem) {
            on_problem(peer + " sent a " + why + "; ignored");
        }
        return;
    }
    if (!is_call) return reply_received(doc, id_json);
    std::string_view method(method_it->value.GetString(), method_it->value.GetStringLength());
    static const rapidjson::Value empty_object(rapidjson::kObjectType);
    auto params_it = doc.FindMember("params");
    const rapidjson::Value& params = params_it == doc.MemberEnd() ? empty_object : params_it->value;
    if (!json::is_object(params) && !params.IsArray()) {
        if (has_id) send_error(id_json, rpc_error::invalid_params, "params must be an object or an array");
        return;
    }
    if (has_id) {
        Responder r = respond_to(id_json);
        if (on_request) on_request(method, params, std::move(r));
        else r.error(rpc_error::method_not_found, "method not found: " + std::string(method));
    } else {
        if (method == "$/cancelRequest") cancel_requested(params);
        if (on_notify) on_notify(method, params);
    }
}

Responder RpcEndpoint::respond_to(const std::string& id_json) {
    std::erase_if(unanswered_, [](const auto& entry) {
        auto state = entry.second.lock();
        return !state || state->done;
    });
    Responder r(send_, id_json, lifetime_.token());
    unanswered_[id_json] = r.state_;
    return r;
}

void RpcEndpoint::cancel_requested(const rapidjson::Value& params) {
    if (!params.IsObject()) return;
    auto id = params.FindMember("id");
    // The type first: serialising a nested id would recurse as deep as it is nested.
    if (id == params.MemberEnd() || (!id->value.IsString() && !id->value.IsInt64())) return;
    auto it = unanswered_.find(to_json(id->value));
    if (it == unanswered_.end()) return;
    if (auto state = it->second.lock()) state->cancelled = true;
}

// A reply to one of our calls.
void RpcEndpoint::reply_received(const rapidjson::Value& doc, const std::string& id_json) {
    if (id_json == "null") {
        if (on_problem) on_problem("reply without an id");
        return;
    }
    auto call = calls_.find(id_json);
    if (call == calls_.end()) {
        if (on_problem) on_problem("reply to an unknown id " + id_json);
        return;
    }
    OnReply handler = std::move(call->second);
    calls_.erase(call);
    auto res = doc.FindMember("result");
    auto err = doc.FindMember("error");
    if (err != doc.MemberEnd() && err->value.IsObject()) {
        RpcError e;
        auto c = err->value.FindMember("code");
        auto m = err->value.FindMember("message");
        if (c != err->value.MemberEnd() && c->value.IsInt()) e.code = c->value.GetInt();
        if (m != err->value.MemberEnd() && m->value.IsString()) e.message = m->value.GetString();
        if (handler) handler(nullptr, &e);
    } else if (res != doc.MemberEnd()) {
        if (handler) handler(&res->value, nullptr);
    } else {
        RpcError e{rpc_error::invalid_request, "reply with neither result nor error"};
        if (handler) handler(nullptr, &e);
    }
}

void RpcEndpoint::send_message(std::string message) {
    if (!closed_) send_(std::move(message));
}

void RpcEndpoint::notify(std::string_view method, std::string_view params_json) {
    if (!closed_) send_(jsonrpc::notification(method, params_json));
}

std::string RpcEndpoint::call(std::string_view method, std::string_view params_json, OnReply on_reply) {
    std::string id_json = std::to_string(next_id_++);
    if (closed_) {
        RpcError e{rpc_error::internal_error, "connection closed"};
        if (on_reply) on_reply(nullptr, &e);
        return id_json;
    }
    calls_[id_json] = std::move(on_reply);
    send_(jsonrpc::request(id_json, method, params_json));
    return id_json;
}

void RpcEndpoint::abandon() {
    closed_ = true;
    lifetime_.end();
    calls_.clear();
}

void RpcEndpoint::close(std::string_view reason) {
    closed_ = true;
    auto calls = std::move(calls_);
    calls_.clear();
    RpcError e{rpc_error::internal_error, std::string(reason)};
    for (auto& [id, handler] : calls)
        if (handler) handler(nullptr, &e);
}

}  // namespace askhost
