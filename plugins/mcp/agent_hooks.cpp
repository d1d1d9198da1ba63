#include "agent_hooks.hpp"

#include <string>
#include <variant>

#include <unistd.h>

#include "core/fd_io.hpp"
#include "core/self_path.hpp"
#include "json/json_access.hpp"

namespace askhost::mcp {

namespace {

constexpr std::size_t kMaxInput = 8u << 20;

}  // namespace

int install_agent_hooks(const cli::Args& args, const AgentHooks& agent) {
    const auto chosen =
        store::hooks_file_path(args.value(agent.file_option).value_or(""), args.has("project"), agent.project_file,
                               agent.home_variable, agent.home_name, agent.home_file);
    const std::string who = "askhost " + std::string(agent.subcommand);
    if (args.has("remove")) return store::uninstall_command_hooks(who, chosen, agent.file_option, agent.subcommand);
    // This binary by its full path: the agents run hooks without askhost's PATH in mind, and Codex
    // trusts a hook by its command, so the command stays the same until askhost moves.
    const std::string self = self_path();
    const std::string command = (self.empty() ? std::string("askhost") : self) + " " + std::string(agent.subcommand);
    std::vector<store::CommandHook> hooks = agent.hooks;
    for (auto& hook : hooks) hook.command = command;
    return store::install_command_hooks(who, chosen, agent.file_option, hooks, agent.subcommand, agent.what);
}

int run_context_hook(const std::vector<std::string>& args, const cli::Command& command,
                     int (*install)(const cli::Args&), std::initializer_list<HookEvent> events) {
    auto read = cli::read(args, command);
    if (auto* done = std::get_if<cli::Exit>(&read)) return done->print();
    const cli::Args& a = std::get<cli::Args>(read);
    if (!a.operands.empty()) return install(a);  // the one word it takes
    if (!a.given.empty())
        return cli::usage_error(command, "--" + std::string(a.given[0].first) + " goes with install").print();
    // Typed at a terminal, it would wait for JSON nobody sends.
    if (::isatty(0))
        return cli::usage_error(command, "the agent runs this with the hook's JSON on stdin, not a terminal (askhost " +
                                             std::string(command.name) + " install sets it up)")
            .print();
    const auto say = [&](const std::string& m) {
        write_all(2, "askhost " + std::string(command.name) + ": " + m + "\n");
    };
    bool too_big = false;
    const std::string in = read_all(0, kMaxInput, &too_big);
    if (too_big) {
        say("the hook's input is over " + std::to_string(kMaxInput) + " bytes; nothing added");
        return 0;
    }
    rapidjson::Document doc;
    if (auto err = json::parse(doc, in); err || !doc.IsObject()) {
        say("the hook's input is not a JSON object" + (err ? ": " + err->message : std::string()) + "; nothing added");
        return 0;
    }
    const std::string got = json::string_of(doc, "hook_event_name");
    for (const auto& e : events)
        if (got == e.event) return e.handle(doc);
    say("the hook event '" + got + "' is not one askhost " + std::string(command.name) + " handles; nothing added");
    return 0;
}
}  // namespace askhost::mcp
