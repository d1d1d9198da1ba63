// `askhost mcp [--pending-file PATH]`: the MCP server on stdio, asking through the host named by
// $ASKHOST_SOCKET, else in a terminal dialog on /dev/tty, else into the pending-questions file.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <memory>

#include <fcntl.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "askhost_config.h"
#include "broker.hpp"
#include "editor/ask_json.hpp"
#include "editor/host_client.hpp"
#include "editor/registry.hpp"
#include "editor/socket_listener.hpp"
#include "fd_io.hpp"
#include "mcp_server.hpp"
#include "print_frontend.hpp"
#include "store/pending_file.hpp"
#include "transport/connection.hpp"
#if ASKHOST_HAVE_TUI
#include "tui/terminal_dialog.hpp"
#endif

namespace askhost::mcp {

namespace {

constexpr const char* kUsage =
    "usage: askhost mcp [--pending-file PATH]\n"
    "An MCP stdio server with one tool, ask_user_question. Run it from an agent's MCP configuration.\n"
    "Questions go to the askhost that runs the agent ($ASKHOST_SOCKET), else to a dialog on this\n"
    "terminal, else to the pending-questions file (answer it with `askhost answer`).\n";

// Some agents start MCP servers with a cleaned environment (Codex keeps only a few variables):
// then the host is named in an ancestor's environment, the agent's own.
std::string socket_from_ancestors() {
    long pid = static_cast<long>(::getppid());
    for (int depth = 0; depth < 16 && pid > 1; ++depth) {
        std::ifstream env("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
        std::string var;
        while (std::getline(env, var, '\0'))
            if (var.rfind("ASKHOST_SOCKET=", 0) == 0) return var.substr(15);
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        std::getline(stat, line);
        auto close = line.rfind(')');
        if (close == std::string::npos) break;
        std::istringstream rest(line.substr(close + 2));
        std::string state;
        long ppid = 0;
        if (!(rest >> state >> ppid)) break;
        pid = ppid;
    }
    return {};
}

std::string current_directory() {
    char buf[4096];
    return ::getcwd(buf, sizeof buf) ? std::string(buf) : std::string();
}

void log_line(std::string_view message) {
    std::string line = "askhost mcp: " + std::string(message) + "\n";
    [[maybe_unused]] auto n = ::write(2, line.data(), line.size());
}

// Asks through a running host: a client of its socket, like `askhost attach`, that submits.
class HostAsker final : public McpAsker {
public:
    HostAsker(boost::asio::io_context& io, std::string path) : client_(io, std::move(path), "askhost mcp") {
        client_.on_log = log_line;
    }

    // Connects (once); false when the host cannot be reached.
    bool connect() {
        std::string why;
        if (client_.connect(&why)) return true;
        log_line(why);
        return false;
    }

    std::function<void()> ask(Ask ask, Reply reply) override {
        ask.route = "mcp";
        ask.cwd = current_directory();
        return client_.submit(ask, Profile::Strict, std::move(reply));
    }

private:
    HostClient client_;
};

// No host: a broker of our own with the terminal dialog, or the pending-questions file.
class LocalAsker final : public McpAsker {
public:
    LocalAsker(boost::asio::io_context& io, std::string pending_file)
        : broker_(io), print_(std::move(pending_file), "", log_line) {
#if ASKHOST_HAVE_TUI
        if (TerminalDialog::available()) {
            dialog_ = std::make_unique<TerminalDialog>(io, TerminalDialogOptions{});
            broker_.add_frontend(*dialog_);
        }
#endif
        broker_.set_fallback(&print_);
    }
    ~LocalAsker() override {
        broker_.withdraw_all();
#if ASKHOST_HAVE_TUI
        if (dialog_) {
            dialog_->restore_terminal();
            broker_.remove_frontend(*dialog_, false);
        }
#endif
    }

    std::function<void()> ask(Ask ask, Reply reply) override {
        auto done = std::make_shared<bool>(false);
        std::string id = broker_.submit(std::move(ask), [reply = std::move(reply), done](Outcome o) {
            *done = true;
            reply(std::move(o));
        });
        return [this, id, done] {
            if (!*done) broker_.withdraw(id);
        };
    }

    void restore_terminal() {
#if ASKHOST_HAVE_TUI
        if (dialog_) dialog_->restore_terminal();
#endif
    }

private:
    Broker broker_;
    PrintFrontend print_;
#if ASKHOST_HAVE_TUI
    std::unique_ptr<TerminalDialog> dialog_;
#endif
};

// The host when there is one, else the local asker; chosen per call (a host may go away).
class RoutingAsker final : public McpAsker {
public:
    RoutingAsker(boost::asio::io_context& io, std::string socket, std::string pending_file)
        : io_(io), pending_file_(std::move(pending_file)) {
        if (!socket.empty()) host_ = std::make_unique<HostAsker>(io, std::move(socket));
    }

    std::function<void()> ask(Ask ask, Reply reply) override {
        if (host_ && host_->connect()) return host_->ask(std::move(ask), std::move(reply));
        if (!local_) local_ = std::make_unique<LocalAsker>(io_, pending_file_);
        return local_->ask(std::move(ask), std::move(reply));
    }

    void restore_terminal() {
        if (local_) local_->restore_terminal();
    }

private:
    boost::asio::io_context& io_;
    std::string pending_file_;
    std::unique_ptr<HostAsker> host_;
    std::unique_ptr<LocalAsker> local_;
};

}  // namespace

int run_mcp(const std::vector<std::string>& args) {
    std::string pending_file = store::default_pending_file;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "-h" || args[i] == "--help") {
            write_all(1, kUsage);
            return 0;
        }
        if (args[i] == "--pending-file" && i + 1 < args.size()) {
            pending_file = args[++i];
            continue;
        }
        write_all(2, "askhost mcp: unknown argument '" + args[i] + "'\n" + kUsage);
        return 2;
    }
    const char* env_socket = std::getenv("ASKHOST_SOCKET");
    std::string hint = env_socket && *env_socket ? env_socket : socket_from_ancestors();
    std::string why, socket;
    if (auto found = find_host(current_directory(), hint, &why)) {
        socket = found->socket;
        log_line("asking through the askhost at " + socket + " (" + found->source + ")");
    }

    boost::asio::io_context io;
    RoutingAsker asker(io, socket, pending_file);
    int in = ::dup(0), out = ::dup(1);
    // From here on stdout belongs to the protocol: nothing else may write to it.
    int devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull >= 0) {
        ::dup2(devnull, 1);
        ::close(devnull);
    }
    auto conn = std::make_shared<Connection>(io, in, out, FrameDecoder::default_max_body, Framing::Lines);
    McpServer server(conn->rpc(), asker, log_line);
    conn->on_problem = [](std::string_view p) { log_line(std::string("client: ") + std::string(p)); };
    boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
    boost::asio::steady_timer drain(io);
    int drain_ticks = 0;
    std::function<void()> stop_when_written = [&] {
        // Replies already queued (e.g. to the last calls before end of input) still go out.
        if (conn->queued_bytes() == 0 || ++drain_ticks > 200) {
            io.stop();
            return;
        }
        drain.expires_after(std::chrono::milliseconds(10));
        drain.async_wait([&](const boost::system::error_code& ec) {
            if (!ec) stop_when_written();
        });
    };
    auto finish = [&] {
        server.close();
        asker.restore_terminal();
        signals.cancel();
        stop_when_written();
    };
    conn->on_closed = [&](std::string_view) { finish(); };
    signals.async_wait([&](const boost::system::error_code& ec, int) {
        if (!ec) finish();
    });
    conn->start();
    io.run();
    asker.restore_terminal();
    return 0;
}

}  // namespace askhost::mcp
