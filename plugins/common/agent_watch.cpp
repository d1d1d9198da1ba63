#include "agent_watch.hpp"

#include <chrono>
#include <csignal>
#include <utility>

#include <unistd.h>

namespace askhost {

AgentWatch::AgentWatch(boost::asio::io_context& io, std::string gone, std::function<void(const std::string&)> end)
    : gone_(std::move(gone)),
      end_(std::move(end)),
      signals_(io, SIGTERM, SIGINT, SIGHUP),
      timer_(io),
      agent_(::getppid()) {
    signals_.async_wait([this](const boost::system::error_code& ec, int) {
        if (!ec) fire("");
    });
    look();
}

void AgentWatch::look() {
    timer_.expires_after(std::chrono::milliseconds(300));
    timer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec || fired_) return;
        if (::getppid() != agent_ || ::kill(agent_, 0) != 0) return fire(gone_);
        look();
    });
}

void AgentWatch::fire(const std::string& why) {
    if (fired_) return;
    fired_ = true;
    end_(why);
}

}  // namespace askhost
