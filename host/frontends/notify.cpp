#include "frontends/notify.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/command_line.hpp"
#include "core/fd_io.hpp"
#include "core/search_path.hpp"
#include "core/text/sanitize.hpp"
#include "frontends/editor/ask_json.hpp"

namespace askhost {

namespace {

// Runs argv on its own (double fork: never our zombie, never waited for), with `env` added.
bool spawn_detached(std::vector<std::string> argv, const std::vector<std::pair<std::string, std::string>>& env) {
    pid_t child = ::fork();
    if (child < 0) return false;
    if (child == 0) {
        if (::fork() == 0) {
            ::setsid();
            for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
            int devnull = ::open("/dev/null", O_RDWR);
            if (devnull >= 0) {
                ::dup2(devnull, 0);
                ::dup2(devnull, 1);
            }
            std::vector<char*> cargv;
            for (auto& a : argv) cargv.push_back(a.data());
            cargv.push_back(nullptr);
            ::signal(SIGPIPE, SIG_DFL);
            ::execvp(cargv[0], cargv.data());
            ::_exit(127);
        }
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return true;
}

// What may go inside an OSC string: no control characters (they would end or break it).
std::string osc_safe(std::string_view s) {
    std::string clean = sanitize_for_terminal(s);
    std::string out;
    for (char c : clean)
        if (static_cast<unsigned char>(c) >= 0x20 && c != ';') out.push_back(c);
    return out;
}

}  // namespace

std::optional<std::string> command_line_problem(std::string_view line) {
    auto argv = cli::split_command_line(line);
    if (!argv) return argv.error().message + " in: " + std::string(line);
    if (argv->empty()) return std::string("no command given");
    const std::string& program = argv->front();
    if (program.find('/') == std::string::npos ? search_path(program).empty() : ::access(program.c_str(), X_OK) != 0)
        return "'" + program + "' is not " +
               (program.find('/') == std::string::npos ? std::string("found on PATH") : "a program that can be run");
    return std::nullopt;
}

std::string osc_notification(std::string_view term_program, std::string_view term, std::string_view title,
                             std::string_view body) {
    const std::string t = osc_safe(title), b = osc_safe(body);
    // OSC 777 (title and body): foot, kitty's compatible terminals, WezTerm, Konsole, VTE (Ghostty too).
    if (term_program == "WezTerm" || term_program == "ghostty" || term.find("foot") != std::string_view::npos ||
        term_program == "konsole" || term.find("ghostty") != std::string_view::npos)
        return "\x1b]777;notify;" + t + ";" + b + "\x1b\\";
    // OSC 9 (one text): iTerm2, kitty, Windows Terminal, and the above accept it too.
    if (term_program == "iTerm.app" || term.find("kitty") != std::string_view::npos ||
        term_program == "WindowsTerminal")
        return "\x1b]9;" + t + ": " + b + "\x1b\\";
    return {};
}

void tell_question_waiting(const Ask& ask, const NotifyOptions& options, void (*log)(std::string_view)) {
    const std::string first = ask.questions.empty() ? std::string() : ask.questions.front().question;
    const std::string who = ask.agent.empty() ? std::string("An agent") : ask.agent;
    for (const auto& cmd : options.on_question) {
        auto argv = cli::split_command_line(cmd);
        if (!argv) {
            if (log) log("--on-question: " + argv.error().message + " in: " + cmd);
            continue;
        }
        if (argv->empty()) continue;
        if (!spawn_detached(*argv, {{"ASKHOST_QUESTION", first},
                                    {"ASKHOST_QUESTION_COUNT", std::to_string(ask.questions.size())},
                                    {"ASKHOST_ASK_JSON", ask_show_params(ask, ClientAskCaps{})},
                                    {"ASKHOST_AGENT", ask.agent}}) &&
            log)
            log(std::string("--on-question: cannot fork: ") + std::strerror(errno));
    }
    const std::string title = "askhost: " + who + " asks";
    if (options.desktop && !search_path("notify-send").empty())
        spawn_detached(
            {"notify-send", "--app-name=askhost", sanitize_for_terminal(title), sanitize_for_terminal(first)}, {});
    if (options.terminal) {
        const char* tp = std::getenv("TERM_PROGRAM");
        const char* term = std::getenv("TERM");
        std::string osc = osc_notification(tp ? tp : "", term ? term : "", title, first);
        if (!osc.empty()) {
            int fd = ::open("/dev/tty", O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
            if (fd >= 0) {
                write_all(fd, osc);
                ::close(fd);
            }
        }
    }
}

}  // namespace askhost
