#include "app/cli.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

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

std::string usage_text() {
    return R"(askhost: show an LLM agent's questions where you are, and hand the answers back.

Usage:
  askhost [MODE] [OPTIONS] -- AGENT [ARGS...]   run AGENT and answer its questions
  askhost mcp                                   MCP stdio server with the ask_user_question tool
  askhost attach [SOCKET | --next]              answer a running host's questions in this terminal
                                                (default: the host of this directory's workspace;
                                                --next: the oldest waiting question of any host)
  askhost hosts [--json]                        the running hosts and the one this directory uses
  askhost status [--tmux|--json]                how many questions wait, over every host
  askhost jump                                  tmux: go to the pane of the agent that asks
  askhost web [--listen ADDR:PORT] [--url] [--new-token]
                                                every waiting question on one page, for a
                                                browser or a phone (docs/web.md)
  askhost hook                                  Claude Code hook: its questions and permissions
                                                asked in the host of its workspace
  askhost answer [JSON | --file F | --text T | --edit]
                                                answer the pending-questions file
  askhost questions [show|clear] [--json]       the pending questions
  askhost history [--session ID] [--json|--summary] | --list
                                                what was asked and answered
  askhost --help | --version

With --stdio and no AGENT, askhost is the editor's standing host: agents started anywhere in the
editor's workspace (askhost mcp, askhost hook, askhost attach) find it and ask there.

Modes (default: --tui when stdin and stdout are a terminal, else --print):
  --stdio            speak the editor protocol (JSON-RPC, Content-Length frames) on stdio
  --tui              ask in a dialog on the terminal (/dev/tty)
  --print            write the pending-questions file and tell the agent to come back later

Options:
  --profile strict|lenient   question rules (default: the adapter's; native: lenient)
  --answers JSON             pre-answer the next question set (JSON array, in question order)
  --timeout SECONDS          give up waiting after SECONDS (the agent gets "timedOut")
  --pending-file PATH        pending-questions file (default .askhost/pending-questions.json)
  --session ID               name or continue a session journal (default: a new one, or the
                             one whose answers wait in the pending-questions file)
  --journal-sync WHEN         when journal records reach the disk: deferred (default: written
                             before the answer is handed back, synced by a background thread
                             within about 10 ms) or always (fdatasync before the answer: survives
                             a power cut, costs a disk flush per record)
  --adapter NAME             auto|native|mcp|claude|pi|acp (default auto: from the agent's program name)
  --allow-tools LIST         tools the agent may use without asking (comma-separated; "Bash,Edit",
                             "mcp__*"); other tool-permission requests are shown as questions
  --on-question CMD          run CMD (split on spaces; '' and "" quote; no shell) when a question waits,
                             with ASKHOST_QUESTION, ASKHOST_QUESTION_COUNT, ASKHOST_AGENT and
                             ASKHOST_ASK_JSON in its environment
  --prompt TEXT              the first user message, for agents with a conversation (ACP, Claude
                             Code, pi); without --stdio the agent is ended after that turn
  -h, --help                 this text
  -V, --version              the version

The agent speaks the native protocol unless its adapter says otherwise: one JSON object per
line, {"type":"ask_user_request",...} on its stdout, answered with {"type":"ask_user_response",...}
on its stdin. See docs/protocol.md.

Files: the session journal is $XDG_STATE_HOME/askhost/sessions/ID.jsonl (default
~/.local/state); it and the pending-questions file are described in docs/files.md.

Exit status: the agent's exit status (128+N when a signal N ended it); 2 for a usage error;
127 when the agent's program is not found, 126 when it is found but cannot be executed.
)";
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
    CliOptions o;
    std::size_t i = 0;
    // `--opt value` or `--opt=value`: the value given after `=` in this argument, if any.
    std::optional<std::string> inline_value;
    auto value = [&](const std::string& flag, std::string& out) -> Status {
        if (inline_value) {
            out = *inline_value;
            inline_value.reset();
            return std::nullopt;
        }
        if (i + 1 >= args.size()) return Error::usage(flag + " needs a value");
        out = args[++i];
        return std::nullopt;
    };
    bool mode_set = false;
    auto set_mode = [&](Mode m) -> Status {
        if (mode_set && o.mode != m) return Error::usage("choose one of --stdio, --tui, --print");
        o.mode = m;
        mode_set = true;
        return std::nullopt;
    };

    if (!args.empty()) {
        const std::string& first = args[0];
        static const std::pair<const char*, Command> subcommands[] = {
            {"mcp", Command::Plugin},      {"hook", Command::Plugin},
            {"answer", Command::Answer},   {"questions", Command::Questions},
            {"history", Command::History}, {"attach", Command::Attach},
            {"hosts", Command::Hosts},     {"status", Command::Status},
            {"jump", Command::Jump},       {"web", Command::Web},
        };
        for (const auto& [name, cmd] : subcommands) {
            if (first == name) {
                o.command = cmd;
                o.command_name = name;
                o.command_args.assign(args.begin() + 1, args.end());
                return o;
            }
        }
    }

    for (; i < args.size(); ++i) {
        std::string a = args[i];
        inline_value.reset();
        if (a.rfind("--", 0) == 0 && a.size() > 2) {
            if (auto eq = a.find('='); eq != std::string::npos) {
                inline_value = a.substr(eq + 1);
                a.resize(eq);
            }
        }
        Status err;
        std::string v;
        if (a == "--") {
            o.agent_argv.assign(args.begin() + static_cast<long>(i) + 1, args.end());
            break;
        } else if (a == "-h" || a == "--help") {
            o.command = Command::Help;
            return o;
        } else if (a == "-V" || a == "--version") {
            o.command = Command::Version;
            return o;
        } else if (a == "--stdio") {
            err = set_mode(Mode::Stdio);
        } else if (a == "--tui") {
            err = set_mode(Mode::Tui);
        } else if (a == "--print") {
            err = set_mode(Mode::Print);
        } else if (a == "--profile") {
            if (!(err = value(a, v))) {
                o.profile = parse_profile(v);
                if (!o.profile) err = Error::usage("--profile: '" + v + "' is not strict or lenient");
            }
        } else if (a == "--answers") {
            err = value(a, o.answers_json);
        } else if (a == "--timeout") {
            if (!(err = value(a, v))) {
                auto t = parse_seconds(v);
                if (!t) err = Error::usage("--timeout: '" + v + "' is not a number of seconds");
                else o.timeout = *t;
            }
        } else if (a == "--pending-file") {
            err = value(a, o.pending_file);
        } else if (a == "--session") {
            err = value(a, o.session);
        } else if (a == "--journal-sync") {
            if (!(err = value(a, v))) {
                if (v == "always") o.journal_sync_always = true;
                else if (v == "deferred") o.journal_sync_always = false;
                else err = Error::usage("--journal-sync: '" + v + "' is not one of always, deferred");
            }
        } else if (a == "--adapter") {
            err = value(a, o.adapter);
        } else if (a == "--prompt") {
            err = value(a, o.prompt);
        } else if (a == "--allow-tools") {
            if (!(err = value(a, v))) o.allow_tools.push_back(v);
        } else if (a == "--on-question") {
            if (!(err = value(a, v))) o.on_question.push_back(v);
        } else if (!a.empty() && a[0] == '-') {
            err = Error::usage("unknown option '" + a + "'");
        } else {
            // The agent's argv may also follow the options without "--".
            o.agent_argv.assign(args.begin() + static_cast<long>(i), args.end());
            break;
        }
        if (err) return *err;
        if (inline_value) return Error::usage(a + " takes no value");
    }
    if (o.command == Command::Run && o.agent_argv.empty() && o.mode != Mode::Stdio)
        return Error::usage("no agent to run: askhost [OPTIONS] -- AGENT [ARGS...]");
    return o;
}

}  // namespace askhost
