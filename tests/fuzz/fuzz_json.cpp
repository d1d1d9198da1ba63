// The JSON layer every inbound text goes through: json::parse refuses with an offset and a message,
// or json::write gives back a text with the same values, every number literal as written, and
// writing that again gives the same text.
#include <cstdint>
#include <string>
#include <string_view>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "fuzz.hpp"
#include "json/json_access.hpp"
#include "json_check.hpp"

using namespace askhost;

namespace {

std::string written(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    FUZZ_CHECK(json::write(v, w));
    return {buf.GetString(), buf.GetSize()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    rapidjson::Document doc;
    if (auto e = json::parse(doc, text)) {
        FUZZ_CHECK(!e->message.empty() && e->offset <= size);
        FUZZ_CHECK(doc.IsNull());
        return 0;
    }
    const std::string out = written(doc);
    const auto events = json_events(out);
    FUZZ_CHECK(!events.empty());
    // json::parse skips a byte order mark (the whole mark, not a byte of it).
    FUZZ_CHECK(events == json_events(text.substr(text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0)));
    rapidjson::Document again;
    FUZZ_CHECK(!json::parse(again, out));
    FUZZ_CHECK(written(again) == out);
    return 0;
}
