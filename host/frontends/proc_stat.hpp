// What /proc/PID/stat says of a process that askhost needs: its parent (to walk up to the agent
// that runs us) and its start time (to tell a live host from a reused pid).
#pragma once

#include <optional>

#include <sys/types.h>

namespace askhost {

struct ProcStat {
    pid_t ppid = 0;
    unsigned long long start_ticks = 0;  // field 22: clock ticks since boot
};

// nullopt when the process is gone or its stat cannot be read.
std::optional<ProcStat> read_proc_stat(pid_t pid);

}  // namespace askhost
