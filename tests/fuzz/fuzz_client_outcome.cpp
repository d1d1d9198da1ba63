// An editor's ask/show result, checked against the ask it answers: refused with a path, or an
// outcome with exactly one answer per question, in question order.
#include <cstdint>
#include <string_view>
#include <variant>

#include "frontends/editor/ask_json.hpp"
#include "fuzz.hpp"
#include "json_check.hpp"

using namespace askhost;

namespace {

Ask make_ask() {
    Ask ask;
    ask.id = "ask-1";
    ask.agent = "fuzz";
    ask.questions.push_back({"Which database?",
                             "Database",
                             {{"PostgreSQL", "relational", std::nullopt}, {"SQLite", "", std::string("<b>file</b>")}},
                             false});
    ask.questions.push_back({"Name?", "", {}, false});
    ask.questions.push_back({"Features?", "Features", {{"Auth", "", std::nullopt}, {"API", "", std::nullopt}}, true});
    return ask;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Ask ask = make_ask();
    rapidjson::Document doc;
    doc.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(
        reinterpret_cast<const char*>(data), size);
    if (doc.HasParseError()) return 0;
    auto parsed = parse_client_outcome(doc, ask);
    if (!parsed) {
        const Error& bad = parsed.error();
        FUZZ_CHECK(!bad.path.empty() && bad.message.compare(0, bad.path.size(), bad.path) == 0);
        return 0;
    }
    const Outcome& o = *parsed;
    if (o.kind == OutcomeKind::Answered) {
        FUZZ_CHECK(o.answers.size() == ask.questions.size());
        for (std::size_t i = 0; i < o.answers.size(); ++i) {
            FUZZ_CHECK(o.answers[i].question == ask.questions[i].question);
            FUZZ_CHECK(!o.answers[i].values.empty());
        }
    }
    FUZZ_CHECK(valid_json(outcome_json(o)));
    return 0;
}
