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

RequestMeta request_meta(const Value& params) {
    RequestMeta out;
    if (!params.IsObject()) return out;
    auto meta = params.FindMember("_meta");
    if (meta == params.MemberEnd() || !meta->value.IsObject()) return out;
    const Value& m = meta->value;
    auto version = m.FindMember("io.modelcontextprotocol/protocolVersion");
    if (version != m.MemberEnd() && version->value.IsString()) out.protocol_version = version->value.GetString();
    auto info = m.FindMember("io.modelcontextprotocol/clientInfo");
    if (info != m.MemberEnd() && info->value.IsObject()) {
        auto name = info->value.FindMember("name");
        if (name != info->value.MemberEnd() && name->value.IsString()) out.client_name = name->value.GetString();
    }
    auto caps = m.FindMember("io.modelcontextprotocol/clientCapabilities");
    out.elicits = caps != m.MemberEnd() && caps->value.IsObject() && caps->value.HasMember("elicitation");
    out.capabilities = caps != m.MemberEnd() && caps->value.IsObject();
    if (out.capabilities) {
        auto ext = caps->value.FindMember("extensions");
        out.tasks = ext != caps->value.MemberEnd() && ext->value.IsObject() &&
                    ext->value.HasMember("io.modelcontextprotocol/tasks");
    }
    return out;
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
        .lenient("inputResponses", out.input_responses)
        .lenient("requestState", out.request_state)
        .status();
}

json::FieldStatus from_json(const Value& v, ElicitResult& out, const Path& at) {
    ObjectReader(v, at).lenient("action", out.action).lenient("content", out.content);
    return {};
}

json::FieldStatus from_json(const Value& v, TaskParams& out, const Path& at) {
    return ObjectReader(v, at).required("taskId", out.task_id).lenient("inputResponses", out.input_responses).status();
}

json::FieldStatus from_json(const Value& v, CancelledParams& out, const Path& at) {
    return ObjectReader(v, at).required("requestId", out.request_id).status();
}

namespace {

constexpr std::string_view kInstructions =
    "ask_user_question shows your questions to the user (in their editor, terminal or any attached askhost "
    "client) and returns their answers.";

void write_capabilities(ObjectWriter& o, bool tasks = false) {
    o.object("capabilities", [tasks](ObjectWriter& caps) {
        caps.object("tools", [](ObjectWriter& tools) { tools.field("listChanged", false); });
        if (tasks)
            caps.object("extensions",
                        [](ObjectWriter& ext) { ext.object("io.modelcontextprotocol/tasks", [](ObjectWriter&) {}); });
    });
}

void write_server_info(ObjectWriter& info) {
    info.field("name", "askhost").field("title", "askhost").field("version", ASKHOST_VERSION);
}

}  // namespace

const std::string& server_info_member() {
    static const std::string member = [] {
        rapidjson::StringBuffer buf;
        json::Writer w(buf);
        {
            ObjectWriter o(w);
            o.object("io.modelcontextprotocol/serverInfo", write_server_info);
        }
        // The object's one member, without the braces around it.
        return std::string(buf.GetString() + 1, buf.GetSize() - 2);
    }();
    return member;
}

void to_json(const InitializeResult& r, json::Writer& w) {
    ObjectWriter o(w);
    o.field("protocolVersion", r.protocol_version);
    write_capabilities(o);
    o.object("serverInfo", write_server_info);
    o.field("instructions", kInstructions);
}

void to_json(const DiscoverResult& r, json::Writer& w) {
    ObjectWriter o(w);
    o.field("resultType", "complete");
    w.Key("supportedVersions");
    w.StartArray();
    for (const auto& v : r.versions) w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
    w.EndArray();
    write_capabilities(o, r.tasks);
    o.field("_meta", json::RawJson{"{" + server_info_member() + "}"});
    o.field("instructions", kInstructions);
    o.field("ttlMs", 86400000).field("cacheScope", "public");
}

void to_json(const ProgressParams& p, json::Writer& w) {
    ObjectWriter o(w);
    o.field("progressToken", json::RawJson{p.token_json}).field("progress", p.progress).field("message", p.message);
}

}  // namespace askhost::mcp
