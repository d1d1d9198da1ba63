#include "json/json_codec.hpp"

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
