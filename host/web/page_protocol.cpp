#include "web/page_protocol.hpp"

namespace askhost::web {

using json::ObjectReader;
using json::ObjectWriter;
using json::Path;

namespace {

// Each message's "type", written first.
constexpr const char* type_of(const Snapshot*) { return "snapshot"; }
constexpr const char* type_of(const Added*) { return "added"; }
constexpr const char* type_of(const Removed*) { return "removed"; }
constexpr const char* type_of(const AnswerResult*) { return "result"; }
constexpr const char* type_of(const PushKey*) { return "push-key"; }
constexpr const char* type_of(const PushSubscribed*) { return "push-subscribed"; }
constexpr const char* type_of(const PushUnsubscribed*) { return "push-unsubscribed"; }
constexpr const char* type_of(const PushDropped*) { return "push-dropped"; }
constexpr const char* type_of(const Answer*) { return "answer"; }
constexpr const char* type_of(const PushSubscribe*) { return "push-subscribe"; }
constexpr const char* type_of(const PushUnsubscribe*) { return "push-unsubscribe"; }

template <class M>
void write_type(ObjectWriter& o) {
    o.field("type", type_of(static_cast<const M*>(nullptr)));
}

// ok, and why not when it is not.
void write_verdict(ObjectWriter& o, const std::optional<std::string>& error) {
    o.field("ok", !error);
    o.optional("error", error);
}
json::FieldStatus read_verdict(ObjectReader& o, std::optional<std::string>& error) {
    bool ok = false;
    std::string why;
    o.required("ok", ok).lenient("error", why);
    if (!ok) error = std::move(why);
    return o.status();
}

// One of the variant's messages, chosen by "type".
template <class... M>
json::FieldStatus read_by_type(const rapidjson::Value& v, std::variant<M...>& out, const Path& at) {
    std::string type;
    ObjectReader o(v, at);
    if (!o.required("type", type).ok()) return o.status();
    bool found = false;
    json::FieldStatus status;
    auto read_one = [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if (found || type != type_of(static_cast<const T*>(nullptr))) return;
        found = true;
        T message{};
        status = from_json(v, message, at);
        if (!status) out = std::move(message);
    };
    (read_one(static_cast<M*>(nullptr)), ...);
    if (!found) return json::invalid(at.field("type"), "unknown message type '" + type + "'");
    return status;
}

}  // namespace

json::FieldStatus from_json(const rapidjson::Value& v, AsGiven& out, const Path&) {
    out.json = json::to_text(v);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, PageHost& out, const Path& at) {
    return ObjectReader(v, at).lenient("pid", out.pid).lenient("kind", out.kind).lenient("socket", out.socket).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, WebAsk& out, const Path& at) {
    ObjectReader o(v, at);
    return o.required("key", out.key)
        .check(o.member("questions") != nullptr, "questions", "missing")
        .required("questions", out.questions)
        .optional("permission", out.permission)
        .optional("metadata", out.metadata)
        .lenient("agent", out.agent)
        .lenient("host", out.host)
        .lenient("workspace", out.workspace)
        .lenient("who", out.who)
        .lenient("since", out.since)
        .status();
}

json::FieldStatus from_json(const rapidjson::Value& v, Snapshot& out, const Path& at) {
    return ObjectReader(v, at).required("server", out.server).required("asks", out.asks).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, Added& out, const Path& at) {
    return ObjectReader(v, at).required("ask", out.ask).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, Removed& out, const Path& at) {
    return ObjectReader(v, at).required("key", out.key).lenient("reason", out.reason).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, AnswerResult& out, const Path& at) {
    ObjectReader o(v, at);
    o.required("key", out.key);
    return read_verdict(o, out.error);
}

json::FieldStatus from_json(const rapidjson::Value& v, PushKey& out, const Path& at) {
    return ObjectReader(v, at).required("key", out.key).lenient("content", out.content).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, PushSubscribed& out, const Path& at) {
    ObjectReader o(v, at);
    return read_verdict(o, out.error);
}

json::FieldStatus from_json(const rapidjson::Value& v, PushUnsubscribed& out, const Path& at) {
    ObjectReader o(v, at);
    return read_verdict(o, out.error);
}

json::FieldStatus from_json(const rapidjson::Value& v, PushDropped& out, const Path& at) {
    ObjectReader(v, at).lenient("reason", out.reason);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, Answer& out, const Path& at) {
    return ObjectReader(v, at).lenient("key", out.key).optional("outcome", out.outcome).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, PushSubscribe& out, const Path& at) {
    return ObjectReader(v, at).optional("subscription", out.subscription).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, PushUnsubscribe& out, const Path& at) {
    return ObjectReader(v, at).lenient("endpoint", out.endpoint).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, ServerMessage& out, const Path& at) {
    return read_by_type(v, out, at);
}

json::FieldStatus from_json(const rapidjson::Value& v, PageMessage& out, const Path& at) {
    return read_by_type(v, out, at);
}

void to_json(const AsGiven& g, json::Writer& w) { w.RawValue(g.json.data(), g.json.size(), rapidjson::kObjectType); }

void to_json(const PageHost& h, json::Writer& w) {
    ObjectWriter(w).field("pid", h.pid).field("kind", h.kind).field("socket", h.socket);
}

void to_json(const WebAsk& a, json::Writer& w) {
    ObjectWriter o(w);
    o.field("key", a.key).field("questions", a.questions).optional("permission", a.permission);
    o.optional("metadata", a.metadata).field("agent", a.agent).field("host", a.host);
    o.field("workspace", a.workspace).field("who", a.who).field("since", a.since);
}

void to_json(const Snapshot& m, json::Writer& w) {
    ObjectWriter o(w);
    write_type<Snapshot>(o);
    o.field("server", m.server).field("asks", m.asks);
}

void to_json(const Added& m, json::Writer& w) {
    ObjectWriter o(w);
    write_type<Added>(o);
    o.field("ask", m.ask);
}

void to_json(const Removed& m, json::Writer& w) {
    ObjectWriter o(w);
    write_type<Removed>(o);
    o.field("key", m.key).field("reason", m.reason);
}

void to_json(const AnswerResult& m, json::Writer& w) {
    ObjectWriter o(w);
    write_type<AnswerResult>(o);
    o.field("key", m.key);
    write_verdict(o, m.error);
}

void to_json(const PushKey& m, json::Writer& w) {
    ObjectWriter o(w);
    write_type<PushKey>(o);
    o.field("key", m.key).field("content", m.content);
}

void to_json(const PushSubscribed& m, json::Writer& w) {
    ObjectWriter o(w);
    write_type<PushSubscribed>(o);
    write_verdict(o, m.error);
}

void to_json(const PushUnsubscribed& m, json::Writer& w) {
    ObjectWriter o(w);
    write_type<PushUnsubscribed>(o);
    write_verdict(o, m.error);
}

void to_json(const PushDropped& m, json::Writer& w) {
    ObjectWriter o(w);
    write_type<PushDropped>(o);
    o.field("reason", m.reason);
}

void to_json(const Answer& m, json::Writer& w) {
    ObjectWriter o(w);
    write_type<Answer>(o);
    o.field("key", m.key);
    if (m.outcome.value) o.field("outcome", *m.outcome.value);
}

void to_json(const PushSubscribe& m, json::Writer& w) {
    ObjectWriter o(w);
    write_type<PushSubscribe>(o);
    if (m.subscription.value) o.field("subscription", *m.subscription.value);
}

void to_json(const PushUnsubscribe& m, json::Writer& w) {
    ObjectWriter o(w);
    write_type<PushUnsubscribe>(o);
    o.field("endpoint", m.endpoint);
}

void to_json(const ServerMessage& m, json::Writer& w) {
    std::visit([&](const auto& message) { to_json(message, w); }, m);
}

void to_json(const PageMessage& m, json::Writer& w) {
    std::visit([&](const auto& message) { to_json(message, w); }, m);
}

}  // namespace askhost::web
