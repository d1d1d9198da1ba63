// askhost's entry point: the only file that knows every part, and wires them together.
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "adapter.hpp"
#include "askhost_config.h"
#include "broker.hpp"
#include "cli.hpp"
#include "session.hpp"
#include "terminal_output.hpp"
#if ASKHOST_HAVE_TUI
#include "tui/terminal_dialog.hpp"
#endif

namespace {

using namespace askhost;

int usage_error(const std::string& message) {
    std::cerr << "askhost: " << message << "\nTry 'askhost --help' for more information.\n";
    return 2;
}

bool have_terminal() {
#if ASKHOST_HAVE_TUI
    return ::isatty(0) && ::isatty(1) && TerminalDialog::available();
#else
    return false;
#endif
}

int run_agent(const CliOptions& opts) {
    AdapterRegistry registry;
    register_builtin_adapters(registry);
    const AdapterInfo* adapter = opts.adapter == "auto" ? registry.detect(opts.agent_argv, "native")
                                                        : registry.find(opts.adapter);
    if (!adapter) {
        std::string names;
        for (const auto& a : registry.all()) names += (names.empty() ? "" : ", ") + a.name;
        return usage_error("--adapter: no adapter '" + opts.adapter + "' (built in: auto, " + names + ")");
    }
    const Profile profile = opts.profile.value_or(adapter->default_profile);

    Mode mode = opts.mode;
    if (mode == Mode::Auto) mode = have_terminal() ? Mode::Tui : Mode::Print;
    if (mode == Mode::Stdio) return usage_error("--stdio: the editor protocol is not built yet");
#if !ASKHOST_HAVE_TUI
    if (mode == Mode::Tui) return usage_error("--tui: this askhost was built without the terminal dialog");
#endif

    boost::asio::io_context io;
    Broker broker(io);
    broker.set_timeout(opts.timeout);
    TerminalOutput out;

#if ASKHOST_HAVE_TUI
    std::unique_ptr<TerminalDialog> dialog;
    if (mode == Mode::Tui) {
        TerminalDialogOptions topts;
        topts.on_active = [&out](bool active) { out.hold(active); };
        dialog = std::make_unique<TerminalDialog>(io, std::move(topts));
        broker.add_frontend(*dialog);
    }
#endif

    int exit_status = 0;
    int stop_signal = 0;
    boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);

    Session::Hooks hooks;
    hooks.output = [&out](Stream s, std::string_view text) { out.write(s, text); };
    hooks.log = [&out](std::string_view msg) { out.write(Stream::Stderr, "askhost: " + std::string(msg) + "\n"); };
    hooks.exited = [&](AgentExit e) {
        exit_status = stop_signal ? 128 + stop_signal : e.status();
        broker.withdraw_all();
        signals.cancel();
        io.stop();
    };
    Session session(io, broker, *adapter, profile, std::move(hooks));

    std::function<void()> wait_signal = [&] {
        signals.async_wait([&](const boost::system::error_code& ec, int sig) {
            if (ec) return;
#if ASKHOST_HAVE_TUI
            if (dialog) dialog->restore_terminal();
#endif
            if (stop_signal) session.kill_now();  // a second signal: no more grace
            else session.stop();
            stop_signal = sig;
            wait_signal();
        });
    };
    wait_signal();

    LaunchSpec spec;
    spec.argv = opts.agent_argv;
    if (auto err = session.start(spec)) {
        std::cerr << "askhost: " << *err << "\n";
        return 127;
    }
    io.run();
#if ASKHOST_HAVE_TUI
    if (dialog) dialog->restore_terminal();
#endif
    out.hold(false);
    return exit_status;
}

}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is an error value, not a death
    std::vector<std::string> args(argv + 1, argv + argc);
    auto parsed = parse_cli(args);
    if (auto* err = std::get_if<CliError>(&parsed)) return usage_error(err->message);
    const auto& opts = std::get<CliOptions>(parsed);
    switch (opts.command) {
        case Command::Help:
            std::cout << usage_text();
            return 0;
        case Command::Version:
            std::cout << "askhost " << ASKHOST_VERSION << "\n";
            return 0;
        case Command::Run:
            return run_agent(opts);
        default:
            return usage_error("'" + args[0] + "' is not available in this build yet");
    }
}
