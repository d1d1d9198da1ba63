#include "frontends/tmux_popup.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fd_io.hpp"
#include "core/proc_stat.hpp"
#include "core/text/sanitize.hpp"
#include "frontends/user_config.hpp"

extern char** environ;

namespace askhost::tmux {

namespace {

// Runs argv (no shell), its stdout captured; nullopt when it fails or takes longer than a second
// (a stuck tmux server must not stall the host's loop for long).
std::optional<std::string> run(const std::vector<std::string>& argv) {
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) return std::nullopt;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    if (rc != 0) {
        ::close(out[0]);
        return std::nullopt;
    }
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    char buf[4096];
    bool ended = false;
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        pollfd p{out[0], POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
        ssize_t n = ::read(out[0], buf, sizeof buf);
        if (n <= 0) {
            ended = n == 0;
            break;
        }
        text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(out[0]);
    int status = 0;
    if (!ended) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        return std::nullopt;
    }
    ::waitpid(pid, &status, 0);  // its output ended: it is exiting
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
    return text;
}

std::vector<std::vector<std::string>> rows(const std::string& text) {
    std::vector<std::vector<std::string>> out;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (;;) {
            auto tab = line.find('\t', start);
            fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
            if (tab == std::string::npos) break;
            start = tab + 1;
        }
        out.push_back(std::move(fields));
    }
    return out;
}

bool listening(const std::string& socket) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (socket.size() >= sizeof addr.sun_path) return false;
    std::memcpy(addr.sun_path, socket.c_str(), socket.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

// The server's socket in a value of TMUX ("socket,pid,session"), "" for none.
std::string socket_of(std::string_view tmux) { return std::string(tmux.substr(0, tmux.find(','))); }

// The socket the nearest ancestor's TMUX names: Codex starts its MCP servers without TMUX or
// TMUX_TMPDIR, but Codex itself (or the pane's shell above it) was started with them.
std::string server_of_ancestors() {
    return socket_of(nearest_ancestor(::getppid(), [](pid_t pid) { return start_environment_value(pid, "TMUX"); }));
}

// tmux servers of this user: the one $TMUX names first, then the one an ancestor's TMUX names, then
// every socket in the tmux folder; each once.
std::vector<std::string> servers() {
    std::vector<std::string> out;
    auto add = [&out](std::string path) {
        if (!path.empty() && std::find(out.begin(), out.end(), path) == out.end()) out.push_back(std::move(path));
    };
    if (const char* env = std::getenv("TMUX")) add(socket_of(env));
    add(server_of_ancestors());
    const char* tmpdir = std::getenv("TMUX_TMPDIR");
    std::string dir = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/tmux-" + std::to_string(::geteuid());
    // tmux names its socket by the folder's real path (TMUX holds that): the same one, written so.
    if (char* real = ::realpath(dir.c_str(), nullptr)) {
        dir = real;
        std::free(real);
    }
    if (DIR* d = ::opendir(dir.c_str())) {
        while (dirent* e = ::readdir(d)) {
            if (e->d_name[0] == '.') continue;
            add(dir + "/" + e->d_name);
        }
        ::closedir(d);
    }
    return out;
}

std::string parent_terminal(pid_t pid) {
    for (int fd : {0, 1, 2}) {
        char buf[PATH_MAX];
        std::string link = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
        ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
        if (n <= 0) continue;
        std::string target(buf, static_cast<std::size_t>(n));
        if (target.rfind("/dev/pts/", 0) == 0) return target;
    }
    return {};
}

}  // namespace

std::string terminal_of_ancestors(pid_t pid) { return nearest_ancestor(pid, parent_terminal); }

std::optional<Pane> pane_for_terminal(const std::string& tty) {
    if (tty.empty()) return std::nullopt;
    for (const auto& server : servers()) {
        if (!listening(server)) continue;  // a dead server's leftover socket
        auto panes = run({"tmux", "-S", server, "list-panes", "-a", "-F", "#{pane_tty}\t#{pane_id}\t#{window_id}"});
        if (!panes) continue;
        for (const auto& p : rows(*panes)) {
            if (p.size() < 3 || p[0] != tty) continue;
            Pane pane{server, p[1], p[2], tty, "", 0, 0};
            auto clients = run({"tmux", "-S", server, "list-clients", "-F",
                                "#{client_name}\t#{window_id}\t#{client_width}\t#{client_height}"});
            for (const auto& c : clients ? rows(*clients) : std::vector<std::vector<std::string>>{}) {
                if (c.size() < 4 || c[1] != pane.window_id) continue;
                pane.client = c[0];
                pane.client_width = std::atoi(c[2].c_str());
                pane.client_height = std::atoi(c[3].c_str());
                break;
            }
            return pane;
        }
    }
    return std::nullopt;
}

bool popups_enabled() { return user_config_flag("tmux-popup", true); }

std::optional<Pane> pane_of_environment() {
    const char* server = std::getenv("TMUX");
    const char* pane = std::getenv("TMUX_PANE");
    if (!server || !*server || !pane || !*pane) return std::nullopt;
    Pane p;
    p.server = socket_of(server);
    p.pane_id = pane;
    return p;
}

std::optional<Pane> asking_pane() {
    if (!popups_enabled()) return std::nullopt;
    return pane_for_terminal(terminal_of_ancestors(::getpid()));
}

bool popup_possible() {
    auto pane = asking_pane();
    return pane && !pane->client.empty();
}

Result<pid_t> open_popup(const Pane& pane, const std::vector<std::string>& command, int width, int height) {
    if (pane.client.empty()) return Error::failed("no client looks at pane " + pane.pane_id);
    std::string shell;
    for (const auto& c : command) shell += (shell.empty() ? "" : " ") + shell_quote(c);
    if (pane.client_width > 0) width = std::min(width, pane.client_width);
    if (pane.client_height > 0) height = std::min(height, pane.client_height);
    std::vector<std::string> argv = {"tmux",
                                     "-S",
                                     pane.server,
                                     "display-popup",
                                     "-E",
                                     "-c",
                                     pane.client,
                                     "-t",
                                     pane.pane_id,
                                     "-w",
                                     std::to_string(width),
                                     "-h",
                                     std::to_string(height),
                                     "-T",
                                     " askhost ",
                                     shell};
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return Error::failed(std::string("cannot run tmux: ") + std::strerror(rc));
    return pid;
}

std::string message_text(std::string_view text) {
    std::string out;
    for (char c : visible_text(text)) {
        out += c;
        if (c == '#') out += '#';
    }
    return out;
}

void notify_pane(const Pane& pane, const std::string& message) {
    if (auto clients = run({"tmux", "-S", pane.server, "list-clients", "-F", "#{client_name}"}))
        for (const auto& c : rows(*clients))
            if (!c.empty() && !c[0].empty())
                run({"tmux", "-S", pane.server, "display-message", "-c", c[0], message_text(message)});
    // The bell in the asking pane: tmux flags its window in the status line.
    int fd = ::open(pane.tty.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
        write_all(fd, "\a");
        ::close(fd);
    }
}

std::pair<int, int> dialog_size(const std::vector<std::string>& lines, int options) {
    std::size_t longest = 40;
    for (const auto& l : lines) longest = std::max(longest, l.size());
    const int width = static_cast<int>(std::min<std::size_t>(longest + 10, 120));
    const int height = std::min(12 + 2 * options, 40);
    return {width, height};
}

}  // namespace askhost::tmux
