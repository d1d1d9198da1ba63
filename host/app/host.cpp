#include "app/host.hpp"

#include <charconv>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "frontends/editor/ask_json.hpp"
#include "frontends/notify.hpp"
#include "frontends/tmux_popup.hpp"
#include "transport/stdio.hpp"

namespace askhost {

namespace {

// ASKHOST_PARTIAL_LINE_MS: how long a partial line of the agent's output waits for its end (tests
// set a long wait so that fragments always join). Unset: the default; not 0..60000: an error.
Result<std::chrono::milliseconds> partial_line_wait_from_env(std::chrono::milliseconds fallback) {
    constexpr long kMaxMs = 60000;
    const char* env = std::getenv("ASKHOST_PARTIAL_LINE_MS");
    if (!env || !*env) return fallback;
    const std::string_view text(env);
    long ms = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
    if (ec != std::errc() || end != text.data() + text.size() || ms < 0 || ms > kMaxMs)
        return Error::usage("ASKHOST_PARTIAL_LINE_MS=" + std::string(text) + ": expected milliseconds, 0 to " +
                            std::to_string(kMaxMs) + "; using " + std::to_string(fallback.count()));
    return std::chrono::milliseconds(ms);
}

}  // namespace

Host::Host(const CliOptions& options, Mode mode)
    : opts_(options),
      mode_(mode),
      core_(io_, *this),
      broker_(core_.broker()),
      hub_(core_.hub()),
      signals_(io_, SIGINT, SIGTERM, SIGHUP) {
    register_builtin_adapters(registry_);
    broker_.set_timeout(opts_.timeout);
    {
        store::SessionStoreOptions so;
        so.session = opts_.session;
        so.pending_file = opts_.pending_file;
        so.answers_json = opts_.answers_json;
        so.journal_sync = opts_.journal_sync_always ? store::JournalSync::Always : store::JournalSync::Deferred;
        so.mode = mode_ == Mode::Print   ? store::JournalMode::Print
                  : mode_ == Mode::Stdio ? store::JournalMode::Rpc
                                         : store::JournalMode::Interactive;
        so.log = [this](std::string_view m) { log(m); };
        auto made = store::SessionStore::create(std::move(so));
        if (made) {
            store_ = std::move(*made);
            store_->attach(broker_, mode_ == Mode::Print);  // print mode: nobody to ask, write the file
        } else {
            store_error_ = made.error().message;
        }
    }
    core_.on_state = [this] {
        auto pending = broker_.pending();
        if (!pending.empty() && pending.front()->id != last_hooked_) {
            last_hooked_ = pending.front()->id;
            run_question_hook(*pending.front());
        }
    };
    hub_.on_log = [this](std::string_view m) { log(m); };
    hub_.on_exit = [this](int code) {
        editor_exit_code_ = code;
        if (session_ && session_->running()) {
            leave_agent([this](AgentExit) { finish(*editor_exit_code_); });
        } else {
            finish(code);
        }
    };
    hub_.on_primary_written = [this] {
        if (output_paused_ && hub_.primary_queued_bytes() <= kResumeOutputAt) resume_output();
    };
    hub_.on_primary_lost = [this] {
        // The editor vanished: its asks already got connectionLost; leave no orphan agent.
        primary_gone_ = true;
        resume_output();
        if (session_ && session_->running()) leave_agent([this](AgentExit) { finish(1); });
        else finish(1);
    };
    core_.on_log = [this](std::string_view m) { log(m); };
    const auto default_wait = Session::Hooks{}.partial_line_wait;
    auto wait = partial_line_wait_from_env(default_wait);
    partial_line_wait_ = wait ? *wait : default_wait;
    if (!wait) log(wait.error().message);

#if ASKHOST_HAVE_TUI
    if (mode_ == Mode::Tui) {
        TerminalDialogOptions topts;
        topts.on_active = [this](bool active) { terminal_.hold(active); };
        dialog_ = std::make_unique<TerminalDialog>(io_, std::move(topts));
        broker_.add_frontend(*dialog_);
    }
#endif
}

Host::~Host() {
#if ASKHOST_HAVE_TUI
    if (dialog_) dialog_->restore_terminal();
#endif
}

void Host::output(Stream stream, std::string_view text) {
    if (mode_ != Mode::Stdio) terminal_.write(stream, text);
    hub_.agent_output(stream, text);
    // The editor is behind: let the agent wait on its pipe rather than queue without bound or drop.
    if (!output_paused_ && session_ && hub_.primary_queued_bytes() > kPauseOutputAt) {
        output_paused_ = true;
        session_->pause_output();
    }
}

void Host::resume_output() {
    if (!output_paused_) return;
    output_paused_ = false;
    if (session_) session_->resume_output();
}

void Host::log(std::string_view message) {
    std::string line = "askhost: " + std::string(message) + "\n";
    if (mode_ == Mode::Stdio) write_all(2, line);
    else terminal_.write(Stream::Stderr, line);
}

Result<int> Host::start_agent(const LaunchSpec& spec, const std::string& adapter_name) {
    if (session_ && session_->running())
        return Error::failed("an agent is already running (pid " + std::to_string(session_->pid()) + ")");
    const AdapterInfo* adapter =
        adapter_name == "auto" ? registry_.detect(spec.argv, "native") : registry_.find(adapter_name);
    if (!adapter) {
        std::string names;
        for (const auto& a : registry_.all()) names += (names.empty() ? "" : ", ") + a.name;
        return Error::usage("no adapter '" + adapter_name + "' (built in: auto, " + names + ")");
    }
    Session::Hooks hooks;
    hooks.output = [this](Stream s, std::string_view t) { output(s, t); };
    hooks.log = [this](std::string_view m) { log(m); };
    hooks.exited = [this](AgentExit e) { agent_exited(e); };
    hooks.pre_answer = [this](const Ask& a) { return store_ ? store_->pre_answer(a) : std::nullopt; };
    hooks.settings.allow_tools = opts_.allow_tools;
    hooks.settings.one_shot = mode_ != Mode::Stdio;
    hooks.partial_line_wait = partial_line_wait_;
    if (session_) retired_ = std::move(session_);
    output_paused_ = false;  // a new agent: nothing of it is waiting
    session_ = std::make_unique<Session>(io_, broker_, *adapter, opts_.profile.value_or(adapter->default_profile),
                                         std::move(hooks));
    core_.add_folder(spec.cwd);  // the agent's working directory is this host's workspace too
    LaunchSpec full = spec;
    if (adapter->prepare_argv) full.argv = adapter->prepare_argv(full.argv);
    if (!core_.socket_path().empty()) full.env["ASKHOST_SOCKET"] = core_.socket_path();
    if (auto err = session_->start(full)) {
        session_.reset();
        return *err;
    }
    return session_->pid();
}

Status Host::prompt_agent(std::string_view text) {
    if (!session_ || !session_->running()) return Error::failed("no agent is running");
    if (!session_->prompt(text))
        return Error::failed("the " + std::string(session_->adapter_name()) +
                             " adapter has no conversation to send a prompt to");
    return std::nullopt;
}

bool Host::stop_agent(std::function<void(AgentExit)> done) {
    if (!session_ || !session_->running()) return false;
    stop_waiters_.push_back(std::move(done));
    session_->stop();
    return true;
}

void Host::leave_agent(std::function<void(AgentExit)> done) {
    stop_waiters_.push_back(std::move(done));
    // Its last answer (e.g. connectionLost) is on the way: let it read that and end on its own.
    session_->finish_then_stop();
}

void Host::agent_exited(AgentExit e) {
    hub_.agent_exit(e);
    auto waiters = std::move(stop_waiters_);
    stop_waiters_.clear();
    for (auto& w : waiters) w(e);
    if (mode_ != Mode::Stdio || primary_gone_) {
        finish(stop_signal_ ? 128 + stop_signal_ : e.status());
    }
    // Under --stdio the editor decides: askhost stays until shutdown/exit.
}

void Host::finish(int code) {
    if (finishing_) return;
    finishing_ = true;
    core_.unregister();  // no new asks are routed here from now on
    exit_code_ = code;
    broker_.withdraw_all();
    signals_.cancel();
    // Let queued replies and notifications (the last agent/output, agent/exit, the shutdown
    // reply) reach the clients, then stop: at once when all is written, else after 2 s at most.
    boost::asio::post(io_, [this] { stop_when_written(io_, [this] { return hub_.queued_bytes(); }); });
}

void Host::wait_signal() {
    signals_.async_wait([this](const boost::system::error_code& ec, int sig) {
        if (ec) return;
#if ASKHOST_HAVE_TUI
        if (dialog_) dialog_->restore_terminal();
#endif
        if (session_ && session_->running()) {
            if (stop_signal_) session_->kill_now();  // a second signal: no more grace
            else session_->stop();
            stop_signal_ = sig;
            if (mode_ == Mode::Stdio) stop_waiters_.push_back([this](AgentExit) { finish(128 + stop_signal_); });
        } else {
            finish(128 + sig);
        }
        wait_signal();
    });
}

void Host::run_question_hook(const Ask& ask) {
    if (opts_.on_question.empty()) return;
    NotifyOptions n;
    n.on_question = opts_.on_question;
    tell_question_waiting(ask, n, nullptr);
}

int Host::run() {
    if (!store_error_.empty()) {
        write_all(2, "askhost: " + store_error_ + "\nTry 'askhost --help' for more information.\n");
        return 2;
    }
    // An agent run in a tmux pane asks in that pane's dialog: askhost jump goes there.
    if (auto pane = mode_ == Mode::Tui ? tmux::pane_of_environment() : std::nullopt)
        core_.set_tmux(pane->server, pane->pane_id);
    if (auto err = core_.listen(mode_ == Mode::Stdio ? "editor" : mode_ == Mode::Print ? "print" : "agent"))
        log(err->message + " (other clients cannot attach)");
    wait_signal();
    if (mode_ == Mode::Stdio) {
        if (::isatty(0))  // a person who typed it: say what it waits for
            write_all(2,
                      "askhost --stdio: the editor protocol (JSON-RPC in Content-Length frames, docs/protocol.md) on "
                      "stdin and stdout, for an editor to run; its workspace comes from the editor's initialize. "
                      "Ctrl-C ends it.\n");
        auto [in, out] = claim_stdio();
        auto conn = std::make_shared<Connection>(io_, in, out);
        hub_.add_client(conn, true);
    }
    if (!opts_.agent_argv.empty()) {
        LaunchSpec spec;
        spec.argv = opts_.agent_argv;
        auto started = start_agent(spec, opts_.adapter);
        if (!started) {
            const Error& err = started.error();
            if (mode_ != Mode::Stdio) {
                write_all(2, "askhost: " + err.message + "\n");
                return err.exit_status();
            }
            log(err.message);
            // The editor hears about it as an agent/exit it can react to.
            hub_.agent_exit(AgentExit{err.exit_status(), 0});
        } else if (!opts_.prompt.empty()) {
            if (auto why = prompt_agent(opts_.prompt)) log("--prompt: " + why->message);
        }
    }
    io_.run();
#if ASKHOST_HAVE_TUI
    if (dialog_) dialog_->restore_terminal();
#endif
    terminal_.hold(false);
    return exit_code_;
}

}  // namespace askhost
