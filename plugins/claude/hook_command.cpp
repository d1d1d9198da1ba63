// `askhost hook`: Claude Code's hooks, with Claude in its own terminal UI. Its AskUserQuestion
// (PreToolUse) and its permission requests (PermissionRequest) are asked in the askhost whose
// workspace holds the session's folder; the answer goes back as the hook's output. With no host,
// or when nobody answers there, the hook prints nothing and Claude shows its own dialog.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "claude_tools.hpp"
#include "claude_transcript.hpp"
#include "compact_hook.hpp"
#include "core/fd_io.hpp"
#include "core/search_path.hpp"
#include "core/self_path.hpp"
#include "hook_reply.hpp"
#include "json/json_access.hpp"
#include "service/ask_and_wait.hpp"
#include "store/fs_util.hpp"
#include "store/hooks_file.hpp"
#include "transport/jsonrpc.hpp"

namespace askhost::claude {

namespace {

constexpr cli::Option kOptions[] = {
    {.name = "project", .help = "install into ./.claude/settings.json"},
    {.name = "settings", .value = "PATH", .help = "install into that settings file"},
};
constexpr std::string_view kWords[] = {"install"};

constexpr std::size_t kMaxInput = 8u << 20;
void note_view(std::string_view m) { write_all(2, "askhost hook: " + std::string(m) + "\n"); }
void note(const std::string& m) { note_view(m); }

off_t file_size(const std::string& path) {
    struct stat st {};
    return !path.empty() && ::stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

// What ends the hook's wait. Esc or Ctrl-C in Claude, or the hook's timeout: SIGTERM, nothing
// printed. A PermissionRequest runs beside Claude's own dialog, and Claude does not end the hook
// when the person answers there: noticed (Claude writes the tool's result, or Claude is gone).
class ClaudeWatch {
public:
    ClaudeWatch(boost::asio::io_context& io, EndWait end, bool permission, std::string transcript)
        : end_(std::move(end)),
          signals_(io, SIGTERM, SIGINT, SIGHUP),
          timer_(io),
          claude_(::getppid()),
          transcript_(std::move(transcript)),
          // Claude writes its transcript a moment after the fact: a file not there yet is read from
          // its start once it is (on a loaded machine the hook can start first, and never noticed before).
          transcript_from_(transcript_.empty() ? -1 : std::max<off_t>(0, file_size(transcript_))) {
        signals_.async_wait([this](const boost::system::error_code& ec, int) {
            if (!ec) fire("");
        });
        if (permission) look();
    }
    ClaudeWatch(const ClaudeWatch&) = delete;
    ClaudeWatch& operator=(const ClaudeWatch&) = delete;

private:
    void look() {
        timer_.expires_after(std::chrono::milliseconds(300));
        timer_.async_wait([this](const boost::system::error_code& ec) {
            if (ec || fired_) return;
            if (::getppid() != claude_ || ::kill(claude_, 0) != 0) return fire("Claude Code is gone");
            if (transcript_from_ >= 0 && file_size(transcript_) > transcript_from_ &&
                holds_tool_result(transcript_since(transcript_, transcript_from_)))
                return fire("answered in Claude Code's own dialog");
            look();
        });
    }
    void fire(const std::string& why) {
        if (fired_) return;
        fired_ = true;
        end_(why);
    }

    EndWait end_;
    boost::asio::signal_set signals_;
    boost::asio::steady_timer timer_;
    const pid_t claude_;
    const std::string transcript_;
    const off_t transcript_from_;
    bool fired_ = false;
};

int ask(const rapidjson::Value& hook) {
    const HookRequest request = read_hook_request(hook);
    if (request.kind == HookRequest::Kind::Reply) write_all(1, request.reply);
    if (!request.why.empty()) note(request.why);
    if (request.kind != HookRequest::Kind::Question && request.kind != HookRequest::Kind::Permission) return 0;
    const std::string& event = request.event;

    // Nobody to ask in the workspace: Claude's own dialog. A PermissionRequest runs beside that
    // dialog, so it waits as a host of its own too: askhost status counts it, askhost attach --next
    // answers it.
    const bool permission = event == "PermissionRequest";
    const std::string transcript = json::string_of(hook, "transcript_path");
    const auto outcome =
        ask_and_wait(request.ask, {.service = {.who = "askhost hook",
                                               .kind = "hook",
                                               .socket_hint = socket_hint_from_env(false),
                                               .alone = permission ? Alone::Beside : Alone::Decline,
                                               .log = note_view},
                                   .watch = [permission, transcript](boost::asio::io_context& io, EndWait end) {
                                       return std::make_shared<ClaudeWatch>(io, std::move(end), permission, transcript);
                                   }});
    if (outcome) write_all(1, hook_reply(request, *outcome));
    return 0;
}

std::string self_command() {
    // `askhost hook` when the askhost a shell finds on PATH is this one, else this binary's full path.
    const std::string self = self_path();
    const std::string on_path = search_path("askhost");
    char real[PATH_MAX];
    if (!on_path.empty() && ::realpath(on_path.c_str(), real) && real == self) return "askhost hook";
    return self.empty() ? "askhost hook" : self + " hook";
}

int install(const cli::Args& args) {
    const auto chosen =
        store::hooks_file_path(args.value("settings").value_or(""), args.has("project"), ".claude/settings.json",
                               "CLAUDE_CONFIG_DIR", "settings.json", ".claude/settings.json");
    const std::string command = self_command();
    // As long as the person takes (86400 s).
    return store::install_command_hooks(
        "askhost hook", chosen, "settings",
        {{.event = "PreToolUse",
          .matcher = "AskUserQuestion|mcp__.*__ask_user_question",
          .command = command,
          .timeout_seconds = 86400},
         {.event = "PermissionRequest", .matcher = "*", .command = command, .timeout_seconds = 86400},
         {.event = "PreCompact", .matcher = "*", .command = command, .timeout_seconds = 86400}},
        "hook",
        " (PreToolUse: AskUserQuestion and MCP ask_user_question; PermissionRequest: every tool;\n"
        "PreCompact: the session's answers kept in the summary).\n"
        "Claude Code asks in the askhost of its workspace from its next start (`askhost hosts`).\n");
}

}  // namespace

const cli::Command kHookCommand{
    .name = "hook",
    .synopsis = "[install [--project] [--settings PATH]]",
    .summary = "Claude Code hook: its questions and permissions\nasked in the host of its workspace",
    .about =
        "Run by Claude Code with the hook's JSON on stdin: Claude Code's own questions (AskUserQuestion)\n"
        "and permission requests, asked in the askhost whose workspace holds the session's folder (an\n"
        "editor's standing host; see `askhost hosts`). With no host, or no answer there, it prints\n"
        "nothing and Claude shows its own dialog.",
    .options = kOptions,
    .operand = "install",
    .operand_help =
        "merge the hooks into ~/.claude/settings.json (--project: ./.claude/settings.json),\n"
        "keeping everything else in it",
    .max_operands = 1,
    .words = kWords,
};

int run_hook(const std::vector<std::string>& args) {
    auto read = cli::read(args, kHookCommand);
    if (auto* done = std::get_if<cli::Exit>(&read)) return done->print();
    const cli::Args& a = std::get<cli::Args>(read);
    if (!a.operands.empty()) return install(a);  // the one word it takes
    if (!a.given.empty())
        return cli::usage_error(kHookCommand, "--" + std::string(a.given[0].first) + " goes with install").print();
    // Typed at a terminal, it would wait for JSON nobody sends.
    if (::isatty(0))
        return cli::usage_error(kHookCommand,
                                "Claude Code runs this with the hook's JSON on stdin, not a terminal (askhost hook "
                                "install sets it up)")
            .print();
    bool too_big = false;
    std::string in = read_all(0, kMaxInput, &too_big);
    if (too_big) {
        note("the hook's input is over " + std::to_string(kMaxInput) + " bytes; left to Claude");
        return 0;
    }
    rapidjson::Document doc;
    if (auto err = json::parse(doc, in); err || !doc.IsObject()) {
        note("the hook's input is not a JSON object" + (err ? ": " + err->message : std::string()) +
             "; left to Claude");
        return 0;
    }
    if (json::string_of(doc, "hook_event_name") == "PreCompact") return run_precompact(doc);  // compact_hook.hpp
    return ask(doc);
}

}  // namespace askhost::claude
