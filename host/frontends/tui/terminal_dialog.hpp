// The ncurses dialog on the controlling terminal: the ask_user spec's interactive mode.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "core/error.hpp"
#include "core/frontend.hpp"

namespace askhost {

struct TerminalDialogOptions {
    std::string tty_path = "/dev/tty";
    bool bell = true;  // ring the terminal bell when a question opens
    // Keys that arrive this soon after a question opens are dropped, not taken as a pick or a
    // cancel: the person was typing into something else when it appeared (a popup, attach).
    std::chrono::milliseconds key_guard{0};
    // Called with true when the dialog takes the screen and false when it gives it back,
    // so the host can hold the agent's output meanwhile.
    std::function<void(bool active)> on_active;
};

class TerminalDialog final : public Frontend {
public:
    TerminalDialog(boost::asio::io_context& io, TerminalDialogOptions options);
    ~TerminalDialog() override;

    // nullopt when a dialog can be shown on the terminal at tty_path, else why not ("no terminal",
    // "TERM=dumb cannot move the cursor", an unknown TERM; kind Usage, path tty_path). Writes
    // nothing to the terminal.
    static Status check_terminal(const std::string& tty_path = "/dev/tty");
    static bool available(const std::string& tty_path = "/dev/tty") { return !check_terminal(tty_path); }
    // Whether this process may open the dialog on its terminal unasked (the ask service's own
    // host): only when nothing else reads it, an agent's TUI keeps it raw (docs/mcp.md) and Claude
    // Code's says so in CLAUDE_CODE_ENTRYPOINT; and the dialog is available there.
    static bool terminal_free();

    std::string_view name() const override { return "terminal"; }
    void show(const Ask& ask, Done done) override;
    void withdraw(const std::string& ask_id) override;

    // Puts the terminal back (endwin) if a dialog is open; safe to call from a signal path.
    void restore_terminal();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace askhost
