// rapidjson's Writer with strings written a run at a time. In namespace askhost itself, not
// askhost::json: core/model/outcome.hpp uses it, and what includes that must not see a namespace
// `json` it did not ask for.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace askhost {

// Writes a JSON string literal for s[0, n) at out, quotes included, exactly as rapidjson's Writer
// does (\" \\ \b \f \n \r \t, \u00XX for the other control bytes, every other byte as it is), with
// runs of plain bytes found 16 at a time and copied at once. out has room for 2 + 6 * n bytes;
// returns the end of what was written.
char* write_string_literal(char* out, const char* s, std::size_t n);

// rapidjson's Writer into a StringBuffer, the same bytes out, with strings and keys written by
// write_string_literal: rapidjson's own loop takes a dozen instructions a byte.
class JsonTextWriter : public rapidjson::Writer<rapidjson::StringBuffer> {
public:
    using Base = rapidjson::Writer<rapidjson::StringBuffer>;
    // The level stack gets a shared allocator: given none, each writer makes itself one with
    // `new` before its first value, a heap allocation per writer.
    explicit JsonTextWriter(rapidjson::StringBuffer& os) : Base(os, level_allocator()) {}
    JsonTextWriter(rapidjson::StringBuffer& os, rapidjson::CrtAllocator* allocator,
                   std::size_t level_depth = kDefaultLevelDepth)
        : Base(os, allocator, level_depth) {}

    bool String(const char* s, rapidjson::SizeType n, bool /*copy*/ = false) {
        Prefix(rapidjson::kStringType);
        char* at = os_->Push(2 + std::size_t{n} * 6);
        char* end = write_string_literal(at, s, n);
        os_->Pop(static_cast<std::size_t>(at + 2 + std::size_t{n} * 6 - end));
        return EndValue(true);
    }
    bool String(const char* s) {
        return String(s, static_cast<rapidjson::SizeType>(std::char_traits<char>::length(s)));
    }
    bool String(const std::string& s) { return String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }
    bool Key(const char* s, rapidjson::SizeType n, bool copy = false) { return String(s, n, copy); }
    bool Key(const char* s) { return String(s); }
    // Text that is JSON already, copied whole (rapidjson's own copies it a byte at a time through
    // its transcoder).
    bool RawValue(const char* json, std::size_t n, rapidjson::Type type) {
        Prefix(type);
        if (n > 0) std::memcpy(os_->Push(n), json, n);
        return EndValue(true);
    }

private:
    static rapidjson::CrtAllocator* level_allocator() {
        static rapidjson::CrtAllocator allocator;  // holds no state
        return &allocator;
    }
};

}  // namespace askhost
