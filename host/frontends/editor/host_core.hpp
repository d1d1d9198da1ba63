// What every askhost that asks a person has: the broker, the editor-protocol clients (the stdio
// editor and socket clients), the socket they attach through, and the registry record that lets
// agents in its workspace find it. Host (an agent's host) and askhost mcp's own host build on it.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "core/broker.hpp"
#include "core/lifetime.hpp"
#include "frontends/editor/editor_hub.hpp"
#include "frontends/editor/registry.hpp"
#include "frontends/editor/socket_listener.hpp"

namespace askhost {

// For a host that runs no agent of its own (askhost mcp or askhost hook waiting for someone):
// its clients' agent/start, agent/prompt and agent/stop are refused.
class NoAgentControl final : public AgentControl {
public:
    explicit NoAgentControl(std::string who) : who_(std::move(who)) {}
    Result<int> start_agent(const LaunchSpec&, const std::string&) override { return Error::failed(why()); }
    Status prompt_agent(std::string_view) override { return Error::failed(why()); }
    bool stop_agent(std::function<void(AgentExit)>) override { return false; }

private:
    std::string why() const { return who_ + " runs no agent"; }
    std::string who_;
};

class HostCore {
public:
    HostCore(boost::asio::io_context& io, AgentControl& control);
    ~HostCore();
    HostCore(const HostCore&) = delete;
    HostCore& operator=(const HostCore&) = delete;

    Broker& broker() { return broker_; }
    EditorHub& hub() { return hub_; }

    // Listens on the private socket and registers as `kind` ("editor", "agent", "mcp"). nullopt on
    // success, else why other clients cannot attach (a failed registration is only logged).
    Status listen(const std::string& kind);
    const std::string& socket_path() const { return listener_.path(); }
    // A folder of this host's workspace besides the clients' (an agent's working directory).
    void add_folder(const std::string& path);
    // Leaves the registry: no new asks are routed here.
    void unregister() { registration_.remove(); }
    // The asking agent's tmux pane, for askhost jump.
    void set_tmux(std::string server, std::string pane) { registration_.set_tmux(std::move(server), std::move(pane)); }

    std::function<void(std::string_view)> on_log;
    // After the clients heard of a change in the waiting asks (Host runs --on-question from it).
    std::function<void()> on_state;

private:
    void update_registration();
    void log(std::string_view m) {
        if (on_log) on_log(m);
    }

    Broker broker_;
    EditorHub hub_;
    SocketListener listener_;
    Registration registration_;
    std::vector<WorkspaceFolder> own_folders_;
    // How far behind the registry's waiting count may be (a tmux status line polls every second).
    static constexpr std::chrono::milliseconds kWaitingFlushDelay{250};
    boost::asio::steady_timer waiting_flush_;
    bool waiting_flush_armed_ = false;
    Lifetime lifetime_;
};

}  // namespace askhost
