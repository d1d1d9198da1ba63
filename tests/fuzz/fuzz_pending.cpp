// The pending-questions file parser (hand-edited files included): refused with a message, or a
// file that askhost writes back and reads again to the same thing.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "fuzz.hpp"
#include "json/json_access.hpp"
#include "json_check.hpp"
#include "store/pending_file.hpp"

using namespace askhost;
using namespace askhost::store;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = parse_pending(text);
    if (!parsed) {
        FUZZ_CHECK(!parsed.error().message.empty());
        return 0;
    }
    auto& file = *parsed;
    const std::string written = serialize_pending(file);
    FUZZ_CHECK(valid_json(written));
    auto again = parse_pending(written);
    FUZZ_CHECK(again.has_value());
    FUZZ_CHECK(serialize_pending(*again) == written);
    // The metadata keeps its values, every number as written (issue 20: 4633e49 came back changed).
    if (!file.metadata_json.empty()) {
        rapidjson::Document in, out;
        FUZZ_CHECK(!json::parse<rapidjson::kParseCommentsFlag | rapidjson::kParseTrailingCommasFlag>(in, text));
        FUZZ_CHECK(!json::parse(out, written));
        FUZZ_CHECK(json_events(file.metadata_json) == json_events(again->metadata_json));
        // The metadata as the input had it, as the file written has it, and as read back: one value.
        const auto written_events = [](const rapidjson::Value* md) {
            FUZZ_CHECK(md != nullptr);
            rapidjson::StringBuffer buf;
            rapidjson::Writer<rapidjson::StringBuffer> w(buf);
            FUZZ_CHECK(json::write(*md, w));
            return json_events({buf.GetString(), buf.GetSize()});
        };
        const auto expected = written_events(json::member(in, "metadata"));
        FUZZ_CHECK(expected == json_events(file.metadata_json));
        FUZZ_CHECK(expected == written_events(json::member(out, "metadata")));
    }

    std::vector<Question> questions;
    for (const auto& pq : file.questions) questions.push_back(pq.question);
    std::vector<std::string> warnings;
    PendingFile copy = file;
    if (auto answers = take_answers(copy, questions, warnings)) FUZZ_CHECK(answers->size() == questions.size());
    copy = file;
    (void)apply_text(copy, "typed");
    FUZZ_CHECK(valid_json(serialize_pending(copy)));
    return 0;
}
