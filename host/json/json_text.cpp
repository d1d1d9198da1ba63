// JSON string literals for bulk text (agent output): repaired and escaped in one pass.
#include "json/json_text.hpp"

#include "core/text/utf8.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ASKHOST_JSON_AVX2 1
#else
#define ASKHOST_JSON_AVX2 0
#endif

namespace askhost {

namespace {

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

#if defined(__SSE2__)
// The bytes of x that need care, all bits set: as signed bytes everything from 0x80 up is
// negative, so one compare finds the control characters and the non-ASCII bytes together.
inline __m128i special_lanes(__m128i x) {
    return _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
                        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
}
#endif

#if ASKHOST_JSON_AVX2
// The plain bytes and line breaks from s[i] on, written at p 32 at a time (AVX2, where the CPU has
// it: half the instructions of the 16-byte steps). Stops at a byte that needs more care (true: i
// is at it, and p has room for its escape), or false: fewer than 32 bytes left before n, or fewer
// than 40 bytes of room before `end`.
__attribute__((target("avx2"))) bool copy_plain_avx2(const char* s, std::size_t n, std::size_t& i, char*& p,
                                                     const char* end) {
    const __m256i space = _mm256_set1_epi8(0x20), quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\');
    std::size_t k = i;  // (locals, not i and p: the stores into the output could alias them)
    char* q = p;
    bool special = false;
    while (k + 32 <= n && end - q >= 40) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + k));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(q), x);
        // Signed: everything from 0x80 up is below the space too.
        const __m256i hit = _mm256_or_si256(
            _mm256_cmpgt_epi8(space, x), _mm256_or_si256(_mm256_cmpeq_epi8(x, quote), _mm256_cmpeq_epi8(x, backslash)));
        const auto m = static_cast<unsigned>(_mm256_movemask_epi8(hit));
        if (m == 0) {
            q += 32;
            k += 32;
            continue;
        }
        const auto run = static_cast<std::size_t>(std::countr_zero(m));
        q += run;
        k += run;
        if (s[k] != '\n') {
            special = true;
            break;
        }
        q[0] = '\\';
        q[1] = 'n';
        q += 2;
        ++k;
    }
    i = k;
    p = q;
    return special;
}
#endif

// The index of the first byte from i on that needs care, or text.size().
std::size_t next_special(std::string_view text, std::size_t i) {
#if defined(__SSE2__)
    // 16 bytes at a time: as signed bytes, everything from 0x80 up is negative, so one compare
    // finds the control characters and the non-ASCII bytes together.
    for (; i + 16 <= text.size(); i += 16) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
        if (const int m = _mm_movemask_epi8(special_lanes(x)))
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

// Writes the escape of the control byte, '"' or '\\' c at out; returns the end (at most 6 bytes).
inline char* write_escape(char* out, unsigned char c) {
    static constexpr char hex[] = "0123456789abcdef";
    *out++ = '\\';
    switch (c) {
        case '"': *out++ = '"'; break;
        case '\\': *out++ = '\\'; break;
        case '\n': *out++ = 'n'; break;
        case '\r': *out++ = 'r'; break;
        case '\t': *out++ = 't'; break;
        case '\b': *out++ = 'b'; break;
        case '\f': *out++ = 'f'; break;
        default:
            out[0] = 'u';
            out[1] = '0';
            out[2] = '0';
            out[3] = hex[c >> 4];
            out[4] = hex[c & 0xF];
            out += 5;
    }
    return out;
}

// Adds `more` bytes to out's size, keeping p (where writing goes on) and end (out's end) in step.
inline void grow(std::string& out, char*& p, char*& end, std::size_t more) {
    const auto written = static_cast<std::size_t>(p - out.data());
    out.resize(out.size() + more);
    p = out.data() + written;
    end = out.data() + out.size();
}

// The byte at text[i] needs more than a copy: a UTF-8 sequence copied whole (U+FFFD for each
// maximal invalid subpart, core/text/utf8.hpp's rule), or an escape. Returns where writing goes
// on; i moves past what it took.
inline char* write_special(char* p, std::string_view text, std::size_t& i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
        ++i;
        return write_escape(p, c);
    }
    const utf8::Step step = utf8::decode(text, i);
    if (!step.ok) {  // U+FFFD
        p[0] = '\xEF';
        p[1] = '\xBF';
        p[2] = '\xBD';
        i += step.len;
        return p + 3;
    }
    std::memcpy(p, text.data() + i, step.len);
    i += step.len;
    return p + step.len;
}

}  // namespace

// text as a JSON string literal, repaired like repair_utf8, in one pass written straight into out's
// bytes: agent output is the host's bulk traffic (byte-wise repair and escaping were 70% of its
// time in a flood; then appending each line's run and its escaped '\n' to a string, half of it).
// Plain bytes are copied 32 (AVX2) or 16 at a time as they are scanned. out's capacity is reserved once (the
// text and an eighth more); its size grows a step at a time ahead of the writing, since a resize
// fills what it adds: small steps stay in the cache and out of memset's bulk path.
void append_json_text(std::string& out, std::string_view text) {
    constexpr std::size_t kRoom = 48;    // a 32-byte step and the longest escape fit in this
    constexpr std::size_t kStep = 1536;  // bytes added to out's size at a time
    const std::size_t n = text.size();
    const char* const s = text.data();
    out.reserve(out.size() + n + n / 8 + kRoom);
    const std::size_t done = out.size();  // out's bytes written before
    out.resize(done + std::min(n + kRoom, kStep));
    char* p = out.data() + done;
    char* end = out.data() + out.size();
    *p++ = '"';
    std::size_t i = 0;
#if ASKHOST_JSON_AVX2
    static const bool use_avx2 = __builtin_cpu_supports("avx2");
#endif
    while (i < n) {
        if (static_cast<std::size_t>(end - p) < kRoom) grow(out, p, end, std::min(n - i + kRoom, kStep));
#if ASKHOST_JSON_AVX2
        if (i + 32 <= n && use_avx2) {
            if (copy_plain_avx2(s, n, i, p, end)) p = write_special(p, text, i);
            continue;
        }
#endif
#if defined(__SSE2__)
        if (i + 16 <= n) {
            // 16 bytes stored as they are while they are checked; the first special byte stops
            // it. A line break, the one special byte of every line, is written here.
            const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(p), x);
            const auto m = static_cast<unsigned>(_mm_movemask_epi8(special_lanes(x)));
            if (m == 0) {
                p += 16;
                i += 16;
                continue;
            }
            const auto run = static_cast<std::size_t>(std::countr_zero(m));
            p += run;
            i += run;
            if (s[i] == '\n') {
                p[0] = '\\';
                p[1] = 'n';
                p += 2;
                ++i;
                continue;
            }
        } else
#endif
        {
            // Where SSE2 is: the last bytes, fewer than 16, else a run of any length, in steps
            // that fit the room.
            const std::size_t next = next_special(text.substr(0, std::min(n, i + kRoom - 8)), i);
            std::memcpy(p, s + i, next - i);
            p += next - i;
            i = next;
            if (i >= n) break;
            const auto c = static_cast<unsigned char>(s[i]);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') continue;  // a step's end, not a special byte
        }
        p = write_special(p, text, i);
    }
    *p++ = '"';  // (the loop leaves at least 2 bytes of room: it writes at most 46 of its 48)
    out.resize(static_cast<std::size_t>(p - out.data()));
}

std::string repair_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const utf8::Step step = utf8::decode(s, i);
        if (step.ok) out.append(s.substr(i, step.len));
        else out.append("\xEF\xBF\xBD");
        i += step.len;
    }
    return out;
}

}  // namespace askhost
