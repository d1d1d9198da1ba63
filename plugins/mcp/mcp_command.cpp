// `askhost mcp [--pending-file PATH]`: the MCP server on stdio, asking through the host named by
// $ASKHOST_SOCKET, else in a terminal dialog on /dev/tty, else into the pending-questions file.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <variant>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "askhost_config.h"
#include "core/broker.hpp"
#include "core/command_line.hpp"
#include "core/fd_io.hpp"
#include "core/lifetime.hpp"
#include "frontends/editor/ask_json.hpp"
#include "frontends/editor/host_client.hpp"
#include "frontends/editor/host_core.hpp"
#include "frontends/editor/registry.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "frontends/notify.hpp"
#include "frontends/proc_stat.hpp"
#include "frontends/tmux_popup.hpp"
#include "frontends/tmux_queue.hpp"
#include "mcp_server.hpp"
#include "store/fs_util.hpp"
#include "store/pending_file.hpp"
#include "store/print_frontend.hpp"
#include "transport/connection.hpp"
#include "transport/stdio.hpp"
#if ASKHOST_HAVE_TUI
#include "frontends/tui/terminal_dialog.hpp"
#endif

namespace askhost::mcp {

namespace {

constexpr cli::Option kOptions[] = {
    {.name = "print",
     .help = "no waiting: write the pending-questions file and tell the agent at once\n"
             "(answer it with `askhost answer`)"},
    {.name = "pending-file",
     .value = "PATH",
     .help = "the pending-questions file (default .askhost/pending-questions.json)"},
    {.name = "progress-interval",
     .value = "SECONDS",
     .help = "how often a waiting call that carries a progressToken gets\n"
             "notifications/progress (default 10)"},
};

// Some agents start MCP servers with a cleaned environment (Codex keeps only a few variables):
// then the host is named in an ancestor's environment, the agent's own.
std::string socket_from_ancestors() {
    long pid = static_cast<long>(::getppid());
    for (int depth = 0; depth < 16 && pid > 1; ++depth) {
        std::ifstream env("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
        std::string var;
        while (std::getline(env, var, '\0'))
            if (var.rfind("ASKHOST_SOCKET=", 0) == 0) return var.substr(15);
        auto stat = read_proc_stat(static_cast<pid_t>(pid));
        if (!stat) break;
        pid = stat->ppid;
    }
    return {};
}

std::string current_directory() {
    char buf[4096];
    return ::getcwd(buf, sizeof buf) ? std::string(buf) : std::string();
}

void log_line(std::string_view message) {
    std::string line = "askhost mcp: " + std::string(message) + "\n";
    [[maybe_unused]] auto n = ::write(2, line.data(), line.size());
}

// The agent's program name for display: MCP clients give their client's name.
std::string agent_name(const std::string& client) {
    if (client.rfind("codex", 0) == 0) return "codex";
    if (client.rfind("claude", 0) == 0) return "claude";
    if (client.rfind("gemini", 0) == 0) return "gemini";
    return client;
}

// Whether this process may show a dialog on its terminal: only when nothing else reads it
// (docs/mcp.md: agents' TUIs keep the terminal raw; Codex's server has none).
bool terminal_is_free() {
#if ASKHOST_HAVE_TUI
    if (const char* e = std::getenv("CLAUDE_CODE_ENTRYPOINT"); e && std::string_view(e) == "cli") return false;
    int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return false;
    termios t{};
    bool free = ::tcgetattr(fd, &t) == 0 && (t.c_lflag & ICANON) && ::tcgetpgrp(fd) == ::getpgrp();
    ::close(fd);
    return free && TerminalDialog::available();
#else
    return false;
#endif
}

// Asks through a running host: a client of its socket, like `askhost attach`, that submits.
class HostAsker {
public:
    HostAsker(boost::asio::io_context& io, std::string path) : client_(io, std::move(path), "askhost mcp") {
        client_.on_log = log_line;
    }

    // Connects (once); false when the host cannot be reached.
    bool connect() {
        Status unreachable = client_.connect();
        if (unreachable) log_line(unreachable->message);
        return !unreachable;
    }

    std::function<void()> ask(const Ask& ask, McpAsker::Reply reply) {
        return client_.submit(ask, Profile::Strict, std::move(reply));
    }

private:
    HostClient client_;
};

// An editor's host that appeared while askhost mcp held a question: shown there too, through its
// socket. A host that goes away takes nothing with it: the question goes on waiting here.
class RemoteFrontend final : public Frontend {
public:
    RemoteFrontend(boost::asio::io_context& io, std::string socket, std::function<void()> gone)
        : client_(io, std::move(socket), "askhost mcp") {
        client_.on_log = log_line;
        client_.on_closed = std::move(gone);
    }
    Status connect() { return client_.connect(); }
    const std::string& socket() const { return client_.socket(); }

    std::string_view name() const override { return "editor host"; }
    void show(const Ask& ask, Done done) override {
        std::string id = ask.id;
        open_[id] = client_.submit(ask, Profile::Strict,
                                   [this, id, done = std::move(done), token = lifetime_.token()](Outcome o) {
                                       if (!token) return;
                                       open_.erase(id);
                                       // The host went away: not an answer; it is taken off the broker by `gone`.
                                       if (o.kind == OutcomeKind::ConnectionLost) return;
                                       done(std::move(o));
                                   });
    }
    void withdraw(const std::string& ask_id) override {
        auto it = open_.find(ask_id);
        if (it == open_.end()) return;
        auto cancel = std::move(it->second);
        open_.erase(it);
        cancel();
    }

private:
    HostClient client_;
    std::map<std::string, std::function<void()>> open_;
    Lifetime lifetime_;  // last: ends before the client goes
};

// The pending-questions file as one more place that shows the question while askhost mcp waits:
// `askhost questions` lists it and `askhost answer` answers it (checked at each poll). When the
// question ends elsewhere, its entries leave the file.
class PendingRecord final : public Frontend {
public:
    explicit PendingRecord(std::string path) : path_(std::move(path)), writer_(path_, "", [](std::string_view) {}) {}

    std::string_view name() const override { return "pending-questions file"; }
    void show(const Ask& ask, Done done) override {
        writer_.show(ask, [](const Outcome&) {});  // writes the entries; its "pending" outcome is not ours
        current_ = ask;
        done_ = std::move(done);
    }
    void withdraw(const std::string& ask_id) override {
        if (!current_ || current_->id != ask_id) return;
        forget(*current_);
        current_.reset();
        done_ = nullptr;
    }
    // Answers given with `askhost answer` since the last poll end the question.
    void poll() {
        if (!current_) return;
        namespace fs = std::filesystem;
        const fs::path path(path_);
        store::DirLock lock(path.has_parent_path() ? path.parent_path() : fs::path("."));
        auto loaded = store::load_pending(path);
        if (loaded.status != store::PendingLoad::Status::Ok) return;
        std::vector<std::string> warnings;
        auto answers = store::take_answers(loaded.file, current_->questions, warnings);
        for (const auto& w : warnings) log_line(path_ + ": " + w);
        if (!answers) return;
        drop_used(loaded.file);
        save(path, loaded.file);
        log_line("answered from " + path_);
        auto done = std::move(done_);
        current_.reset();
        done(Outcome::answered(std::move(*answers)));
    }

private:
    void forget(const Ask& ask) {
        namespace fs = std::filesystem;
        const fs::path path(path_);
        store::DirLock lock(path.has_parent_path() ? path.parent_path() : fs::path("."));
        auto loaded = store::load_pending(path);
        if (loaded.status != store::PendingLoad::Status::Ok) return;
        std::erase_if(loaded.file.questions, [&](const store::PendingQuestion& p) {
            return std::any_of(ask.questions.begin(), ask.questions.end(),
                               [&](const Question& q) { return q.question == p.question.question; });
        });
        save(path, loaded.file);
    }
    static void drop_used(store::PendingFile& file) {
        std::erase_if(file.questions, [](const store::PendingQuestion& p) { return p.used; });
    }
    static void save(const std::filesystem::path& path, const store::PendingFile& file) {
        if (file.questions.empty()) {
            ::unlink(path.c_str());
            return;
        }
        if (auto err = store::save_pending(path, file)) log_line(err->message);
    }

    std::string path_;
    PrintFrontend writer_;
    std::optional<Ask> current_;
    Done done_;
};

// No host to ask through: askhost mcp becomes a host of its own. It registers (kind "mcp") and
// listens, so `askhost attach` from another terminal answers; an editor's host that opens the
// workspace later is asked too; the terminal dialog opens only on a terminal nobody else reads.
// The pending-questions file keeps a record. With --print: the file, and the agent told at once.
class OwnHost {
public:
    OwnHost(boost::asio::io_context& io, const std::string& pending_file, std::string cwd, bool print_only)
        : io_(io),
          core_(io, no_agent_),
          print_(pending_file, "", log_line),
          record_(pending_file),
          cwd_(std::move(cwd)),
          print_only_(print_only),
          watch_(io),
          popups_(io, print_only ? std::string() : popup_lines(), log_line,
                  [this](const std::string& id) { return wants_popup(id); }) {
        core_.on_log = log_line;
        popups_.on_closed = [this](const std::string& id, bool again) {
            if (!again) popped_.insert(id);
        };
        if (print_only_) core_.broker().set_fallback(&print_);
        else core_.broker().add_frontend(record_);
    }
    ~OwnHost() {
        lifetime_.end();
        core_.broker().withdraw_all();
        if (!print_only_) core_.broker().remove_frontend(record_, false);
        if (remote_) core_.broker().remove_frontend(*remote_, false);
#if ASKHOST_HAVE_TUI
        if (dialog_) {
            dialog_->restore_terminal();
            core_.broker().remove_frontend(*dialog_, false);
        }
#endif
    }

    std::function<void()> ask(Ask ask, McpAsker::Reply reply) {
        if (!print_only_) prepare();
        auto ticket = std::make_shared<AskTicket>(core_.broker().ask(std::move(ask), std::move(reply)));
        if (!print_only_) {
            popups_.asked(ticket->id());
            maybe_popup();
            watch();
        }
        return [ticket] { ticket->cancel(); };
    }

    void restore_terminal() {
#if ASKHOST_HAVE_TUI
        if (dialog_) dialog_->restore_terminal();
#endif
    }

private:
    void prepare() {
        if (!listening_) {
            listening_ = true;
            core_.add_folder(cwd_);  // registered with it from the first write
            if (auto err = core_.listen("mcp")) log_line(err->message);
        }
#if ASKHOST_HAVE_TUI
        if (!dialog_ && terminal_is_free()) {
            dialog_ = std::make_unique<TerminalDialog>(io_, TerminalDialogOptions{});
            core_.broker().add_frontend(*dialog_);
        }
#endif
        log_line("a question waits for the person: no editor's askhost has " + cwd_ +
                 " in its workspace; answer with `askhost attach` in a terminal there (or open it in an "
                 "editor with askhost, or `askhost answer` there)");
    }

    // Looks for an editor's host in the workspace every second while a question waits.
    void watch() {
        if (watching_) return;
        watching_ = true;
        watch_.expires_after(std::chrono::seconds(1));
        watch_.async_wait([this, token = lifetime_.token()](const boost::system::error_code& ec) {
            if (ec || !token) return;
            watching_ = false;
            if (!core_.broker().waiting()) return popups_.withdraw();
            record_.poll();
            if (!remote_) look_for_host();
            maybe_popup();
            watch();
        });
    }

    void look_for_host() {
        auto found = find_host(cwd_, "");
        if (!found || found->socket == core_.socket_path()) return;
        auto remote = std::make_unique<RemoteFrontend>(io_, found->socket, [this, token = lifetime_.token()] {
            if (!token || !remote_) return;
            core_.broker().remove_frontend(*remote_, false);
            // Destroyed after the callback that reported the close has returned.
            boost::asio::post(io_, [r = std::shared_ptr<RemoteFrontend>(std::move(remote_))] {});
            watch();
        });
        if (Status unreachable = remote->connect()) return;
        log_line("asking through the askhost at " + found->socket + " (" + found->source + ") as well");
        remote_ = std::move(remote);
        core_.broker().add_frontend(*remote_);
    }

    // In tmux, with nobody else showing it: the dialog in a popup over the asking agent's pane
    // (docs/tmux.md); once per question, after the popups of questions asked before it on that
    // client (any askhost's); a pane nobody looks at gets a message and the bell.
    void maybe_popup() {
        if (popups_.popup_open()) return;
        auto pending = core_.broker().pending();
        if (pending.empty() || !wants_popup(pending.front()->id)) return popups_.withdraw();
        const Ask& head = *pending.front();
        auto pane =
            tmux::popups_enabled() ? tmux::pane_for_terminal(tmux::terminal_of_ancestors(::getpid())) : std::nullopt;
        if (!pane) {
            popped_.insert(head.id);
            popups_.withdraw();
            return tell(head);
        }
        core_.set_tmux(pane->server, pane->pane_id);
        if (pane->client.empty()) {
            popped_.insert(head.id);
            popups_.withdraw();
            tmux::notify_pane(*pane, "askhost: " + (head.agent.empty() ? std::string("an agent") : head.agent) +
                                         " asks a question: answer with askhost attach --next");
            tell(head);
            return;
        }
        std::vector<std::string> texts;
        int options = 0;
        for (const auto& q : head.questions) {
            texts.push_back(q.question);
            options = std::max(options, static_cast<int>(q.options.size()) + 1);
        }
        auto [width, height] = tmux::dialog_size(texts, options);
        popups_.offer(*pane, head.id, {self_path(), "attach", "--popup", core_.socket_path()}, width, height);
    }

    // Whether `id` still wants a popup: the first question waiting here, shown nowhere else yet.
    bool wants_popup(const std::string& id) {
        auto pending = core_.broker().pending();
        if (pending.empty() || pending.front()->id != id || popped_.count(id) > 0 || remote_ ||
            core_.hub().client_count() > 0)
            return false;
#if ASKHOST_HAVE_TUI
        if (dialog_) return false;
#endif
        return true;
    }

    static std::string popup_lines() {
        auto dir = socket_directory();
        return dir ? *dir + "/tmux-popups" : std::string();
    }

    // Nobody looks: a desktop notification and the terminal's own (OSC 9/777), where there are.
    static void tell(const Ask& ask) {
        NotifyOptions n;
        n.desktop = true;
        n.terminal = true;
        tell_question_waiting(ask, n, log_line);
    }

    static std::string self_path() {
        char buf[4096];
        ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
        return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("askhost");
    }

    boost::asio::io_context& io_;
    NoAgentControl no_agent_{"askhost mcp"};  // clients of this host cannot start an agent here
    HostCore core_;
    PrintFrontend print_;
    PendingRecord record_;
    std::string cwd_;
    bool print_only_;
    bool listening_ = false, watching_ = false;
    boost::asio::steady_timer watch_;
    std::unique_ptr<RemoteFrontend> remote_;
#if ASKHOST_HAVE_TUI
    std::unique_ptr<TerminalDialog> dialog_;
#endif
    std::set<std::string> popped_;  // asks a popup was opened (or the person told) for
    tmux::PopupQueue popups_;
    Lifetime lifetime_;
};

// Per call: the host for this directory when there is one (it may come and go), else the
// client's own form when it offers elicitation, else a host of our own.
class RoutingAsker final : public McpAsker {
public:
    // find_hint names the host the agent runs under, if any; asked at the first call that needs a
    // host, so a session whose calls are all pre-answered never reads /proc.
    RoutingAsker(boost::asio::io_context& io, std::function<std::string()> find_hint, std::string pending_file,
                 bool print_only)
        : io_(io),
          find_hint_(std::move(find_hint)),
          pending_file_(std::move(pending_file)),
          print_only_(print_only),
          cwd_(current_directory()) {}

    std::function<void()> ask(Ask ask, McpServer& server, Reply reply) override {
        ask.route = "mcp";
        ask.cwd = cwd_;
        ask.agent = agent_name(server.client_name());
        if (ask.agent != server.client_name()) ask.client = server.client_name();
        if (!print_only_) {
            if (!hint_) hint_ = find_hint_ ? find_hint_() : std::string();
            if (auto found = find_host(cwd_, *hint_)) {
                auto& host = hosts_[found->socket];
                if (!host) {
                    host = std::make_unique<HostAsker>(io_, found->socket);
                    log_line("asking through the askhost at " + found->socket + " (" + found->source + ")");
                }
                if (host->connect()) return host->ask(ask, std::move(reply));
            }
            // In tmux, a popup over the asking pane comes before the client's own form: it is the
            // whole dialog (Codex's form has no multi-select field).
            if (server.client_elicits() && !popup_possible()) return elicit_then_wait(ask, server, reply);
        }
        return wait(std::move(ask), std::move(reply));
    }

    void restore_terminal() {
        if (own_) own_->restore_terminal();
    }

private:
    std::function<void()> wait(Ask ask, Reply reply) {
        if (!own_) own_ = std::make_unique<OwnHost>(io_, pending_file_, cwd_, print_only_);
        return own_->ask(std::move(ask), std::move(reply));
    }

    // The client's own form. A form that comes back unanswered sooner than anyone could have read
    // it was never in front of a person (claude -p cancels, codex exec and approval "never"
    // decline within milliseconds): then the question waits here instead of ending in a cancel.
    std::function<void()> elicit_then_wait(const Ask& ask, McpServer& server, const Reply& reply) {
        log_line("no askhost for " + cwd_ + ": asking in " + server.client_name() + "'s own form (elicitation)");
        struct Call {
            std::function<void()> cancel;
            bool done = false;
        };
        auto call = std::make_shared<Call>();
        const auto asked = std::chrono::steady_clock::now();
        call->cancel = server.elicit(ask, [this, ask, reply, call, asked](Outcome o) {
            if (call->done) return;
            if (o.kind != OutcomeKind::Answered && std::chrono::steady_clock::now() - asked < kUnreadForm) {
                log_line("the client's form came back unanswered at once (" + o.reason +
                         "): no person saw it; the question waits instead");
                call->cancel = wait(ask, [reply, call](Outcome later) {
                    call->done = true;
                    reply(std::move(later));
                });
                return;
            }
            call->done = true;
            reply(std::move(o));
        });
        return [call] {
            if (call->done) return;
            call->done = true;
            if (call->cancel) call->cancel();
        };
    }

    static bool popup_possible() {
        if (!tmux::popups_enabled()) return false;
        auto pane = tmux::pane_for_terminal(tmux::terminal_of_ancestors(::getpid()));
        return pane && !pane->client.empty();
    }

    static constexpr std::chrono::milliseconds kUnreadForm{1000};

    boost::asio::io_context& io_;
    std::function<std::string()> find_hint_;
    std::optional<std::string> hint_;  // found at the first call that needs it
    std::string pending_file_;
    bool print_only_;
    std::string cwd_;
    std::map<std::string, std::unique_ptr<HostAsker>> hosts_;
    std::unique_ptr<OwnHost> own_;
};

}  // namespace

extern const cli::Command kMcpCommand;
const cli::Command kMcpCommand{
    .name = "mcp",
    .synopsis = "[--print] [--pending-file PATH] [--progress-interval SECONDS]",
    .summary = "MCP stdio server with the ask_user_question tool",
    .about =
        "An MCP stdio server with one tool, ask_user_question. Run it from an agent's MCP configuration.\n"
        "Each question goes to the askhost that runs the agent ($ASKHOST_SOCKET), else to the editor's\n"
        "askhost whose workspace holds this directory (`askhost hosts`), else to the client's own form\n"
        "when it offers elicitation. Else askhost mcp waits as a host of its own: `askhost attach` in\n"
        "another terminal answers, an editor opening the workspace is asked too, and a terminal nobody\n"
        "else reads shows the dialog; the pending-questions file keeps a record.",
    .options = kOptions,
};

int run_mcp(const std::vector<std::string>& args) {
    auto read = cli::read(args, kMcpCommand);
    if (auto* done = std::get_if<cli::Exit>(&read)) return done->print();
    const cli::Args& a = std::get<cli::Args>(read);
    const std::string pending_file = a.value("pending-file").value_or(store::default_pending_file);
    const bool print_only = a.has("print");
    std::chrono::milliseconds progress_every{10000};
    if (auto v = a.value("progress-interval")) {
        char* end = nullptr;
        const double seconds = std::strtod(v->c_str(), &end);
        if (v->empty() || *end || !(seconds >= 0.05 && seconds <= 3600))
            return cli::usage_error(kMcpCommand,
                                    "--progress-interval: '" + *v + "' is not a number of seconds (0.05 to 3600)")
                .print();
        progress_every = std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
    }
    const char* env_socket = std::getenv("ASKHOST_SOCKET");
    auto hint = [env = std::string(env_socket ? env_socket : "")] {
        return env.empty() ? socket_from_ancestors() : env;
    };

    boost::asio::io_context io;
    RoutingAsker asker(io, hint, pending_file, print_only);
    auto [in, out] = claim_stdio();
    auto conn = std::make_shared<Connection>(io, in, out, FrameDecoder::default_max_body, Framing::Lines);
    McpServer server(conn->rpc(), asker, log_line, &io);
    server.progress_interval = progress_every;
    conn->on_problem = [](std::string_view p) { log_line(std::string("client: ") + std::string(p)); };
    boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
    auto finish = [&] {
        server.close();
        asker.restore_terminal();
        signals.cancel();
        // Replies already queued (e.g. to the last calls before end of input) still go out.
        stop_when_written(io, [&conn] { return conn->queued_bytes(); });
    };
    conn->on_closed = [&](std::string_view) { finish(); };
    signals.async_wait([&](const boost::system::error_code& ec, int) {
        if (!ec) finish();
    });
    conn->start();
    io.run();
    asker.restore_terminal();
    return 0;
}

}  // namespace askhost::mcp
