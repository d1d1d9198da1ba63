#include "service/ask_service.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "askhost_config.h"
#include "core/broker.hpp"
#include "core/call_ticket.hpp"
#include "core/lifetime.hpp"
#include "core/proc_stat.hpp"
#include "core/self_path.hpp"
#include "frontends/editor/host_client.hpp"
#include "frontends/editor/host_core.hpp"
#include "frontends/editor/registry.hpp"
#include "frontends/editor/remote_frontend.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "frontends/notify.hpp"
#include "frontends/tmux_popup.hpp"
#include "frontends/tmux_queue.hpp"
#include "frontends/user_config.hpp"
#include "store/fs_util.hpp"
#include "store/pending_file.hpp"
#include "store/pending_record.hpp"
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

// Whether this process may open the terminal dialog: a terminal nobody else reads.
bool terminal_is_free() {
#if ASKHOST_HAVE_TUI
    return TerminalDialog::terminal_free();
#else
    return false;
#endif
}

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
            if (auto pane = tmux::pane_of_environment()) core_.set_tmux(pane->server, pane->pane_id);
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
    // client (any askhost's). A pane nobody looks at gets a message and the bell, once; the popup
    // opens when a client comes to look while the question waits (watch() calls here each second:
    // a look runs tmux, so after the first minute only every five seconds).
    void maybe_popup() {
        if (popups_.popup_open()) return;
        auto pending = core_.broker().pending();
        if (pending.empty() || !wants_popup(pending.front()->id)) return popups_.withdraw();
        const Ask& head = *pending.front();
        const auto now = std::chrono::steady_clock::now();
        const auto told = told_.find(head.id);
        if (told != told_.end() && now < next_look_) return;
        auto pane = tmux::asking_pane();
        if (!pane) {
            popped_.insert(head.id);
            popups_.withdraw();
            return tell(head);
        }
        core_.set_tmux(pane->server, pane->pane_id);
        if (pane->client.empty()) {
            popups_.withdraw();
            const bool recent = told == told_.end() || now - told->second < std::chrono::minutes(1);
            // A little under the watch's second (or five), so that its next call looks.
            next_look_ = now + (recent ? std::chrono::milliseconds(900) : std::chrono::milliseconds(4900));
            if (told != told_.end()) return;
            told_.emplace(head.id, now);
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
    std::set<std::string> popped_;  // asks a popup was opened for (or, outside tmux, the person told)
    // Asks whose pane nobody looked at, and when the person was told (maybe_popup); when to look again.
    std::map<std::string, std::chrono::steady_clock::time_point> told_;
    std::chrono::steady_clock::time_point next_look_{};
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
    if (tmux::popup_possible() || terminal_is_free()) return true;
    auto dir = socket_directory();
    return dir && running_web_server(*dir + "/web.json").has_value();
}

std::string socket_from_ancestors() {
    return nearest_ancestor(::getppid(), [](pid_t pid) { return start_environment_value(pid, "ASKHOST_SOCKET"); });
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
        if (!unreachable)
            return {Asking::Where::Host,
                    [submitted = host->submit(ask, ask.profile, std::move(reply))] { submitted.cancel(); }};
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
    if (form && options_.alone == Alone::Seek && !tmux::popup_possible()) return ask_form(ask, reply, *form);
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
    // The question as our caller holds it (its outcome once, withdrawn once), and the form's own
    // reply: only the first counts. One unread moves the question to our own host.
    CallTicket asked, form_reply;
    const OnOutcome answer = asked.reply([reply](Outcome o) { reply(std::move(o)); });
    const auto shown_at = std::chrono::steady_clock::now();
    auto cancel_form = form.show(ask, form_reply.reply([this, ask, asked, answer, shown_at](Outcome o) mutable {
        if (!asked.open()) return;
        if (o.kind != OutcomeKind::Answered && std::chrono::steady_clock::now() - shown_at < kUnreadForm) {
            log("the client's form came back unanswered at once (" + o.reason +
                "): no person saw it; the question waits instead");
            asked.on_cancel(wait(ask, answer).withdraw);
            return;
        }
        answer(std::move(o));
    }));
    if (form_reply.open()) asked.on_cancel(std::move(cancel_form));  // a form that replied at once is done
    return {Asking::Where::Form, [asked] { asked.cancel(); }};
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
