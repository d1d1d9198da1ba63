// One JSON-RPC peer over a pair of file descriptors (stdio, or a Unix socket), on the event loop.
#pragma once

#include <array>
#include <deque>
#include <memory>
#include <string>

#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include "transport/channel.hpp"

namespace askhost {

class Connection final : public Channel, public std::enable_shared_from_this<Connection> {
public:
    // Takes ownership of both descriptors (they may be the same socket: pass a dup for out_fd).
    Connection(boost::asio::io_context& io, int in_fd, int out_fd,
               std::size_t max_body = FrameDecoder::default_max_body, Framing framing = Framing::ContentLength);
    ~Connection() override;

    void start() override;

    // The read buffer starts at min_read_buffer and doubles while reads fill it (a flood, a large
    // frame) up to max_read_buffer; quiet_reads_to_shrink reads in a row that fit the smallest size
    // bring it back down.
    static constexpr std::size_t min_read_buffer = 4096;
    static constexpr std::size_t max_read_buffer = 65536;
    static constexpr std::size_t quiet_reads_to_shrink = 4;
    std::size_t read_buffer_size() const { return buf_size_; }

private:
    void read();
    void fit_read_buffer(std::size_t last_read);
    void queue(std::string bytes) override;
    void flush() override;
    void stop_reading() override;
    void pump();

    // A buffer sequence over part of batch_, cheap to copy into the write operation.
    struct BufferRange {
        const boost::asio::const_buffer* first;
        const boost::asio::const_buffer* last;
        const boost::asio::const_buffer* begin() const { return first; }
        const boost::asio::const_buffer* end() const { return last; }
    };

    boost::asio::posix::stream_descriptor in_, out_;
    std::array<boost::asio::const_buffer, 64> batch_{};  // what pump() writes with one system call
    // Not zeroed (stores for nothing), and small while the peer is quiet: an idle connection (the
    // web face holds one per host) costs a few KiB, not 64.
    std::unique_ptr<char[]> buf_ = std::make_unique_for_overwrite<char[]>(min_read_buffer);
    std::size_t buf_size_ = min_read_buffer;
    std::size_t quiet_reads_ = 0;  // reads in a row of at most min_read_buffer bytes
    std::deque<std::string> queue_;
    std::size_t front_sent_ = 0;  // bytes of queue_.front() already written
    bool writing_ = false, pump_posted_ = false;
};

}  // namespace askhost
