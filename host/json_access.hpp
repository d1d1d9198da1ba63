// Reading agent and client JSON without tripping rapidjson's assertions: a member is looked up
// only on an object, and a missing or wrongly typed member reads as absent.
#pragma once

#include <string>
#include <string_view>

#include <rapidjson/document.h>

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

}  // namespace askhost::json
