#include "json/json_codec.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace askhost::json {

namespace {

// What rapidjson's Writer writes after a backslash for a byte that needs escaping; 0: none needed.
constexpr char escape_of(unsigned char c) {
    switch (c) {
        case '\b': return 'b';
        case '\t': return 't';
        case '\n': return 'n';
        case '\f': return 'f';
        case '\r': return 'r';
        case '"': return '"';
        case '\\': return '\\';
        default: return c < 0x20 ? 'u' : 0;
    }
}

struct EscapeTable {
    char code[256];
    constexpr EscapeTable() : code() {
        for (int c = 0; c < 256; ++c) code[c] = escape_of(static_cast<unsigned char>(c));
    }
};
constexpr EscapeTable kEscape;

#if defined(__SSE2__)
// Bits set for the bytes of v that need escaping: '"', '\\', and the control bytes.
inline unsigned special_mask(__m128i v) {
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), below = _mm_set1_epi8(0x1F);
    // v < 0x20 (unsigned) <=> max(v, 0x1F) == 0x1F
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                     _mm_cmpeq_epi8(_mm_max_epu8(v, below), below));
    return static_cast<unsigned>(_mm_movemask_epi8(hit));
}

// Whether 16 bytes from p lie in one page: a load of them cannot fault, wherever the text ends.
inline bool within_page(const char* p) { return (reinterpret_cast<std::uintptr_t>(p) & 4095) <= 4096 - 16; }
#endif

// Writes the escape of the byte c (one that needs it) at out; returns the end.
inline char* write_escape(char* out, unsigned char c) {
    static constexpr char hex[] = "0123456789ABCDEF";
    const char code = kEscape.code[c];
    *out++ = '\\';
    *out++ = code;
    if (code == 'u') {
        *out++ = '0';
        *out++ = '0';
        *out++ = hex[c >> 4];
        *out++ = hex[c & 0xF];
    }
    return out;
}

}  // namespace

}  // namespace askhost::json

namespace askhost {

// Copies 16 bytes at a time as it scans them, and a short string or tail (keys, labels) with one
// 16-byte load where that stays inside the page: the bytes loaded past s + n are never used, but
// AddressSanitizer would see the load, hence its attribute. Every store stays within the 2 + 6 * n
// bytes at out: out is at most 1 + 6 * i bytes in after reading i bytes, and a 16-byte store is
// made only with at least 3 bytes left to read.
#if defined(__SSE2__)
__attribute__((no_sanitize_address))
#endif
char* write_string_literal(char* out, const char* s, std::size_t n) {
    *out++ = '"';
    std::size_t i = 0;
    while (i < n) {
#if defined(__SSE2__)
        const std::size_t left = n - i;
        if (left >= 16 || (left >= 3 && json::within_page(s + i))) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
            unsigned mask = json::special_mask(v);
            if (left < 16) mask |= ~0u << left;  // the end of the text ends the run
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out), v);
            if (mask == 0) {
                out += 16;
                i += 16;
                continue;
            }
            const auto run = static_cast<std::size_t>(std::countr_zero(mask));
            out += run;
            i += run;
            if (i < n) out = json::write_escape(out, static_cast<unsigned char>(s[i++]));
            continue;
        }
#endif
        const auto c = static_cast<unsigned char>(s[i++]);
        if (json::kEscape.code[c]) out = json::write_escape(out, c);
        else *out++ = static_cast<char>(c);
    }
    *out++ = '"';
    return out;
}

}  // namespace askhost

namespace askhost::json {

std::string Path::str() const {
    std::vector<const Path*> levels;
    for (const Path* p = this; p; p = p->parent_) levels.push_back(p);
    std::string out;
    for (auto it = levels.rbegin(); it != levels.rend(); ++it) {
        const Path& p = **it;
        switch (p.kind_) {
            case Kind::Root: out.append(p.name_); break;
            case Kind::Field:
                if (!out.empty()) out.push_back('.');
                out.append(p.name_);
                break;
            case Kind::Index: out += "[" + std::to_string(p.index_) + "]"; break;
            case Kind::Key: {
                // As JSON writes the key, so any text reads back unambiguously.
                rapidjson::StringBuffer buf;
                Writer w(buf);
                w.String(p.name_.data(), static_cast<rapidjson::SizeType>(p.name_.size()));
                out += "[";
                out.append(buf.GetString(), buf.GetSize());
                out += "]";
                break;
            }
        }
    }
    return out;
}

FieldError invalid(const Path& at, std::string_view what) {
    std::string path = at.str();
    std::string message = path + ": " + std::string(what);
    return FieldError{std::move(path), std::move(message)};
}

FieldStatus from_json(const rapidjson::Value& v, std::string& out, const Path& at) {
    if (!v.IsString()) return invalid(at, "expected a string");
    out.assign(v.GetString(), v.GetStringLength());
    return {};
}

FieldStatus from_json(const rapidjson::Value& v, std::string_view& out, const Path& at) {
    if (!v.IsString()) return invalid(at, "expected a string");
    out = str(v);
    return {};
}

FieldStatus from_json(const rapidjson::Value& v, bool& out, const Path& at) {
    if (!v.IsBool()) return invalid(at, "expected a boolean");
    out = v.GetBool();
    return {};
}

FieldStatus from_json(const rapidjson::Value& v, std::int64_t& out, const Path& at) {
    if (!v.IsInt64()) return invalid(at, "expected an integer");
    out = v.GetInt64();
    return {};
}

ObjectReader::ObjectReader(const rapidjson::Value& v, const Path& at) : v_(v), at_(at), is_object_(is_object(v)) {
    if (!is_object_) error_ = invalid(at, "expected an object");
}

}  // namespace askhost::json
