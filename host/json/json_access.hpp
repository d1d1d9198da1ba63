// Reading agent and client JSON safely: parsed without recursion and with a bound on nesting, and
// members looked up without tripping rapidjson's assertions (a missing or wrongly typed member
// reads as absent).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <charconv>
#include <cmath>
#include <system_error>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/internal/dtoa.h>
#include <rapidjson/reader.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/text/utf8.hpp"

namespace askhost::json::detail {

// How many bytes from p (of n) may be copied into a string as they are: up to the first '"', '\\'
// or control byte. 16 at a time where SSE2 is (only within the text: no load crosses its end).
inline std::size_t unescaped_run(const char* p, std::size_t n) {
    std::size_t i = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), below = _mm_set1_epi8(0x1F);
    for (; i + 16 <= n; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        // v < 0x20 (unsigned) <=> max(v, 0x1F) == 0x1F
        const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                         _mm_cmpeq_epi8(_mm_max_epu8(v, below), below));
        if (const int mask = _mm_movemask_epi8(hit))
            return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
#endif
    for (; i < n; ++i) {
        const auto c = static_cast<unsigned char>(p[i]);
        if (c == '"' || c == '\\' || c < 0x20) break;
    }
    return i;
}

// The text json::parse reads: rapidjson's MemoryStream (bounded, not NUL-terminated), with the
// plain runs of each string copied at once (see the ScanCopyUnescapedString below) instead of a
// byte at a time through the reader's stack.
struct TextStream {
    using Ch = char;
    TextStream(const char* text, std::size_t size) : src_(text), begin_(text), end_(text + size) {}
    Ch Peek() const { return src_ == end_ ? '\0' : *src_; }
    Ch Take() { return src_ == end_ ? '\0' : *src_++; }
    std::size_t Tell() const { return static_cast<std::size_t>(src_ - begin_); }
    // Read-only: rapidjson calls these only for in-situ parsing, which json::parse never asks for.
    Ch* PutBegin() { return nullptr; }
    void Put(Ch) {}
    void Flush() {}
    std::size_t PutEnd(Ch*) { return 0; }

    const Ch* src_;
    const Ch* begin_;
    const Ch* end_;
};

}  // namespace askhost::json::detail

namespace rapidjson {

// The reader copies its stream into a local (a register) while it reads a string or a number.
template <>
struct StreamTraits<askhost::json::detail::TextStream> {
    enum { copyOptimization = 1 };
};

// The reader's hook for copying a string's plain bytes at once (it has one for its own
// StringStream, compiled only with RAPIDJSON_SSE2 and needing a NUL at the end): for TextStream,
// in every translation unit alike. Called only when encodings are not validated byte by byte
// (json::parse checks the whole text first).
template <>
template <>
inline void GenericReader<UTF8<>, UTF8<>, CrtAllocator>::ScanCopyUnescapedString(
    askhost::json::detail::TextStream& is, GenericReader<UTF8<>, UTF8<>, CrtAllocator>::StackStream<char>& os) {
    const std::size_t run = askhost::json::detail::unescaped_run(is.src_, static_cast<std::size_t>(is.end_ - is.src_));
    if (run == 0) return;
    std::memcpy(os.Push(static_cast<SizeType>(run)), is.src_, run);
    is.src_ += run;
}

}  // namespace rapidjson

namespace askhost::json {

// The allocator to hand rapidjson's stacks (a Reader's, a Document's, a StringBuffer's, a
// Writer's): given none, each stack makes itself one with `new` before its first byte, a heap
// allocation per stack per message. It holds no state.
inline rapidjson::CrtAllocator* stack_allocator() {
    static rapidjson::CrtAllocator allocator;
    return &allocator;
}

inline std::string_view str(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

// Numbers keep their value on the way through askhost. json::parse reads every number literal
// itself (std::from_chars: correctly rounded) and keeps it as a rapidjson number when json::write
// gives back the same text (42, -7, 0.1, 1e-7, 5e-324, the 64-bit integer limits). Any other
// literal (1E+2, 1.50, -0, 4633e49, an integer of 30 digits, 1e400) is kept as written, in a raw
// number: an object whose one member has the key "\xFF" (no UTF-8 text, so no parsed key is it)
// and the literal as its string. json::write writes it back byte for byte; code that computes
// with a number reads it through number_of, which knows both kinds.
inline constexpr char raw_number_key[] = "\xFF";

inline bool is_raw_number(const rapidjson::Value& v) {
    if (!v.IsObject() || v.MemberCount() != 1) return false;
    const auto& m = *v.MemberBegin();
    return m.name.GetStringLength() == 1 && m.name.GetString()[0] == raw_number_key[0] && m.value.IsString();
}

// The literal of a raw number (is_raw_number(v) must hold).
inline std::string_view raw_literal(const rapidjson::Value& v) { return str(v.MemberBegin()->value); }

// A JSON object, and not a raw number.
inline bool is_object(const rapidjson::Value& v) { return v.IsObject() && !is_raw_number(v); }

// Any number: a rapidjson number or a raw one.
inline bool is_number(const rapidjson::Value& v) { return v.IsNumber() || is_raw_number(v); }

// The value of a number as the nearest double (correctly rounded; out of range: +-infinity, or 0
// for an underflow), or nullopt when v is no number.
inline std::optional<double> number_of(const rapidjson::Value& v) {
    if (v.IsNumber()) return v.GetDouble();
    if (!is_raw_number(v)) return std::nullopt;
    const std::string_view lit = raw_literal(v);
    double d = 0;
    const auto [end, ec] = std::from_chars(lit.data(), lit.data() + lit.size(), d);
    if (ec == std::errc::result_out_of_range) {
        // from_chars leaves d alone: the sign and the exponent say which way it went.
        const bool negative = !lit.empty() && lit.front() == '-';
        const auto e = lit.find_first_of("eE");
        const bool tiny = e != std::string_view::npos && lit.find('-', e) != std::string_view::npos;
        return tiny ? (negative ? -0.0 : 0.0) : (negative ? -HUGE_VAL : HUGE_VAL);
    }
    if (ec != std::errc() || end != lit.data() + lit.size()) return std::nullopt;
    return d;
}

// The text json::write gives for a double (rapidjson's shortest round-trip form, "100.0", "1e-7").
inline std::string_view double_text(double d, char (&buffer)[32]) {
    const char* end = rapidjson::internal::dtoa(d, buffer);
    return {buffer, static_cast<std::size_t>(end - buffer)};
}

// The member's value, or nullptr when obj is no object or has no such member. (MemberEnd() on a
// value that is no object fails rapidjson's assertion: a client's "params": [] once aborted askhost.)
inline const rapidjson::Value* member(const rapidjson::Value& obj, const char* key) {
    if (!obj.IsObject()) return nullptr;
    auto it = obj.FindMember(key);
    return it == obj.MemberEnd() ? nullptr : &it->value;
}

// The member's string (embedded NULs kept), or "" when it is missing or no string.
inline std::string string_of(const rapidjson::Value& obj, const char* key) {
    const rapidjson::Value* v = member(obj, key);
    return v && v->IsString() ? std::string(str(*v)) : std::string();
}

// Writes the member `key` of the object a writer is in: an array of one object per item, whose
// members members(item) writes.
template <typename Writer, typename Items, typename Members>
void write_objects(Writer& w, const char* key, const Items& items, Members members) {
    w.Key(key);
    w.StartArray();
    for (const auto& item : items) {
        w.StartObject();
        members(item);
        w.EndObject();
    }
    w.EndArray();
}

// Levels of nesting: a value is level 1, what an object or array holds one level deeper.
// max_depth is what JSON from outside may have: real messages nest a dozen levels, and rapidjson
// copies and serialises (Accept, Value(v, alloc)) recurse once a level, which is safe this shallow.
inline constexpr std::size_t max_depth = 128;
inline constexpr std::size_t no_depth_limit = std::numeric_limits<std::size_t>::max();

// Whether v nests deeper than `limit` levels, found without recursion. Check a peer's value with
// it before copying or serialising it.
inline bool deeper_than(const rapidjson::Value& v, std::size_t limit) {
    std::vector<std::pair<const rapidjson::Value*, std::size_t>> stack{{&v, 1}};
    while (!stack.empty()) {
        const auto [at, depth] = stack.back();
        stack.pop_back();
        if (depth > limit) return true;
        if (is_raw_number(*at)) continue;
        if (at->IsObject())
            for (auto m = at->MemberBegin(); m != at->MemberEnd(); ++m) stack.emplace_back(&m->value, depth + 1);
        else if (at->IsArray())
            for (auto e = at->Begin(); e != at->End(); ++e) stack.emplace_back(&*e, depth + 1);
    }
    return false;
}

// Writes v to a rapidjson writer (Writer, PrettyWriter, with any flags), without recursion, raw
// numbers as their literal. The one way askhost writes a value it did not build itself. Returns
// false where the writer refuses (a validating writer and text that is not UTF-8, NaN).
template <typename Writer>
bool write(const rapidjson::Value& v, Writer& w) {
    // Each frame: a container and where in it the walk is.
    struct Frame {
        const rapidjson::Value* container;
        rapidjson::SizeType next;
    };
    std::vector<Frame> stack;
    const rapidjson::Value* at = &v;
    for (;;) {
        if (at != nullptr) {
            bool ok = true;
            if (is_raw_number(*at)) {
                const std::string_view lit = raw_literal(*at);
                ok = w.RawValue(lit.data(), lit.size(), rapidjson::kNumberType);
            } else if (at->IsObject()) {
                ok = w.StartObject();
                stack.push_back({at, 0});
            } else if (at->IsArray()) {
                ok = w.StartArray();
                stack.push_back({at, 0});
            } else if (at->IsString()) {
                ok = w.String(at->GetString(), at->GetStringLength());
            } else if (at->IsNull()) {
                ok = w.Null();
            } else if (at->IsBool()) {
                ok = w.Bool(at->GetBool());
            } else if (at->IsInt()) {
                ok = w.Int(at->GetInt());
            } else if (at->IsUint()) {
                ok = w.Uint(at->GetUint());
            } else if (at->IsInt64()) {
                ok = w.Int64(at->GetInt64());
            } else if (at->IsUint64()) {
                ok = w.Uint64(at->GetUint64());
            } else {
                ok = w.Double(at->GetDouble());
            }
            if (!ok) return false;
            at = nullptr;
        }
        if (stack.empty()) return true;
        Frame& top = stack.back();
        if (top.container->IsObject()) {
            if (top.next == top.container->MemberCount()) {
                if (!w.EndObject(top.next)) return false;
                stack.pop_back();
                continue;
            }
            const auto& m = *(top.container->MemberBegin() + top.next++);
            if (!w.Key(m.name.GetString(), m.name.GetStringLength())) return false;
            at = &m.value;
        } else {
            if (top.next == top.container->Size()) {
                if (!w.EndArray(top.next)) return false;
                stack.pop_back();
                continue;
            }
            at = &(*top.container)[top.next++];
        }
    }
}

// Whether text is well-formed UTF-8 by core/text/utf8.hpp's decoder (no overlongs, surrogates or
// code points above U+10FFFF: at least as strict as rapidjson's check), ASCII passed over 8 bytes
// at a time.
inline bool utf8_well_formed(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        if (text.size() - i >= 8) {
            std::uint64_t word = 0;
            std::memcpy(&word, text.data() + i, 8);
            if ((word & 0x8080808080808080ULL) == 0) {
                i += 8;
                continue;
            }
        }
        const utf8::Step step = utf8::decode(text, i);
        if (!step.ok) return false;
        i += step.len;
    }
    return true;
}

struct ParseError {
    std::size_t offset = 0;  // bytes into the text where parsing stopped (a value too deep: at it, after a string)
    std::string message;     // rapidjson's words, or "nested deeper than N levels"
    bool too_deep = false;
};

namespace detail {

// Passes rapidjson's parse events on to `next`, and stops the parse at the first value deeper than
// `limit` levels (counted as deeper_than counts them).
template <typename Handler>
class DepthLimit {
public:
    DepthLimit(Handler& next, std::size_t limit) : next_(next), limit_(limit) {}
    bool too_deep() const { return too_deep_; }
    bool lone_surrogate() const { return lone_surrogate_; }

    bool Null() { return value() && next_.Null(); }
    bool Bool(bool b) { return value() && next_.Bool(b); }
    bool Int(int i) { return value() && next_.Int(i); }
    bool Uint(unsigned u) { return value() && next_.Uint(u); }
    bool Int64(std::int64_t i) { return value() && next_.Int64(i); }
    bool Uint64(std::uint64_t u) { return value() && next_.Uint64(u); }
    bool Double(double d) { return value() && next_.Double(d); }
    // Every number comes here (json::parse reads numbers as text): see is_raw_number.
    bool RawNumber(const char* s, rapidjson::SizeType n, bool) { return value() && number(std::string_view(s, n)); }
    bool String(const char* s, rapidjson::SizeType n, bool copy) {
        return value() && whole(s, n) && next_.String(s, n, copy);
    }
    bool Key(const char* s, rapidjson::SizeType n, bool copy) { return whole(s, n) && next_.Key(s, n, copy); }
    bool StartObject() { return open() && next_.StartObject(); }
    bool EndObject(rapidjson::SizeType members) {
        --open_;
        return next_.EndObject(members);
    }
    bool StartArray() { return open() && next_.StartArray(); }
    bool EndArray(rapidjson::SizeType elements) {
        --open_;
        return next_.EndArray(elements);
    }

private:
    bool number(std::string_view lit) {
        const char* first = lit.data();
        const char* last = first + lit.size();
        if (lit.find_first_of(".eE") == std::string_view::npos) {
            // JSON has no leading zeros and no '+': every integer rapidjson holds is written as read,
            // but for -0, which would come back as 0.
            if (lit.front() == '-') {
                std::int64_t i = 0;
                const auto r = std::from_chars(first, last, i);
                if (r.ec == std::errc() && r.ptr == last && i != 0) return next_.Int64(i);
            } else {
                std::uint64_t u = 0;
                const auto r = std::from_chars(first, last, u);
                if (r.ec == std::errc() && r.ptr == last) return next_.Uint64(u);
            }
        } else {
            double d = 0;
            const auto r = std::from_chars(first, last, d);
            char buffer[32];
            if (r.ec == std::errc() && r.ptr == last && std::isfinite(d) && double_text(d, buffer) == lit)
                return next_.Double(d);
        }
        return next_.StartObject() && next_.Key(raw_number_key, 1, true) &&
               next_.String(first, static_cast<rapidjson::SizeType>(lit.size()), true) && next_.EndObject(1);
    }

    // rapidjson 1.1 turns a lone "\uDC00".."\uDFFF" escape into the bytes of a surrogate (ED B0..BF
    // xx), which is not UTF-8: whoever reads what askhost writes back would choke on it.
    bool whole(const char* s, rapidjson::SizeType n) {
        const char* end = s + n;
        for (const void* at = std::memchr(s, 0xED, n); at;
             at = std::memchr(s, 0xED, static_cast<std::size_t>(end - s))) {
            s = static_cast<const char*>(at) + 1;
            if (s < end && static_cast<unsigned char>(*s) >= 0xA0) {
                lone_surrogate_ = true;
                return false;
            }
        }
        return true;
    }

    // A value inside `open_` containers is at level open_ + 1.
    bool value() {
        if (open_ < limit_) return true;
        too_deep_ = true;
        return false;
    }
    bool open() {
        if (!value()) return false;
        ++open_;
        return true;
    }

    Handler& next_;
    std::size_t limit_;
    std::size_t open_ = 0;
    bool too_deep_ = false;
    bool lone_surrogate_ = false;
};

}  // namespace detail

// Parses text into doc: UTF-8 checked, without recursion (rapidjson's default Parse recurses once
// a level, so a line of 200 000 '[' overflowed the stack), and refusing values deeper than
// max_levels (no_depth_limit: any depth, at a heap cost that grows with the text). ExtraFlags adds
// rapidjson parse flags (comments, trailing commas; not in-situ). Nothing but white space (and
// comments, if allowed) may follow the value, not even a NUL byte. Returns the error, if any: on
// one, doc is null, and doc.HasParseError() does not tell.
template <unsigned ExtraFlags = 0>
std::optional<ParseError> parse(rapidjson::Document& doc, std::string_view text, std::size_t max_levels = max_depth) {
    constexpr unsigned kFlags = rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag |
                                rapidjson::kParseNumbersAsStringsFlag | ExtraFlags;
    // Text that is all well-formed UTF-8 (nearly every message) needs no check inside each string,
    // which costs rapidjson a table walk a byte; any other text is parsed with it, so an error
    // reads and points where it always has.
    constexpr unsigned kTrustedFlags = kFlags & ~static_cast<unsigned>(rapidjson::kParseValidateEncodingFlag);
    static_assert(!(kFlags & rapidjson::kParseInsituFlag), "json::parse reads a read-only text");
    static_assert(!(kFlags & rapidjson::kParseStopWhenDoneFlag), "json::parse reads the whole text");
    // A byte order mark is skipped, whole: rapidjson's EncodedInputStream skips each of its three
    // bytes alone, so "\xBB" + "6" read as 6 (found by the json fuzz target).
    const std::size_t bom = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    detail::TextStream in(text.data() + bom, text.size() - bom);
    rapidjson::Reader reader(stack_allocator(), 1024);  // strings pass through its stack
    rapidjson::ParseResult result;
    bool too_deep = false, lone_surrogate = false;
    const bool well_formed = utf8_well_formed(text);
    auto generate = [&](rapidjson::Document& target) {
        detail::DepthLimit<rapidjson::Document> limited(target, max_levels);
        result = well_formed ? reader.Parse<kTrustedFlags>(in, limited) : reader.Parse<kFlags>(in, limited);
        too_deep = limited.too_deep();
        lone_surrogate = limited.lone_surrogate();
        return !result.IsError();
    };
    doc.Populate(generate);
    // rapidjson reads a NUL byte as the end of the text: what follows one must not pass unseen.
    if (!result.IsError() && in.Tell() != text.size() - bom)
        result.Set(rapidjson::kParseErrorDocumentRootNotSingular, in.Tell());
    if (!result.IsError()) return std::nullopt;
    doc.SetNull();
    const std::size_t offset = bom + result.Offset();
    if (too_deep) return ParseError{offset, "nested deeper than " + std::to_string(max_levels) + " levels", true};
    if (lone_surrogate)
        return ParseError{offset, "a \\u escape of a lone UTF-16 surrogate (\\uDC00-\\uDFFF) is not text", false};
    return ParseError{offset, rapidjson::GetParseError_En(result.Code()), false};
}

}  // namespace askhost::json
