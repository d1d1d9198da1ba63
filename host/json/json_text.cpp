// JSON string literals for bulk text (agent output): repaired and escaped in one pass.
#include "json/json_text.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace askhost {

namespace {

// The length of the valid UTF-8 sequence at s[i], or 0 when the byte there starts none.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 0x2;
    if (ok && len > 1) {
        unsigned cp = c & (0x7F >> len);
        for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        static const unsigned min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
        ok = cp >= min_cp[len] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    }
    return ok ? len : 0;
}

// Bytes of the 8 in x that need care in a JSON string, flagged by their high bit: control
// characters, '"', '\\', and everything from 0x80 up (checked as UTF-8). Bit tricks on one word;
// the lowest flag is exact (flags above it may be false alarms), so it is where to stop.
inline std::uint64_t special_bytes(std::uint64_t x) {
    constexpr std::uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    const std::uint64_t below_space = (x - ones * 0x20) & ~x & high;
    const std::uint64_t q = x ^ (ones * '"'), quote = (q - ones) & ~q & high;
    const std::uint64_t b = x ^ (ones * '\\'), backslash = (b - ones) & ~b & high;
    return (x & high) | below_space | quote | backslash;
}

// The index of the first byte from i on that needs care, or text.size().
std::size_t next_special(std::string_view text, std::size_t i) {
#if defined(__SSE2__)
    // 16 bytes at a time: as signed bytes, everything from 0x80 up is negative, so one compare
    // finds the control characters and the non-ASCII bytes together.
    const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    for (; i + 16 <= text.size(); i += 16) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
        const __m128i hit = _mm_or_si128(_mm_cmplt_epi8(x, space),
                                         _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)));
        if (const int m = _mm_movemask_epi8(hit))
            return i + static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(m)));
    }
#endif
    if constexpr (std::endian::native == std::endian::little) {
        for (; i + 8 <= text.size(); i += 8) {
            std::uint64_t word;
            std::memcpy(&word, text.data() + i, 8);
            if (const std::uint64_t m = special_bytes(word))
                return i + static_cast<std::size_t>(std::countr_zero(m) / 8);
        }
    }
    for (; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return i;
    }
    return i;
}

// text as a JSON string literal, repaired like repair_utf8, in one pass that copies runs of plain
// bytes at once, found a word at a time: agent output is the host's bulk traffic (byte-wise
// repair and escaping were 70% of its time in a flood).
}  // namespace

void append_json_text(std::string& out, std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    out.reserve(out.size() + text.size() + text.size() / 8 + 2);
    out.push_back('"');
    std::size_t run = 0, i = 0;
    while (i < text.size()) {
        i = next_special(text, i);
        if (i >= text.size()) break;
        const auto c = static_cast<unsigned char>(text[i]);
        out.append(text.data() + run, i - run);
        if (c >= 0x80) {
            const std::size_t len = utf8_sequence(text, i);
            if (len) out.append(text.data() + i, len);
            else out.append("\xEF\xBF\xBD");
            i += len ? len : 1;
        } else {
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    out.append("\\u00");
                    out.push_back(hex[c >> 4]);
                    out.push_back(hex[c & 0xF]);
            }
            ++i;
        }
        run = i;
    }
    out.append(text.data() + run, i - run);
    out.push_back('"');
}

std::string repair_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const std::size_t len = utf8_sequence(s, i);
        if (len) {
            out.append(s.substr(i, len));
            i += len;
        } else {
            out.append("\xEF\xBF\xBD");
            ++i;
        }
    }
    return out;
}

}  // namespace askhost
