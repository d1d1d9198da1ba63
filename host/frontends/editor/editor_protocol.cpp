#include "frontends/editor/editor_protocol.hpp"

#include "askhost_config.h"
#include "json/json_text.hpp"

namespace askhost {

using json::ObjectReader;
using json::ObjectWriter;
using json::Path;

json::FieldStatus from_json(const rapidjson::Value& v, WorkspaceFolderParam& out, const Path& at) {
    ObjectReader(v, at).lenient("uri", out.uri).lenient("name", out.name);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, InitializeParams& out, const Path& at) {
    ObjectReader o(v, at);
    if (const auto* info = o.member("clientInfo")) {
        const Path info_at = at.field("clientInfo");
        ObjectReader(*info, info_at).lenient("name", out.client_name).lenient("version", out.client_version);
    }
    if (const auto* caps = o.member("capabilities")) {
        out.ask_caps = parse_client_caps(*caps);
        const Path caps_at = at.field("capabilities");
        ObjectReader(*caps, caps_at)
            .lenient("ask", out.show_asks)
            .lenient("passive", out.passive)
            .lenient("queued", out.queued);
    }
    o.lenient("workspaceFolders", out.workspace_folders).lenient("rootUri", out.root_uri);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, WorkspaceFoldersChange& out, const Path& at) {
    ObjectReader(v, at).lenient("added", out.added).lenient("removed", out.removed);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, DidChangeWorkspaceFoldersParams& out, const Path& at) {
    return ObjectReader(v, at).optional("event", out.event).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, AgentStartParams& out, const Path& at) {
    ObjectReader o(v, at);
    o.required("command", out.spec.argv)
        .check(!out.spec.argv.empty(), "command", "expected a non-empty array of strings")
        .lenient("cwd", out.spec.cwd)
        .optional("env", out.spec.env)
        .lenient("adapter", out.adapter);
    if (out.adapter.empty()) out.adapter = "auto";
    return o.status();
}

json::FieldStatus from_json(const rapidjson::Value& v, AgentPromptParams& out, const Path& at) {
    return ObjectReader(v, at).required("text", out.text).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, Profile& out, const Path& at) {
    auto parsed = v.IsString() ? parse_profile(json::str(v)) : std::nullopt;
    if (!parsed) return json::invalid(at, "expected \"strict\" or \"lenient\"");
    out = *parsed;
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, AskSubmitParams& out, const Path& at) {
    return ObjectReader(v, at)
        .optional("profile", out.profile)
        .optional("questions", out.questions)
        .optional("metadata", out.metadata)
        .optional("answers", out.answers)
        .optional("annotations", out.annotations)
        .optional("permission", out.permission)
        .lenient("agent", out.agent)
        .lenient("client", out.client)
        .lenient("route", out.route)
        .lenient("cwd", out.cwd)
        .status();
}

json::FieldStatus from_json(const rapidjson::Value& v, CancelParams& out, const Path& at) {
    return ObjectReader(v, at).required("id", out.id).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, CancelRequestParams& out, const Path& at) {
    return ObjectReader(v, at).required("askId", out.ask_id).lenient("id", out.id).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, Stream& out, const Path& at) {
    const std::string_view name = v.IsString() ? json::str(v) : std::string_view();
    if (name != "stdout" && name != "stderr") return json::invalid(at, "expected \"stdout\" or \"stderr\"");
    out = name == "stderr" ? Stream::Stderr : Stream::Stdout;
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, AgentOutputParams& out, const Path& at) {
    return ObjectReader(v, at).required("text", out.text).lenient("stream", out.stream).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, AskShowParams& out, const Path& at) {
    json::Borrowed permission;
    ObjectReader o(v, at);
    o.required("id", out.ask.id)
        .check(!out.ask.id.empty(), "id", "expected a non-empty string")
        .required("questions", out.questions)
        .optional("permission", permission)
        .optional("metadata", out.metadata)
        .lenient("agent", out.ask.agent)
        .lenient("route", out.ask.route)
        .lenient("cwd", out.ask.cwd);
    if (!o.ok()) return o.status();
    rapidjson::Document tool(rapidjson::kObjectType);
    tool.AddMember("questions", rapidjson::Value(*out.questions.value, tool.GetAllocator()), tool.GetAllocator());
    if (permission.value)
        tool.AddMember("permission", rapidjson::Value(*permission.value, tool.GetAllocator()), tool.GetAllocator());
    auto parsed = parse_ask_input(tool, Profile::Lenient);
    if (auto* r = std::get_if<Refusal>(&parsed)) return json::FieldError{r->path, r->message};
    auto& input = std::get<AskInput>(parsed);
    out.ask.questions = std::move(input.questions);
    out.ask.permission = std::move(input.permission);
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, AskStateParams& out, const Path& at) {
    return ObjectReader(v, at).lenient("state", out.state).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, AgentExitParams& out, const Path& at) {
    return ObjectReader(v, at).lenient("exitCode", out.exit_code).lenient("signal", out.signal).status();
}

void to_json(const InitializeParams& p, json::Writer& w) {
    ObjectWriter o(w);
    o.object("clientInfo",
             [&](ObjectWriter& info) { info.field("name", p.client_name).field("version", p.client_version); });
    o.object("capabilities", [&](ObjectWriter& caps) {
        if (p.passive) caps.field("passive", true);
        if (p.queued) caps.field("queued", true);
        if (p.show_asks == false) {
            caps.field("ask", false);
            return;
        }
        caps.object("ask", [&](ObjectWriter& ask) {
            ask.field("multiSelect", p.ask_caps.multi_select)
                .field("previews", p.ask_caps.previews)
                .field("notes", p.ask_caps.notes);
        });
    });
}

void to_json(const SubmitAsk& s, json::Writer& w) {
    ObjectWriter o(w);
    write_ask_members(w, s.ask, ClientAskCaps{});
    o.field("profile", profile_name(s.profile));
}

void to_json(const CancelParams& p, json::Writer& w) { ObjectWriter(w).field("id", p.id); }

void to_json(const AnswerRefusedParams& p, json::Writer& w) {
    ObjectWriter(w).field("askId", p.ask_id).field("message", p.message);
}

void to_json(const InitializeResult& r, json::Writer& w) {
    ObjectWriter o(w);
    o.object("serverInfo", [](ObjectWriter& info) { info.field("name", "askhost").field("version", ASKHOST_VERSION); });
    o.object("capabilities", [](ObjectWriter& caps) {
        caps.object("ask", [](ObjectWriter& ask) {
            ask.field("multiSelect", true).field("previews", true).field("notes", true);
        });
        caps.object("agent",
                    [](ObjectWriter& agent) { agent.field("start", true).field("prompt", true).field("stop", true); });
        caps.object("workspace", [](ObjectWriter& ws) {
            ws.object("workspaceFolders", [](ObjectWriter& folders) {
                folders.field("supported", true).field("changeNotifications", true);
            });
        });
    });
    if (r.socket.empty()) o.field("socket", json::Null{});
    else o.field("socket", r.socket);
}

void to_json(const AgentStartResult& r, json::Writer& w) { ObjectWriter(w).field("pid", r.pid); }

void to_json(const AgentExit& e, json::Writer& w) {
    ObjectWriter o(w);
    if (e.signal) o.field("exitCode", json::Null{}).field("signal", e.signal);
    else o.field("exitCode", e.exit_code).field("signal", json::Null{});
}

void to_json(const CancelRequestParams& p, json::Writer& w) {
    ObjectWriter(w).field("id", p.id).field("askId", p.ask_id);
}

void to_json(const AgentOutputParams& p, json::Writer& w) {
    ObjectWriter o(w);
    o.field("stream", p.stream == Stream::Stdout ? "stdout" : "stderr");
    // Agent output is any bytes: written as valid UTF-8 text (invalid bytes become U+FFFD).
    std::string text;
    append_json_text(text, p.text);
    o.field("text", json::RawJson{std::move(text)});
}

void to_json(const Outcome& outcome, json::Writer& w) {
    w.StartObject();
    write_native_result(w, outcome);
    w.EndObject();
}

void to_json(const AskShowResult& r, json::Writer& w) {
    std::visit([&](const auto& v) { to_json(v, w); }, r.value);
}

}  // namespace askhost
