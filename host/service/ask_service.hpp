// "Ask through the workspace's host, or become one": what an entry point that asks for an agent
// outside any host (askhost mcp, askhost hook; askhost web and the adapters to come) does with an
// ask. Given the asking directory, each ask goes to the host whose workspace holds it (the one
// the agent runs under first: $ASKHOST_SOCKET), through that host's socket (ask/submit). With no
// such host, the ask goes where the entry point says (Alone): nowhere (the agent's own dialog),
// to a host of our own that waits quietly beside the agent's dialog, or to a host of our own that
// seeks a person (terminal dialog, tmux popup, notification, the pending-questions file, an
// editor's host that opens the workspace later), with the agent's own form (MCP elicitation) as a
// face offered in between. The agent's protocol stays in plugins/: this speaks in Asks and
// Outcomes (docs/hacking.md, "Asking from a new entry point").
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>

#include "core/model/outcome.hpp"

namespace askhost {

class HostClient;

// Where an ask goes when no host's workspace holds the asking directory, or that host cannot be
// reached.
enum class Alone {
    // Nowhere: ask() says so and never replies; the agent shows its own dialog (askhost hook's
    // questions).
    Decline,
    // A host of our own that waits quietly beside the agent's own dialog: registered and listening
    // (askhost status counts it, askhost attach --next answers it, askhost jump finds the agent's
    // tmux pane from $TMUX and $TMUX_PANE); nothing opens (askhost hook's permission requests).
    // When it cannot listen, nowhere.
    Beside,
    // A host of our own that seeks a person: registered and listening; the terminal dialog on a
    // terminal nobody else reads; in tmux a popup over the asking pane (one at a time per tmux
    // client), else a notification; the pending-questions file as a record `askhost answer`
    // answers; an editor's host that opens the workspace later is asked too (askhost mcp).
    Seek,
    // Seek when something could show the question now (a tmux popup over the asking pane, a
    // running `askhost web`, a terminal nobody else reads); else nowhere, at once, so that the
    // agent's own dialog shows it (the agents' own question tools: askhost gemini-hook, codex-hook).
    SeekIfShown,
};

// The person's choice for the agents' own question tools (Gemini CLI's ask_user, Codex's
// request_user_input), `own-questions` in the settings file: always askhost (Seek), askhost when
// somewhere to show (SeekIfShown, the default), never (the agent's own dialog, askhost not asked).
enum class OwnQuestions { Always, WhenShown, Never };
// The setting; a value it does not know is said through `log` and counts as the default.
OwnQuestions own_questions_setting(void (*log)(std::string_view));

// Whether something could show a question asked now with no host in the workspace: a tmux popup
// over the asking pane, a running `askhost web`, or a terminal nobody else reads.
bool somewhere_to_show();

struct AskServiceOptions {
    // Who asks ("askhost mcp"): the name the hosts' clients see; its own host runs no agent.
    std::string who{};
    // The registry kind of its own host ("mcp", "hook").
    std::string kind{};
    // The asking directory: whose workspace's host is asked, and its own host's folder.
    std::string cwd{};
    // The socket of the host the agent runs under, if any ($ASKHOST_SOCKET): asked once, at the
    // first ask that needs a host, so a session that never asks reads nothing.
    std::function<std::string()> socket_hint{};
    Alone alone = Alone::Seek;
    // Seek: the pending-questions file (empty: .askhost/pending-questions.json in the directory).
    std::string pending_file{};
    // No host, no waiting: every ask goes into the pending-questions file and ends at once with
    // its `pending` outcome (askhost mcp --print).
    bool print_only = false;
    // Where the service says what it does (stderr with the entry point's prefix). Also called
    // from the pending-questions file's writer thread: one write(2) of a line, nothing shared.
    void (*log)(std::string_view) = nullptr;
};

// The agent's own form of asking (MCP elicitation), offered for one ask as the face between the
// workspace's host and a host of our own: used when no host holds the directory and no tmux
// popup can open over the asking pane (the popup is the whole dialog; a form may lack a field).
// A form that comes back unanswered sooner than anyone could read it was never in front of a
// person (an agent run without a person cancels or declines within milliseconds): then the ask
// waits in a host of our own instead.
struct ClientForm {
    std::string client;  // for the log: "codex-mcp-client"
    // Shows the form; `reply` runs once unless the returned cancel runs first.
    std::function<std::function<void()>(const Ask&, std::function<void(Outcome)>)> show;
};

// The socket named in an ancestor's environment ($ASKHOST_SOCKET), nearest first, or "": some
// agents start their MCP servers with a cleaned environment (Codex keeps only a few variables),
// and then the host is named in the agent's own.
std::string socket_from_ancestors();

class AskService {
public:
    // Where one ask went, and its withdrawal: withdraw() closes it wherever it is shown (in the
    // workspace's host's editor too) and its reply never runs.
    struct Asking {
        enum class Where { Host, Form, Own, Nowhere } where = Where::Nowhere;
        std::function<void()> withdraw;
    };

    AskService(boost::asio::io_context& io, AskServiceOptions options);
    // Ends its own host (what waits there is withdrawn) and its connections to hosts (which
    // withdraw what was asked through them).
    ~AskService();
    AskService(const AskService&) = delete;
    AskService& operator=(const AskService&) = delete;

    // One ask (ask.cwd, ask.agent and ask.route as the entry point sets them). `reply` runs once
    // with the outcome, unless the ask is withdrawn first or went nowhere. `form`: the agent's own
    // form, when the agent offers one for this ask.
    Asking ask(Ask ask, OnOutcome reply, const ClientForm* form = nullptr);

    // The terminal back as it was, if the dialog held it (before the process ends, or on a signal).
    void restore_terminal();
    // Bytes its peers are still owed: a withdrawal on its way to the workspace's host, the last
    // state its own host's clients are to hear (sent now). A process that ends waits for 0.
    std::size_t owed();

private:
    class OwnHost;
    Asking wait(Ask ask, OnOutcome reply);
    Asking ask_form(const Ask& ask, const OnOutcome& reply, const ClientForm& form);
    void log(const std::string& m) const;

    boost::asio::io_context& io_;
    AskServiceOptions options_;
    std::optional<std::string> hint_;                           // found at the first ask that needs it
    std::map<std::string, std::unique_ptr<HostClient>> hosts_;  // by socket, kept for later asks
    std::unique_ptr<OwnHost> own_;
};

}  // namespace askhost
