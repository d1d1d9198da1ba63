#include "transport/framing.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string_view>
#include <utility>

namespace askhost {

namespace {

// The header's name, whatever the case of its ASCII letters. Locale-free (<cctype>'s tolower
// follows the locale a curses face sets), as core/text/ascii.hpp, which transport sits beside and
// cannot include (tests/lint/layering.py).
bool is_content_length(std::string_view name) {
    constexpr std::string_view want = "content-length";
    if (name.size() != want.size()) return false;
    for (std::size_t i = 0; i < want.size(); ++i) {
        const char c = name[i];
        if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != want[i]) return false;
    }
    return true;
}

// Peer bytes quoted in an error message: only printable ASCII, so the message is always valid
// UTF-8 JSON (a raw 0xD9 in a header made the error reply itself invalid JSON).
std::string printable(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) c = '?';
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

}  // namespace

std::string encode_frame_header(std::size_t body_size) {
    // Made in place and copied once (about three frames a question).
    constexpr std::string_view head = "Content-Length: ";
    char text[head.size() + 20 + 4];
    std::memcpy(text, head.data(), head.size());
    char* end = std::to_chars(text + head.size(), text + head.size() + 20, body_size).ptr;
    std::memcpy(end, "\r\n\r\n", 4);
    return std::string(text, static_cast<std::size_t>(end + 4 - text));
}

std::string encode_frame(std::string_view body) {
    std::string out = encode_frame_header(body.size());
    out.append(body);
    return out;
}

namespace {

// Where the blank line that ends a header block starts in `text` (searched from `from`), and its
// length: "\r\n\r\n", or "\n\n" from lenient peers, whichever comes first. npos: not there yet.
std::pair<std::size_t, std::size_t> header_end(std::string_view text, std::size_t from) {
    const auto crlf = text.find("\r\n\r\n", from);
    const auto lf = text.find("\n\n", from);
    if (crlf != std::string_view::npos && (lf == std::string_view::npos || crlf + 2 <= lf)) return {crlf, 4};
    if (lf != std::string_view::npos) return {lf, 2};
    return {std::string_view::npos, 0};
}

}  // namespace

// Parses a header block (without the blank line that ends it). false: error reported.
bool FrameDecoder::parse_header(std::string_view block, const Sink& sink) {
    bool have_length = false;
    std::size_t length = 0;
    while (!block.empty()) {
        auto nl = block.find('\n');
        std::string_view line = trim(block.substr(0, nl));
        block.remove_prefix(nl == std::string_view::npos ? block.size() : nl + 1);
        if (line.empty()) continue;
        auto colon = line.find(':');
        if (colon == std::string_view::npos) {
            sink({false, {}, "malformed header line (no ':'): " + printable(line.substr(0, 80))});
            return false;
        }
        if (!is_content_length(trim(line.substr(0, colon)))) continue;  // e.g. Content-Type
        std::string_view v = trim(line.substr(colon + 1));
        auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), length);
        if (ec != std::errc() || p != v.data() + v.size()) {
            sink({false, {}, "invalid Content-Length: " + printable(v.substr(0, 40))});
            return false;
        }
        have_length = true;
    }
    if (!have_length) {
        sink({false, {}, "frame without a Content-Length header"});
        return false;
    }
    if (length > max_body_) {
        sink({false,
              {},
              "frame of " + std::to_string(length) + " bytes is over the limit of " + std::to_string(max_body_) +
                  " bytes; skipped"});
        state_ = State::Skip;
        want_ = length;
        return true;
    }
    state_ = State::Body;
    want_ = length;
    body_.clear();
    return true;
}

void FrameDecoder::feed(std::string_view data, const Sink& sink) {
    while (!data.empty()) {
        switch (state_) {
            case State::Header: {
                if (header_.empty()) {
                    // The whole header block in this read (the usual case): parsed where it lies,
                    // and the body after it is not copied into header_ first.
                    const std::string_view window = data.substr(0, max_header_bytes + 4);
                    const auto [end, sep] = header_end(window, 0);
                    if (end != std::string_view::npos) {
                        const bool ok = parse_header(window.substr(0, end), sink);
                        data.remove_prefix(end + sep);
                        if (ok && state_ == State::Body && want_ == 0) {
                            sink({true, {}, {}});
                            state_ = State::Header;
                        }
                        break;
                    }
                }
                // A header block ends with an empty line ("\r\n\r\n", or "\n\n" from lenient peers).
                std::size_t before = header_.size();
                std::size_t take = std::min(data.size(), max_header_bytes + 4 - std::min(before, max_header_bytes + 4));
                header_.append(data.substr(0, take));
                const auto [end, sep] = header_end(header_, before >= 3 ? before - 3 : 0);
                if (end == std::string::npos) {
                    if (header_.size() > max_header_bytes) {
                        sink({false, {}, "header block over " + std::to_string(max_header_bytes) + " bytes; dropped"});
                        header_.clear();
                    }
                    data.remove_prefix(take);
                    continue;
                }
                // Bytes after the header's end belong to the body: hand them back to the loop.
                std::size_t used = end + sep - before;
                data.remove_prefix(used);
                bool ok = parse_header(std::string_view(header_).substr(0, end), sink);
                header_.clear();
                if (ok && state_ == State::Body && want_ == 0) {
                    sink({true, {}, {}});
                    state_ = State::Header;
                }
                break;
            }
            case State::Body: {
                std::size_t n = std::min(want_, data.size());
                if (body_.empty() && n == want_) {
                    // The whole body in this read: one copy, straight into the event.
                    state_ = State::Header;
                    want_ = 0;
                    std::string body(data.substr(0, n));
                    data.remove_prefix(n);
                    sink({true, std::move(body), {}});
                    break;
                }
                if (body_.capacity() < want_ + body_.size()) body_.reserve(want_ + body_.size());
                body_.append(data.substr(0, n));
                data.remove_prefix(n);
                want_ -= n;
                if (want_ == 0) {
                    state_ = State::Header;
                    std::string body = std::move(body_);
                    body_.clear();
                    sink({true, std::move(body), {}});
                }
                break;
            }
            case State::Skip: {
                std::size_t n = std::min(want_, data.size());
                data.remove_prefix(n);
                want_ -= n;
                if (want_ == 0) state_ = State::Header;
                break;
            }
        }
    }
}

void LineDecoder::feed(std::string_view data, const Sink& sink) {
    while (!data.empty()) {
        auto nl = data.find('\n');
        std::string_view piece = data.substr(0, nl);
        data.remove_prefix(nl == std::string_view::npos ? data.size() : nl + 1);
        if (!skipping_) {
            if (line_.size() + piece.size() > max_body_) {
                skipping_ = true;
                line_.clear();
                sink(Event{false, {}, "line longer than " + std::to_string(max_body_) + " bytes"});
            } else {
                line_.append(piece);
            }
        }
        if (nl == std::string_view::npos) return;
        if (skipping_) {
            skipping_ = false;
            continue;
        }
        std::string body = std::move(line_);
        line_.clear();
        if (!body.empty() && body.back() == '\r') body.pop_back();
        if (body.find_first_not_of(" \t") == std::string::npos) continue;
        sink(Event{true, std::move(body), {}});
    }
}

}  // namespace askhost
