// A settings file that holds an agent's command hooks in Claude Code's shape, which Codex's
// hooks.json shares: {"hooks": {EVENT: [{"matcher": M, "hooks": [{"type": "command", "command":
// C, "timeout": S}]}]}}. `askhost hook install` and `askhost codex-hook install` add askhost's
// hooks to one, keeping everything else in it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace askhost::store {

struct CommandHook {
    std::string event;             // "PreToolUse", "SessionStart", ...
    std::string matcher;           // "*", "compact", a tool-name pattern
    std::string command;           // the whole command line the agent runs
    int timeout_seconds = 0;       // 0: the agent's default
    int timeout_ms = 0;            // the same for an agent that counts milliseconds (Gemini CLI)
    std::string status_message{};  // "": none (a field Codex shows while the hook runs)
};

// Which settings file an install edits: `given` (its --settings/--hooks PATH) when not empty; else
// `project_file` (relative, under the working directory) when `project`; else `name` in the folder
// $`dir_variable` names, when set; else ~/`home_file`. Nothing when it comes to HOME and HOME is unset.
std::optional<std::string> hooks_file_path(const std::string& given, bool project, std::string_view project_file,
                                           const char* dir_variable, std::string_view name, std::string_view home_file);

struct HooksMerge {
    enum class Result { Added, AlreadyThere, Failed } result = Result::Failed;
    std::string error;  // Failed: what went wrong, naming the file
};

// Adds each hook under hooks.EVENT of the JSON object in `path` unless that event holds one of
// askhost's already: a command naming askhost that ends in " " + `subcommand`. A missing or blank
// file counts as {}; a file that is not a JSON object is left as it is (Failed, with where it
// stops being JSON). Written whole and atomically, keeping the file's mode (0644 for a new one).
HooksMerge merge_command_hooks(const std::string& path, const std::vector<CommandHook>& hooks,
                               std::string_view subcommand);

// Takes askhost's hooks (commands naming askhost that end in " " + `subcommand`) out of every event
// of the file, and an entry or event list left empty by that; everything else stays. Added: some
// were taken out; AlreadyThere: none was there (a missing file too).
HooksMerge remove_command_hooks(const std::string& path, std::string_view subcommand);

// `askhost SUBCOMMAND install --remove`: "<who> removed from <path>" (0), "<who> is not in <path>"
// (0), or why not (1; 2 with no path).
int uninstall_command_hooks(std::string_view who, const std::optional<std::string>& path, std::string_view path_option,
                            std::string_view subcommand);

// An install's whole say, for `askhost SUBCOMMAND install`: merges `hooks` into `path` (as
// hooks_file_path chose it) and tells the person. No path (no HOME): "name the file with
// --<path_option> PATH", 2. Failed: "<who> install: <why>" on stderr, 1. There already: "<who> is
// already in <path>", 0. Added: "<who> added to <path>" and then `what` on stdout, 0.
int install_command_hooks(std::string_view who, const std::optional<std::string>& path, std::string_view path_option,
                          const std::vector<CommandHook>& hooks, std::string_view subcommand, std::string_view what);

}  // namespace askhost::store
