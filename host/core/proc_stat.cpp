#include "core/proc_stat.hpp"

#include <fstream>
#include <sstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace askhost {

std::optional<ProcStat> read_proc_stat(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return std::nullopt;
    // The command name (field 2) is in parentheses and may hold spaces and ')': fields after the
    // last ')' are the rest, from the state (field 3) on.
    auto close = line.rfind(')');
    if (close == std::string::npos || close + 2 > line.size()) return std::nullopt;
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    ProcStat s;
    long ppid = 0;
    if (!(rest >> s.state >> ppid)) return std::nullopt;
    s.ppid = static_cast<pid_t>(ppid);
    for (int i = 5; i <= 21; ++i)  // fields 5..21 come before the start time
        if (!(rest >> field)) return std::nullopt;
    if (!(rest >> s.start_ticks)) return std::nullopt;
    return s;
}

std::string start_environment_value(pid_t pid, std::string_view name) {
    const std::string dir = "/proc/" + std::to_string(pid);
    struct stat st {};
    // root may read every process's environ: another user's is none of ours.
    if (::stat(dir.c_str(), &st) != 0 || st.st_uid != ::geteuid()) return {};
    std::ifstream env(dir + "/environ", std::ios::binary);
    std::string var;
    while (std::getline(env, var, '\0'))
        if (var.size() > name.size() && var.compare(0, name.size(), name) == 0 && var[name.size()] == '=')
            return var.substr(name.size() + 1);
    return {};
}

std::string nearest_ancestor(pid_t pid, const std::function<std::string(pid_t)>& look) {
    for (int depth = 0; depth < 32 && pid > 1; ++depth) {
        if (std::string found = look(pid); !found.empty()) return found;
        auto stat = read_proc_stat(pid);
        if (!stat) break;
        pid = stat->ppid;
    }
    return {};
}

}  // namespace askhost
