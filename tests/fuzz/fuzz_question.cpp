// Question parsing and validation in both profiles, then everything built from an accepted ask:
// the editor's ask/show params, preset answers, the native result and the model text.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "core/model/outcome.hpp"
#include "core/model/question.hpp"
#include "frontends/editor/ask_json.hpp"
#include "fuzz.hpp"
#include "json_check.hpp"

using namespace askhost;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const Profile profile = data[0] & 1 ? Profile::Strict : Profile::Lenient;
    std::string_view json(reinterpret_cast<const char*>(data + 1), size - 1);
    auto parsed = parse_ask_input(json, profile);
    if (auto* refusal = std::get_if<Refusal>(&parsed)) {
        FUZZ_CHECK(refusal->code == "invalid_schema" || refusal->code == "invalid_request");
        FUZZ_CHECK(refusal->message.compare(0, refusal->path.size(), refusal->path) == 0);
        FUZZ_CHECK(utf8_valid(refusal->message));
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        w.StartObject();
        write_native_result(w, Outcome::refused(*refusal));
        w.EndObject();
        FUZZ_CHECK(valid_json({buf.GetString(), buf.GetSize()}));
        return 0;
    }
    auto& input = std::get<AskInput>(parsed);
    // What the parser accepted, the rules alone accept too.
    FUZZ_CHECK(!validate_questions(input.questions, profile));
    FUZZ_CHECK(input.metadata_json.empty() || valid_json(input.metadata_json));

    Ask ask;
    ask.id = "ask-1";
    ask.questions = input.questions;
    ask.metadata_json = input.metadata_json;
    ask.permission = input.permission;
    ask.agent = "fuzz";
    FUZZ_CHECK(valid_json(ask_show_params(ask, ClientAskCaps{})));
    FUZZ_CHECK(valid_json(ask_show_params(ask, ClientAskCaps{false, false, false})));

    if (!input.preset_answers.empty()) {
        auto answers = answers_from_presets(input.questions, input.preset_answers, input.preset_annotations);
        FUZZ_CHECK(answers.size() == input.preset_answers.size());
        const Outcome outcome = Outcome::answered(answers);
        FUZZ_CHECK(valid_json(outcome_json(outcome)));
        FUZZ_CHECK(model_text(answers) == model_text(input.preset_answers, input.preset_annotations));
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        w.StartObject();
        write_answers_map(w, answers);
        w.EndObject();
        FUZZ_CHECK(valid_json({buf.GetString(), buf.GetSize()}));
        (void)result_within_cap(outcome);
    }
    return 0;
}
