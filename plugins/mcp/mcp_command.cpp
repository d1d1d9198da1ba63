// `askhost mcp`: the MCP server on stdio. The MCP protocol is here (mcp_server); where a question
// is asked (the workspace's host, the client's own form, a host of its own) is the ask service's
// (service/ask_service.hpp).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "core/command_line.hpp"
#include "mcp_server.hpp"
#include "service/ask_service.hpp"
#include "transport/connection.hpp"
#include "transport/stdio.hpp"

namespace askhost::mcp {

namespace {

constexpr cli::Option kOptions[] = {
    {.name = "print",
     .help = "no waiting: write the pending-questions file and tell the agent at once\n"
             "(answer it with `askhost answer`)"},
    {.name = "pending-file",
     .value = "PATH",
     .help = "the pending-questions file (default .askhost/pending-questions.json)"},
    {.name = "expire-after",
     .value = "SECONDS",
     .help = "how long a question that waits on the client (an input_required\n"
             "not yet retried, a task) stays asked before it ends unanswered\n"
             "(default 86400, a day)"},
    {.name = "progress-interval",
     .value = "SECONDS",
     .help = "how often a waiting call that carries a progressToken gets\n"
             "notifications/progress (default 10)"},
};

std::string current_directory() {
    char buf[4096];
    return ::getcwd(buf, sizeof buf) ? std::string(buf) : std::string();
}

void log_line(std::string_view message) {
    std::string line = "askhost mcp: " + std::string(message) + "\n";
    [[maybe_unused]] auto n = ::write(2, line.data(), line.size());
}

// The agent's program name for display: MCP clients give their client's name.
std::string agent_name(const std::string& client) {
    if (client.rfind("codex", 0) == 0) return "codex";
    if (client.rfind("claude", 0) == 0) return "claude";
    if (client.rfind("gemini", 0) == 0) return "gemini";
    return client;
}

// Per call: the service asks the host for this directory when there is one (it may come and go),
// else the client's own form when it offers elicitation, else a host of our own.
class RoutingAsker final : public McpAsker {
public:
    RoutingAsker(boost::asio::io_context& io, AskServiceOptions options)
        : cwd_(options.cwd), service_(io, std::move(options)) {}

    std::function<void()> ask(Ask ask, McpServer& server, OnOutcome reply) override {
        ask.route = "mcp";
        ask.cwd = cwd_;
        ask.agent = agent_name(server.client_name());
        if (ask.agent != server.client_name()) ask.client = server.client_name();
        const ClientForm form{server.client_name(), [&server, call = server.asking_call()](const Ask& a, OnOutcome r) {
                                  return server.elicit(a, std::move(r), call);
                              }};
        return service_.ask(std::move(ask), std::move(reply), server.client_elicits() ? &form : nullptr).withdraw;
    }

    void restore_terminal() { service_.restore_terminal(); }

private:
    std::string cwd_;
    AskService service_;
};

}  // namespace

extern const cli::Command kMcpCommand;

namespace {

// A SECONDS option within `range`, as milliseconds; `fallback` when it is not given.
struct SecondsOption {
    std::optional<std::chrono::milliseconds> value;
    std::optional<cli::Exit> usage;
    explicit operator bool() const { return value.has_value(); }
    std::chrono::milliseconds operator*() const { return *value; }
    const cli::Exit& error() const { return *usage; }
};
SecondsOption seconds_option(const cli::Args& a, const char* name, std::pair<double, double> range,
                             std::chrono::milliseconds fallback) {
    auto v = a.value(name);
    if (!v) return {fallback, std::nullopt};
    char* end = nullptr;
    const double seconds = std::strtod(v->c_str(), &end);
    if (v->empty() || *end || !(seconds >= range.first && seconds <= range.second)) {
        char limits[64];
        std::snprintf(limits, sizeof limits, "%.15g to %.15g", range.first, range.second);
        return {std::nullopt, cli::usage_error(kMcpCommand, "--" + std::string(name) + ": '" + *v +
                                                                "' is not a number of seconds (" + limits + ")")};
    }
    return {std::chrono::milliseconds(static_cast<long long>(seconds * 1000)), std::nullopt};
}

}  // namespace
const cli::Command kMcpCommand{
    .name = "mcp",
    .synopsis = "[--print] [--pending-file PATH] [--progress-interval SECONDS] [--expire-after SECONDS]",
    .summary = "MCP stdio server with the ask_user_question tool",
    .about =
        "An MCP stdio server with one tool, ask_user_question. Run it from an agent's MCP configuration.\n"
        "Each question goes to the askhost that runs the agent ($ASKHOST_SOCKET), else to the editor's\n"
        "askhost whose workspace holds this directory (`askhost hosts`), else to the client's own form\n"
        "when it offers elicitation. Else askhost mcp waits as a host of its own: `askhost attach` in\n"
        "another terminal answers, an editor opening the workspace is asked too, and a terminal nobody\n"
        "else reads shows the dialog; the pending-questions file keeps a record.",
    .options = kOptions,
};

int run_mcp(const std::vector<std::string>& args) {
    auto read = cli::read(args, kMcpCommand);
    if (auto* done = std::get_if<cli::Exit>(&read)) return done->print();
    const cli::Args& a = std::get<cli::Args>(read);
    AskServiceOptions options{.who = "askhost mcp",
                              .kind = "mcp",
                              .cwd = current_directory(),
                              .pending_file = a.value("pending-file").value_or(""),
                              .print_only = a.has("print"),
                              .log = log_line};
    if (auto file = a.value("pending-file"); file && file->empty())
        return cli::usage_error(kMcpCommand, "--pending-file: an empty path").print();
    const auto progress_every = seconds_option(a, "progress-interval", {0.05, 3600}, std::chrono::seconds(10));
    if (!progress_every) return progress_every.error().print();
    const auto expire_after = seconds_option(a, "expire-after", {1, 31536000}, std::chrono::hours(24));
    if (!expire_after) return expire_after.error().print();
    // The host the agent runs under, if any: read at the first call that needs a host, so a
    // session whose calls are all pre-answered never reads /proc.
    const char* env_socket = std::getenv("ASKHOST_SOCKET");
    options.socket_hint = [env = std::string(env_socket ? env_socket : "")] {
        return env.empty() ? socket_from_ancestors() : env;
    };

    if (::isatty(0))  // a person who typed it: say what it waits for
        log_line(
            "an MCP server reading JSON-RPC lines on stdin, for an agent's MCP configuration to run (codex mcp add "
            "ask -- askhost mcp; docs/mcp.md); Ctrl-C ends it");
    // Its I/O objects are used on this thread alone: they need no locks (posting stays safe).
    boost::asio::io_context io{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO};
    RoutingAsker asker(io, std::move(options));
    auto [in, out] = claim_stdio();
    auto conn = std::make_shared<Connection>(io, in, out, FrameDecoder::default_max_body, Framing::Lines);
    McpServer server(conn->rpc(), asker, log_line, &io);
    server.progress_interval = *progress_every;
    server.expire_after = *expire_after;
    conn->on_problem = [](std::string_view p) { log_line(std::string("client: ") + std::string(p)); };
    boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
    bool stopped = false, client_gone = false;
    auto stop = [&] {
        if (stopped) return;
        stopped = true;
        server.close();
        asker.restore_terminal();
        signals.cancel();
        // Replies already queued (e.g. to the last calls before end of input) still go out.
        stop_when_written(io, [&conn] { return conn->queued_bytes(); });
    };
    // The client gone (end of input, or a first signal): a task's question goes on waiting here
    // until it is answered (docs/mcp.md, "Tasks"); a second signal ends it all the same.
    auto finish = [&] {
        if (client_gone) return;
        client_gone = true;
        server.client_gone(stop);
    };
    conn->on_closed = [&](std::string_view) { finish(); };
    std::function<void(const boost::system::error_code&, int)> on_signal = [&](const boost::system::error_code& ec,
                                                                               int) {
        if (ec) return;
        if (client_gone) return stop();
        finish();
        if (!stopped) signals.async_wait(on_signal);
    };
    signals.async_wait(on_signal);
    conn->start();
    io.run();
    asker.restore_terminal();
    return 0;
}

}  // namespace askhost::mcp
