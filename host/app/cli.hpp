// The command line: parsed once into a value; errors are values with a message.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "core/model/question.hpp"

namespace askhost {

enum class Mode { Auto, Stdio, Tui, Print };
// Plugin: a subcommand a plugin serves (mcp, hook), named in command_name.
enum class Command { Run, Plugin, Answer, Questions, History, Attach, Hosts, Status, Jump, Web, Help, Version };

struct CliOptions {
    Command command = Command::Run;
    Mode mode = Mode::Auto;
    std::optional<Profile> profile;
    std::string answers_json;               // --answers
    std::chrono::milliseconds timeout{0};   // --timeout, 0 = wait forever
    std::string pending_file;               // --pending-file
    std::string session;                    // --session
    bool journal_sync_always = false;       // --journal-sync always (default deferred)
    std::string adapter = "auto";           // --adapter
    std::vector<std::string> on_question;   // --on-question CMD (split on spaces? no: one argv word)
    std::vector<std::string> allow_tools;   // --allow-tools LIST (repeatable)
    std::string prompt;                     // --prompt TEXT: the first user message
    std::vector<std::string> agent_argv;    // after --
    std::string command_name;               // the subcommand as typed
    std::vector<std::string> command_args;  // arguments of a subcommand
};

// The options, or a Usage error (exit 2) that says what is wrong with the command line.
Result<CliOptions> parse_cli(const std::vector<std::string>& args);

std::string usage_text();

std::string_view mode_name(Mode m);

}  // namespace askhost
