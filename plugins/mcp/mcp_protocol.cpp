#include "mcp_protocol.hpp"

#include "askhost_config.h"

namespace askhost::mcp {

using json::ObjectReader;
using json::ObjectWriter;
using json::Path;
using rapidjson::Value;

namespace {

struct ClientInfo {
    std::string name;
};
json::FieldStatus from_json(const Value& v, ClientInfo& out, const Path& at) {
    return ObjectReader(v, at).required("name", out.name).status();
}

struct CodexTurnMetadata {
    std::string thread_source, subagent_kind;
};
json::FieldStatus from_json(const Value& v, CodexTurnMetadata& out, const Path& at) {
    return ObjectReader(v, at)
        .lenient("thread_source", out.thread_source)
        .lenient("subagent_kind", out.subagent_kind)
        .status();
}

}  // namespace

json::FieldStatus from_json(const Value& v, InitializeParams& out, const Path& at) {
    ObjectReader o(v, at);
    std::optional<ClientInfo> client;
    o.lenient("protocolVersion", out.protocol_version).lenient("clientInfo", client);
    if (client && !client->name.empty()) out.client_name = client->name;
    const rapidjson::Value* caps = o.member("capabilities");
    out.elicits = caps && caps->IsObject() && caps->HasMember("elicitation");
    return {};
}

json::FieldStatus from_json(const Value& v, ToolCallMeta& out, const Path& at) {
    ObjectReader o(v, at);
    std::optional<CodexTurnMetadata> codex;
    json::Borrowed token;
    o.lenient("x-codex-turn-metadata", codex)
        .lenient("progressToken", token)
        .lenient("claudecode/toolUseId", out.claude_tool_use_id);
    out.from_subagent = codex && (codex->thread_source == "subagent" || !codex->subagent_kind.empty());
    if (token.value && (token.value->IsString() || json::is_number(*token.value)))
        out.progress_token = askhost::to_json(*token.value);
    return {};
}

json::FieldStatus from_json(const Value& v, CallToolParams& out, const Path& at) {
    return ObjectReader(v, at)
        .required("name", out.name)
        .optional("arguments", out.arguments)
        .lenient("_meta", out.meta)
        .status();
}

json::FieldStatus from_json(const Value& v, ElicitResult& out, const Path& at) {
    ObjectReader(v, at).lenient("action", out.action).lenient("content", out.content);
    return {};
}

json::FieldStatus from_json(const Value& v, CancelledParams& out, const Path& at) {
    return ObjectReader(v, at).required("requestId", out.request_id).status();
}

void to_json(const InitializeResult& r, json::Writer& w) {
    ObjectWriter o(w);
    o.field("protocolVersion", r.protocol_version);
    o.object("capabilities", [](ObjectWriter& caps) {
        caps.object("tools", [](ObjectWriter& tools) { tools.field("listChanged", false); });
    });
    o.object("serverInfo", [](ObjectWriter& info) {
        info.field("name", "askhost").field("title", "askhost").field("version", ASKHOST_VERSION);
    });
    o.field("instructions",
            "ask_user_question shows your questions to the user (in their editor, terminal or any attached askhost "
            "client) and returns their answers.");
}

void to_json(const ProgressParams& p, json::Writer& w) {
    ObjectWriter o(w);
    o.field("progressToken", json::RawJson{p.token_json}).field("progress", p.progress).field("message", p.message);
}

}  // namespace askhost::mcp
