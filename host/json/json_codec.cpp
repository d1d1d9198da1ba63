#include "json/json_codec.hpp"

#include <bit>
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

// How many bytes from s (of n) need no escaping: 16 at a time where SSE2 is, then one at a time.
// (A word-at-a-time tail measured slower here: the strings are mostly short keys and labels.)
std::size_t plain_run(const char* s, std::size_t n) {
    std::size_t i = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), below = _mm_set1_epi8(0x1F);
    for (; i + 16 <= n; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
        // v < 0x20 (unsigned) <=> max(v, 0x1F) == 0x1F
        const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                         _mm_cmpeq_epi8(_mm_max_epu8(v, below), below));
        if (const int mask = _mm_movemask_epi8(hit))
            return i + static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(mask)));
    }
#endif
    while (i < n && !kEscape.code[static_cast<unsigned char>(s[i])]) ++i;
    return i;
}

}  // namespace

}  // namespace askhost::json

namespace askhost {

char* write_string_literal(char* out, const char* s, std::size_t n) {
    static constexpr char hex[] = "0123456789ABCDEF";
    *out++ = '"';
    std::size_t i = 0;
    while (i < n) {
        const std::size_t run = json::plain_run(s + i, n - i);
        std::memcpy(out, s + i, run);
        out += run;
        i += run;
        if (i == n) break;
        const auto c = static_cast<unsigned char>(s[i++]);
        const char code = json::kEscape.code[c];
        *out++ = '\\';
        *out++ = code;
        if (code == 'u') {
            *out++ = '0';
            *out++ = '0';
            *out++ = hex[c >> 4];
            *out++ = hex[c & 0xF];
        }
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

Status from_json(const rapidjson::Value& v, std::string& out, const Path& at) {
    if (!v.IsString()) return invalid(at, "expected a string");
    out.assign(v.GetString(), v.GetStringLength());
    return {};
}

Status from_json(const rapidjson::Value& v, std::string_view& out, const Path& at) {
    if (!v.IsString()) return invalid(at, "expected a string");
    out = str(v);
    return {};
}

Status from_json(const rapidjson::Value& v, bool& out, const Path& at) {
    if (!v.IsBool()) return invalid(at, "expected a boolean");
    out = v.GetBool();
    return {};
}

Status from_json(const rapidjson::Value& v, std::int64_t& out, const Path& at) {
    if (!v.IsInt64()) return invalid(at, "expected an integer");
    out = v.GetInt64();
    return {};
}

ObjectReader::ObjectReader(const rapidjson::Value& v, const Path& at) : v_(v), at_(at), is_object_(is_object(v)) {
    if (!is_object_) error_ = invalid(at, "expected an object");
}

}  // namespace askhost::json
