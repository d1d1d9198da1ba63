#include "transport/channel.hpp"

namespace askhost {

Channel::Channel(Framing framing, std::size_t max_body)
    : framing_(framing), decoder_(max_body), lines_(max_body), rpc_([this, a = lifetime_.token()](std::string body) {
          if (a) send(std::move(body));
      }) {
    rpc_.on_problem = [this](std::string_view p) {
        if (on_problem) on_problem(p);
    };
}

Channel::~Channel() { lifetime_.end(); }

void Channel::received(std::string_view data) {
    auto on_event = [this, a = lifetime_.token()](const FrameDecoder::Event& ev) {
        if (!a || closed_) return;
        if (ev.ok) {
            rpc_.receive(ev.body);
        } else {
            if (on_problem) on_problem(ev.error);
            send(jsonrpc::error("null", rpc_error::invalid_request, ev.error));
        }
    };
    if (framing_ == Framing::Lines) lines_.feed(data, on_event);
    else decoder_.feed(data, on_event);
}

void Channel::send(std::string body) {
    if (closed_) return;
    if (framing_ == Framing::Lines) {
        body.push_back('\n');
    } else {
        // The header on its own: a large body is queued as it is, not copied behind it.
        queue(encode_frame_header(body.size()));
    }
    queue(std::move(body));
    flush();
}

void Channel::close(std::string_view reason) {
    if (closed_) return;
    closed_ = true;
    stop_reading();
    rpc_.close(reason);
    auto cb = on_closed;  // the callback may destroy this channel
    if (cb) cb(reason);
}

}  // namespace askhost
