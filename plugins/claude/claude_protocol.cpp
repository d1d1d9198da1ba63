#include "claude_protocol.hpp"

#include "json/json_access.hpp"

namespace askhost::claude {

using json::ObjectReader;
using json::ObjectWriter;
using json::Path;

namespace {

// JSON text askhost already wrote, written in place.
struct RawText {
    std::string_view json;
};
void to_json(RawText raw, json::Writer& w) { w.RawValue(raw.json.data(), raw.json.size(), rapidjson::kObjectType); }

// {"type":"control_request","request_id":ID,"request":{"subtype":SUBTYPE, ...fill}}
template <class Fill>
void write_request(json::Writer& w, std::string_view request_id, std::string_view subtype, Fill fill) {
    ObjectWriter(w)
        .field("type", kControlRequest)
        .field("request_id", request_id)
        .object("request", [&](ObjectWriter& r) {
            r.field("subtype", subtype);
            fill(r);
        });
}

// {"type":"control_response","response":{"subtype":"success","request_id":ID,"response":{...fill}}}
template <class Fill>
void write_success(json::Writer& w, std::string_view request_id, Fill fill) {
    ObjectWriter(w).field("type", kControlResponse).object("response", [&](ObjectWriter& r) {
        r.field("subtype", "success").field("request_id", request_id).object("response", fill);
    });
}

// One of the rules a PermissionRequest hook adds: the whole tool, for the session.
struct ToolRule {
    std::string_view tool;
};
void to_json(ToolRule r, json::Writer& w) { ObjectWriter(w).field("toolName", r.tool); }
struct SessionRules {
    std::string_view tool;
};
void to_json(SessionRules r, json::Writer& w) {
    ObjectWriter(w)
        .field("type", "addRules")
        .field("rules", std::vector<ToolRule>{{r.tool}})
        .field("behavior", "allow")
        .field("destination", "session");
}

// PreToolUse: the decision's members beside hookEventName.
void write_pre_tool_use(ObjectWriter& o, const HookOutput& h) {
    if (const auto* deny = std::get_if<Deny>(&h.decision)) {
        o.field("permissionDecision", "deny").field("permissionDecisionReason", deny->message);
        return;
    }
    o.field("permissionDecision", "allow");
    if (const auto* allow = std::get_if<Allow>(&h.decision); allow && !allow->updated_input_json.empty())
        o.field("updatedInput", RawText{allow->updated_input_json});
}

// PermissionRequest: the decision object.
void write_permission_decision(ObjectWriter& o, const HookOutput& h) {
    if (const auto* deny = std::get_if<Deny>(&h.decision)) {
        o.field("behavior", "deny").field("message", deny->message);
        return;
    }
    o.field("behavior", "allow");
    if (const auto* allow = std::get_if<Allow>(&h.decision); allow && !allow->updated_input_json.empty())
        o.field("updatedInput", RawText{allow->updated_input_json});
    if (const auto* always = std::get_if<AllowAlways>(&h.decision))
        o.field("updatedPermissions", std::vector<SessionRules>{{always->tool}});
}

}  // namespace

// ---- reading ------------------------------------------------------------------------------------

json::FieldStatus from_json(const rapidjson::Value& v, Envelope& out, const Path& at) {
    return ObjectReader(v, at).lenient("type", out.type).lenient("request_id", out.request_id).status();
}

const rapidjson::Value& ToolRequest::input_or_empty() const {
    static const rapidjson::Value empty(rapidjson::kObjectType);
    return input.value ? *input.value : empty;
}

json::FieldStatus from_json(const rapidjson::Value& v, ToolRequest& out, const Path& at) {
    ObjectReader o(v, at);
    o.lenient("subtype", out.subtype).lenient("tool_name", out.tool_name).lenient("agent_id", out.agent_id);
    return o.lenient("input", out.input).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, ControlRequest& out, const Path& at) {
    return ObjectReader(v, at).lenient("request_id", out.request_id).lenient("request", out.request).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, ControlResponse::Body& out, const Path& at) {
    return ObjectReader(v, at).lenient("subtype", out.subtype).lenient("error", out.error).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, ControlResponse& out, const Path& at) {
    return ObjectReader(v, at).lenient("response", out.response).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, ResultText& out, const Path& at) {
    if (v.IsString()) {
        out.text = json::str(v);
        return {};
    }
    if (!v.IsArray()) return json::invalid(at, "expected a string or an array");
    for (const auto& block : v.GetArray()) out.text += json::string_of(block, "text");
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, ContentBlock& out, const Path& at) {
    if (!json::is_object(v)) return {};  // skipped, not the end of the message
    ObjectReader o(v, at);
    o.lenient("type", out.type).lenient("text", out.text).lenient("name", out.name).lenient("input", out.input);
    return o.lenient("content", out.content).lenient("is_error", out.is_error).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, MessageBody& out, const Path& at) {
    return ObjectReader(v, at).lenient("content", out.content).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, ConversationMessage& out, const Path& at) {
    return ObjectReader(v, at).lenient("message", out.message).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, Result& out, const Path& at) {
    ObjectReader o(v, at);
    return o.lenient("subtype", out.subtype).lenient("result", out.result).lenient("is_error", out.is_error).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, System& out, const Path& at) {
    ObjectReader o(v, at);
    o.lenient("subtype", out.subtype).lenient("session_id", out.session_id).lenient("model", out.model);
    return o.lenient("error", out.error).lenient("attempt", out.attempt).status();
}

// ---- writing ------------------------------------------------------------------------------------

void to_json(const UserMessage& m, json::Writer& w) {
    ObjectWriter o(w);
    o.field("type", "user").field("session_id", "");
    o.object("message", [&](ObjectWriter& msg) { msg.field("role", "user").field("content", m.text); });
    o.field("parent_tool_use_id", json::Null{});
}

void to_json(const Initialize& r, json::Writer& w) {
    write_request(w, r.request_id, "initialize", [](ObjectWriter& o) { o.field("hooks", json::Null{}); });
}

void to_json(const Interrupt& r, json::Writer& w) {
    write_request(w, r.request_id, "interrupt", [](ObjectWriter&) {});
}

void to_json(const Allow& a, json::Writer& w) {
    write_success(w, a.request_id, [&](ObjectWriter& r) {
        r.field("behavior", "allow").field("updatedInput", RawText{a.updated_input_json});
    });
}

void to_json(const Deny& d, json::Writer& w) {
    write_success(w, d.request_id, [&](ObjectWriter& r) { r.field("behavior", "deny").field("message", d.message); });
}

void to_json(const ControlError& e, json::Writer& w) {
    ObjectWriter(w).field("type", kControlResponse).object("response", [&](ObjectWriter& r) {
        r.field("subtype", "error").field("request_id", e.request_id).field("error", e.error);
    });
}

void to_json(const HookOutput& h, json::Writer& w) {
    ObjectWriter(w).object("hookSpecificOutput", [&](ObjectWriter& o) {
        o.field("hookEventName", h.event);
        if (h.event == "PreToolUse") write_pre_tool_use(o, h);
        else o.object("decision", [&](ObjectWriter& d) { write_permission_decision(d, h); });
    });
}

}  // namespace askhost::claude
