// What /proc/PID/stat says of a process that askhost needs, read here alone: its parent (to walk up
// to the agent that runs us), its start time (to tell a live host from a reused pid) and its state
// (a zombie's locks are gone); a variable of the environment it started with; and the one walk up a
// process's ancestors.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <sys/types.h>

namespace askhost {

struct ProcStat {
    char state = 0;  // field 3: 'R', 'S', ...; 'Z' a zombie, 'X' dead
    pid_t ppid = 0;
    unsigned long long start_ticks = 0;  // field 22: clock ticks since boot
};

// nullopt when the process is gone or its stat cannot be read.
std::optional<ProcStat> read_proc_stat(pid_t pid);

// The value of `name` in the environment `pid` was started with (/proc/PID/environ), for a process
// of this user (owned by the effective uid); "" when it has none, or is another user's or gone.
std::string start_environment_value(pid_t pid, std::string_view name);

// `look` asked of `pid`, then of its parent, and so on up (at most 32 processes; init and the
// kernel's are never asked): the first answer that is not empty, or "" when none gives one. The
// nearest ancestor with a terminal, the nearest whose environment names a host's socket.
std::string nearest_ancestor(pid_t pid, const std::function<std::string(pid_t)>& look);

}  // namespace askhost
