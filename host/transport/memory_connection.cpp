#include "transport/memory_connection.hpp"

#include <utility>

#include <boost/asio/post.hpp>

namespace askhost {

MemoryConnection::MemoryConnection(boost::asio::io_context& io, Framing framing, std::size_t max_body)
    : Channel(framing, max_body), io_(io) {}

MemoryConnection::~MemoryConnection() { lifetime_.end(); }

void MemoryConnection::start() {
    started_ = true;
    read_soon();
}

void MemoryConnection::peer_write(std::string_view bytes) {
    input_.append(bytes);
    read_soon();
}

void MemoryConnection::peer_close() {
    input_closed_ = true;
    read_soon();
}

void MemoryConnection::read_soon() {
    if (!started_ || !reading_ || read_posted_) return;
    read_posted_ = true;
    boost::asio::post(io_, [this, a = lifetime_.token()] {
        if (!a) return;
        read_posted_ = false;
        if (!reading_) return;
        std::string data = std::exchange(input_, {});
        if (!data.empty()) received(data);
        if (a && reading_ && input_closed_ && input_.empty()) close("end of input");
    });
}

void MemoryConnection::queue(std::string bytes) {
    queued_ += bytes.size();
    output_.append(bytes);
}

void MemoryConnection::flush() {
    if (write_posted_) return;
    write_posted_ = true;
    boost::asio::post(io_, [this, a = lifetime_.token()] {
        if (!a) return;
        write_posted_ = false;
        std::string out = std::exchange(output_, {});
        queued_ = 0;
        if (on_peer_bytes) on_peer_bytes(out);
        if (a && on_written) on_written();
    });
}

void MemoryConnection::stop_reading() { reading_ = false; }

}  // namespace askhost
