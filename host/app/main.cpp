// askhost's entry point: parses the command line and hands it to the part that serves it.
#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <malloc.h>
#include <unistd.h>

#include "app/cli.hpp"
#include "app/host.hpp"
#include "askhost_config.h"
#include "askhost_version.h"
#include "core/fd_io.hpp"
#include "core/search_path.hpp"
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

// Edits (insert, delete, replace, swap two neighbours) from a to b, up to limit+1.
std::size_t edits_between(std::string_view a, std::string_view b, std::size_t limit) {
    if (a.size() > b.size() + limit || b.size() > a.size() + limit) return limit + 1;
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

// `askhost atach`: a mistyped subcommand would be run as an agent that is not found. The same
// failure (127, as documented), with the subcommand it most likely meant.
std::optional<int> mistyped_subcommand(const std::string& word, std::span<const cli::Subcommand> table) {
    if (word.find('/') != std::string::npos || !search_path(word).empty()) return std::nullopt;
    for (const auto& s : table) {
        if (!s.spec || edits_between(word, s.spec->name, 2) > (word.size() > 4 ? 2 : 1)) continue;
        write_all(2, "askhost: cannot run '" + word + "': not found on PATH (did you mean 'askhost " +
                         std::string(s.spec->name) + "'?)\nTry 'askhost --help' for more information.\n");
        return 127;
    }
    return std::nullopt;
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
        if (auto status = mistyped_subcommand(args[0], all_subcommands(registry))) return *status;
    }
    auto parsed = parse_cli(args);
    if (!parsed) return fail(parsed.error());
    const CliOptions& opts = *parsed;
    switch (opts.command) {
        case Command::Help:
        case Command::DumpOptions: {
            AdapterRegistry registry;
            register_builtin_adapters(registry);
            write_all(1, opts.command == Command::Help ? usage_text(registry) : options_json(registry));
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
