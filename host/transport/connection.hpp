// One JSON-RPC peer over a pair of file descriptors (stdio, or a Unix socket), on the event loop.
#pragma once

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include "transport/framing.hpp"
#include "transport/jsonrpc.hpp"

namespace askhost {

class Connection : public std::enable_shared_from_this<Connection> {
public:
    // Takes ownership of both descriptors (they may be the same socket: pass a dup for out_fd).
    Connection(boost::asio::io_context& io, int in_fd, int out_fd,
               std::size_t max_body = FrameDecoder::default_max_body, Framing framing = Framing::ContentLength);
    ~Connection();

    RpcEndpoint& rpc() { return rpc_; }
    void start();
    void close(std::string_view reason);
    bool closed() const { return closed_; }
    // Bytes queued for the peer and not yet written (a slow reader makes this grow).
    std::size_t queued_bytes() const { return queued_; }

    std::function<void(std::string_view reason)> on_closed;  // end of input, error, or close()
    std::function<void(std::string_view problem)> on_problem;
    std::function<void()> on_written;  // after each write to the peer (queued_bytes() went down)

private:
    void read();
    void send(std::string body);
    void pump();

    // First: the members below capture it while they are built.
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    boost::asio::posix::stream_descriptor in_, out_;
    Framing framing_;
    FrameDecoder decoder_;
    LineDecoder lines_;
    RpcEndpoint rpc_;
    std::array<char, 65536> buf_{};
    std::deque<std::string> queue_;
    std::size_t queued_ = 0;
    std::size_t front_sent_ = 0;  // bytes of queue_.front() already written
    bool writing_ = false, closed_ = false, pump_posted_ = false;
};

}  // namespace askhost
