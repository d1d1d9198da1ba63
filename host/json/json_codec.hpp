// Typed JSON for the protocols: from_json(value, T&, path) and to_json(T, writer), written once here
// for strings, booleans, integers, optionals, arrays and objects, so each protocol only lists its
// fields. A field that is wrong is an Error whose message starts with its path
// (params.questions[2].options[0].label: expected a string), built as the reader descends.
// (Below core: its error is its own, FieldError, not core's Error.)
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "json/json_access.hpp"
#include "json/json_writer.hpp"

namespace askhost::json {

// rapidjson's Writer with fast strings (json/json_writer.hpp).
using Writer = JsonTextWriter;

// Where a value sits in a message. Each level lives on the stack of the reader that descends into
// it and points at its parent; the text is only made when an error names it.
class Path {
public:
    explicit Path(std::string_view root) : name_(root) {}
    Path field(std::string_view name) const { return {this, Kind::Field, name, 0}; }  // .name
    Path index(std::size_t i) const { return {this, Kind::Index, {}, i}; }            // [i]
    Path key(std::string_view k) const { return {this, Kind::Key, k, 0}; }            // ["k"], a map's key
    std::string str() const;

private:
    enum class Kind { Root, Field, Index, Key };
    Path(const Path* parent, Kind kind, std::string_view name, std::size_t index)
        : parent_(parent), kind_(kind), name_(name), index_(index) {}
    const Path* parent_ = nullptr;
    Kind kind_ = Kind::Root;
    std::string_view name_;
    std::size_t index_ = 0;
};

// A field that is wrong: its path, and a message that starts with it ("PATH: WHAT").
struct FieldError {
    std::string path;
    std::string message;
};
// What reading a value gives: nothing, or the first field that is wrong (core/error.hpp's Status
// is the program's; this one is only the JSON reader's).
using FieldStatus = std::optional<FieldError>;

FieldError invalid(const Path& at, std::string_view what);

// A value taken as it came, for code that reads it further itself (valid while the message is
// being handled; never copied, so never recursed into here).
struct Borrowed {
    const rapidjson::Value* value = nullptr;
};

// Params that are not read (shutdown, agent/stop, exit): anything goes.
struct Ignored {};

// Results that are JSON null, {}, or a text built elsewhere (cached, or measured after writing).
struct Null {};
struct EmptyObject {};
struct RawJson {
    std::string text;
};

// --- reading ---------------------------------------------------------------------------------

FieldStatus from_json(const rapidjson::Value& v, std::string& out, const Path& at);
FieldStatus from_json(const rapidjson::Value& v, bool& out, const Path& at);
FieldStatus from_json(const rapidjson::Value& v, std::int64_t& out, const Path& at);
// A string borrowed from the message (valid while it is being handled, like Borrowed).
FieldStatus from_json(const rapidjson::Value& v, std::string_view& out, const Path& at);
inline FieldStatus from_json(const rapidjson::Value& v, Borrowed& out, const Path&) {
    out.value = &v;
    return {};
}
inline FieldStatus from_json(const rapidjson::Value&, Ignored&, const Path&) { return {}; }

template <class T>
FieldStatus from_json(const rapidjson::Value& v, std::optional<T>& out, const Path& at) {
    T value{};
    if (auto e = from_json(v, value, at)) return e;
    out = std::move(value);
    return {};
}

template <class T>
FieldStatus from_json(const rapidjson::Value& v, std::vector<T>& out, const Path& at) {
    if (!v.IsArray()) return invalid(at, "expected an array");
    out.clear();
    out.reserve(v.Size());
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
        T item{};
        if (auto e = from_json(v[i], item, at.index(i))) return e;
        out.push_back(std::move(item));
    }
    return {};
}

// An object used as a map: every member's value is a T.
template <class T>
FieldStatus from_json(const rapidjson::Value& v, std::map<std::string, T>& out, const Path& at) {
    if (!is_object(v)) return invalid(at, "expected an object");
    out.clear();
    for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
        const std::string_view key = str(m->name);
        T item{};
        if (auto e = from_json(m->value, item, at.key(key))) return e;
        out[std::string(key)] = std::move(item);
    }
    return {};
}

// Reads a struct's fields from an object, in the order the caller lists them; the first problem
// is kept and the reads after it do nothing (clangd's ObjectMapper).
class ObjectReader {
public:
    // A value that is no object is the first problem ("expected an object").
    ObjectReader(const rapidjson::Value& v, const Path& at);

    // Absent reads as null would: the field's own "expected ..." names it.
    template <class T>
    ObjectReader& required(const char* name, T& out) {
        if (error_) return *this;
        static const rapidjson::Value null_value;
        const rapidjson::Value* m = member(name);
        error_ = from_json(m ? *m : null_value, out, at_.field(name));
        return *this;
    }
    // Absent leaves out as it was; present must be right.
    template <class T>
    ObjectReader& optional(const char* name, T& out) {
        if (error_) return *this;
        if (const rapidjson::Value* m = member(name)) error_ = from_json(*m, out, at_.field(name));
        return *this;
    }
    // Absent or wrong leaves out as it was: fields the protocol has always read leniently.
    template <class T>
    ObjectReader& lenient(const char* name, T& out) {
        if (error_) return *this;
        if (const rapidjson::Value* m = member(name)) {
            T value{};
            if (!from_json(*m, value, at_.field(name))) out = std::move(value);
        }
        return *this;
    }
    // A check of the caller's own on a field already read (a non-empty list, a known name).
    ObjectReader& check(bool ok, const char* name, std::string_view what) {
        if (!error_ && !ok) error_ = invalid(at_.field(name), what);
        return *this;
    }

    bool ok() const { return !error_; }
    FieldStatus status() const { return error_; }
    // The member's value, or nullptr (also when this is no object).
    const rapidjson::Value* member(const char* name) const { return is_object_ ? json::member(v_, name) : nullptr; }

private:
    const rapidjson::Value& v_;
    const Path& at_;
    bool is_object_;
    FieldStatus error_;
};

// --- writing ---------------------------------------------------------------------------------

inline void to_json(std::string_view s, Writer& w) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }
inline void to_json(const std::string& s, Writer& w) { to_json(std::string_view(s), w); }
inline void to_json(const char* s, Writer& w) { to_json(std::string_view(s), w); }
inline void to_json(bool b, Writer& w) { w.Bool(b); }
inline void to_json(int i, Writer& w) { w.Int(i); }
inline void to_json(std::int64_t i, Writer& w) { w.Int64(i); }
inline void to_json(Null, Writer& w) { w.Null(); }
inline void to_json(EmptyObject, Writer& w) {
    w.StartObject();
    w.EndObject();
}
inline void to_json(const RawJson& raw, Writer& w) {
    w.RawValue(raw.text.data(), raw.text.size(), rapidjson::kObjectType);
}
// A value from a peer, written back as it came (raw numbers keep their literal).
inline void to_json(const rapidjson::Value& v, Writer& w) { write(v, w); }

// nullopt is JSON null (ObjectWriter::optional leaves the member out instead).
template <class T>
void to_json(const std::optional<T>& v, Writer& w) {
    if (v) to_json(*v, w);
    else w.Null();
}

template <class T>
void to_json(const std::vector<T>& v, Writer& w) {
    w.StartArray();
    for (const auto& item : v) to_json(item, w);
    w.EndArray();
}

// Writes one object: opened here, closed when the writer goes out of scope.
class ObjectWriter {
public:
    explicit ObjectWriter(Writer& w) : w_(w) { w_.StartObject(); }
    ~ObjectWriter() { w_.EndObject(); }
    ObjectWriter(const ObjectWriter&) = delete;
    ObjectWriter& operator=(const ObjectWriter&) = delete;

    template <class T>
    ObjectWriter& field(std::string_view name, const T& value) {
        key(name);
        to_json(value, w_);
        return *this;
    }
    // Left out when empty.
    template <class T>
    ObjectWriter& optional(std::string_view name, const std::optional<T>& value) {
        if (value) field(name, *value);
        return *this;
    }
    // A nested object whose members `fill` writes.
    template <class Fill>
    ObjectWriter& object(std::string_view name, Fill&& fill) {
        key(name);
        ObjectWriter inner(w_);
        fill(inner);
        return *this;
    }
    Writer& writer() { return w_; }

private:
    void key(std::string_view name) { w_.Key(name.data(), static_cast<rapidjson::SizeType>(name.size())); }
    Writer& w_;
};

// The JSON text of a value with a to_json.
template <class T>
std::string to_text(const T& value) {
    rapidjson::StringBuffer buf(stack_allocator(), 1024);
    Writer w(buf, stack_allocator());
    to_json(value, w);
    return std::string(buf.GetString(), buf.GetSize());
}
// Raw text is its own JSON text: copied whole, not a byte at a time through a writer (askhost
// mcp's tools/list result, 3.5 KB, in every session).
inline std::string to_text(const RawJson& raw) { return raw.text; }

}  // namespace askhost::json
