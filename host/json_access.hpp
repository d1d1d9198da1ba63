// Reading agent and client JSON safely: parsed without recursion and with a bound on nesting, and
// members looked up without tripping rapidjson's assertions (a missing or wrongly typed member
// reads as absent).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/encodedstream.h>

namespace askhost::json {

inline std::string_view str(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

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
        if (at->IsObject())
            for (auto m = at->MemberBegin(); m != at->MemberEnd(); ++m) stack.emplace_back(&m->value, depth + 1);
        else if (at->IsArray())
            for (auto e = at->Begin(); e != at->End(); ++e) stack.emplace_back(&*e, depth + 1);
    }
    return false;
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
    bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) { return value() && next_.RawNumber(s, n, copy); }
    bool String(const char* s, rapidjson::SizeType n, bool copy) {
        return value() && whole(s, n) && next_.String(s, n, copy);
    }
    bool Key(const char* s, rapidjson::SizeType n, bool copy) { return whole(s, n) && next_.Key(s, n, copy); }
    bool StartObject() { return open() && next_.StartObject(); }
    bool EndObject(rapidjson::SizeType members) { --open_; return next_.EndObject(members); }
    bool StartArray() { return open() && next_.StartArray(); }
    bool EndArray(rapidjson::SizeType elements) { --open_; return next_.EndArray(elements); }

private:
    // rapidjson 1.1 turns a lone "\uDC00".."\uDFFF" escape into the bytes of a surrogate (ED B0..BF
    // xx), which is not UTF-8: whoever reads what askhost writes back would choke on it.
    bool whole(const char* s, rapidjson::SizeType n) {
        for (rapidjson::SizeType i = 0; i + 1 < n; ++i)
            if (static_cast<unsigned char>(s[i]) == 0xED && static_cast<unsigned char>(s[i + 1]) >= 0xA0) {
                lone_surrogate_ = true;
                return false;
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
    constexpr unsigned kFlags = rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag | ExtraFlags;
    static_assert(!(kFlags & rapidjson::kParseInsituFlag), "json::parse reads a read-only text");
    static_assert(!(kFlags & rapidjson::kParseStopWhenDoneFlag), "json::parse reads the whole text");
    rapidjson::MemoryStream bytes(text.data(), text.size());
    rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> in(bytes);
    rapidjson::Reader reader;
    rapidjson::ParseResult result;
    bool too_deep = false, lone_surrogate = false;
    auto generate = [&](rapidjson::Document& target) {
        detail::DepthLimit<rapidjson::Document> limited(target, max_levels);
        result = reader.Parse<kFlags>(in, limited);
        too_deep = limited.too_deep();
        lone_surrogate = limited.lone_surrogate();
        return !result.IsError();
    };
    doc.Populate(generate);
    // rapidjson reads a NUL byte as the end of the text: what follows one must not pass unseen.
    if (!result.IsError() && bytes.Tell() != text.size())
        result.Set(rapidjson::kParseErrorDocumentRootNotSingular, bytes.Tell());
    if (!result.IsError()) return std::nullopt;
    doc.SetNull();
    if (too_deep)
        return ParseError{result.Offset(), "nested deeper than " + std::to_string(max_levels) + " levels", true};
    if (lone_surrogate)
        return ParseError{result.Offset(), "a \\u escape of a lone UTF-16 surrogate (\\uDC00-\\uDFFF) is not text", false};
    return ParseError{result.Offset(), rapidjson::GetParseError_En(result.Code()), false};
}

}  // namespace askhost::json
