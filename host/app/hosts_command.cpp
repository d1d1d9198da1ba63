#include "app/hosts_command.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "core/fd_io.hpp"
#include "core/text/sanitize.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "json/json_codec.hpp"
#include "store/fs_util.hpp"

// `askhost hosts` and `askhost status`: what the registry says, read without asking any host (a
// stuck host cannot make them wait).
namespace askhost {

namespace {

// A record's text on the terminal: records are files anyone of this user may have written, and a
// folder named with an escape sequence must not drive the terminal.
std::string shown(std::string_view text) { return sanitize_for_terminal(text); }

std::string cwd() {
    char buf[PATH_MAX];
    return ::getcwd(buf, sizeof buf) ? std::string(buf) : std::string();
}

}  // namespace

constexpr cli::Option kHostsOptions[] = {{.name = "json", .help = "the registry and the choice as JSON"}};

const cli::Command kHostsCommand{
    .name = "hosts",
    .synopsis = "[--json]",
    .summary = "the running hosts and the one this directory uses",
    .about =
        "The running askhost hosts of this user (the registry), with the one an agent\n"
        "started in this directory would ask through marked '*'. Kinds: editor (an\n"
        "editor's standing host), agent (askhost running an agent in a terminal), print\n"
        "(askhost --print: nobody to show questions to), mcp (an askhost mcp holding a\n"
        "question nobody could be shown). Agents ask through editor and agent hosts;\n"
        "`askhost attach` finds the others too.",
    .options = kHostsOptions,
};

namespace {

// One JSON object, written by `fill`, and a newline: the --json forms.
template <class Fill>
std::string json_line(Fill&& fill) {
    rapidjson::StringBuffer buf;
    json::Writer w(buf);
    {
        json::ObjectWriter o(w);
        fill(o);
    }
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

// A host with questions waiting, as `askhost status --json` lists it.
struct WaitingHost {
    const HostRecord& h;
};
void to_json(const WaitingHost& r, json::Writer& w) {
    const HostRecord& h = r.h;
    json::ObjectWriter o(w);
    o.field("pid", static_cast<std::int64_t>(h.pid)).field("kind", h.kind).field("socket", h.socket);
    o.field("waiting", h.waiting).field("waitingSince", h.waiting_since_ms);
    if (!h.tmux_pane.empty())
        o.object("tmux", [&](json::ObjectWriter& t) { t.field("server", h.tmux_server).field("pane", h.tmux_pane); });
    std::vector<std::string_view> folders;
    for (const auto& f : h.folders) folders.push_back(f.path);
    o.field("folders", folders);
}

}  // namespace

int run_hosts(const std::vector<std::string>& args) {
    auto read = cli::read(args, kHostsCommand);
    if (auto* done = std::get_if<cli::Exit>(&read)) return done->print();
    const bool as_json = std::get<cli::Args>(read).has("json");
    auto registry = socket_directory();
    if (!registry) {
        write_all(2, "askhost hosts: " + registry.error().message + "\n");
        return registry.error().exit_status();
    }
    std::vector<std::string> skipped;
    auto hosts = list_hosts(*registry, &skipped);
    const char* env = std::getenv("ASKHOST_SOCKET");
    write_all(1, hosts_report(hosts, *registry, cwd(), env ? env : "", skipped, as_json));
    return 0;
}

std::string hosts_report(const std::vector<HostRecord>& hosts, const std::string& registry, const std::string& here,
                         const std::string& env_socket, const std::vector<std::string>& skipped, bool as_json) {
    // Agents ask through an editor's or agent's host; attach also finds an askhost mcp that waits.
    std::vector<HostRecord> askable = hosts;
    std::erase_if(askable, [](const HostRecord& r) { return !r.takes_asks(); });
    const HostRecord* for_agents = host_for_directory(askable, here);
    const HostRecord* chosen =
        for_agents
            ? &*std::find_if(hosts.begin(), hosts.end(), [&](const HostRecord& r) { return r.pid == for_agents->pid; })
            : nullptr;
    const HostRecord* for_attach = host_for_directory(hosts, here);
    if (as_json) {
        // $ASKHOST_SOCKET when set, else the record's socket, else null.
        auto socket_of = [&](const HostRecord* r) -> std::optional<std::string> {
            if (!env_socket.empty()) return env_socket;
            if (r) return r->socket;
            return std::nullopt;
        };
        std::vector<json::RawJson> records;
        for (const auto& h : hosts) {
            records.push_back({record_json(h)});
            records.back().text.pop_back();  // the newline
        }
        return json_line([&](json::ObjectWriter& o) {
            o.field("registry", registry).field("directory", here);
            o.field("chosen", socket_of(chosen)).field("attach", socket_of(for_attach)).field("hosts", records);
        });
    }
    std::string out;
    if (hosts.empty()) out += "No askhost is running (registry " + registry + ").\n";
    for (const auto& h : hosts) {
        bool mark = env_socket.empty() ? &h == chosen : h.socket == env_socket;
        out += std::string(mark ? "* " : "  ") + "pid " + std::to_string(h.pid) + "  " +
               (h.kind.empty() ? "host" : shown(h.kind)) +
               (h.client_name.empty()
                    ? ""
                    : "  " + shown(h.client_name) + (h.client_version.empty() ? "" : " " + shown(h.client_version))) +
               "  since " + store::iso8601_utc(h.start_ms) + "\n";
        for (const auto& f : h.folders) out += "      " + shown(f.path) + "\n";
        if (h.folders.empty()) out += "      (no workspace folder)\n";
        out += "      socket " + shown(h.socket) + "\n";
    }
    if (!env_socket.empty()) out += "This directory uses $ASKHOST_SOCKET: " + shown(env_socket) + "\n";
    else if (!hosts.empty() && !chosen)
        out += "No editor's or agent's host has " + shown(here) + " in its workspace.\n";
    if (env_socket.empty() && for_attach && for_attach != chosen)
        out += "askhost attach here answers the questions waiting in pid " + std::to_string(for_attach->pid) + " (" +
               shown(for_attach->socket) + ")\n";
    for (const auto& s : skipped) out += "skipped " + shown(s) + "\n";
    return out;
}

constexpr cli::Option kStatusOptions[] = {
    {.name = "tmux",
     .help = "one short line for tmux's status line, empty when nothing waits:\n"
             "set -g status-right '#(askhost status --tmux)'"},
    {.name = "json", .help = "{waiting, hosts: [{pid, kind, socket, waiting, waitingSince, folders}]}"},
};

const cli::Command kStatusCommand{
    .name = "status",
    .synopsis = "[--tmux | --json]",
    .summary = "how many questions wait, over every host",
    .about =
        "How many questions wait for an answer, over every running askhost of this user.\n"
        "It reads the registry only, so a stuck host cannot make it wait.",
    .options = kStatusOptions,
    .epilog = "`askhost attach --next` answers the oldest waiting question.",
};

int run_status(const std::vector<std::string>& args) {
    auto read = cli::read(args, kStatusCommand);
    if (auto* done = std::get_if<cli::Exit>(&read)) return done->print();
    // The last of --tmux and --json given.
    const auto& given = std::get<cli::Args>(read).given;
    const StatusForm form = given.empty()                  ? StatusForm::Text
                            : given.back().first == "tmux" ? StatusForm::Tmux
                                                           : StatusForm::Json;
    auto registry = socket_directory();
    std::vector<HostRecord> hosts;
    if (registry) hosts = list_hosts(*registry);
    write_all(1, status_report(hosts, form));
    return 0;
}

std::string status_report(const std::vector<HostRecord>& hosts, StatusForm form) {
    // Summed wide: records are files anyone of this user may have written.
    long long total = 0;
    for (const auto& h : hosts) total += h.waiting;
    if (form == StatusForm::Tmux) return total ? "? " + std::to_string(total) + " waiting\n" : "\n";
    // The oldest first: the one askhost attach --next answers.
    std::vector<const HostRecord*> waiting;
    for (const auto& h : hosts)
        if (h.waiting) waiting.push_back(&h);
    std::stable_sort(waiting.begin(), waiting.end(), [](const HostRecord* a, const HostRecord* b) {
        return a->waiting_since_ms < b->waiting_since_ms;
    });
    if (form == StatusForm::Json) {
        std::vector<WaitingHost> listed;
        for (const auto* h : waiting) listed.push_back({*h});
        return json_line([&](json::ObjectWriter& o) {
            o.field("waiting", static_cast<std::int64_t>(total)).field("hosts", listed);
        });
    }
    if (!total) return "No question waits.\n";
    std::string out = std::to_string(total) + (total == 1 ? " question waits" : " questions wait") +
                      " (askhost attach --next answers the oldest):\n";
    for (const auto* hp : waiting) {
        const HostRecord& h = *hp;
        out += "  " + std::to_string(h.waiting) + " in pid " + std::to_string(h.pid) + " (" + shown(h.kind) +
               (h.folders.empty() ? "" : ", " + shown(h.folders.front().path)) + ") since " +
               store::iso8601_utc(h.waiting_since_ms) + "\n";
    }
    return out;
}

const cli::Command kJumpCommand{
    .name = "jump",
    .summary = "tmux: go to the pane of the agent that asks",
    .about =
        "Switch this tmux client to the pane of the agent whose question has waited longest\n"
        "(bind-key J run-shell 'askhost jump'). Outside tmux it prints that pane.",
};

int run_jump(const std::vector<std::string>& args) {
    auto read = cli::read(args, kJumpCommand);
    if (auto* done = std::get_if<cli::Exit>(&read)) return done->print();
    auto registry = socket_directory();
    std::vector<HostRecord> hosts;
    if (registry) hosts = list_hosts(*registry);
    const HostRecord* best = nullptr;
    for (const auto& h : hosts)
        if (h.waiting > 0 && !h.tmux_pane.empty() && (!best || h.waiting_since_ms < best->waiting_since_ms)) best = &h;
    if (!best) {
        write_all(2, "askhost jump: no waiting question comes from an agent in a known tmux pane\n");
        return 1;
    }
    if (!std::getenv("TMUX")) {
        write_all(1, best->tmux_pane + " " + best->tmux_server + "\n");
        return 0;
    }
    pid_t pid = ::fork();
    if (pid == 0) {
        ::execlp("tmux", "tmux", "-S", best->tmux_server.c_str(), "switch-client", "-t", best->tmux_pane.c_str(),
                 static_cast<char*>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        write_all(2, "askhost jump: tmux could not switch to " + best->tmux_pane + "\n");
        return 1;
    }
    return 0;
}

Result<HostRecord> oldest_waiting_host() {
    auto registry = socket_directory();
    if (!registry) return std::move(registry).error();
    auto hosts = list_hosts(*registry);
    const HostRecord* best = nullptr;
    for (const auto& h : hosts)
        if (h.waiting > 0 && (!best || h.waiting_since_ms < best->waiting_since_ms)) best = &h;
    if (!best)
        return Error::failed("no question waits in any running askhost (" + std::to_string(hosts.size()) + " running)");
    return *best;
}

}  // namespace askhost
