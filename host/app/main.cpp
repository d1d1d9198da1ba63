// askhost's entry point: parses the command line and hands it to the part that serves it.
#include <csignal>
#include <exception>

#include <malloc.h>
#include <unistd.h>

#include "app/cli.hpp"
#include "app/host.hpp"
#include "askhost_config.h"
#include "askhost_version.h"
#include "core/fd_io.hpp"
#if ASKHOST_HAVE_TUI
#include "frontends/tui/terminal_dialog.hpp"
#endif

namespace {

using namespace askhost;

// Says what is wrong; the exit status comes from the error's kind.
int fail(const Error& e) {
    write_all(2, "askhost: " + e.message + "\nTry 'askhost --help' for more information.\n");
    return e.exit_status();
}

int run_agent(const CliOptions& opts) {
    Mode mode = opts.mode;
#if ASKHOST_HAVE_TUI
    // A person at a terminal that cannot show the dialog (TERM=dumb, an unknown TERM) gets the
    // pending-questions file and is told why, never a silent cancel.
    const bool at_terminal = ::isatty(0) && ::isatty(1);
    if (mode == Mode::Tui || (mode == Mode::Auto && at_terminal)) {
        if (auto why = TerminalDialog::check_terminal()) {
            write_all(2, "askhost: no dialog on this terminal (" + why->message +
                             "): questions go to the pending-questions file (askhost answer)\n");
            mode = Mode::Print;
        }
    }
    if (mode == Mode::Auto) mode = at_terminal ? Mode::Tui : Mode::Print;
#else
    if (mode == Mode::Tui) return fail(Error::usage("--tui: this askhost was built without the terminal dialog"));
    if (mode == Mode::Auto) mode = Mode::Print;
#endif
    Host host(opts, mode);
    return host.run();
}

}  // namespace

static int askhost_main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is an error value, not a death
    std::vector<std::string> args(argv + 1, argv + argc);
    // askhost NAME ARGS...: a subcommand of askhost's own, else one an adapter registered. The
    // adapters are registered only when the first word could name one.
    if (!args.empty() && !args[0].starts_with('-')) {
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        if (const auto* sub = find_subcommand(builtin_subcommands(), args[0])) return sub->run(rest);
        AdapterRegistry registry;
        register_builtin_adapters(registry);
        if (const auto* sub = registry.command(args[0])) return sub->run(rest);
    }
    auto parsed = parse_cli(args);
    if (!parsed) return fail(parsed.error());
    const CliOptions& opts = *parsed;
    switch (opts.command) {
        case Command::Help:
        case Command::DumpOptions: {
            AdapterRegistry registry;
            register_builtin_adapters(registry);
            const auto table = all_subcommands(registry);
            write_all(1, opts.command == Command::Help ? usage_text(table) : options_json(table));
            return 0;
        }
        case Command::Version: write_all(1, "askhost " ASKHOST_FULL_VERSION "\n"); return 0;
        case Command::Run: return run_agent(opts);
    }
    return 1;
}

int main(int argc, char** argv) {
#ifdef M_TRIM_THRESHOLD
    // Agent output goes on in messages of about 70 KiB, each freed once written: with glibc's
    // default (128 KiB) the heap's top was handed back to the kernel every few messages and its
    // pages faulted in again for the next (2 page faults per 100 KB of a flood, 7% of its time).
    mallopt(M_TRIM_THRESHOLD, 1 << 20);
#endif
    // Errors are values; whatever is still thrown past them (std::bad_alloc, a library's own
    // exception) ends in a message and exit status 1 rather than std::terminate's abort.
    try {
        return askhost_main(argc, argv);
    } catch (const std::exception& e) {
        write_all(2, "askhost: unexpected error: ");
        write_all(2, e.what());
        write_all(2, "\n");
    } catch (...) {
        write_all(2, "askhost: unexpected error\n");
    }
    return 1;
}
