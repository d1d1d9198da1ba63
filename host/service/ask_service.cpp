#include "service/ask_service.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "askhost_config.h"
#include "core/broker.hpp"
#include "core/lifetime.hpp"
#include "core/proc_stat.hpp"
#include "core/self_path.hpp"
#include "frontends/editor/host_client.hpp"
#include "frontends/editor/host_core.hpp"
#include "frontends/editor/registry.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "frontends/notify.hpp"
#include "frontends/tmux_popup.hpp"
#include "frontends/tmux_queue.hpp"
#include "frontends/user_config.hpp"
#include "store/fs_util.hpp"
#include "store/pending_file.hpp"
#include "store/pending_writer.hpp"
#include "store/print_frontend.hpp"
#include "store/session_store.hpp"
#if ASKHOST_HAVE_TUI
#include "frontends/tui/terminal_dialog.hpp"
#endif

namespace askhost {

namespace {

using Log = void (*)(std::string_view);

void say(Log log, std::string_view m) {
    if (log) log(m);
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

// Whether a tmux popup can open over the asking pane: one is enabled and a client looks at it.
bool popup_possible() {
    if (!tmux::popups_enabled()) return false;
    auto pane = tmux::pane_for_terminal(tmux::terminal_of_ancestors(::getpid()));
    return pane && !pane->client.empty();
}

// An editor's host that appeared while our own host held a question: shown there too, through
// its socket. A host that goes away takes nothing with it: the question goes on waiting here.
class RemoteFrontend final : public Frontend {
public:
    RemoteFrontend(boost::asio::io_context& io, std::string socket, const std::string& who, Log log,
                   std::function<void()> gone)
        : client_(io, std::move(socket), who) {
        client_.on_log = log;
        client_.on_closed = std::move(gone);
    }
    Status connect() { return client_.connect(); }

    std::string_view name() const override { return "editor host"; }
    void show(const Ask& ask, Done done) override {
        std::string id = ask.id;
        open_[id] =
            client_.submit(ask, ask.profile, [this, id, done = std::move(done), token = lifetime_.token()](Outcome o) {
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

// The pending-questions file as one more place that shows the question while our own host waits:
// `askhost questions` lists it and `askhost answer` answers it (checked at each poll). When the
// question ends elsewhere, its entries leave the file. The file work (the folder's lock, the read,
// the atomic write with its fsyncs: 1 to 8 ms on a busy disk) is done by the writer's thread; the
// loop only queues it, so the ask/show to the host's clients (askhost web's page, askhost attach)
// and the answer to a client that connects meanwhile never wait for the disk.
class PendingRecord final : public Frontend {
public:
    PendingRecord(boost::asio::io_context& io, std::string path, std::string session, Log log)
        : io_(io),
          path_(std::move(path)),
          session_(std::move(session)),
          log_(log),
          writer_(path_, [log](std::string_view m) { say(log, m); }) {}

    std::string_view name() const override { return "pending-questions file"; }
    void show(const Ask& ask, Done done) override {
        current_ = ask;
        done_ = std::move(done);
        queued_ = false;
        // Queued after this turn of the loop: the ask/show to the host's clients is written first,
        // before the writer's thread wakes to compete with it for a CPU. Posted twice, so that it
        // runs after what this turn posted (the clients' writes).
        boost::asio::post(io_, [this, id = ask.id, token = lifetime_.token()] {
            if (!token) return;
            boost::asio::post(io_, [this, id, token] {
                if (!token || !current_ || current_->id != id || queued_) return;
                queued_ = true;
                writer_.change([ask = *current_, path = writer_.path(), log = log_,
                                session = session_](store::PendingLoad& loaded) {
                    if (loaded.status == store::PendingLoad::Status::Error) {
                        auto err = store::set_aside_broken(path, loaded, [log](std::string_view m) { say(log, m); });
                        if (err) {
                            say(log, "cannot write the pending-questions file: " + err->message);
                            return false;
                        }
                    }
                    store::add_ask(loaded.file, ask, session, store::iso8601_utc(store::now_ms()));
                    return true;
                });
            });
        });
    }
    void withdraw(const std::string& ask_id) override {
        if (!current_ || current_->id != ask_id) return;
        if (queued_) remove(current_->questions);
        current_.reset();
        done_ = nullptr;
        queued_ = false;
    }
    // Answers given with `askhost answer` since the last poll end the question: read, marked used
    // and dropped from the file on the writer's thread, handed to the broker back on the loop.
    void poll() {
        if (!current_ || !queued_ || polling_) return;
        polling_ = true;
        auto taken = std::make_shared<std::optional<std::vector<Answer>>>();
        writer_.change(
            [questions = current_->questions, permission = current_->permission, taken, path = path_, log = log_,
             said = said_, id = current_->id](store::PendingLoad& loaded) {
                if (loaded.status != store::PendingLoad::Status::Ok) return false;
                std::vector<std::string> warnings;
                auto answers = store::take_answers(loaded.file, questions, warnings, permission);
                // Polled every second: each reason is said once per question set.
                for (const auto& w : warnings)
                    if (said->insert(id + '\n' + w).second) say(log, path + ": " + w);
                if (!answers) return false;
                std::erase_if(loaded.file.questions, [](const store::PendingQuestion& p) { return p.used; });
                *taken = std::move(answers);
                return true;
            },
            [io = &io_, this, id = current_->id, taken, token = lifetime_.token()] {
                boost::asio::post(*io, [this, id, taken, token] {
                    if (!token) return;
                    polling_ = false;
                    if (!*taken || !current_ || current_->id != id) return;
                    say(log_, "answered from " + path_);
                    auto done = std::move(done_);
                    current_.reset();
                    queued_ = false;
                    done(Outcome::answered(std::move(**taken)));
                });
            });
    }

private:
    // The entries of these questions leave the file.
    void remove(const std::vector<Question>& questions) {
        writer_.change([questions](store::PendingLoad& loaded) {
            if (loaded.status != store::PendingLoad::Status::Ok) return false;
            return std::erase_if(loaded.file.questions, [&](const store::PendingQuestion& p) {
                       return std::any_of(questions.begin(), questions.end(),
                                          [&](const Question& q) { return q.question == p.question.question; });
                   }) > 0;
        });
    }

    boost::asio::io_context& io_;
    std::string path_;
    std::string session_;
    Log log_;
    std::optional<Ask> current_;
    Done done_;
    bool queued_ = false;   // current_'s entries are queued to the writer (so in the file, or soon)
    bool polling_ = false;  // a poll is queued on the writer
    // What the polls have said (ask id, warning), touched on the writer's thread only.
    std::shared_ptr<std::set<std::string>> said_ = std::make_shared<std::set<std::string>>();
    Lifetime lifetime_;
    store::PendingWriter writer_;  // last: destroyed first, it writes what is queued before the rest goes
};

}  // namespace

// No host to ask through: a host of our own (Alone::Beside and Seek, or --print). It registers
// and listens, so `askhost attach` from another terminal answers. Seeking, it also looks for an
// editor's host that opens the workspace later, opens the terminal dialog on a terminal nobody
// else reads, and a tmux popup over the asking pane; the pending-questions file keeps a record.
// Printing: the file, and the agent told at once.
class AskService::OwnHost {
public:
    OwnHost(boost::asio::io_context& io, const AskServiceOptions& options)
        : io_(io),
          options_(options),
          no_agent_(options.who),
          core_(io, no_agent_),
          store_(make_store(options)),
          print_(pending_file(options), session_of(store_), options.log),
          record_(io, pending_file(options), session_of(store_), options.log),
          seeking_((options.alone == Alone::Seek || options.alone == Alone::SeekIfShown) && !options.print_only),
          watch_(io),
          popups_(io, seeking_ ? popup_lines() : std::string(), options.log,
                  [this](const std::string& id) { return wants_popup(id); }) {
        core_.on_log = options.log;
        // Every exchange is journalled, under a session of this host's own (askhost sessions).
        if (store_) store_->attach(core_.broker(), false);
        popups_.on_closed = [this](const std::string& id, bool again) {
            if (!again) popped_.insert(id);
        };
        if (options_.print_only) core_.broker().set_fallback(&print_);
        else if (seeking_) core_.broker().add_frontend(record_);
    }
    ~OwnHost() {
        lifetime_.end();
        core_.broker().withdraw_all();
        if (seeking_) core_.broker().remove_frontend(record_, false);
        if (remote_) core_.broker().remove_frontend(*remote_, false);
#if ASKHOST_HAVE_TUI
        if (dialog_) {
            dialog_->restore_terminal();
            core_.broker().remove_frontend(*dialog_, false);
        }
#endif
    }
    OwnHost(const OwnHost&) = delete;
    OwnHost& operator=(const OwnHost&) = delete;

    // Registers and listens (once); false when it cannot listen and must not wait (Beside).
    bool open() {
        if (options_.print_only || listening_) return true;
        core_.add_folder(options_.cwd);  // registered with it from the first write
        if (options_.alone == Alone::Beside) {
            // The agent's terminal's tmux pane (Claude gives its hooks TMUX and TMUX_PANE): askhost
            // jump goes there.
            const char* tmux_env = std::getenv("TMUX");
            const char* tmux_pane = std::getenv("TMUX_PANE");
            if (tmux_env && *tmux_env && tmux_pane && *tmux_pane) {
                std::string server = tmux_env;
                core_.set_tmux(server.substr(0, server.find(',')), tmux_pane);
            }
        }
        if (auto err = core_.listen(options_.kind)) {
            say(options_.log, err->message);
            if (!seeking_) return false;
        }
        listening_ = true;
        return true;
    }

    std::function<void()> ask(Ask ask, OnOutcome reply) {
        if (seeking_) seek();
        auto ticket = std::make_shared<AskTicket>(core_.broker().ask(std::move(ask), std::move(reply)));
        if (seeking_) {
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

    std::size_t owed() {
        core_.hub().flush_state();
        return core_.hub().queued_bytes();
    }

private:
    static std::string pending_file(const AskServiceOptions& o) {
        return o.pending_file.empty() ? std::string(store::default_pending_file) : o.pending_file;
    }

    static std::unique_ptr<store::SessionStore> make_store(const AskServiceOptions& o) {
        store::SessionStoreOptions so;
        so.pending_file = pending_file(o);
        so.mode = o.print_only ? store::JournalMode::Print : store::JournalMode::Interactive;
        if (o.log) so.log = o.log;
        auto made = store::SessionStore::create(std::move(so));
        if (!made) {
            say(o.log, "no session journal: " + made.error().message);
            return nullptr;
        }
        return std::move(*made);
    }
    static std::string session_of(const std::unique_ptr<store::SessionStore>& store) {
        return store ? store->session_id() : std::string();
    }

    void seek() {
#if ASKHOST_HAVE_TUI
        if (!dialog_ && terminal_is_free()) {
            dialog_ = std::make_unique<TerminalDialog>(io_, TerminalDialogOptions{});
            core_.broker().add_frontend(*dialog_);
        }
#endif
        say(options_.log, "a question waits for the person: no editor's askhost has " + options_.cwd +
                              " in its workspace; answer with `askhost attach` in a terminal there (or open it in "
                              "an editor with askhost, or `askhost answer` there)");
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
        auto found = find_host(options_.cwd, "");
        if (!found || found->socket == core_.socket_path()) return;
        auto remote = std::make_unique<RemoteFrontend>(
            io_, found->socket, options_.who, options_.log, [this, token = lifetime_.token()] {
                if (!token || !remote_) return;
                core_.broker().remove_frontend(*remote_, false);
                // Destroyed after the callback that reported the close has returned.
                boost::asio::post(io_, [r = std::shared_ptr<RemoteFrontend>(std::move(remote_))] {});
                watch();
            });
        if (Status unreachable = remote->connect()) return;
        say(options_.log, "asking through the askhost at " + found->socket + " (" + found->source + ") as well");
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
        std::string self = self_path();
        popups_.offer(*pane, head.id,
                      {self.empty() ? std::string("askhost") : self, "attach", "--popup", core_.socket_path()}, width,
                      height);
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
    void tell(const Ask& ask) const {
        NotifyOptions n;
        n.desktop = true;
        n.terminal = true;
        tell_question_waiting(ask, n, options_.log);
    }

    boost::asio::io_context& io_;
    const AskServiceOptions& options_;
    NoAgentControl no_agent_;  // clients of this host cannot start an agent here
    HostCore core_;
    std::unique_ptr<store::SessionStore> store_;  // the journal; before the files that name its session
    PrintFrontend print_;
    PendingRecord record_;
    bool seeking_;
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

OwnQuestions own_questions_setting(void (*log)(std::string_view)) {
    auto v = user_config_value("own-questions");
    if (!v || v->empty() || *v == "when-shown") return OwnQuestions::WhenShown;
    if (*v == "always") return OwnQuestions::Always;
    if (*v == "never") return OwnQuestions::Never;
    say(log, user_config_path() + ": own-questions: '" + *v + "' is not always, when-shown or never; when-shown it is");
    return OwnQuestions::WhenShown;
}

bool somewhere_to_show() {
    if (popup_possible() || terminal_is_free()) return true;
    auto dir = socket_directory();
    return dir && running_web_server(*dir + "/web.json").has_value();
}

std::string socket_from_ancestors() {
    return nearest_ancestor(::getppid(), [](pid_t pid) {
        std::ifstream env("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
        std::string var;
        while (std::getline(env, var, '\0'))
            if (var.rfind("ASKHOST_SOCKET=", 0) == 0) return var.substr(15);
        return std::string();
    });
}

AskService::AskService(boost::asio::io_context& io, AskServiceOptions options) : io_(io), options_(std::move(options)) {
    if (!options_.log) options_.log = [](std::string_view) {};
}

AskService::~AskService() = default;

void AskService::log(const std::string& m) const { say(options_.log, m); }

AskService::Asking AskService::ask(Ask ask, OnOutcome reply, const ClientForm* form) {
    if (options_.print_only) return wait(std::move(ask), std::move(reply));
    if (!hint_) hint_ = options_.socket_hint ? options_.socket_hint() : std::string();
    if (auto found = find_host(options_.cwd, *hint_)) {
        auto& host = hosts_[found->socket];
        if (!host) {
            host = std::make_unique<HostClient>(io_, found->socket, options_.who);
            host->on_log = options_.log;
            log("asking through the askhost at " + found->socket + " (" + found->source + ")");
        }
        Status unreachable = host->connect();
        if (!unreachable) return {Asking::Where::Host, host->submit(ask, ask.profile, std::move(reply))};
        log(unreachable->message);
    }
    if (options_.alone == Alone::Decline) return {};
    if (options_.alone == Alone::SeekIfShown && !somewhere_to_show()) {
        log("no askhost for " + options_.cwd +
            " and nothing to show the question on (no tmux client, no askhost "
            "web): left to the agent's own dialog");
        return {};
    }
    // In tmux, a popup over the asking pane comes before the agent's own form: it is the whole
    // dialog (Codex's form has no multi-select field).
    if (form && options_.alone == Alone::Seek && !popup_possible()) return ask_form(ask, reply, *form);
    return wait(std::move(ask), std::move(reply));
}

AskService::Asking AskService::wait(Ask ask, OnOutcome reply) {
    if (!own_) own_ = std::make_unique<OwnHost>(io_, options_);
    if (!own_->open()) return {};
    return {Asking::Where::Own, own_->ask(std::move(ask), std::move(reply))};
}

// The agent's own form; one that comes back unanswered sooner than anyone could have read it
// (claude -p cancels, codex exec and approval "never" decline within milliseconds) was never in
// front of a person: then the ask waits in our own host instead of ending in a cancel.
AskService::Asking AskService::ask_form(const Ask& ask, const OnOutcome& reply, const ClientForm& form) {
    static constexpr std::chrono::milliseconds kUnreadForm{1000};
    log("no askhost for " + options_.cwd + ": asking in " + form.client + "'s own form (elicitation)");
    struct Call {
        std::function<void()> cancel;
        bool done = false, waiting = false;
    };
    auto call = std::make_shared<Call>();
    const auto asked = std::chrono::steady_clock::now();
    auto cancel_form = form.show(ask, [this, ask, reply, call, asked](Outcome o) {
        if (call->done || call->waiting) return;
        if (o.kind != OutcomeKind::Answered && std::chrono::steady_clock::now() - asked < kUnreadForm) {
            log("the client's form came back unanswered at once (" + o.reason +
                "): no person saw it; the question waits instead");
            call->waiting = true;
            call->cancel = wait(ask, [reply, call](Outcome later) {
                               call->done = true;
                               reply(std::move(later));
                           }).withdraw;
            return;
        }
        call->done = true;
        reply(std::move(o));
    });
    if (!call->waiting) call->cancel = std::move(cancel_form);  // a form that replied at once is done
    return {Asking::Where::Form, [call] {
                if (call->done) return;
                call->done = true;
                if (call->cancel) call->cancel();
            }};
}

void AskService::restore_terminal() {
    if (own_) own_->restore_terminal();
}

std::size_t AskService::owed() {
    std::size_t n = own_ ? own_->owed() : 0;
    for (const auto& [socket, host] : hosts_) n += host->queued_bytes();
    return n;
}

}  // namespace askhost
