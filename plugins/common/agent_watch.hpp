// An ask made for an agent by a process the agent started (askhost gemini-hook, codex-hook,
// opencode ask) ends when the agent stops waiting for it: a signal (SIGTERM, SIGINT, SIGHUP: the
// hook's time limit, the agent ending its hook, OpenCode's plugin after an answer in OpenCode's
// own dialog) or the agent gone (its terminal closed: this process's parent changed or ended).
#pragma once

#include <functional>
#include <string>

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

namespace askhost {

class AgentWatch {
public:
    // `end` runs at most once: with "" on a signal, with `gone` ("Codex is gone") when the agent
    // is. The parent is looked at every 300 ms until then.
    AgentWatch(boost::asio::io_context& io, std::string gone, std::function<void(const std::string&)> end);
    AgentWatch(const AgentWatch&) = delete;
    AgentWatch& operator=(const AgentWatch&) = delete;

private:
    void look();
    void fire(const std::string& why);

    std::string gone_;
    std::function<void(const std::string&)> end_;
    boost::asio::signal_set signals_;
    boost::asio::steady_timer timer_;
    pid_t agent_;
    bool fired_ = false;
};

}  // namespace askhost
