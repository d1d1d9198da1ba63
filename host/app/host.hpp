// One askhost run: the broker, the agent session, the frontends of the chosen mode, the editor
// clients (stdio and socket), and the signals. main.cpp builds it from the command line.
#pragma once

#include <memory>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "agent/session.hpp"
#include "app/cli.hpp"
#include "askhost_config.h"
#include "core/adapter.hpp"
#include "core/broker.hpp"
#include "frontends/editor/editor_hub.hpp"
#include "frontends/editor/host_core.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "frontends/terminal_output.hpp"
#include "store/session_store.hpp"
#if ASKHOST_HAVE_TUI
#include "frontends/tui/terminal_dialog.hpp"
#endif

namespace askhost {

class Host final : public AgentControl {
public:
    Host(const CliOptions& options, Mode mode);
    ~Host() override;

    // Runs until the agent exits (terminal and print modes) or the editor says exit (--stdio).
    int run();

    // AgentControl
    Result<int> start_agent(const LaunchSpec& spec, const std::string& adapter) override;
    Status prompt_agent(std::string_view text) override;
    bool stop_agent(std::function<void(AgentExit)> done) override;

private:
    void output(Stream stream, std::string_view text);
    void log(std::string_view message);
    void agent_exited(AgentExit e);
    void leave_agent(std::function<void(AgentExit)> done);
    void finish(int code);
    void resume_output();
    void wait_signal();
    void run_question_hook(const Ask& ask);

    const CliOptions& opts_;
    Mode mode_;
    // Its I/O objects are used on the loop's thread alone (the journal's thread touches none), so
    // they need no locks; posting from another thread stays safe. Host owns its loop, declared before
    // every part that posts to it: destroyed last, it drops what is still queued without running it,
    // so the handlers that hold a bare `this` (finish, wait_signal) never outlive the Host.
    boost::asio::io_context io_{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO};
    AdapterRegistry registry_;
    HostCore core_;
    Broker& broker_;
    EditorHub& hub_;
    TerminalOutput terminal_;
#if ASKHOST_HAVE_TUI
    std::unique_ptr<TerminalDialog> dialog_;
#endif
    std::unique_ptr<store::SessionStore> store_;  // journal, pending-questions file, --answers
    std::string store_error_;                     // a usage error found while opening it
    std::unique_ptr<Session> session_;
    std::unique_ptr<Session> retired_;  // an exited session, kept until its callbacks return
    std::vector<std::function<void(AgentExit)>> stop_waiters_;
    boost::asio::signal_set signals_;
    int stop_signal_ = 0;
    int exit_code_ = 0;
    bool finishing_ = false;
    // The agent's output waits while this much is queued for the primary editor, until it is
    // down to kResumeOutputAt.
    static constexpr std::size_t kPauseOutputAt = 8u << 20, kResumeOutputAt = 2u << 20;
    bool output_paused_ = false;
    bool primary_gone_ = false;
    std::optional<int> editor_exit_code_;
    std::string last_hooked_;                      // the ask --on-question last ran for
    std::chrono::milliseconds partial_line_wait_;  // ASKHOST_PARTIAL_LINE_MS (Session::Hooks)
};

}  // namespace askhost
