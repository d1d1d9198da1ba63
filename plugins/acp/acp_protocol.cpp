#include "acp_protocol.hpp"

namespace askhost::acp {

using json::ObjectReader;
using json::ObjectWriter;
using json::Path;

namespace {

// _meta.claudeCode of a tool call (claude-agent-acp), read leniently.
struct ClaudeCodeMeta {
    std::string tool_name;
};
struct ToolCallMeta {
    ClaudeCodeMeta claude_code;
};
json::FieldStatus from_json(const rapidjson::Value& v, ClaudeCodeMeta& out, const Path& at) {
    return ObjectReader(v, at).lenient("toolName", out.tool_name).status();
}
json::FieldStatus from_json(const rapidjson::Value& v, ToolCallMeta& out, const Path& at) {
    return ObjectReader(v, at).lenient("claudeCode", out.claude_code).status();
}

}  // namespace

// ---- writing ------------------------------------------------------------------------------------

void to_json(const ContentBlock& c, json::Writer& w) { ObjectWriter(w).field("type", c.type).field("text", c.text); }

void to_json(const InitializeParams& p, json::Writer& w) {
    ObjectWriter o(w);
    o.field("protocolVersion", p.protocol_version);
    const ClientCapabilities& c = p.client_capabilities;
    o.object("clientCapabilities", [&](ObjectWriter& caps) {
        caps.object("fs", [&](ObjectWriter& fs) {
            fs.field("readTextFile", c.read_text_file).field("writeTextFile", c.write_text_file);
        });
        caps.field("terminal", c.terminal);
        if (c.form_elicitation)
            caps.object("elicitation", [](ObjectWriter& e) { e.field("form", json::EmptyObject{}); });
    });
    o.object("clientInfo", [&](ObjectWriter& info) {
        info.field("name", p.client_info.name).field("version", p.client_info.version);
    });
}

void to_json(const NewSessionParams& p, json::Writer& w) {
    ObjectWriter(w).field("cwd", p.cwd).field("mcpServers", std::vector<json::EmptyObject>{});
}

void to_json(const PromptParams& p, json::Writer& w) {
    ObjectWriter(w).field("sessionId", p.session_id).field("prompt", p.prompt);
}

void to_json(const CancelNotification& p, json::Writer& w) { ObjectWriter(w).field("sessionId", p.session_id); }

void to_json(const PermissionOutcome& o, json::Writer& w) {
    ObjectWriter(w).object("outcome", [&](ObjectWriter& outcome) {
        if (o.option_id) outcome.field("outcome", "selected").field("optionId", *o.option_id);
        else outcome.field("outcome", "cancelled");
    });
}

void to_json(const ReadTextFileResult& r, json::Writer& w) { ObjectWriter(w).field("content", r.content); }

// ---- reading ------------------------------------------------------------------------------------

json::FieldStatus from_json(const rapidjson::Value& v, ContentBlock& out, const Path& at) {
    ObjectReader(v, at).lenient("type", out.type).lenient("text", out.text);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, InitializeResult& out, const Path& at) {
    ObjectReader(v, at).lenient("protocolVersion", out.protocol_version);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, NewSessionResult& out, const Path& at) {
    return ObjectReader(v, at)
        .required("sessionId", out.session_id)
        .check(!out.session_id.empty(), "sessionId", "expected a non-empty string")
        .status();
}

json::FieldStatus from_json(const rapidjson::Value& v, PromptResult& out, const Path& at) {
    ObjectReader(v, at).lenient("stopReason", out.stop_reason);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, ToolCallLocation& out, const Path& at) {
    ObjectReader(v, at).lenient("path", out.path);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, ToolCallContent& out, const Path& at) {
    ObjectReader(v, at)
        .lenient("type", out.type)
        .lenient("content", out.content)
        .lenient("path", out.path)
        .lenient("newText", out.new_text);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, ToolCallUpdate& out, const Path& at) {
    ToolCallMeta meta;
    ObjectReader o(v, at);
    o.lenient("toolCallId", out.tool_call_id)
        .lenient("title", out.title)
        .lenient("kind", out.kind)
        .lenient("status", out.status)
        .lenient("name", out.name)
        .lenient("_meta", meta)
        .lenient("rawInput", out.raw_input)
        .lenient("locations", out.locations)
        .lenient("content", out.content);
    out.claude_tool_name = meta.claude_code.tool_name;
    return o.status();
}

json::FieldStatus from_json(const rapidjson::Value& v, PermissionOption& out, const Path& at) {
    return ObjectReader(v, at)
        .required("optionId", out.option_id)
        .check(!out.option_id.empty(), "optionId", "expected a non-empty string")
        .lenient("name", out.name)
        .lenient("kind", out.kind)
        .status();
}

json::FieldStatus from_json(const rapidjson::Value& v, RequestPermissionParams& out, const Path& at) {
    return ObjectReader(v, at)
        .required("toolCall", out.tool_call)
        .optional("options", out.options)
        .check(!out.options.empty(), "options", "expected a non-empty array")
        .status();
}

json::FieldStatus from_json(const rapidjson::Value& v, Count& out, const Path& at) {
    if (!v.IsUint64()) return json::invalid(at, "expected a non-negative integer");
    out.value = static_cast<std::size_t>(v.GetUint64());
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, ReadTextFileParams& out, const Path& at) {
    ObjectReader o(v, at);
    o.required("path", out.path).lenient("line", out.line).lenient("limit", out.limit);
    return o.status();
}

json::FieldStatus from_json(const rapidjson::Value& v, WriteTextFileParams& out, const Path& at) {
    return ObjectReader(v, at).required("path", out.path).required("content", out.content).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, PlanEntry& out, const Path& at) {
    ObjectReader(v, at).lenient("content", out.content).lenient("status", out.status);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, SessionUpdate& out, const Path& at) {
    ObjectReader o(v, at);
    o.lenient("sessionUpdate", out.kind).lenient("content", out.message).lenient("entries", out.entries);
    if (o.ok()) from_json(v, out.tool, at);
    return o.status();
}

json::FieldStatus from_json(const rapidjson::Value& v, SessionNotification& out, const Path& at) {
    return ObjectReader(v, at).required("update", out.update).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, CancelRequestParams& out, const Path& at) {
    return ObjectReader(v, at).required("requestId", out.request_id).status();
}

}  // namespace askhost::acp
