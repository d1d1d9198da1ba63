// One ask for an agent that waits on this process for its answer: a hook the agent runs (askhost
// hook for Claude Code, gemini-hook, codex-hook) or the child its plugin runs (askhost opencode
// ask). What the three share: the ask service set up for the agent's folder, the loop run until
// the outcome, or until the agent stops waiting (then the ask is withdrawn from every face), what
// its peers are owed written before the process ends, the terminal given back. Each agent's
// protocol (what it reads, what it prints) stays in its plugin.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>

#include "service/ask_service.hpp"

namespace askhost {

// Ends a wait early, at most once: why, for the log ("" says nothing).
using EndWait = std::function<void(const std::string& why)>;

struct WaitOptions {
    // who, kind, cwd, socket_hint, alone and log as for any ask (cwd: the ask's own when empty).
    AskServiceOptions service;
    // Set up once the ask waits somewhere: what tells that the agent stopped waiting (a signal, the
    // agent gone, the answer given in the agent's own dialog) calls `end`. Returns what must live
    // as long as the wait (an AgentWatch, timers).
    std::function<std::shared_ptr<void>(boost::asio::io_context&, EndWait end)> watch;
};

// $ASKHOST_SOCKET as it is now; with `ancestors`, when unset, the one an ancestor's environment
// names (socket_from_ancestors: agents that clean the environment of what they start).
std::function<std::string()> socket_hint_from_env(bool ancestors);

// Asks and runs a loop of its own until the outcome. nullopt when it was asked nowhere (the
// agent's own dialog asks) or the wait was ended first (withdrawn everywhere).
std::optional<Outcome> ask_and_wait(Ask ask, WaitOptions options);

}  // namespace askhost
