// Content-Length framing: any bytes, any split. The events must not depend on how the stream
// was cut, and the decoder must never hold more than a header block plus one allowed body.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz.hpp"
#include "transport/framing.hpp"

using askhost::FrameDecoder;

namespace {

struct Seen {
    bool ok;
    std::string body, error;
    bool operator==(const Seen&) const = default;
};

std::vector<Seen> decode(std::string_view data, std::size_t max_body, std::uint32_t seed) {
    FrameDecoder d(max_body);
    std::vector<Seen> out;
    auto sink = [&](FrameDecoder::Event ev) { out.push_back({ev.ok, std::move(ev.body), std::move(ev.error)}); };
    std::uint32_t state = seed | 1;
    while (!data.empty()) {
        std::size_t n = data.size();
        if (seed != 0) {  // xorshift: chunk sizes from 1 to 64 bytes
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            n = std::min<std::size_t>(n, 1 + state % 64);
        }
        d.feed(data.substr(0, n), sink);
        data.remove_prefix(n);
        FUZZ_CHECK(d.buffered() <= FrameDecoder::max_header_bytes + 4 + max_body);
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    // First byte: a small body limit (so skipping is exercised) or the real one; second: the cuts.
    const std::size_t max_body = data[0] & 1 ? 64 + data[0] : FrameDecoder::default_max_body;
    const std::uint32_t seed = data[1];
    std::string_view stream(reinterpret_cast<const char*>(data + 2), size - 2);
    auto whole = decode(stream, max_body, 0);
    auto cut = decode(stream, max_body, seed + 1);
    FUZZ_CHECK(whole == cut);
    for (const auto& e : whole) {
        FUZZ_CHECK(e.ok ? e.error.empty() && e.body.size() <= max_body : !e.error.empty());
        // What the encoder writes, the decoder reads back as exactly one message.
        if (e.ok) {
            auto again = decode(askhost::encode_frame(e.body), max_body, 0);
            FUZZ_CHECK(again.size() == 1 && again[0] == e);
        }
    }
    return 0;
}
