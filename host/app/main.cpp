// askhost's entry point: parses the command line and hands it to the part that serves it.
#include <csignal>
#include <exception>

#include <unistd.h>

#include "app/attach.hpp"
#include "app/cli.hpp"
#include "app/host.hpp"
#include "app/hosts_command.hpp"
#include "app/store_commands.hpp"
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

int usage_error(const std::string& message) { return fail(Error::usage(message)); }

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
    if (mode == Mode::Tui) return usage_error("--tui: this askhost was built without the terminal dialog");
    if (mode == Mode::Auto) mode = Mode::Print;
#endif
    Host host(opts, mode);
    return host.run();
}

// `askhost web` is a program of its own (askhost-web: Beast and OpenSSL stay out of every other
// askhost's memory): beside this one in a build, in ../libexec/askhost/ when installed.
int run_web_program(const std::vector<std::string>& args) {
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    const std::string exe = n > 0 ? std::string(self, static_cast<std::size_t>(n)) : std::string();
    const std::string dir = exe.substr(0, exe.rfind('/') == std::string::npos ? 0 : exe.rfind('/'));
    const std::vector<std::string> places = {dir + "/askhost-web", dir + "/../libexec/askhost/askhost-web"};
    for (const auto& program : places) {
        std::vector<std::string> words = {program};
        words.insert(words.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& w : words) argv.push_back(w.data());
        argv.push_back(nullptr);
        ::execv(program.c_str(), argv.data());
    }
    return fail(Error::failed("web: askhost-web is not installed beside this askhost (looked for " + places[0] +
                              " and " + places[1] + ")"));
}

}  // namespace

static int askhost_main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is an error value, not a death
    std::vector<std::string> args(argv + 1, argv + argc);
    auto parsed = parse_cli(args);
    if (!parsed) return fail(parsed.error());
    const CliOptions& opts = *parsed;
    switch (opts.command) {
        case Command::Help: write_all(1, usage_text()); return 0;
        case Command::Version: write_all(1, "askhost " ASKHOST_FULL_VERSION "\n"); return 0;
        case Command::Run: return run_agent(opts);
        case Command::Plugin: {
            // Served by a plugin (askhost mcp: plugins/mcp, askhost hook: plugins/claude), when built in.
            AdapterRegistry registry;
            register_builtin_adapters(registry);
            const auto* run = registry.command(opts.command_name);
            if (!run) return usage_error("'" + opts.command_name + "' is not built into this askhost");
            return (*run)(opts.command_args);
        }
        case Command::Hosts: return run_hosts(opts.command_args);
        case Command::Status: return run_status(opts.command_args);
        case Command::Jump: return run_jump(opts.command_args);
        case Command::Attach: return run_attach(opts.command_args);
        case Command::Web: return run_web_program(opts.command_args);
        case Command::Answer: {
            FdOStream out(1), err(2);
            return store::run_answer(opts.command_args, out, err);
        }
        case Command::Questions: {
            FdOStream out(1), err(2);
            return store::run_questions(opts.command_args, out, err);
        }
        case Command::History: {
            FdOStream out(1), err(2);
            return store::run_history(opts.command_args, out, err);
        }
        default: return usage_error("'" + args[0] + "' is not available in this build yet");
    }
}

int main(int argc, char** argv) {
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
