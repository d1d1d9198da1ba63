// A channel whose peer is in the same process (rust-analyzer's memory connection): no descriptors,
// no system calls. The peer writes bytes and reads bytes in the channel's framing, as it would
// on a socket: what it writes is read on a later turn of the event loop, and what the host writes
// reaches it at the end of the turn that wrote it, in one batch. For tests and fuzzing.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>

#include "transport/channel.hpp"

namespace askhost {

class MemoryConnection final : public Channel {
public:
    explicit MemoryConnection(boost::asio::io_context& io, Framing framing = Framing::ContentLength,
                              std::size_t max_body = FrameDecoder::default_max_body);
    ~MemoryConnection() override;

    void start() override;

    // The peer's side.
    void peer_write(std::string_view bytes);
    // End of input, after what the peer wrote before (a socket shut for writing).
    void peer_close();
    // What the host wrote, a turn's worth at a time.
    std::function<void(std::string_view bytes)> on_peer_bytes;

private:
    void queue(std::string bytes) override;
    void flush() override;
    void stop_reading() override;
    void read_soon();

    boost::asio::io_context& io_;
    std::string input_, output_;
    bool started_ = false, reading_ = true, input_closed_ = false;
    bool read_posted_ = false, write_posted_ = false;
};

}  // namespace askhost
