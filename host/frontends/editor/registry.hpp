// The per-user registry of running hosts, and the one lookup everything uses to find a host:
// $ASKHOST_SOCKET, else the host whose workspace folder is the deepest one holding a directory.
// Each host writes host-PID.json beside its socket host-PID.sock (docs/protocol.md, "Registry").
#pragma once

#include "core/error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace askhost {

struct WorkspaceFolder {
    std::string uri;   // file:///abs/path, as the editor gave it
    std::string name;  // for display
    std::string path;  // the absolute path the uri names
};

// The path a file:// URI names (percent-decoded), or nullopt for another scheme or a relative path.
std::optional<std::string> path_from_file_uri(std::string_view uri);
// file:// URI for an absolute path, percent-encoding what must be.
std::string file_uri(std::string_view path);
// A folder from a path (name: its last component).
WorkspaceFolder folder_from_path(const std::string& path);

struct HostRecord {
    long pid = 0;
    std::string socket;
    std::vector<WorkspaceFolder> folders;
    std::string client_name, client_version;  // the editor (or "askhost mcp", ...)
    std::string kind;                         // "editor" | "agent" | "print" | "mcp" | "hook"
    std::int64_t start_ms = 0;                // wall clock at start: the newest wins ties
    unsigned long long proc_start = 0;        // /proc/PID/stat start time: a reused pid is not us
    std::string file;                         // where the record was read from
    std::string tmux_server, tmux_pane;       // the asking agent's tmux pane, when known
    int waiting = 0;                          // questions waiting for an answer now
    std::int64_t waiting_since_ms = 0;        // since when (wall clock), while waiting > 0

    // Whether other agents' questions go here: an editor's host or an agent's interactive host,
    // not a headless one (print) or an askhost mcp or hook that is itself waiting for someone.
    bool takes_asks() const { return kind != "mcp" && kind != "print" && kind != "hook"; }
};

// This host's record, kept up to date in the registry while the object lives; removed after.
class Registration {
public:
    Registration() = default;
    ~Registration();
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;

    // Writes (or rewrites) the record for `socket` (whose directory is the registry). nullopt on
    // success, else why not.
    Status publish(const std::string& socket, std::string kind);
    // New folders and client: the record is rewritten (once) when published and changed.
    void update(std::vector<WorkspaceFolder> folders, std::string client_name, std::string client_version);
    // How many questions wait (askhost status reads it without asking the host): kept in memory
    // until flush() or the next rewrite, so a question's path writes nothing to disk.
    void set_waiting(int count);
    // Writes the record if its waiting count differs from the file's.
    void flush();
    // The tmux pane of the agent that asks here (askhost jump goes there).
    void set_tmux(std::string server, std::string pane);
    const HostRecord& record() const { return record_; }
    void remove();

private:
    Status write();
    HostRecord record_;
    bool published_ = false;
    int written_waiting_ = 0;  // what the file says
    std::int64_t written_since_ms_ = 0;
};

// The JSON text of a record (docs/protocol.md), and back (nullopt when it is not a record).
std::string record_json(const HostRecord& r);
std::optional<HostRecord> parse_record(std::string_view text);

// Every live host of this user in the registry directory. Records of dead processes (or of a
// reused pid) are deleted; records not owned by the user, not private, or unreadable are skipped
// (and `skipped` says why, when given).
std::vector<HostRecord> list_hosts(const std::string& dir, std::vector<std::string>* skipped = nullptr);

// The host for `dir` among `hosts`: the deepest workspace folder holding dir (ties: the newest).
// Paths are compared after resolving symbolic links. nullptr when none holds it.
const HostRecord* host_for_directory(const std::vector<HostRecord>& hosts, const std::string& dir);

struct FoundHost {
    std::string socket;
    std::string source;                // "$ASKHOST_SOCKET" or "workspace /abs/folder"
    std::optional<HostRecord> record;  // when found in the registry
};

// The one lookup: `socket_hint` ($ASKHOST_SOCKET, or what the agent's environment named) first;
// else the registered host for `dir`. Hosts that do not take asks (HostRecord::takes_asks) count
// only with `include_waiting` (askhost attach).
// Else why there is none.
Result<FoundHost> find_host(const std::string& dir, const std::string& socket_hint, bool include_waiting = false);

// askhost web's own record beside the hosts' (web.json in the registry folder): the pid and URL of
// the server it names when that server runs (the same process, by its start time), else nullopt.
std::optional<std::pair<long, std::string>> running_web_server(const std::string& record_file);

}  // namespace askhost
