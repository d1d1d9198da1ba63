#include "pi_protocol.hpp"

#include "json/json_access.hpp"

namespace askhost::pi {

using json::ObjectReader;
using json::ObjectWriter;
using json::Path;

// ---- reading ------------------------------------------------------------------------------------

json::FieldStatus from_json(const rapidjson::Value& v, ContentBlock& out, const Path& at) {
    if (!json::is_object(v)) return {};  // skipped, not the end of the list
    return ObjectReader(v, at).lenient("type", out.type).lenient("text", out.text).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, Labels& out, const Path& at) {
    if (!v.IsArray()) return json::invalid(at, "expected an array");
    for (const auto& item : v.GetArray())
        if (item.IsString()) out.items.emplace_back(json::str(item));
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, Millis& out, const Path& at) {
    const auto ms = json::number_of(v);
    if (!ms) return json::invalid(at, "expected a number");
    out.value = *ms;
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, UiRequest& out, const Path& at) {
    ObjectReader o(v, at);
    o.lenient("id", out.id).lenient("method", out.method).lenient("title", out.title).lenient("message", out.message);
    o.lenient("notifyType", out.notify_type).lenient("prefill", out.prefill).lenient("options", out.options);
    return o.lenient("timeout", out.timeout).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, ToolResult& out, const Path& at) {
    return ObjectReader(v, at).lenient("content", out.content).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, ToolExecution& out, const Path& at) {
    ObjectReader o(v, at);
    o.lenient("toolCallId", out.tool_call_id).lenient("toolName", out.tool_name).lenient("args", out.args);
    return o.lenient("isError", out.is_error).lenient("result", out.result).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, AgentMessage& out, const Path& at) {
    ObjectReader o(v, at);
    o.lenient("role", out.role).lenient("errorMessage", out.error_message);
    return o.lenient("content", out.content).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, MessageEnd& out, const Path& at) {
    return ObjectReader(v, at).lenient("message", out.message).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, Response& out, const Path& at) {
    ObjectReader o(v, at);
    return o.lenient("command", out.command).lenient("error", out.error).lenient("success", out.success).status();
}

// ---- writing ------------------------------------------------------------------------------------

void to_json(const Prompt& p, json::Writer& w) {
    ObjectWriter o(w);
    o.field("id", p.id).field("type", "prompt").field("message", p.message);
    if (p.follow_up) o.field("streamingBehavior", "followUp");
}

void to_json(const Abort& a, json::Writer& w) { ObjectWriter(w).field("id", a.id).field("type", "abort"); }

void to_json(const UiResponse& r, json::Writer& w) {
    ObjectWriter o(w);
    o.field("type", "extension_ui_response").field("id", r.id);
    o.optional("value", r.value).optional("confirmed", r.confirmed);
    if (r.cancelled) o.field("cancelled", true);
}

}  // namespace askhost::pi
