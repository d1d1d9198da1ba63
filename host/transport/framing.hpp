// LSP base framing: "Content-Length: N\r\n\r\n" then N bytes of JSON. Incremental and bounded.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace askhost {

class FrameDecoder {
public:
    struct Event {
        bool ok = true;     // false: a framing error (the stream resynchronises after it)
        std::string body;   // the message, when ok
        std::string error;  // what was wrong, when !ok
    };
    using Sink = std::function<void(Event)>;

    static constexpr std::size_t default_max_body = std::size_t{8} * 1024 * 1024;
    static constexpr std::size_t max_header_bytes = 8192;

    explicit FrameDecoder(std::size_t max_body = default_max_body) : max_body_(max_body) {}

    // Any split of the byte stream gives the same events: partial frames wait for more bytes.
    void feed(std::string_view data, const Sink& sink);
    // Bytes held waiting for the rest of a frame (bounded by the header and body limits).
    std::size_t buffered() const { return header_.size() + body_.size(); }

private:
    enum class State { Header, Body, Skip };
    bool parse_header(std::string_view block, const Sink& sink);

    std::size_t max_body_;
    State state_ = State::Header;
    std::string header_;
    std::string body_;
    std::size_t want_ = 0;  // body bytes still to read, or to skip
};

// "Content-Length: N\r\n\r\n" for a body of N bytes.
std::string encode_frame_header(std::size_t body_size);
std::string encode_frame(std::string_view body);

// Newline-delimited JSON (MCP's stdio transport): one message per line, split on '\n' only, a
// trailing '\r' dropped, blank lines ignored. A line over max_body is skipped and reported.
class LineDecoder {
public:
    using Event = FrameDecoder::Event;
    using Sink = FrameDecoder::Sink;

    explicit LineDecoder(std::size_t max_body = FrameDecoder::default_max_body) : max_body_(max_body) {}

    void feed(std::string_view data, const Sink& sink);
    std::size_t buffered() const { return line_.size(); }

private:
    std::size_t max_body_;
    std::string line_;
    bool skipping_ = false;  // inside a line that was too long
};

enum class Framing { ContentLength, Lines };

}  // namespace askhost
