// Editors and other clients on the editor protocol: each one is a frontend the broker can show
// asks on, and a controller of the agent. The hub broadcasts state, output and exit to all.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "core/adapter.hpp"
#include "core/agent_control.hpp"
#include "core/broker.hpp"
#include "core/lifetime.hpp"
#include "frontends/editor/registry.hpp"
#include "transport/connection.hpp"

namespace askhost {

class EditorClient;

class EditorHub {
public:
    EditorHub(boost::asio::io_context& io, Broker& broker, AgentControl& control);
    ~EditorHub();

    // A new peer (on any channel: a socket, stdio, or memory in tests). The primary one is the editor that started askhost (--stdio): when it says exit
    // or goes away, askhost ends.
    void add_client(std::shared_ptr<Channel> connection, bool primary);
    // Clients, not counting passive viewers (askhost web): a host decides on its other faces
    // (a tmux popup) as if those were not there.
    std::size_t client_count() const;
    // Bytes queued for clients and not yet written to them; for the primary client alone.
    std::size_t queued_bytes() const;
    std::size_t primary_queued_bytes() const;

    // Broadcasts ask/state once per turn of the loop, however many changes the turn made.
    void state_changed();
    // Sends the ask/state a change is waiting for now, rather than at the end of the turn.
    void flush_state();
    void agent_output(Stream stream, std::string_view text);
    void agent_exit(AgentExit e);

    // The workspace folders the clients gave (initialize, workspace/didChangeWorkspaceFolders),
    // without repeats, in the order they came.
    std::vector<WorkspaceFolder> workspace_folders() const;
    // The primary client's clientInfo (name, version), once it said initialize.
    std::pair<std::string, std::string> primary_client() const;
    // Told to clients in the initialize result (null when there is none).
    void set_socket_path(std::string path) { socket_path_ = std::move(path); }

    std::function<void(int exit_code)> on_exit;  // the primary client said exit
    std::function<void()> on_primary_lost;       // the primary client went away without exit
    std::function<void()> on_primary_written;    // the primary client took some of its queue
    std::function<void(std::string_view)> on_log;
    std::function<void()> on_workspace_changed;  // folders or the primary client's info changed

private:
    friend class EditorClient;
    void remove_client(EditorClient* c);
    // ask_members_text of a pending ask, written at its first use, kept while it is pending.
    const std::string& ask_text(const Ask& ask);
    // ask/state's params now; forgets the texts of asks no longer pending.
    std::string state_params();

    boost::asio::io_context& io_;
    Broker& broker_;
    AgentControl& control_;
    std::vector<std::unique_ptr<EditorClient>> clients_;
    std::string socket_path_;
    bool state_posted_ = false, state_dirty_ = false;
    std::unordered_map<std::string, std::string> ask_texts_;  // ask id -> ask_members_text
    Lifetime lifetime_;
};

}  // namespace askhost
