#define BOOST_TEST_MODULE model
#include <boost/test/unit_test.hpp>

#include <string>
#include <variant>
#include <vector>

#include "cases.hpp"
#include "core/model/question.hpp"

using namespace askhost;
using testing::expect_all;
using testing::expect_each;

namespace {

std::string str(std::string_view s) { return std::string(s); }

// A strict-valid option and question, as JSON text.
std::string option(const std::string& label, const std::string& extra = "") {
    return R"({"label":")" + label + R"(","description":"about )" + label + "\"" + extra + "}";
}

std::string options(int n, const std::string& prefix = "Option ") {
    std::string out = "[";
    for (int i = 0; i < n; ++i) out += (i ? "," : "") + option(prefix + std::to_string(i + 1));
    return out + "]";
}

std::string question(const std::string& text, const std::string& header = "Header", int n_options = 2,
                     const std::string& extra = "") {
    return R"({"question":")" + text + R"(","header":")" + header + R"(","options":)" + options(n_options) + extra +
           "}";
}

std::string questions(int n) {
    std::string out = "[";
    for (int i = 0; i < n; ++i) out += (i ? "," : "") + question("Question " + std::to_string(i + 1) + "?");
    return out + "]";
}

std::string ask(const std::string& questions_json, const std::string& extra = "") {
    return R"({"questions":)" + questions_json + extra + "}";
}

// "ok" or the refusal's message: checks read like the message the agent gets.
std::string why(const Parsed<AskInput>& p) {
    if (const auto* r = std::get_if<Refusal>(&p)) return r->message;
    return "ok";
}

std::string strict(const std::string& json) { return why(parse_ask_input(json, Profile::Strict)); }
std::string lenient(const std::string& json) { return why(parse_ask_input(json, Profile::Lenient)); }

AskInput accepted(const Parsed<AskInput>& p) {
    BOOST_TEST_REQUIRE(std::holds_alternative<AskInput>(p), "refused: " << why(p));
    return std::get<AskInput>(p);
}

Refusal refused(const Parsed<AskInput>& p) {
    BOOST_TEST_REQUIRE(std::holds_alternative<Refusal>(p), "accepted");
    return std::get<Refusal>(p);
}

std::string repeat(std::string_view s, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += s;
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(profiles)

BOOST_AUTO_TEST_CASE(names_round_trip) {
    BOOST_TEST(str(profile_name(Profile::Strict)) == "strict");
    BOOST_TEST(str(profile_name(Profile::Lenient)) == "lenient");
    BOOST_TEST((parse_profile("strict") == Profile::Strict));
    BOOST_TEST((parse_profile("lenient") == Profile::Lenient));
    BOOST_TEST(!parse_profile("Strict").has_value());
    BOOST_TEST(!parse_profile("").has_value());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(utf8)

BOOST_AUTO_TEST_CASE(length_counts_code_points) {
    BOOST_TEST(utf8_length("") == 0u);
    BOOST_TEST(utf8_length("abc") == 3u);
    BOOST_TEST(utf8_length("Базаданных12") == 12u);
    BOOST_TEST(utf8_length("数据库") == 3u);
    BOOST_TEST(utf8_length("\xF0\x9F\x98\x80x") == 2u);  // emoji + x
}

BOOST_AUTO_TEST_CASE(valid_accepts_every_length) {
    BOOST_TEST(utf8_valid(""));
    BOOST_TEST(utf8_valid("plain"));
    BOOST_TEST(utf8_valid("\xC2\x80"));          // U+0080
    BOOST_TEST(utf8_valid("\xEF\xBF\xBF"));      // U+FFFF
    BOOST_TEST(utf8_valid("\xF4\x8F\xBF\xBF"));  // U+10FFFF
    BOOST_TEST(utf8_valid(std::string("a\0b", 3)));
}

BOOST_AUTO_TEST_CASE(valid_refuses_malformed) {
    BOOST_TEST(!utf8_valid("\xC0\x80"));          // overlong NUL
    BOOST_TEST(!utf8_valid("\xC1\xBF"));          // overlong
    BOOST_TEST(!utf8_valid("\xE0\x80\xAF"));      // overlong '/'
    BOOST_TEST(!utf8_valid("\xF0\x8F\xBF\xBF"));  // overlong U+FFFF
    BOOST_TEST(!utf8_valid("\xED\xA0\x80"));      // surrogate U+D800
    BOOST_TEST(!utf8_valid("\xED\xBF\xBF"));      // surrogate U+DFFF
    BOOST_TEST(!utf8_valid("\xF4\x90\x80\x80"));  // U+110000
    BOOST_TEST(!utf8_valid("\xF5\x80\x80\x80"));
    BOOST_TEST(!utf8_valid("\x80"));      // lone continuation
    BOOST_TEST(!utf8_valid("\xE2\x82"));  // truncated
    BOOST_TEST(!utf8_valid("\xE2\x82x"));
    BOOST_TEST(!utf8_valid("\xFF"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(strict_profile)

BOOST_AUTO_TEST_CASE(minimal_ask_is_parsed_into_the_model) {
    const auto p = parse_ask_input(
        R"({"questions":[{"question":"Which database?","header":"Database","multiSelect":true,
            "options":[{"label":"PostgreSQL","description":"Relational","preview":"# PG"},{"label":"SQLite"}]}],
            "metadata":{"source":"project-setup"}})",
        Profile::Strict);
    const AskInput& in = accepted(p);
    BOOST_TEST_REQUIRE(in.questions.size() == 1u);
    const Question& q = in.questions[0];
    BOOST_TEST(q.question == "Which database?");
    BOOST_TEST(q.header == "Database");
    BOOST_TEST(q.multi_select);
    BOOST_TEST_REQUIRE(q.options.size() == 2u);
    BOOST_TEST(q.options[0].label == "PostgreSQL");
    BOOST_TEST(q.options[0].description == "Relational");
    BOOST_TEST((q.options[0].preview == std::string("# PG")));
    BOOST_TEST(q.options[1].label == "SQLite");
    BOOST_TEST(q.options[1].description == "");  // REQ-AUQ-001: description is optional
    BOOST_TEST(!q.options[1].preview.has_value());
    BOOST_TEST(in.metadata_json == R"({"source":"project-setup"})");
    BOOST_TEST(in.preset_answers.empty());
    BOOST_TEST(in.preset_annotations.empty());
}

BOOST_AUTO_TEST_CASE(question_count_bounds) {
    BOOST_TEST(strict(ask("[]")) == "questions: Provide 1-4 questions");
    BOOST_TEST(strict(ask(questions(1))) == "ok");
    BOOST_TEST(strict(ask(questions(4))) == "ok");
    BOOST_TEST(strict(ask(questions(5))) == "questions: At most 4 questions allowed");
}

BOOST_AUTO_TEST_CASE(option_count_bounds) {
    BOOST_TEST(strict(ask("[" + question("Q?", "H", 1) + "]")) ==
               R"(questions[0].options: Question "Q?" must have 2-4 options)");
    BOOST_TEST(strict(ask("[" + question("Q?", "H", 2) + "]")) == "ok");
    BOOST_TEST(strict(ask("[" + question("Q?", "H", 4) + "]")) == "ok");
    BOOST_TEST(strict(ask("[" + question("A?") + "," + question("B?", "H", 5) + "]")) ==
               R"(questions[1].options: Question "B?" must have 2-4 options)");
    BOOST_TEST(strict(ask("[" + question("Q?", "H", 0) + "]")) ==
               R"(questions[0].options: Question "Q?" must have 2-4 options)");
}

BOOST_AUTO_TEST_CASE(refusal_is_a_value_with_code_and_path) {
    const Refusal& r = refused(parse_ask_input(ask("[" + question("Q?", "H", 5) + "]"), Profile::Strict));
    BOOST_TEST(r.code == "invalid_schema");
    BOOST_TEST(r.path == "questions[0].options");
    BOOST_TEST(r.message == R"(questions[0].options: Question "Q?" must have 2-4 options)");
}

BOOST_AUTO_TEST_CASE(header_at_most_twelve_code_points) {
    BOOST_TEST(strict(ask("[" + question("Q?", "123456789012") + "]")) == "ok");
    BOOST_TEST(strict(ask("[" + question("Q?", "1234567890123") + "]")) ==
               R"(questions[0].header: header for "Q?" exceeds 12 chars)");
    BOOST_TEST(strict(ask("[" + question("Q?", "Database Selection") + "]")) ==
               R"(questions[0].header: header for "Q?" exceeds 12 chars)");
    // 12 code points but 22 bytes: counted in characters, not bytes.
    BOOST_TEST(strict(ask("[" + question("Q?", "Базаданных12") + "]")) == "ok");
    BOOST_TEST(strict(ask("[" + question("Q?", "Базаданных123") + "]")) ==
               R"(questions[0].header: header for "Q?" exceeds 12 chars)");
    BOOST_TEST(strict(ask("[" + question("Q?", repeat("\xF0\x9F\x98\x80", 12)) + "]")) == "ok");
    BOOST_TEST(strict(ask("[" + question("Q?", repeat("\xF0\x9F\x98\x80", 15)) + "]")) ==
               R"(questions[0].header: header for "Q?" exceeds 12 chars)");
}

BOOST_AUTO_TEST_CASE(header_required_and_not_empty) {
    BOOST_TEST(strict(ask(R"([{"question":"Q?","options":)" + options(2) + "}]")) == "questions[0].header: required");
    BOOST_TEST(strict(ask("[" + question("Q?", "") + "]")) == "questions[0].header: must not be empty");
    BOOST_TEST(strict(ask("[" + question("Q?", "   ") + "]")) == "questions[0].header: must not be empty");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":null,"options":)" + options(2) + "}]")) ==
               "questions[0].header: expected a string");
}

BOOST_AUTO_TEST_CASE(required_fields) {
    BOOST_TEST(strict("{}") == "questions: Provide 1-4 questions");
    BOOST_TEST(strict(ask(R"([{"header":"H","options":)" + options(2) + "}]")) == "questions[0].question: required");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"H"}])")) ==
               R"(questions[0].options: Question "Q?" must have 2-4 options)");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"H","options":[{"description":"d"},{"label":"B"}]}])")) ==
               "questions[0].options[0].label: required");
}

BOOST_AUTO_TEST_CASE(wrong_json_types) {
    BOOST_TEST(strict(R"({"questions":{}})") == "questions: Provide 1-4 questions");
    BOOST_TEST(strict(R"({"questions":["Q?"]})") == "questions[0]: expected an object");
    BOOST_TEST(strict(ask(R"([{"question":5,"header":"H","options":)" + options(2) + "}]")) ==
               "questions[0].question: expected a string");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":["H"],"options":)" + options(2) + "}]")) ==
               "questions[0].header: expected a string");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"H","options":{"a":1}}])")) ==
               R"(questions[0].options: Question "Q?" must have 2-4 options)");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"H","options":["A","B"]}])")) ==
               "questions[0].options[0]: expected an object");
    BOOST_TEST(strict(ask("[" + question("Q?", "H", 2, R"(,"multiSelect":"yes")") + "]")) ==
               "questions[0].multiSelect: expected a boolean");
    BOOST_TEST(strict(ask("[" + question("Q?", "H", 2, R"(,"multiSelect":null)") + "]")) ==
               "questions[0].multiSelect: expected a boolean");
    BOOST_TEST(
        strict(ask(R"([{"question":"Q?","header":"H","options":[{"label":"A","description":1},{"label":"B"}]}])")) ==
        "questions[0].options[0].description: expected a string");
    BOOST_TEST(
        strict(ask(R"([{"question":"Q?","header":"H","options":[{"label":"A"},{"label":"B","preview":true}]}])")) ==
        "questions[0].options[1].preview: expected a string");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"H","options":[{"label":7},{"label":"B"}]}])")) ==
               "questions[0].options[0].label: expected a string");
}

BOOST_AUTO_TEST_CASE(unknown_keys_refused_everywhere) {
    BOOST_TEST(strict(ask(questions(1), R"(,"priority":1)")) == "priority: unknown field");
    BOOST_TEST(strict(ask("[" + question("Q?", "H", 2, R"(,"id":"q1")") + "]")) == "questions[0].id: unknown field");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"H","options":[{"label":"A","value":"a"},{"label":"B"}]}])")) ==
               "questions[0].options[0].value: unknown field");
    // The four known top-level keys are all accepted.
    BOOST_TEST(strict(ask(questions(1), R"(,"answers":{},"annotations":{},"metadata":{})")) == "ok");
}

BOOST_AUTO_TEST_CASE(known_key_given_twice_is_refused) {
    BOOST_TEST(strict(R"({"questions":[],"questions":[]})") == "questions: given twice");
    BOOST_TEST(lenient(R"({"questions":[{"question":"A?","question":"B?"}]})") == "questions[0].question: given twice");
}

// Each kind of path a refusal names, spelled out only when it refuses.
BOOST_AUTO_TEST_CASE(refusal_paths_of_every_kind) {
    const std::string q = R"({"questions":[{"question":"Q?","options":[{"label":"A"},{"label":"B"}]}])";
    BOOST_TEST(lenient(q + R"(,"answers":{"Nope?":"A"}})") == "answers[\"Nope?\"]: no such question");
    BOOST_TEST(lenient(q + R"(,"answers":{"Q?":["A",7]}})") == "answers[\"Q?\"][1]: expected a string");
    BOOST_TEST(lenient(q + R"(,"annotations":{"Q?":{"notes":7}}})") == "annotations[\"Q?\"].notes: expected a string");
    BOOST_TEST(lenient(R"({"questions":[{"question":"Q?","suggestions":["A",""]}]})") ==
               "questions[0].suggestions[1]: must not be empty");
    BOOST_TEST(lenient(R"({"questions":[{"question":"Q?","options":[{"label":"A","description":7}]}]})") ==
               "questions[0].options[0].description: expected a string");
    BOOST_TEST(lenient(R"({"questions":[{"question":"Q?","multiSelect":1}]})") ==
               "questions[0].multiSelect: expected a boolean");
}

BOOST_AUTO_TEST_CASE(duplicate_question_texts) {
    const std::string qs =
        "[" + question("Which database?") + "," + question("Name?") + "," + question("Which database?") + "]";
    const Refusal& r = refused(parse_ask_input(ask(qs), Profile::Strict));
    BOOST_TEST(r.path == "questions[2].question");
    BOOST_TEST(r.message == R"(questions[2].question: Question texts must be unique: "Which database?")");
    BOOST_TEST(lenient(ask(qs)) == R"(questions[2].question: duplicate of questions[0].question "Which database?")");
}

BOOST_AUTO_TEST_CASE(duplicate_labels_within_a_question) {
    const std::string qs = R"([{"question":"Q?","header":"H","options":[{"label":"SQLite"},{"label":"SQLite"}]}])";
    BOOST_TEST(strict(ask(qs)) ==
               R"(questions[0].options[1].label: Option labels must be unique within question "Q?")");
    BOOST_TEST(lenient(ask(qs)) == R"(questions[0].options[1].label: duplicate label "SQLite")");
    // The same label in two different questions is fine.
    BOOST_TEST(strict(ask("[" + question("A?") + "," + question("B?") + "]")) == "ok");
}

BOOST_AUTO_TEST_CASE(empty_texts_are_refused) {
    BOOST_TEST(strict(ask("[" + question("") + "]")) == "questions[0].question: must not be empty");
    BOOST_TEST(strict(ask("[" + question(" \\t\\n ") + "]")) == "questions[0].question: must not be empty");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"H","options":[{"label":"A"},{"label":" "}]}])")) ==
               "questions[0].options[1].label: must not be empty");
}

BOOST_AUTO_TEST_CASE(byte_caps_name_field_and_limit) {
    const std::string at_cap = repeat("x", Limits::max_text_bytes);
    const std::string over = repeat("x", Limits::max_text_bytes + 1);
    BOOST_TEST(strict(ask("[" + question(at_cap) + "]")) == "ok");
    BOOST_TEST(strict(ask("[" + question(over) + "]")) == "questions[0].question: 4097 bytes, at most 4096");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"H","options":[{"label":"A"},{"label":")" + over + "\"}]}]")) ==
               "questions[0].options[1].label: 4097 bytes, at most 4096");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"H","options":[{"label":"A","description":")" + over +
                          "\"},{\"label\":\"B\"}]}]")) ==
               "questions[0].options[0].description: 4097 bytes, at most 4096");
    const std::string big_preview = repeat("p", Limits::max_preview_bytes + 1);
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"H","options":[{"label":"A","preview":")" + big_preview +
                          "\"},{\"label\":\"B\"}]}]")) ==
               "questions[0].options[0].preview: 65537 bytes, at most 65536");
    // Lenient headers may be long, but not beyond the byte cap.
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","header":")" + over + "\"}]")) ==
               "questions[0].header: 4097 bytes, at most 4096");
}

BOOST_AUTO_TEST_CASE(unsafe_preview_is_refused_with_reason) {
    const std::string qs =
        R"([{"question":"Q?","header":"H","options":[{"label":"A","preview":"<div>ok</div><script>x()</script>"},{"label":"B"}]}])";
    const Refusal& r = refused(parse_ask_input(ask(qs), Profile::Strict));
    BOOST_TEST(r.path == "questions[0].options[0].preview");
    BOOST_TEST(r.message == R"(questions[0].options[0].preview: Option "A" in question "Q?": <script> is not allowed)");
    BOOST_TEST(lenient(ask(qs)) == "questions[0].options[0].preview: <script> is not allowed");
}

BOOST_AUTO_TEST_CASE(option_counts_before_the_other_rules) {
    // The reference's order: every question's option count, then per question its text's
    // uniqueness, its header's length, its labels' uniqueness and previews.
    const std::string qs = "[" + question("A?", "1234567890123") + "," + question("B?", "H", 5) + "]";
    BOOST_TEST(strict(ask(qs)) == R"(questions[1].options: Question "B?" must have 2-4 options)");
    const std::string dup_then_header = "[" + question("A?") + "," + question("A?", "1234567890123") + "]";
    BOOST_TEST(strict(ask(dup_then_header)) == R"(questions[1].question: Question texts must be unique: "A?")");
    const std::string header_then_dup = "[" + question("A?", "1234567890123") + "," + question("A?") + "]";
    BOOST_TEST(strict(ask(header_then_dup)) == R"(questions[0].header: header for "A?" exceeds 12 chars)");
    const std::string labels_then_count =
        R"([{"question":"A?","header":"H","options":[{"label":"x"},{"label":"x"}]},)" + question("B?", "H", 1) + "]";
    BOOST_TEST(strict(ask(labels_then_count)) == R"(questions[1].options: Question "B?" must have 2-4 options)");
    // The lenient profile keeps document order.
    BOOST_TEST(lenient(ask(qs)) == "ok");
    BOOST_TEST(lenient(ask(header_then_dup)) == R"(questions[1].question: duplicate of questions[0].question "A?")");
}

BOOST_AUTO_TEST_CASE(first_error_in_document_order_wins) {
    // Within a question: question text, header, options, multiSelect.
    BOOST_TEST(strict(ask(R"([{"question":"","header":"","options":[],"multiSelect":1}])")) ==
               "questions[0].question: must not be empty");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"","options":[],"multiSelect":1}])")) ==
               "questions[0].header: must not be empty");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","header":"H","options":[],"multiSelect":1}])")) ==
               R"(questions[0].options: Question "Q?" must have 2-4 options)");
}

BOOST_AUTO_TEST_CASE(metadata) {
    BOOST_TEST(strict(ask(questions(1), R"(,"metadata":[])")) == "metadata: expected an object");
    BOOST_TEST(strict(ask(questions(1), R"(,"metadata":{"source":1})")) == "metadata.source: expected a string");
    const AskInput& in =
        accepted(parse_ask_input(ask(questions(1), R"(, "metadata" : { "source" : "wizard" } )"), Profile::Strict));
    BOOST_TEST(in.metadata_json == R"({"source":"wizard"})");
    const AskInput& none = accepted(parse_ask_input(ask(questions(1)), Profile::Strict));
    BOOST_TEST(none.metadata_json == "");
}

// Issue 43: the strict messages cut the question at 60 characters; the reference quotes it whole.
BOOST_AUTO_TEST_CASE(strict_messages_quote_the_agents_text_whole) {
    const std::string text = "Which database engine should we use for the new order processing service?";
    BOOST_TEST(strict(ask("[" + question(text) + "," + question(text) + "]")) ==
               "questions[1].question: Question texts must be unique: \"" + text + "\"");
    BOOST_TEST(strict(ask("[" + question(text, "H", 1) + "]")) ==
               "questions[0].options: Question \"" + text + "\" must have 2-4 options");
    BOOST_TEST(strict(ask("[" + question(text, "Database Selection") + "]")) ==
               "questions[0].header: header for \"" + text + "\" exceeds 12 chars");
    const std::string longest = repeat("q", Limits::max_text_bytes);
    BOOST_TEST(strict(ask("[" + question(longest, "H", 5) + "]")) ==
               "questions[0].options: Question \"" + longest + "\" must have 2-4 options");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(lenient_profile)

BOOST_AUTO_TEST_CASE(free_text_question_and_optional_header) {
    const AskInput& in = accepted(
        parse_ask_input(R"({"questions":[{"question":"What should we name this service?"}]})", Profile::Lenient));
    BOOST_TEST_REQUIRE(in.questions.size() == 1u);
    BOOST_TEST(in.questions[0].header == "");
    BOOST_TEST(in.questions[0].options.empty());
    BOOST_TEST(!in.questions[0].multi_select);
    BOOST_TEST(strict(R"({"questions":[{"question":"What should we name this service?"}]})") ==
               "questions[0].header: required");
}

BOOST_AUTO_TEST_CASE(option_counts) {
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","options":[]}])")) == "ok");
    BOOST_TEST(lenient(ask("[" + question("Q?", "H", 1) + "]")) == "ok");
    BOOST_TEST(lenient(ask("[" + question("Q?", "H", 5) + "]")) == "ok");
    BOOST_TEST(lenient(ask("[" + question("Q?", "H", static_cast<int>(Limits::max_options)) + "]")) == "ok");
    BOOST_TEST(lenient(ask("[" + question("Q?", "H", static_cast<int>(Limits::max_options) + 1) + "]")) ==
               "questions[0].options: 65 given, at most 64");
}

BOOST_AUTO_TEST_CASE(question_counts) {
    BOOST_TEST(lenient(ask("[]")) == "questions: 0 given, at least 1");
    BOOST_TEST(lenient(ask(questions(1))) == "ok");
    BOOST_TEST(lenient(ask(questions(5))) == "ok");
    BOOST_TEST(lenient(ask(questions(static_cast<int>(Limits::max_questions)))) == "ok");
    BOOST_TEST(lenient(ask(questions(static_cast<int>(Limits::max_questions) + 1))) ==
               "questions: 33 given, at most 32");
}

BOOST_AUTO_TEST_CASE(any_header_length) {
    BOOST_TEST(lenient(ask("[" + question("Q?", "Database Selection for the whole project") + "]")) == "ok");
    BOOST_TEST(lenient(ask("[" + question("Q?", "") + "]")) == "ok");
}

// What an agent meant is honoured or refused by name, never dropped without a word.
BOOST_AUTO_TEST_CASE(unknown_keys_refused_naming_the_field) {
    BOOST_TEST(lenient(ask(questions(1), R"(,"priority":"high")")) == "priority: unknown field");
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","id":7}])")) == "questions[0].id: unknown field");
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","options":[{"label":"A","value":1}]}])")) ==
               "questions[0].options[0].value: unknown field");
    const Refusal& r = refused(parse_ask_input(ask(R"([{"question":"Q?","placeholder":null}])"), Profile::Lenient));
    BOOST_TEST(r.path == "questions[0].placeholder");
}

// Roo Code's ask_followup_question offers its answers as `suggestions`: they become the options.
BOOST_AUTO_TEST_CASE(roo_suggestions_become_options) {
    const AskInput& in = accepted(
        parse_ask_input(R"({"questions":[{"question":"Yes or no?","suggestions":["yes","no"]}]})", Profile::Lenient));
    const Question& q = in.questions.at(0);
    BOOST_TEST_REQUIRE(q.options.size() == 2u);
    BOOST_TEST(q.options[0].label == "yes");
    BOOST_TEST(q.options[0].description == "");
    BOOST_TEST(q.options[1].label == "no");
    BOOST_TEST(!q.multi_select);
    const AskInput& multi = accepted(parse_ask_input(
        ask(R"([{"question":"Which?","suggestions":["a","b","c"],"multiSelect":true}])"), Profile::Lenient));
    BOOST_TEST(multi.questions[0].multi_select);
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","suggestions":[]}])")) == "ok");  // none: free text
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","suggestions":"yes, no"}])")) ==
               "questions[0].suggestions: expected an array of strings");
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","suggestions":["yes",{"answer":"no"}]}])")) ==
               "questions[0].suggestions[1]: expected a string");
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","suggestions":["yes"," "]}])")) ==
               "questions[0].suggestions[1]: must not be empty");
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","suggestions":["yes","yes"]}])")) ==
               R"(questions[0].suggestions[1]: duplicate label "yes")");
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","options":[{"label":"A"}],"suggestions":["yes"]}])")) ==
               "questions[0].suggestions: give options or suggestions, not both");
    BOOST_TEST(lenient(ask("[" + question("Q?", "H", 0, R"(,"suggestions":["yes","no"])") + "]")) ==
               "questions[0].suggestions: give options or suggestions, not both");
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","suggestions":)" + options(65) + "}]")) ==
               "questions[0].suggestions: 65 given, at most 64");
    // The strict schema has no such field.
    BOOST_TEST(strict(ask("[" + question("Q?", "H", 2, R"(,"suggestions":["yes","no"])") + "]")) ==
               "questions[0].suggestions: unknown field");
}

BOOST_AUTO_TEST_CASE(null_means_absent) {
    const auto p = parse_ask_input(
        R"({"questions":[{"question":"Q?","header":null,"options":[{"label":"A","description":null,"preview":null}],"multiSelect":null}],
            "metadata":null,"answers":null,"annotations":null})",
        Profile::Lenient);
    const AskInput& in = accepted(p);
    BOOST_TEST(in.questions[0].header == "");
    BOOST_TEST(in.questions[0].options.size() == 1u);
    BOOST_TEST(in.questions[0].options[0].description == "");
    BOOST_TEST(in.metadata_json == "");
}

BOOST_AUTO_TEST_CASE(wrong_types_still_refused) {
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","multiSelect":"true"}])")) ==
               "questions[0].multiSelect: expected a boolean");
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","options":"A, B"}])")) == "questions[0].options: expected an array");
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","header":12}])")) == "questions[0].header: expected a string");
    BOOST_TEST(lenient(ask(R"([{"question":null}])")) == "questions[0].question: required");
    BOOST_TEST(lenient(ask(R"([{"question":"  "}])")) == "questions[0].question: must not be empty");
}

BOOST_AUTO_TEST_CASE(multi_select_needs_options) {
    const AskInput& free =
        accepted(parse_ask_input(ask(R"([{"question":"Q?","multiSelect":true}])"), Profile::Lenient));
    BOOST_TEST(!free.questions[0].multi_select);
    const AskInput& multi =
        accepted(parse_ask_input(ask("[" + question("Q?", "H", 3, R"(,"multiSelect":true)") + "]"), Profile::Lenient));
    BOOST_TEST(multi.questions[0].multi_select);
}

BOOST_AUTO_TEST_CASE(metadata_is_any_object) {
    const AskInput& in = accepted(parse_ask_input(
        ask(questions(1), R"(,"metadata":{"source":42,"tags":["a","b"],"nested":{"x":null}})"), Profile::Lenient));
    BOOST_TEST(in.metadata_json == R"({"source":42,"tags":["a","b"],"nested":{"x":null}})");
    BOOST_TEST(lenient(ask(questions(1), R"(,"metadata":"x")")) == "metadata: expected an object");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(presets)

const std::string two_questions =
    "[" + question("Which database?") + "," + question("Features?", "Features", 3, R"(,"multiSelect":true)") + "]";

BOOST_AUTO_TEST_CASE(answers_and_annotations_in_json_order) {
    const auto p = parse_ask_input(ask(two_questions,
                                       R"(,"answers":{"Features?":["Option 1","Option 3"],"Which database?":"Option 2"},
                "annotations":{"Which database?":{"preview":"P","notes":"N"},"Features?":{"notes":"only notes"}})"),
                                   Profile::Strict);
    const AskInput& in = accepted(p);
    BOOST_TEST_REQUIRE(in.preset_answers.size() == 2u);
    BOOST_TEST(in.preset_answers[0].question == "Features?");
    BOOST_TEST(in.preset_answers[0].multi);
    BOOST_TEST((in.preset_answers[0].values == std::vector<std::string>{"Option 1", "Option 3"}));
    BOOST_TEST(in.preset_answers[1].question == "Which database?");
    BOOST_TEST(!in.preset_answers[1].multi);
    BOOST_TEST((in.preset_answers[1].values == std::vector<std::string>{"Option 2"}));
    BOOST_TEST_REQUIRE(in.preset_annotations.size() == 2u);
    BOOST_TEST(in.preset_annotations[0].question == "Which database?");
    BOOST_TEST(in.preset_annotations[0].preview == "P");
    BOOST_TEST(in.preset_annotations[0].notes == "N");
    BOOST_TEST(in.preset_annotations[1].preview == "");
    BOOST_TEST(in.preset_annotations[1].notes == "only notes");
}

BOOST_AUTO_TEST_CASE(answer_keys_must_name_a_question) {
    const Refusal& r = refused(parse_ask_input(ask(two_questions, R"(,"answers":{"x":"y"})"), Profile::Strict));
    BOOST_TEST(r.path == R"(answers["x"])");
    BOOST_TEST(r.message == R"(answers["x"]: no such question)");
    BOOST_TEST(lenient(ask(two_questions, R"(,"annotations":{"Nope?":{}})")) ==
               R"(annotations["Nope?"]: no such question)");
}

BOOST_AUTO_TEST_CASE(answer_value_types) {
    BOOST_TEST(strict(ask(two_questions, R"(,"answers":{"Features?":1})")) ==
               R"(answers["Features?"]: expected a string or an array of strings)");
    BOOST_TEST(strict(ask(two_questions, R"(,"answers":{"Features?":["a",2]})")) ==
               R"(answers["Features?"][1]: expected a string)");
    BOOST_TEST(strict(ask(two_questions, R"(,"answers":[])")) == "answers: expected an object");
    BOOST_TEST(strict(ask(two_questions, R"(,"annotations":{"Features?":"n"})")) ==
               R"(annotations["Features?"]: expected an object)");
    BOOST_TEST(strict(ask(two_questions, R"(,"annotations":{"Features?":{"notes":1}})")) ==
               R"(annotations["Features?"].notes: expected a string)");
    BOOST_TEST(strict(ask(two_questions, R"(,"answers":{"Features?":"a","Features?":"b"})")) ==
               R"(answers["Features?"]: given twice)");
    BOOST_TEST(strict(ask(two_questions, R"(,"answers":{"Features?":[]})")) == "ok");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(json_text)

BOOST_AUTO_TEST_CASE(syntax_errors_are_invalid_request) {
    const Refusal& r = refused(parse_ask_input(R"({"questions": [})", Profile::Strict));
    BOOST_TEST(r.code == "invalid_request");
    BOOST_TEST(r.path == "");
    BOOST_TEST(r.message == "invalid JSON at offset 15: Invalid value.");
    BOOST_TEST(strict("") == "invalid JSON at offset 0: The document is empty.");
    BOOST_TEST(strict("{\"questions\":[] ,}") == "invalid JSON at offset 17: Missing a name for object member.");
}

BOOST_AUTO_TEST_CASE(trailing_garbage_is_refused) {
    const std::string good = ask(questions(1));
    BOOST_TEST(strict(good + " \n\t") == "ok");
    BOOST_TEST(strict(good + " x") == "invalid JSON at offset " + std::to_string(good.size() + 1) +
                                          ": The document root must not be followed by other values.");
    BOOST_TEST(strict(good + good) != "ok");
    BOOST_TEST(strict(good + std::string("\0{}", 3)) != "ok");
}

BOOST_AUTO_TEST_CASE(top_level_must_be_an_object) {
    const Refusal& r = refused(parse_ask_input("[1,2]", Profile::Lenient));
    BOOST_TEST(r.code == "invalid_schema");
    BOOST_TEST(r.message == R"(expected a JSON object with a "questions" array)");
    BOOST_TEST(strict("\"questions\"") == r.message);
    BOOST_TEST(strict("null") == r.message);
}

BOOST_AUTO_TEST_CASE(invalid_utf8_is_refused) {
    for (const std::string bad : {"\xC3\x28", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF", "\xE2\x82"}) {
        const auto p = parse_ask_input(ask(R"([{"question":"Q)" + bad + R"(?"}])"), Profile::Lenient);
        const Refusal& r = refused(p);
        BOOST_TEST(r.message.find("nvalid") != std::string::npos, r.message);
    }
    const Refusal& r = refused(parse_ask_input(ask("[{\"question\":\"Q\xC3\x28?\"}]"), Profile::Strict));
    BOOST_TEST(r.code == "invalid_request");
    BOOST_TEST(r.message == "invalid JSON at offset 28: Invalid encoding in string.");
}

BOOST_AUTO_TEST_CASE(escaped_lone_surrogates_are_refused) {
    // RapidJSON turns a lone low surrogate escape into invalid UTF-8; the model must not take it.
    const std::string lone = ask(R"([{"question":"Q\udc00?"}])");
    BOOST_TEST(lenient(lone) != "ok");
    BOOST_TEST(lenient(ask(R"([{"question":"Q\ud800?"}])")) != "ok");
    BOOST_TEST(lenient(ask(R"([{"question":"Q\ud83d\ude00?"}])")) == "ok");  // a proper pair
}

BOOST_AUTO_TEST_CASE(non_ascii_text_survives) {
    const AskInput& in = accepted(parse_ask_input(
        ask(R"([{"question":"Какую базу данных?","header":"База","options":[{"label":"数据库"},{"label":"\u00e9t\u00e9"}]}])"),
        Profile::Strict));
    BOOST_TEST(in.questions[0].question == "Какую базу данных?");
    BOOST_TEST(in.questions[0].options[1].label == "été");
}

BOOST_AUTO_TEST_CASE(deep_nesting_does_not_crash) {
    const std::size_t depth = 1'000'000;
    // Unterminated: a syntax error, found without recursion.
    BOOST_TEST(strict(repeat("[", depth)).rfind("invalid JSON at offset", 0) == 0u);
    // Well-formed but deep: not an object.
    BOOST_TEST(strict(repeat("[", depth) + repeat("]", depth)) == R"(expected a JSON object with a "questions" array)");
    // Deep inside metadata: refused by a depth limit, not by the stack.
    const std::string deep = repeat("[", depth) + repeat("]", depth);
    BOOST_TEST(lenient(ask(questions(1), R"(,"metadata":{"x":)" + deep + "}")) ==
               "metadata: nested deeper than 32 levels");
    BOOST_TEST(lenient(ask(questions(1), R"(,"metadata":{"x":)" + repeat("[", 31) + repeat("]", 31) + "}")) == "ok");
    BOOST_TEST(lenient(ask(questions(1), R"(,"metadata":{"x":)" + repeat("[", 32) + repeat("]", 32) + "}")) ==
               "metadata: nested deeper than 32 levels");
    // Deep values where a string is expected, or under an unknown key (refused by name, unread).
    BOOST_TEST(lenient(ask(R"([{"question":)" + deep + "}]")) == "questions[0].question: expected a string");
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","extra":)" + deep + "}]")) == "questions[0].extra: unknown field");
    BOOST_TEST(strict(ask(R"([{"question":"Q?","extra":)" + deep + "}]")) == "questions[0].extra: unknown field");
}

BOOST_AUTO_TEST_CASE(huge_input_is_refused_cheaply) {
    const std::string huge = ask(questions(1), R"(,"pad":")" + repeat("x", Limits::max_input_bytes) + "\"");
    const Refusal& r = refused(parse_ask_input(huge, Profile::Lenient));
    BOOST_TEST(r.code == "invalid_request");
    BOOST_TEST(r.message == "request is " + std::to_string(huge.size()) + " bytes, at most 8388608");

    std::string many = "[";
    for (int i = 0; i < 100000; ++i) many += (i ? "," : "") + option("L" + std::to_string(i));
    BOOST_TEST(lenient(ask(R"([{"question":"Q?","options":)" + many + "]}]")) ==
               "questions[0].options: 100000 given, at most 64");
    BOOST_TEST(lenient(ask("[" + repeat(R"({"question":"Q?"},)", 5000) + R"({"question":"Q?"}])")) ==
               "questions: 5001 given, at most 32");
}

BOOST_AUTO_TEST_CASE(long_quoted_text_in_lenient_messages_is_shortened) {
    const std::string text = repeat("long question ", 10);  // 140 characters
    const std::string qs = "[" + question(text) + "," + question(text) + "]";
    BOOST_TEST(lenient(ask(qs)) ==
               "questions[1].question: duplicate of questions[0].question \"" + text.substr(0, 60) + "...\"");
}

BOOST_AUTO_TEST_CASE(parsed_value_overload) {
    rapidjson::Document doc;
    doc.Parse(ask(questions(2)).c_str());
    BOOST_TEST_REQUIRE(!doc.HasParseError());
    BOOST_TEST(accepted(parse_ask_input(doc, Profile::Strict)).questions.size() == 2u);
    // A string built in code with invalid UTF-8 never reaches the model.
    rapidjson::Document bad;
    bad.Parse(ask(questions(1)).c_str());
    bad["questions"][0]["question"].SetString("Q\xFF?", bad.GetAllocator());
    const Refusal& r = refused(parse_ask_input(bad, Profile::Strict));
    BOOST_TEST(r.message == "questions[0].question: invalid UTF-8");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(validate_built_questions)

Question built(std::string text, std::string header, std::vector<std::string> labels) {
    Question q;
    q.question = std::move(text);
    q.header = std::move(header);
    for (auto& l : labels) q.options.push_back(Option{std::move(l), "", std::nullopt});
    return q;
}

BOOST_AUTO_TEST_CASE(same_rules_as_parsing) {
    std::vector<Question> qs{built("A?", "H", {"x", "y"})};
    BOOST_TEST(!validate_questions(qs, Profile::Strict).has_value());
    BOOST_TEST(validate_questions({}, Profile::Strict)->message == "questions: Provide 1-4 questions");
    BOOST_TEST(validate_questions({built("A?", "H", {"x"})}, Profile::Strict)->message ==
               R"(questions[0].options: Question "A?" must have 2-4 options)");
    BOOST_TEST(!validate_questions({built("A?", "", {"x"})}, Profile::Lenient).has_value());
    BOOST_TEST(!validate_questions({built("A?", "", {})}, Profile::Lenient).has_value());
    BOOST_TEST(validate_questions({built("A?", "", {"x", "y"})}, Profile::Strict)->message ==
               "questions[0].header: must not be empty");
    BOOST_TEST(validate_questions({built("A?", "Базаданных123", {"x", "y"})}, Profile::Strict)->message ==
               R"(questions[0].header: header for "A?" exceeds 12 chars)");
    BOOST_TEST(validate_questions({built("A?", "Базаданных123", {"x", "y"}), built("B?", "H", {"x"})}, Profile::Strict)
                   ->message == R"(questions[1].options: Question "B?" must have 2-4 options)");
    BOOST_TEST(validate_questions({built("A?", "H", {"x", "x"})}, Profile::Strict)->message ==
               R"(questions[0].options[1].label: Option labels must be unique within question "A?")");
    BOOST_TEST(
        validate_questions({built("A?", "H", {"x", "y"}), built("A?", "H", {"x", "y"})}, Profile::Lenient)->message ==
        R"(questions[1].question: duplicate of questions[0].question "A?")");
    BOOST_TEST(validate_questions({built("A?", "H", {"x", "y", "x"})}, Profile::Lenient)->message ==
               R"(questions[0].options[2].label: duplicate label "x")");
    BOOST_TEST(validate_questions({built(" ", "H", {"x", "y"})}, Profile::Lenient)->message ==
               "questions[0].question: must not be empty");
    Question with_preview = built("A?", "H", {"x", "y"});
    with_preview.options[1].preview = "<img src=x onerror=alert(1)>";
    BOOST_TEST(validate_questions({with_preview}, Profile::Lenient)->message ==
               "questions[0].options[1].preview: event-handler attribute onerror= is not allowed");
    BOOST_TEST(validate_questions({with_preview}, Profile::Lenient)->code == "invalid_schema");
    std::vector<Question> five(5, built("A?", "H", {"x", "y"}));
    for (std::size_t i = 0; i < five.size(); ++i) five[i].question = "Q" + std::to_string(i);
    BOOST_TEST(validate_questions(five, Profile::Strict)->message == "questions: At most 4 questions allowed");
    BOOST_TEST(!validate_questions(five, Profile::Lenient).has_value());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(html_preview)

std::string reason(const std::string& preview) {
    auto refused = check_html_preview(preview);
    return refused ? refused->message : "accepted";
}

BOOST_AUTO_TEST_CASE(markdown_is_accepted) {
    expect_all(reason, "accepted",
               {
                   "",
                   "# Title\n\n- item **bold** `code`\n\n```sql\nSELECT 1 < 2;\n```",
                   "a < b and c > d",
                   "[docs](https://example.com/a_(b))",
                   "Never click javascript: links",
               });
}

BOOST_AUTO_TEST_CASE(markdown_link_to_script_is_refused) {
    expect_each(reason, {
                            {"[click](javascript:alert(1))", "javascript: URL is not allowed"},
                            {"[click]( JavaScript:alert(1))", "javascript: URL is not allowed"},
                            {"[click](<javascript:alert(1)>)", "javascript: URL is not allowed"},
                        });
}

BOOST_AUTO_TEST_CASE(static_html_is_accepted) {
    expect_all(reason, "accepted",
               {
                   R"x(<div style="color: red"><b>Hi</b> <a href="https://x.y/">x</a></div>)x",
                   "<img src=x alt='on'>",
                   R"x(<p title="onclick=x">text</p>)x",
                   "<p>Never use javascript: URLs</p>",
                   "<!-- <script> in a comment --><p>x</p>",
                   "<table><tr><td>1</td></tr></table>",
                   "Vec<String>",
                   "<button disabled>Go</button>",
               });
}

BOOST_AUTO_TEST_CASE(scripts_styles_and_embeds_are_refused) {
    expect_each(reason, {
                            {"<script>alert(1)</script>", "<script> is not allowed"},
                            {"text <SCRIPT src=x></SCRIPT>", "<script> is not allowed"},
                            {"<div><style>body{}</style></div>", "<style> is not allowed"},
                            {"<iframe src=x>", "<iframe> is not allowed"},
                            {"<object data=x>", "<object> is not allowed"},
                            {"<embed src=x>", "<embed> is not allowed"},
                            {"<meta http-equiv=refresh content='0;url=x'>", "<meta> is not allowed"},
                            {"<html><body>x</body></html>", "must be an HTML fragment, not a full document (<html>)"},
                            {"<!DOCTYPE html><p>x</p>", "must be an HTML fragment, not a full document (<!DOCTYPE>)"},
                            // Markdown with raw HTML inside is HTML.
                            {"# Title\n\n<script>x()</script>", "<script> is not allowed"},
                        });
}

BOOST_AUTO_TEST_CASE(event_handlers_are_refused) {
    expect_each(reason,
                {
                    {"<img src=x onerror=alert(1)>", "event-handler attribute onerror= is not allowed"},
                    {"<svg/onload=alert(1)>", "event-handler attribute onload= is not allowed"},
                    {"<div OnClick = 'x()'>", "event-handler attribute onclick= is not allowed"},
                    {"<a href=\"#\"\nonmouseover=\"x()\">", "event-handler attribute onmouseover= is not allowed"},
                });
    BOOST_TEST(check_html_preview("<p class=a onfocus>x").has_value());
}

BOOST_AUTO_TEST_CASE(javascript_urls_are_refused) {
    const std::string js = "javascript: URL is not allowed";
    expect_all(reason, js,
               {
                   R"x(<a href="javascript:alert(1)">x</a>)x",
                   R"x(<a href=" JaVaScRiPt:alert(1)">x</a>)x",
                   "<a href='java\tscript:alert(1)'>x</a>",
                   R"x(<a href="java&#x09;script:alert(1)">x</a>)x",
                   R"x(<a href="&#106;avascript:alert(1)">x</a>)x",
                   R"x(<a href="&#x6A&#x61vascript:alert(1)">x</a>)x",
                   R"x(<a href='javascript&colon;alert(1)'>x</a>)x",
                   R"x(<a href=javascript:alert(1)>x</a>)x",
                   R"x(<div style="background:url(javascript:x)">)x",
                   R"x(<a href="vbscript:x">)x",
               });
}

BOOST_AUTO_TEST_CASE(malformed_html_does_not_hang) {
    expect_all(reason, "accepted",
               {
                   "<",
                   "<a",
                   "<a href=",
                   "<a href=\"unterminated",
                   "<a = = >",
                   "<!-- unterminated",
                   repeat("<a ", 20000),
               });
}

BOOST_AUTO_TEST_SUITE_END()
