// What `askhost codex-hook` and `askhost gemini-hook` share (plugins/codex, plugins/gemini): the
// command's body, and putting askhost's hooks into the agent's hooks file or taking them out.
#pragma once

#include <initializer_list>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "core/command_line.hpp"
#include "store/hooks_file.hpp"

namespace askhost::mcp {

// One hook event a command handles, and its handler.
struct HookEvent {
    std::string_view event;
    int (*handle)(const rapidjson::Value&);
};

// Where an agent keeps its hooks, and askhost's hooks there.
struct AgentHooks {
    std::string_view subcommand;    // "codex-hook": askhost's hooks are the commands that end in it
    std::string_view file_option;   // the option naming the file ("hooks": --hooks PATH)
    std::string_view project_file;  // --project's, under the working directory (".codex/hooks.json")
    const char* home_variable;      // the agent's own folder, when set ("CODEX_HOME")
    std::string_view home_name;     // the file in that folder ("hooks.json")
    std::string_view home_file;     // else the file under ~ (".codex/hooks.json")
    // askhost's hooks, their command left empty: this binary's, with the subcommand.
    std::vector<store::CommandHook> hooks;
    std::string_view what;  // said after "<who> added to <path>"
};

// `askhost SUBCOMMAND install [--project] [--FILE_OPTION PATH] [--remove]`: the hooks merged into
// the file (store::hooks_file_path chooses it), or taken out of it with --remove; the exit status.
int install_agent_hooks(const cli::Args& args, const AgentHooks& agent);

// The body of `askhost codex-hook` and `askhost gemini-hook`: the word `install` goes to `install`;
// otherwise the hook's JSON on stdin (at most 8 MiB) goes to the handler of its hook_event_name.
// Anything else is said on stderr and adds nothing: always 0 for the hook itself, so a failing
// hook never troubles the agent's session (and a question goes to the agent's own dialog).
int run_context_hook(const std::vector<std::string>& args, const cli::Command& command,
                     int (*install)(const cli::Args&), std::initializer_list<HookEvent> events);

}  // namespace askhost::mcp
