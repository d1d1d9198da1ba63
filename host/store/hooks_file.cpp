#include "hooks_file.hpp"

#include <cstdlib>

#include <sys/stat.h>

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "core/fd_io.hpp"
#include "fs_util.hpp"
#include "json/json_access.hpp"

namespace askhost::store {

namespace {

bool is_ours(std::string_view command, std::string_view subcommand) {
    const std::string tail = " " + std::string(subcommand);
    return command.find("askhost") != std::string_view::npos && command.size() >= tail.size() &&
           command.substr(command.size() - tail.size()) == tail;
}

// The array at doc.hooks[event], made (or remade, when it is not an array) as needed.
rapidjson::Value& event_list(rapidjson::Document& doc, const std::string& event) {
    auto& alloc = doc.GetAllocator();
    if (!doc.HasMember("hooks") || !doc["hooks"].IsObject()) {
        doc.RemoveMember("hooks");
        doc.AddMember("hooks", rapidjson::Value(rapidjson::kObjectType), alloc);
    }
    auto& hooks = doc["hooks"];
    if (!hooks.HasMember(event.c_str()) || !hooks[event.c_str()].IsArray()) {
        hooks.RemoveMember(event.c_str());
        hooks.AddMember(rapidjson::Value(event.c_str(), alloc), rapidjson::Value(rapidjson::kArrayType), alloc);
    }
    return hooks[event.c_str()];
}

bool merge_one(rapidjson::Document& doc, const CommandHook& spec, std::string_view subcommand) {
    auto& alloc = doc.GetAllocator();
    auto& list = event_list(doc, spec.event);
    for (const auto& entry : list.GetArray()) {
        const auto* inner = json::member(entry, "hooks");
        if (!inner || !inner->IsArray()) continue;
        for (const auto& h : inner->GetArray())
            if (is_ours(json::string_of(h, "command"), subcommand)) return false;
    }
    rapidjson::Value hook(rapidjson::kObjectType);
    hook.AddMember("type", "command", alloc);
    hook.AddMember("command", rapidjson::Value(spec.command.c_str(), alloc), alloc);
    if (spec.timeout_seconds > 0) hook.AddMember("timeout", spec.timeout_seconds, alloc);
    else if (spec.timeout_ms > 0) hook.AddMember("timeout", spec.timeout_ms, alloc);
    if (!spec.status_message.empty())
        hook.AddMember("statusMessage", rapidjson::Value(spec.status_message.c_str(), alloc), alloc);
    rapidjson::Value inner(rapidjson::kArrayType);
    inner.PushBack(hook, alloc);
    rapidjson::Value entry(rapidjson::kObjectType);
    entry.AddMember("matcher", rapidjson::Value(spec.matcher.c_str(), alloc), alloc);
    entry.AddMember("hooks", inner, alloc);
    list.PushBack(entry, alloc);
    return true;
}

// The settings file read as an object (missing or blank: {}), or why not.
std::optional<std::string> load_settings(const std::string& path, rapidjson::Document& doc) {
    const auto text = read_whole(path);
    if (text.status == FileText::Status::Error) return text.error;
    if (text.status == FileText::Status::Missing || text.data.find_first_not_of(" \t\r\n") == std::string::npos) {
        doc.SetObject();
    } else if (auto err = json::parse(doc, text.data); err || !doc.IsObject()) {
        return path + " is not a JSON object" +
               (err ? " (" + line_column(text.data, err->offset) + ": " + err->message + ")" : std::string()) +
               "; left as it is";
    }
    return std::nullopt;
}

// Written whole and atomically, keeping the file's mode (0644 for a new one).
std::optional<std::string> save_settings(const std::string& path, const rapidjson::Document& doc) {
    rapidjson::StringBuffer buf;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buf);
    w.SetIndent(' ', 2);
    json::write(doc, w);
    struct stat st {};
    const unsigned mode = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 0777) : 0644;
    if (auto err = atomic_write(path, std::string(buf.GetString(), buf.GetSize()) + "\n", mode)) return err->message;
    return std::nullopt;
}

// Takes askhost's hooks out of one event's list; true when it took any.
bool remove_from(rapidjson::Value& list, std::string_view subcommand) {
    bool changed = false;
    for (auto entry = list.Begin(); entry != list.End();) {
        auto* inner = entry->IsObject() && entry->HasMember("hooks") ? &(*entry)["hooks"] : nullptr;
        if (!inner || !inner->IsArray()) {
            ++entry;
            continue;
        }
        bool took = false;
        for (auto h = inner->Begin(); h != inner->End();) {
            if (is_ours(json::string_of(*h, "command"), subcommand)) {
                h = inner->Erase(h);
                took = true;
            } else {
                ++h;
            }
        }
        changed = changed || took;
        if (took && inner->Empty()) entry = list.Erase(entry);
        else ++entry;
    }
    return changed;
}

}  // namespace

std::optional<std::string> hooks_file_path(const std::string& given, bool project, std::string_view project_file,
                                           const char* dir_variable, std::string_view name,
                                           std::string_view home_file) {
    if (!given.empty()) return given;
    if (project) return std::string(project_file);
    if (const char* dir = std::getenv(dir_variable); dir && *dir) return std::string(dir) + "/" + std::string(name);
    if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/" + std::string(home_file);
    return std::nullopt;
}

HooksMerge merge_command_hooks(const std::string& path, const std::vector<CommandHook>& hooks,
                               std::string_view subcommand) {
    rapidjson::Document doc;
    if (auto err = load_settings(path, doc)) return {HooksMerge::Result::Failed, *err};
    bool changed = false;
    for (const auto& spec : hooks) changed = merge_one(doc, spec, subcommand) || changed;
    if (!changed) return {HooksMerge::Result::AlreadyThere, {}};
    if (auto err = save_settings(path, doc)) return {HooksMerge::Result::Failed, *err};
    return {HooksMerge::Result::Added, {}};
}

int install_command_hooks(std::string_view who, const std::optional<std::string>& chosen, std::string_view path_option,
                          const std::vector<CommandHook>& hooks, std::string_view subcommand, std::string_view what) {
    if (!chosen) {
        write_all(2,
                  std::string(who) + " install: no HOME: name the file with --" + std::string(path_option) + " PATH\n");
        return 2;
    }
    const std::string& path = *chosen;
    const auto merged = merge_command_hooks(path, hooks, subcommand);
    switch (merged.result) {
        case HooksMerge::Result::Failed: write_all(2, std::string(who) + " install: " + merged.error + "\n"); return 1;
        case HooksMerge::Result::AlreadyThere:
            write_all(1, std::string(who) + " is already in " + path + "\n");
            return 0;
        case HooksMerge::Result::Added: break;
    }
    write_all(1, std::string(who) + " added to " + path + std::string(what));
    return 0;
}

HooksMerge remove_command_hooks(const std::string& path, std::string_view subcommand) {
    if (read_whole(path).status == FileText::Status::Missing) return {HooksMerge::Result::AlreadyThere, {}};
    rapidjson::Document doc;
    if (auto err = load_settings(path, doc)) return {HooksMerge::Result::Failed, *err};
    bool changed = false;
    if (auto* hooks = doc.HasMember("hooks") && doc["hooks"].IsObject() ? &doc["hooks"] : nullptr)
        for (auto event = hooks->MemberBegin(); event != hooks->MemberEnd();) {
            const bool took = event->value.IsArray() && remove_from(event->value, subcommand);
            changed = changed || took;
            if (took && event->value.Empty()) event = hooks->EraseMember(event);
            else ++event;
        }
    if (!changed) return {HooksMerge::Result::AlreadyThere, {}};
    if (auto err = save_settings(path, doc)) return {HooksMerge::Result::Failed, *err};
    return {HooksMerge::Result::Added, {}};
}

int uninstall_command_hooks(std::string_view who, const std::optional<std::string>& chosen,
                            std::string_view path_option, std::string_view subcommand) {
    if (!chosen) {
        write_all(2, std::string(who) + " install --remove: no HOME: name the file with --" + std::string(path_option) +
                         " PATH\n");
        return 2;
    }
    const auto removed = remove_command_hooks(*chosen, subcommand);
    switch (removed.result) {
        case HooksMerge::Result::Failed:
            write_all(2, std::string(who) + " install --remove: " + removed.error + "\n");
            return 1;
        case HooksMerge::Result::AlreadyThere:
            write_all(1, std::string(who) + " is not in " + *chosen + "\n");
            return 0;
        case HooksMerge::Result::Added: break;
    }
    write_all(1, std::string(who) + " removed from " + *chosen + "\n");
    return 0;
}

}  // namespace askhost::store
