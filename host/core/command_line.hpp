// The one reader of askhost's command lines: each command declares its options once (names, value
// or flag, help) and parse() reads `--opt value`, `--opt=value`, `-o value`, `--` and operands with
// it; help_text() prints the same declaration. A new subcommand declares a Command and calls read().
//
//   constexpr cli::Option kOptions[] = {{.name = "json", .help = "the list as JSON"}};
//   constexpr cli::Command kCommand{.name = "hosts", .summary = "the running hosts", .options = kOptions};
//   auto r = cli::read(args, kCommand);
//   if (auto* done = std::get_if<cli::Exit>(&r)) return done->print();
//   const cli::Args& a = std::get<cli::Args>(r);  // a.has("json"), a.value("x"), a.operands
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/error.hpp"

namespace askhost::cli {

struct Option {
    std::string_view name{};     // the long name, without "--"
    char short_name = 0;         // -x, or 0 for none
    std::string_view value{};    // the value's name in the help ("PATH"); empty: a flag
    std::string_view help{};     // '\n' starts a continuation line
    std::string_view heading{};  // printed above this option in the help (a new group), if any
    bool hidden = false;         // read, never shown (e.g. --dump-options)
};

struct Command {
    std::string_view name{};      // as typed after askhost ("answer"); empty: askhost itself
    std::string_view synopsis{};  // what follows "usage: askhost NAME"
    std::string_view summary{};   // one line in askhost --help; '\n' continues it
    std::string_view about{};     // the lines under the usage line
    std::span<const Option> options{};
    std::string_view operand{};       // the name of its positional arguments ("SOCKET"); empty: none
    std::string_view operand_help{};  // what they are, as a row of the help
    std::size_t max_operands = 0;
    std::span<const std::string_view> words{};  // the only operands allowed, when set (show, clear)
    // The first operand and everything after it are left as they are (askhost -- AGENT ARGS).
    bool operands_end_options = false;
    std::string_view epilog{};  // after the options in the help
};

// A command line as read: the options in the order given and the operands (with what followed
// "--"). Option names are the declared long names.
struct Args {
    std::vector<std::pair<std::string_view, std::string>> given;  // name, value ("" for a flag)
    std::vector<std::string> operands;
    bool help = false;  // -h or --help: nothing else was read

    bool has(std::string_view name) const;
    // The last value given for `name`.
    std::optional<std::string> value(std::string_view name) const;
    // Every value given for `name` (a repeatable option), in order.
    std::vector<std::string> values(std::string_view name) const;
};

// The arguments (after the command's name), or a usage error: an unknown option, a missing value,
// a value given to a flag, an operand too many or not one of `words`.
Result<Args> parse(const std::vector<std::string>& argv, const Command& command);

// How a command ends before doing its work: its help (status 0, on stdout) or a usage error
// (status 2, on stderr).
struct Exit {
    int status = 0;
    std::string text;
    int print() const;  // writes text where it goes, returns status
};

// A subcommand: its declaration and what runs it with the arguments after its name (the exit
// status). askhost's own are in host/app/cli.cpp; an adapter's come with its AdapterInfo.
struct Subcommand {
    const Command* spec = nullptr;
    int (*run)(const std::vector<std::string>& args) = nullptr;
};

// parse(), with --help and usage errors turned into their Exit.
std::variant<Args, Exit> read(const std::vector<std::string>& argv, const Command& command);

// "usage: askhost NAME SYNOPSIS", the about text, the operand and options with their help, the epilog.
std::string help_text(const Command& command);
// The rows of the options alone (with their headings), -h/--help last.
std::string options_text(const Command& command);
// The usage error as printed: "askhost NAME: MESSAGE" and where to find the help.
std::string usage_error_text(const Command& command, const Error& error);
// A usage error the command finds in what it read (two options that exclude each other, a value
// out of range): the same shape, exit status 2.
Exit usage_error(const Command& command, std::string message);

// A command line a person typed (--on-question, the editors' agent commands) split into words
// without a shell, by the rule the Neovim and VS Code bridges keep too (tests/text/
// command_line.json): space, tab, CR and LF separate words; '...' is taken as it is; "..." too,
// but for a backslash before " \ $ or `, which it escapes; elsewhere a backslash escapes the next
// character. Nothing is expanded ($VAR, ~, globs stay as typed). A usage error for an unterminated
// quote ("unterminated single quote", "unterminated double quote") or a "backslash at the end".
Result<std::vector<std::string>> split_command_line(std::string_view line);

}  // namespace askhost::cli
