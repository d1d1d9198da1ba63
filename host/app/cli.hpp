// The command line: parsed once into a value; errors are values with a message.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/adapter.hpp"
#include "core/command_line.hpp"
#include "core/error.hpp"
#include "core/model/question.hpp"

namespace askhost {

enum class Mode { Auto, Stdio, Tui, Print };
// Run: askhost [OPTIONS] -- AGENT. The subcommands are in the table below.
enum class Command { Run, Help, Version, DumpOptions };

struct CliOptions {
    Command command = Command::Run;
    Mode mode = Mode::Auto;
    std::optional<Profile> profile;
    std::string answers_json;              // --answers
    std::chrono::milliseconds timeout{0};  // --timeout, 0 = wait forever
    std::string pending_file;              // --pending-file
    std::string session;                   // --session
    bool journal_sync_always = false;      // --journal-sync always (default deferred)
    std::string adapter = "auto";          // --adapter
    std::vector<std::string> on_question;  // --on-question CMD (split on spaces? no: one argv word)
    std::vector<std::string> allow_tools;  // --allow-tools LIST (repeatable)
    std::string prompt;                    // --prompt TEXT: the first user message
    std::vector<std::string> agent_argv;   // after --
};

// `askhost [OPTIONS] -- AGENT ARGS...`: its options, declared once for the reader, the help and
// the completions' drift test.
extern const cli::Command kRunCommand;

// The options of `askhost [OPTIONS] -- AGENT`, or a Usage error (exit 2) that says what is wrong
// with the command line. The subcommands are not read here: see find_subcommand.
Result<CliOptions> parse_cli(const std::vector<std::string>& args);

// askhost's own subcommands (attach, hosts, answer, ...), in the order askhost --help lists them.
std::span<const cli::Subcommand> builtin_subcommands();
// Every subcommand: askhost's own, then those the built-in adapters register (askhost mcp from
// plugins/mcp, askhost hook from plugins/claude).
std::vector<cli::Subcommand> all_subcommands(const AdapterRegistry& registry);
// The subcommand `name` (askhost NAME ARGS...), or null.
const cli::Subcommand* find_subcommand(std::span<const cli::Subcommand> table, std::string_view name);

// askhost --help: the usage of each subcommand and the options of running an agent.
std::string usage_text(const AdapterRegistry& registry);
// askhost --dump-options: every command (the registry's adapters' too) with its options (their
// help, and the words a value may be) and operands, as JSON: what `./dev completions` makes the
// completions and the man page's option lists of (host/completions/make_completions.py).
std::string options_json(const AdapterRegistry& registry);

std::string_view mode_name(Mode m);

}  // namespace askhost
