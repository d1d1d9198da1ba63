#include "native_protocol.hpp"

namespace askhost::native {

using json::ObjectReader;
using json::ObjectWriter;
using json::Path;

json::FieldStatus from_json(const rapidjson::Value& v, RequestId& out, const Path& at) {
    if (!v.IsString() && !json::is_number(v)) return json::invalid(at, "expected a string or a number");
    out.json = json::to_text(v);  // json::write: a raw number's literal as it came
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, Request& out, const Path& at) {
    return ObjectReader(v, at).lenient("requestId", out.request_id).lenient("subagent", out.subagent).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, Cancel& out, const Path& at) {
    return ObjectReader(v, at).lenient("requestId", out.request_id).status();
}

void to_json(const RequestId& id, json::Writer& w) {
    // (RawValue's type only matters for an object's key.)
    if (id.json.empty()) w.Null();
    else w.RawValue(id.json.data(), id.json.size(), rapidjson::kStringType);
}

void to_json(const Response& r, json::Writer& w) {
    ObjectWriter o(w);
    o.field("type", kResponse).field("requestId", r.request_id);
    write_native_result(o.writer(), r.outcome);
}

}  // namespace askhost::native
