// The agent as the rest of the host sees it: how one is launched, how it ended, and what editor
// clients may do to it. The frontends call AgentControl; the program (Host) implements it.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace askhost {

struct AgentExit {
    int exit_code = 0;  // meaningful when signal == 0
    int signal = 0;     // the signal that ended the agent, or 0
    // The conventional shell status: exit_code, or 128 + signal.
    int status() const { return signal ? 128 + signal : exit_code; }
};

struct LaunchSpec {
    std::vector<std::string> argv;
    std::string cwd;                         // empty: askhost's own
    std::map<std::string, std::string> env;  // added to (or replacing in) askhost's environment
};

// What clients may do to the agent (agent/start, agent/prompt, agent/stop).
class AgentControl {
public:
    virtual ~AgentControl() = default;
    // The agent's pid, or why it could not be started.
    virtual Result<int> start_agent(const LaunchSpec& spec, const std::string& adapter) = 0;
    // nullopt when sent, else why not.
    virtual Status prompt_agent(std::string_view text) = 0;
    // false when no agent runs; else `done` runs once the agent has exited.
    virtual bool stop_agent(std::function<void(AgentExit)> done) = 0;
};

}  // namespace askhost
