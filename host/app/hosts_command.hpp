// The subcommands that read the registry of running hosts: `askhost hosts`, `askhost status`,
// `askhost jump`, and the lookup askhost attach --next makes.
#pragma once

#include <string>
#include <vector>

#include "core/command_line.hpp"
#include "frontends/editor/registry.hpp"

namespace askhost {

extern const cli::Command kHostsCommand, kStatusCommand, kJumpCommand;

// `askhost hosts [--json]`: the registry, with the host this directory would use marked.
int run_hosts(const std::vector<std::string>& args);
// What askhost hosts prints for these records, run in `here` with $ASKHOST_SOCKET `env_socket`.
std::string hosts_report(const std::vector<HostRecord>& hosts, const std::string& registry, const std::string& here,
                         const std::string& env_socket, const std::vector<std::string>& skipped, bool as_json);
// `askhost status [--tmux|--json]`: how many questions wait, over every host.
int run_status(const std::vector<std::string>& args);
enum class StatusForm { Text, Tmux, Json };
// What askhost status prints for these records.
std::string status_report(const std::vector<HostRecord>& hosts, StatusForm form);
// `askhost jump`: switch the tmux client to the pane of the agent whose question waited longest.
int run_jump(const std::vector<std::string>& args);
// The host whose questions have waited longest (askhost attach --next), or why there is none.
Result<HostRecord> oldest_waiting_host();

}  // namespace askhost
