#include "app/cli.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iterator>

#include "app/attach.hpp"
#include "app/hosts_command.hpp"
#include "app/store_commands.hpp"
#include "core/fd_io.hpp"
#include "core/self_path.hpp"
#include "frontends/notify.hpp"
#include "json/json_codec.hpp"
#include "web/web_options.hpp"

#include <unistd.h>

namespace askhost {

std::string_view mode_name(Mode m) {
    switch (m) {
        case Mode::Auto: return "auto";
        case Mode::Stdio: return "stdio";
        case Mode::Tui: return "tui";
        case Mode::Print: return "print";
    }
    return "auto";
}

namespace {

constexpr cli::Option kRunOptions[] = {
    {.name = "stdio",
     .help = "speak the editor protocol (JSON-RPC, Content-Length frames) on stdio",
     .heading = "Modes (default: --tui when stdin and stdout are a terminal, else --print):"},
    {.name = "tui", .help = "ask in a dialog on the terminal (/dev/tty)"},
    {.name = "print", .help = "write the pending-questions file and tell the agent to come back later"},
    {.name = "profile",
     .value = "strict|lenient",
     .help = "question rules (default: the adapter's; native: lenient)",
     .heading = "Options:"},
    {.name = "answers", .value = "JSON", .help = "pre-answer the next question set (JSON array, in question order)"},
    {.name = "timeout",
     .value = "SECONDS",
     .help = "give up waiting after SECONDS (the agent gets \"timedOut\"; default: forever)"},
    {.name = "pending-file",
     .value = "PATH",
     .help = "pending-questions file (default .askhost/pending-questions.json)"},
    {.name = "session",
     .value = "ID",
     .help = "name or continue a session journal (default: a new one, or the\n"
             "one whose answers wait in the pending-questions file)"},
    {.name = "journal-sync",
     .value = "deferred|always",
     .help = "when journal records reach the disk: deferred (default: written\n"
             "before the answer is handed back, synced by a background thread\n"
             "within about 10 ms) or always (fdatasync before the answer: survives\n"
             "a power cut, costs a disk flush per record)"},
    {.name = "adapter",
     .value = "NAME",
     .help = "the agent's adapter, or auto (the default: the adapter that knows the\n"
             "agent's program name, else native)"},
    {.name = "allow-tools",
     .value = "LIST",
     .help = "tools the agent may use without asking (comma-separated; \"Bash,Edit\",\n"
             "\"mcp__*\"); other tool-permission requests are shown as questions"},
    {.name = "on-question",
     .value = "CMD",
     .help = "run CMD (split on spaces; '' and \"\" quote; no shell) when a question waits,\n"
             "with ASKHOST_QUESTION, ASKHOST_QUESTION_COUNT, ASKHOST_AGENT and\n"
             "ASKHOST_ASK_JSON in its environment"},
    {.name = "prompt",
     .value = "TEXT",
     .help = "the first user message, for agents with a conversation (ACP, Claude\n"
             "Code, pi); without --stdio the agent is ended after that turn"},
    {.name = "version", .short_name = 'V', .help = "the version"},
    {.name = "dump-options", .help = "every command's options as JSON (for the completions)", .hidden = true},
};

}  // namespace

const cli::Command kRunCommand{
    .synopsis = "[MODE] [OPTIONS] -- AGENT [ARGS...]",
    .summary = "run AGENT and answer its questions",
    .about =
        "With --stdio and no AGENT, askhost is the editor's standing host: agents started anywhere in the\n"
        "editor's workspace (askhost mcp, askhost hook, askhost attach) find it and ask there.",
    .options = kRunOptions,
    .operand = "AGENT",
    .max_operands = 1,
    .operands_end_options = true,
    .epilog = R"(The agent speaks the native protocol unless its adapter says otherwise: one JSON object per
line, {"type":"ask_user_request",...} on its stdout, answered with {"type":"ask_user_response",...}
on its stdin. See docs/protocol.md.

Files: the session journal is $XDG_STATE_HOME/askhost/sessions/ID.jsonl (default
~/.local/state); it and the pending-questions file are described in docs/files.md.

Exit status: the agent's exit status (128+N when a signal N ended it); 2 for a usage error;
127 when the agent's program is not found, 126 when it is found but cannot be executed.)",
};

namespace {

int answer_main(const std::vector<std::string>& args) {
    FdOStream out(1), err(2);
    return store::run_answer(args, out, err);
}
int questions_main(const std::vector<std::string>& args) {
    FdOStream out(1), err(2);
    return store::run_questions(args, out, err);
}
int history_main(const std::vector<std::string>& args) {
    FdOStream out(1), err(2);
    return store::run_history(args, out, err);
}

// `askhost web` is a program of its own (askhost-web: Beast and OpenSSL stay out of every other
// askhost's memory): beside this one in a build, in ../libexec/askhost/ when installed. It reads
// its command line with the same declaration (web/web_options.hpp).
int web_main(const std::vector<std::string>& args) {
    const std::string exe = self_path();
    const std::string dir = exe.substr(0, exe.rfind('/') == std::string::npos ? 0 : exe.rfind('/'));
    const std::vector<std::string> places = {dir + "/askhost-web", dir + "/../libexec/askhost/askhost-web"};
    for (const auto& program : places) {
        std::vector<std::string> words = {program};
        words.insert(words.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& w : words) argv.push_back(w.data());
        argv.push_back(nullptr);
        ::execv(program.c_str(), argv.data());
    }
    write_all(2, "askhost web: askhost-web is not installed beside this askhost (looked for " + places[0] + " and " +
                     places[1] + ")\n");
    return 1;
}

}  // namespace

// The subcommands built in. A subcommand whose file has no header declares its Command and its
// function here, above the table, outside the unnamed namespace (docs/hacking.md).
constexpr cli::Subcommand kBuiltins[] = {
    {&kAttachCommand, run_attach},
    {&kHostsCommand, run_hosts},
    {&kStatusCommand, run_status},
    {&kJumpCommand, run_jump},
    {&web::kWebCommand, web_main},
    {&store::kAnswerCommand, answer_main},
    {&store::kQuestionsCommand, questions_main},
    {&store::kHistoryCommand, history_main},
};

namespace {

// "  askhost NAME SYNOPSIS", then the summary at column 48 (on the next line when it is longer).
void usage_line(std::string& out, const cli::Command& c) {
    constexpr std::size_t column = 48;
    std::string left = "  askhost";
    if (!c.name.empty()) left += " " + std::string(c.name);
    if (!c.synopsis.empty()) left += " " + std::string(c.synopsis);
    out += left;
    out += left.size() + 2 > column ? "\n" + std::string(column, ' ') : std::string(column - left.size(), ' ');
    for (char ch : c.summary) {
        out += ch;
        if (ch == '\n') out += std::string(column, ' ');
    }
    out += '\n';
}

}  // namespace

std::span<const cli::Subcommand> builtin_subcommands() { return kBuiltins; }

std::vector<cli::Subcommand> all_subcommands(const AdapterRegistry& registry) {
    std::vector<cli::Subcommand> table(std::begin(kBuiltins), std::end(kBuiltins));
    for (const auto& adapter : registry.all())
        for (const auto& c : adapter.commands) table.push_back(c);
    return table;
}

const cli::Subcommand* find_subcommand(std::span<const cli::Subcommand> table, std::string_view name) {
    for (const auto& s : table)
        if (s.spec && s.run && s.spec->name == name) return &s;
    return nullptr;
}

std::string usage_text(const AdapterRegistry& registry) {
    std::string out = "askhost: show an LLM agent's questions where you are, and hand the answers back.\n\nUsage:\n";
    usage_line(out, kRunCommand);
    for (const auto& s : all_subcommands(registry)) usage_line(out, *s.spec);
    out += "  askhost --help | --version\n\n";
    out += std::string(kRunCommand.about) + "\n\n" + cli::options_text(kRunCommand);
    // The adapters built in, from the registry: --adapter's choices.
    out += "\nAdapters (--adapter NAME):\n";
    std::size_t width = 0;
    for (const auto& a : registry.all()) width = std::max(width, a.name.size());
    for (const auto& a : registry.all())
        out += "  " + a.name + std::string(width - a.name.size() + 2, ' ') + a.summary + "\n";
    out += "\nEvery subcommand has its own --help (askhost attach --help).\n\n";
    out += std::string(kRunCommand.epilog) + "\n";
    return out;
}

namespace {

struct OptionJson {
    const cli::Option& o;
    std::vector<std::string_view> choices;  // the words its value may be, for the completions
};
void to_json(const OptionJson& r, json::Writer& w) {
    json::ObjectWriter o(w);
    o.field("name", r.o.name).field("short", std::string(r.o.short_name ? 1 : 0, r.o.short_name));
    o.field("value", r.o.value).field("hidden", r.o.hidden).field("help", r.o.help).field("heading", r.o.heading);
    o.field("choices", r.choices);
}

struct CommandJson {
    const cli::Command& c;
    std::vector<std::string_view> adapters{};  // for --adapter, running an agent
};
void to_json(const CommandJson& r, json::Writer& w) {
    json::ObjectWriter o(w);
    std::vector<OptionJson> options;
    for (const auto& opt : r.c.options) {
        // A value written "strict|lenient" is one of those words; --adapter one of the registry's.
        std::vector<std::string_view> choices;
        if (&r.c == &kRunCommand && opt.name == "adapter") choices = r.adapters;
        if (opt.value.find('|') != std::string_view::npos) {
            std::string_view v = opt.value;
            for (std::size_t bar = 0; (bar = v.find('|')) != std::string_view::npos; v.remove_prefix(bar + 1))
                choices.push_back(v.substr(0, bar));
            choices.push_back(v);
        }
        options.push_back({opt, std::move(choices)});
    }
    o.field("name", r.c.name).field("summary", r.c.summary).field("options", options);
    o.field("operand", r.c.operand).field("words", std::vector<std::string_view>(r.c.words.begin(), r.c.words.end()));
}

}  // namespace

std::string options_json(const AdapterRegistry& registry) {
    std::vector<CommandJson> commands{{kRunCommand, {"auto"}}};
    for (const auto& a : registry.all()) commands.front().adapters.push_back(a.name);
    const auto table = all_subcommands(registry);
    for (const auto& s : table) commands.push_back({*s.spec});
    rapidjson::StringBuffer buf;
    json::Writer w(buf);
    {
        json::ObjectWriter o(w);
        o.field("commands", commands);
    }
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

namespace {

std::optional<std::chrono::milliseconds> parse_seconds(const std::string& s) {
    if (s.empty()) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(s.c_str(), &end);
    if (errno != 0 || end != s.c_str() + s.size() || !std::isfinite(v) || v < 0 || v > 31536000) return std::nullopt;
    return std::chrono::milliseconds(static_cast<long long>(v * 1000.0));
}

}  // namespace

Result<CliOptions> parse_cli(const std::vector<std::string>& args) {
    auto read = cli::parse(args, kRunCommand);
    if (!read) return std::move(read).error();
    CliOptions o;
    if (read->help) o.command = Command::Help;
    else if (read->has("version")) o.command = Command::Version;
    else if (read->has("dump-options")) o.command = Command::DumpOptions;
    if (o.command != Command::Run) return o;
    bool mode_set = false;
    for (const auto& [name, v] : read->given) {
        Status err;
        if (name == "stdio" || name == "tui" || name == "print") {
            const Mode m = name == "stdio" ? Mode::Stdio : name == "tui" ? Mode::Tui : Mode::Print;
            if (mode_set && o.mode != m) err = Error::usage("choose one of --stdio, --tui, --print");
            o.mode = m;
            mode_set = true;
        } else if (name == "profile") {
            o.profile = parse_profile(v);
            if (!o.profile) err = Error::usage("--profile: '" + v + "' is not strict or lenient");
        } else if (name == "answers") {
            o.answers_json = v;
        } else if (name == "timeout") {
            auto t = parse_seconds(v);
            if (!t) err = Error::usage("--timeout: '" + v + "' is not a number of seconds (0 to 31536000, a year)");
            else o.timeout = *t;
        } else if (name == "pending-file") {
            if (v.empty()) err = Error::usage("--pending-file: an empty path");
            o.pending_file = v;
        } else if (name == "session") {
            if (v.empty()) err = Error::usage("--session: an empty session id");
            o.session = v;
        } else if (name == "journal-sync") {
            if (v == "always") o.journal_sync_always = true;
            else if (v == "deferred") o.journal_sync_always = false;
            else err = Error::usage("--journal-sync: '" + v + "' is not one of always, deferred");
        } else if (name == "adapter") {
            o.adapter = v;
        } else if (name == "prompt") {
            o.prompt = v;
        } else if (name == "allow-tools") {
            o.allow_tools.push_back(v);
        } else if (name == "on-question") {
            if (auto problem = command_line_problem(v)) err = Error::usage("--on-question: " + *problem);
            o.on_question.push_back(v);
        }
        if (err) return *err;
    }
    o.agent_argv = std::move(read->operands);
    if (o.agent_argv.empty() && o.mode != Mode::Stdio)
        return Error::usage("no agent to run: askhost [OPTIONS] -- AGENT [ARGS...]");
    return o;
}

}  // namespace askhost
