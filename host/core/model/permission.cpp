#include "core/model/permission.hpp"

#include "core/model/question.hpp"
#include "core/text/utf8.hpp"

namespace askhost {

namespace {

Refusal permission_error(const std::string& path, const std::string& detail) {
    return Refusal{"invalid_schema", path, path + ": " + detail};
}

// An optional string member; false (with `why`) when it is there but not a string of valid UTF-8
// within `max` bytes.
bool read_text(const rapidjson::Value& obj, const char* key, std::size_t max, std::string& out,
               std::optional<Refusal>& why) {
    const auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || it->value.IsNull()) return true;
    const std::string path = std::string("permission.") + key;
    if (!it->value.IsString()) {
        why = permission_error(path, "expected a string");
        return false;
    }
    out.assign(it->value.GetString(), it->value.GetStringLength());
    if (!utf8_valid(out)) {
        why = permission_error(path, "invalid UTF-8");
        return false;
    }
    if (out.size() > max) {
        why = permission_error(path, std::to_string(out.size()) + " bytes, at most " + std::to_string(max));
        return false;
    }
    return true;
}

void write_text(JsonTextWriter& w, const char* key, const std::string& s) {
    w.Key(key);
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

}  // namespace

PermissionKind parse_permission_kind(std::string_view kind) {
    if (kind == "allow_once") return PermissionKind::AllowOnce;
    if (kind == "allow_always") return PermissionKind::AllowAlways;
    if (kind == "reject_once") return PermissionKind::RejectOnce;
    if (kind == "reject_always") return PermissionKind::RejectAlways;
    return PermissionKind::Other;
}

std::string_view permission_kind_name(PermissionKind kind) {
    switch (kind) {
        case PermissionKind::AllowOnce: return "allow_once";
        case PermissionKind::AllowAlways: return "allow_always";
        case PermissionKind::RejectOnce: return "reject_once";
        case PermissionKind::RejectAlways: return "reject_always";
        case PermissionKind::Other: break;
    }
    return "other";
}

std::optional<Refusal> parse_permission(const rapidjson::Value& v, const std::vector<Question>& questions,
                                        Permission& out) {
    if (!v.IsObject()) return permission_error("permission", "expected an object");
    for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
        const std::string_view key(m->name.GetString(), m->name.GetStringLength());
        if (key != "tool" && key != "command" && key != "path" && key != "content" && key != "replaces" &&
            key != "reason" && key != "options")
            return permission_error("permission." + utf8::cut(key, 40, "..."), "unknown field");
    }
    std::optional<Refusal> why;
    if (!read_text(v, "tool", Limits::max_text_bytes, out.tool, why) ||
        !read_text(v, "command", kMaxPermissionTextBytes, out.command, why) ||
        !read_text(v, "path", Limits::max_text_bytes, out.path, why) ||
        !read_text(v, "content", kMaxPermissionTextBytes, out.content, why) ||
        !read_text(v, "replaces", kMaxPermissionTextBytes, out.replaces, why) ||
        !read_text(v, "reason", Limits::max_text_bytes, out.reason, why))
        return why;
    if (questions.size() != 1)
        return permission_error("permission",
                                "a permission is asked by one question, not " + std::to_string(questions.size()));
    const auto& shown = questions.front().options;
    const auto options = v.FindMember("options");
    if (options == v.MemberEnd() || !options->value.IsArray())
        return permission_error("permission.options", "expected an array of {label, kind}");
    if (options->value.Size() != shown.size())
        return permission_error("permission.options", std::to_string(options->value.Size()) +
                                                          " given, the question has " + std::to_string(shown.size()));
    for (rapidjson::SizeType i = 0; i < options->value.Size(); ++i) {
        const rapidjson::Value& o = options->value[i];
        const std::string path = "permission.options[" + std::to_string(i) + "]";
        if (!o.IsObject()) return permission_error(path, "expected an object");
        Permission::Choice c;
        std::string kind;
        if (!read_text(o, "label", Limits::max_text_bytes, c.label, why) || !read_text(o, "kind", 64, kind, why))
            return why;
        if (c.label != shown[i].label)
            return permission_error(path + ".label", "is not the question's option " + std::to_string(i + 1));
        c.kind = parse_permission_kind(kind);
        out.options.push_back(std::move(c));
    }
    if (questions.front().multi_select) return permission_error("permission", "its question cannot be multi-select");
    return std::nullopt;
}

void write_permission(JsonTextWriter& w, const Permission& p) {
    w.StartObject();
    write_text(w, "tool", p.tool);
    if (!p.command.empty()) write_text(w, "command", p.command);
    if (!p.path.empty()) write_text(w, "path", p.path);
    if (!p.content.empty()) write_text(w, "content", p.content);
    if (!p.replaces.empty()) write_text(w, "replaces", p.replaces);
    if (!p.reason.empty()) write_text(w, "reason", p.reason);
    w.Key("options");
    w.StartArray();
    for (const auto& c : p.options) {
        w.StartObject();
        write_text(w, "label", c.label);
        w.Key("kind");
        const std::string_view kind = permission_kind_name(c.kind);
        w.String(kind.data(), static_cast<rapidjson::SizeType>(kind.size()));
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

const Permission::Choice* permission_choice(const Permission& p, std::string_view label) {
    for (const auto& c : p.options)
        if (c.label == label) return &c;
    return nullptr;
}

}  // namespace askhost
