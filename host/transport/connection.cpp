#include "transport/connection.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>

namespace askhost {

Connection::Connection(boost::asio::io_context& io, int in_fd, int out_fd, std::size_t max_body, Framing framing)
    : Channel(framing, max_body), in_(io, in_fd), out_(io, out_fd) {}

Connection::~Connection() { lifetime_.end(); }

void Connection::start() { read(); }

void Connection::read() {
    in_.async_read_some(boost::asio::buffer(buf_.get(), buf_size_),
                        [this, a = lifetime_.token()](const boost::system::error_code& ec, std::size_t n) {
                            if (!a) return;
                            if (n) received(std::string_view(buf_.get(), n));
                            if (!a || closed()) return;
                            if (ec) {
                                close(ec == boost::asio::error::eof ? "end of input" : ec.message());
                                return;
                            }
                            fit_read_buffer(n);
                            read();
                        });
}

void Connection::fit_read_buffer(std::size_t last_read) {
    std::size_t want = buf_size_;
    quiet_reads_ = last_read <= min_read_buffer ? quiet_reads_ + 1 : 0;
    if (last_read == buf_size_ && buf_size_ < max_read_buffer) want = buf_size_ * 2;  // more is coming
    // Quiet again: only after a few small reads in a row, so a flood whose reads now and then come
    // up short does not drop and regrow the buffer each time (a fresh allocation every few reads).
    else if (quiet_reads_ >= quiet_reads_to_shrink && buf_size_ > min_read_buffer) want = min_read_buffer;
    if (want == buf_size_) return;
    buf_ = std::make_unique_for_overwrite<char[]>(want);
    buf_size_ = want;
}

void Connection::queue(std::string bytes) {
    queued_ += bytes.size();
    queue_.push_back(std::move(bytes));
}

void Connection::flush() {
    if (writing_ || pump_posted_) return;
    pump_posted_ = true;
    boost::asio::post(in_.get_executor(), [this, a = lifetime_.token()] {
        if (!a) return;
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
    // The buffers live in batch_ (a member: no allocation per write), and the operation copies
    // only the range over them.
    std::size_t count = 0;
    batch_[count++] = boost::asio::buffer(queue_.front()) + front_sent_;
    for (std::size_t i = 1; i < queue_.size() && count < batch_.size(); ++i)
        batch_[count++] = boost::asio::buffer(queue_[i]);
    const BufferRange batch{batch_.data(), batch_.data() + count};
    // async_write_some, not the composed async_write: that one goes on writing to out_ after a
    // partial write even when this connection was destroyed meanwhile (a use after free that
    // ./dev fuzz found). Here every continuation checks that the connection is still alive.
    out_.async_write_some(batch, [this, a = lifetime_.token()](const boost::system::error_code& ec, std::size_t n) {
        if (!a) return;
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

void Connection::stop_reading() {
    boost::system::error_code ignored;
    in_.cancel(ignored);
}

}  // namespace askhost
