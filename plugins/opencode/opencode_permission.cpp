// The pure half of `askhost opencode permission`: the plugin's request read, the reply for an outcome.
#include "opencode_permission.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "json/json_access.hpp"

namespace askhost::opencode {

namespace {

std::string joined(const rapidjson::Value* list) {
    std::string out;
    if (list && list->IsArray())
        for (const auto& v : list->GetArray())
            if (v.IsString()) out += (out.empty() ? "" : ", ") + std::string(json::str(v));
    return out;
}

// What the prompt is about, in a line: OpenCode's own metadata for its tools (bash: the command;
// edit: the file; webfetch: the URL); a folder outside the project, or another kind: its patterns.
std::string title_of(const std::string& kind, const rapidjson::Value& metadata, const std::string& patterns) {
    if (kind != "external_directory")
        for (const char* key : {"command", "filepath", "url"})
            if (std::string v = json::string_of(metadata, key); !v.empty()) return v;
    return patterns.empty() ? kind : kind + " " + patterns;
}

}  // namespace

PermissionAsk read_permission_request(const rapidjson::Value& request) {
    PermissionAsk r;
    if (!json::is_object(request)) {
        r.why = "the request is not a JSON object";
        return r;
    }
    r.id = json::string_of(request, "id");
    r.session = json::string_of(request, "sessionID");
    const std::string kind = json::string_of(request, "permission");
    if (r.id.empty() || kind.empty()) {
        r.why = "the permission request has no id or no permission";
        return r;
    }
    static const rapidjson::Value empty(rapidjson::kObjectType);
    const auto* md = json::member(request, "metadata");
    const rapidjson::Value& metadata = md && json::is_object(*md) ? *md : empty;
    const std::string patterns = joined(json::member(request, "patterns"));
    const std::string always = joined(json::member(request, "always"));
    PermissionRequest& p = r.request;
    p.tool = kind;
    p.title = title_of(kind, metadata, patterns);
    if (p.title.find(patterns) == std::string::npos) p.detail = patterns;
    p.command = json::string_of(metadata, "command");
    p.path = json::string_of(metadata, "filepath");
    p.content = json::string_of(metadata, "diff");  // an edit's change, as OpenCode shows it
    // OpenCode's three replies, in the words of its own prompt.
    p.choices = {
        {"once", "Allow once", PermissionKind::AllowOnce, "This time only"},
        {"always", "Always allow", PermissionKind::AllowAlways,
         "OpenCode allows " + (always.empty() ? kind : always) + " without asking for the rest of this session"},
        {"reject", "Reject", PermissionKind::RejectOnce, "Do not do it; the model is told you refused"},
    };
    r.ask.take_asked(permission_ask(p));
    r.ask.agent = "opencode";
    r.ask.route = "plugin";
    r.ask.profile = Profile::Lenient;
    r.ask.cwd = json::string_of(request, "directory");
    r.ours = true;
    return r;
}

std::string permission_reply(const PermissionAsk& asked, const Outcome& outcome) {
    // Timed out, gone, pending: OpenCode's own prompt stays the one that answers.
    if (outcome.kind != OutcomeKind::Answered && outcome.kind != OutcomeKind::Cancelled) return {};
    const PermissionDecision d = decide_permission(asked.request, outcome);
    // Declined in askhost (Esc, Cancel): a refusal, as Claude's hook says no.
    const std::string reply = d.cancelled() ? std::string("reject") : d.choice->id;
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    w.Key("reply");
    w.String(reply.c_str(), static_cast<rapidjson::SizeType>(reply.size()));
    if (!d.cancelled() && !d.message.empty()) {
        w.Key("message");
        w.String(d.message.c_str(), static_cast<rapidjson::SizeType>(d.message.size()));
    }
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

}  // namespace askhost::opencode
