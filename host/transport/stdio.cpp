#include "transport/stdio.hpp"

#include <chrono>
#include <memory>

#include <fcntl.h>
#include <unistd.h>

#include <boost/asio/steady_timer.hpp>

namespace askhost {

std::pair<int, int> claim_stdio() {
    int in = ::dup(0), out = ::dup(1);
    int devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull >= 0) {
        ::dup2(devnull, 1);
        ::close(devnull);
    }
    return {in, out};
}

void stop_when_written(boost::asio::io_context& io, std::function<std::size_t()> queued, int ticks) {
    if (queued() == 0 || ticks <= 0) {
        io.stop();
        return;
    }
    auto timer = std::make_shared<boost::asio::steady_timer>(io, std::chrono::milliseconds(10));
    timer->async_wait([&io, timer, queued = std::move(queued), ticks](const boost::system::error_code& ec) mutable {
        if (!ec) stop_when_written(io, std::move(queued), ticks - 1);
    });
}

}  // namespace askhost
