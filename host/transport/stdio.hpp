// askhost's own stdin and stdout as a protocol connection (askhost --stdio, askhost mcp), and how
// a process that talks to peers ends (those two, askhost hook): once what it queued is written.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>

#include <boost/asio/io_context.hpp>

namespace askhost {

// Duplicates of fds 0 and 1 for a Connection; fd 1 then points at /dev/null: from here on stdout
// belongs to the protocol, and nothing else may write to it.
std::pair<int, int> claim_stdio();

// Stops `io` once `queued()` is 0, looking every 10 ms, or after `ticks` looks (2 s) at most, so
// that replies already queued (the last agent/output, the shutdown reply) still reach the client.
void stop_when_written(boost::asio::io_context& io, std::function<std::size_t()> queued, int ticks = 200);

}  // namespace askhost
