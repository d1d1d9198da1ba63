#include "transport/connection.hpp"

#include <vector>

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>

namespace askhost {

Connection::Connection(boost::asio::io_context& io, int in_fd, int out_fd, std::size_t max_body, Framing framing)
    : in_(io, in_fd), out_(io, out_fd), framing_(framing), decoder_(max_body), lines_(max_body),
      rpc_([this, a = alive_](std::string body) {
          if (*a) send(std::move(body));
      }) {
    rpc_.on_problem = [this](std::string_view p) {
        if (on_problem) on_problem(p);
    };
}

Connection::~Connection() { *alive_ = false; }

void Connection::start() { read(); }

void Connection::read() {
    in_.async_read_some(boost::asio::buffer(buf_),
        [this, a = alive_](const boost::system::error_code& ec, std::size_t n) {
            if (!*a) return;
            if (n) {
                auto on_event = [this, a](FrameDecoder::Event ev) {
                    if (!*a || closed_) return;
                    if (ev.ok) {
                        rpc_.receive(ev.body);
                    } else {
                        if (on_problem) on_problem(ev.error);
                        // A framing error is answered like a JSON-RPC error with no id.
                        send(jsonrpc::error("null", rpc_error::invalid_request, ev.error));
                    }
                };
                std::string_view data(buf_.data(), n);
                if (framing_ == Framing::Lines) lines_.feed(data, on_event);
                else decoder_.feed(data, on_event);
            }
            if (!*a || closed_) return;
            if (ec) {
                close(ec == boost::asio::error::eof ? "end of input" : ec.message());
                return;
            }
            read();
        });
}

void Connection::send(std::string body) {
    if (closed_) return;
    if (framing_ == Framing::Lines) {
        body.push_back('\n');
    } else {
        // The header on its own: a large body is queued as it is, not copied behind it.
        std::string header = encode_frame_header(body.size());
        queued_ += header.size();
        queue_.push_back(std::move(header));
    }
    queued_ += body.size();
    queue_.push_back(std::move(body));
    // Written at the end of this turn of the event loop: what the same event produces (an
    // ask/show and the ask/state after it) goes out in one write, and wakes the peer once.
    if (writing_ || pump_posted_) return;
    pump_posted_ = true;
    boost::asio::post(in_.get_executor(), [this, a = alive_] {
        if (!*a) return;
        pump_posted_ = false;
        pump();
    });
}

void Connection::pump() {
    // Writing goes on after close(): a reply queued before the peer said exit still reaches it.
    if (writing_ || queue_.empty()) return;
    writing_ = true;
    // Everything queued meanwhile goes out in one write: a flood of output costs one system
    // call per batch, not one per message. (A deque keeps its elements in place as it grows.)
    std::vector<boost::asio::const_buffer> batch;
    batch.push_back(boost::asio::buffer(queue_.front()) + front_sent_);
    for (std::size_t i = 1; i < queue_.size() && i < 64; ++i) batch.push_back(boost::asio::buffer(queue_[i]));
    // async_write_some, not the composed async_write: that one goes on writing to out_ after a
    // partial write even when this connection was destroyed meanwhile (a use after free that
    // ./dev fuzz found). Here every continuation checks that the connection is still alive.
    out_.async_write_some(batch, [this, a = alive_](const boost::system::error_code& ec, std::size_t n) {
        if (!*a) return;
        writing_ = false;
        if (ec) {
            queue_.clear();
            queued_ = 0;
            front_sent_ = 0;
            close("write failed: " + ec.message());
            return;
        }
        queued_ -= n;
        while (n > 0 && !queue_.empty()) {
            const std::size_t left = queue_.front().size() - front_sent_;
            if (n < left) {
                front_sent_ += n;
                break;
            }
            n -= left;
            front_sent_ = 0;
            queue_.pop_front();
        }
        pump();
        if (on_written) on_written();
    });
}

void Connection::close(std::string_view reason) {
    if (closed_) return;
    closed_ = true;
    boost::system::error_code ignored;
    in_.cancel(ignored);
    rpc_.close(reason);
    auto cb = on_closed;  // the callback may destroy this connection
    if (cb) cb(reason);
}

}  // namespace askhost
