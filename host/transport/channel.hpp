// One JSON-RPC peer on the event loop, whatever carries its bytes: a pair of file descriptors
// (Connection) or memory (MemoryConnection, a peer in the same process). The framing, the parsing
// and the endpoint live here once; nothing above a channel knows which kind it has.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/lifetime.hpp"
#include "transport/framing.hpp"
#include "transport/jsonrpc.hpp"

namespace askhost {

class Channel {
public:
    virtual ~Channel();
    Channel(const Channel&) = delete;
    Channel& operator=(const Channel&) = delete;

    RpcEndpoint& rpc() { return rpc_; }
    // Starts reading from the peer.
    virtual void start() = 0;
    // Stops reading; outstanding calls get an error reply; what was queued is still written.
    void close(std::string_view reason);
    bool closed() const { return closed_; }
    // Bytes queued for the peer and not yet written (a slow reader makes this grow).
    std::size_t queued_bytes() const { return queued_; }

    std::function<void(std::string_view reason)> on_closed;  // end of input, error, or close()
    std::function<void(std::string_view problem)> on_problem;
    std::function<void()> on_written;  // after each write to the peer (queued_bytes() went down)

protected:
    Channel(Framing framing, std::size_t max_body);
    // Bytes from the peer, any split of the stream: framed, parsed and dispatched. A framing error
    // is answered like a JSON-RPC error with no id.
    void received(std::string_view data);
    // One message's bytes (a frame header, a body) for the peer, counted in queued_ until written.
    virtual void queue(std::string bytes) = 0;
    // Called after each message is queued: written at the end of this turn of the event loop, so
    // what one event produces (an ask/show and the ask/state after it) goes out in one write.
    virtual void flush() = 0;
    virtual void stop_reading() = 0;

    // Ended first thing when the channel is destroyed: the handlers still queued on the loop
    // check their token (a derived channel ends it in its own destructor, before its members go).
    Lifetime lifetime_;
    std::size_t queued_ = 0;

private:
    void send(std::string body);

    bool closed_ = false;
    Framing framing_;
    FrameDecoder decoder_;
    LineDecoder lines_;
    RpcEndpoint rpc_;
};

}  // namespace askhost
