#define BOOST_TEST_MODULE outcome
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <fstream>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <rapidjson/document.h>

#include "answers.hpp"
#include "core/error.hpp"
#include "core/model/outcome.hpp"

using namespace askhost;

namespace {

std::string native(const Outcome& o) {
    rapidjson::StringBuffer buffer;
    JsonWriter w(buffer);
    w.StartObject();
    write_native_result(w, o);
    w.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize());
}

std::string answers_map(const std::vector<Answer>& answers) {
    rapidjson::StringBuffer buffer;
    JsonWriter w(buffer);
    w.StartObject();
    write_answers_map(w, answers);
    w.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize());
}

using testing::multi;
using testing::picked;
using testing::typed;

bool valid_json(const std::string& s) {
    rapidjson::Document d;
    d.Parse<rapidjson::kParseValidateEncodingFlag>(s.c_str(), s.size());
    return !d.HasParseError() && d.IsObject();
}

const std::string prefix = "User has answered your questions: ";
const std::string suffix = ". You can now continue with the user's answers in mind.";

}  // namespace

BOOST_AUTO_TEST_SUITE(outcomes)

BOOST_AUTO_TEST_CASE(factories_set_kind_and_payload) {
    const Outcome a = Outcome::answered({typed("Q?", "x")});
    BOOST_TEST((a.kind == OutcomeKind::Answered));
    BOOST_TEST(a.answers.size() == 1u);
    const Outcome c = Outcome::cancelled("user pressed Esc");
    BOOST_TEST((c.kind == OutcomeKind::Cancelled));
    BOOST_TEST(c.reason == "user pressed Esc");
    BOOST_TEST(Outcome::cancelled().reason.empty());
    BOOST_TEST((Outcome::timed_out().kind == OutcomeKind::TimedOut));
    BOOST_TEST((Outcome::connection_lost().kind == OutcomeKind::ConnectionLost));
    const Outcome p = Outcome::pending(".askhost/pending-questions.json", 2);
    BOOST_TEST((p.kind == OutcomeKind::Pending));
    BOOST_TEST(p.pending_file == ".askhost/pending-questions.json");
    BOOST_TEST(p.open_questions == 2U);
    const Outcome r = Outcome::refused(Refusal{"subagent", "", "only the parent conversation may ask"});
    BOOST_TEST((r.kind == OutcomeKind::Refused));
    BOOST_TEST(r.error.code == "subagent");
}

BOOST_AUTO_TEST_CASE(kind_names) {
    BOOST_TEST(std::string(outcome_kind_name(OutcomeKind::Answered)) == "answered");
    BOOST_TEST(std::string(outcome_kind_name(OutcomeKind::Cancelled)) == "cancelled");
    BOOST_TEST(std::string(outcome_kind_name(OutcomeKind::TimedOut)) == "timedOut");
    BOOST_TEST(std::string(outcome_kind_name(OutcomeKind::ConnectionLost)) == "connectionLost");
    BOOST_TEST(std::string(outcome_kind_name(OutcomeKind::Pending)) == "pending");
    BOOST_TEST(std::string(outcome_kind_name(OutcomeKind::Refused)) == "refused");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(native_shape)

BOOST_AUTO_TEST_CASE(answered_as_in_the_spec_example) {
    const Outcome o = Outcome::answered({picked("Which database should we use?", "PostgreSQL (Recommended)"),
                                         typed("What should we name this service?", "order-processor"),
                                         multi("Which features?", {"Auth", "REST API"})});
    BOOST_TEST(
        native(o) ==
        R"({"answered":true,"answers":[)"
        R"j({"question":"Which database should we use?","answer":"PostgreSQL (Recommended)","selectedOption":"PostgreSQL (Recommended)","wasCustom":false},)j"
        R"({"question":"What should we name this service?","answer":"order-processor","wasCustom":true},)"
        R"({"question":"Which features?","answer":["Auth","REST API"],"wasCustom":false}],)"
        R"j("text":"User has answered your questions: \"Which database should we use?\"=\"PostgreSQL (Recommended)\", )j"
        R"(\"What should we name this service?\"=\"order-processor\", \"Which features?\"=\"Auth, REST API\". )"
        R"(You can now continue with the user's answers in mind."})");
}

BOOST_AUTO_TEST_CASE(answered_with_preview_and_notes) {
    Answer a = picked("Layout?", "Grid");
    a.preview = "<b>grid</b>";
    a.notes = "make it 3 columns";
    BOOST_TEST(native(Outcome::answered({a})) ==
               R"({"answered":true,"answers":[{"question":"Layout?","answer":"Grid","selectedOption":"Grid",)"
               R"("wasCustom":false,"preview":"<b>grid</b>","notes":"make it 3 columns"}],)"
               R"("text":"User has answered your questions: \"Layout?\"=\"Grid\" selected preview:\n<b>grid</b> )"
               R"(user notes: make it 3 columns. You can now continue with the user's answers in mind."})");
}

BOOST_AUTO_TEST_CASE(multi_select_with_nothing_chosen_is_an_empty_array) {
    BOOST_TEST(
        native(Outcome::answered({multi("Extras?", {})})) ==
        R"({"answered":true,"answers":[{"question":"Extras?","answer":[],"wasCustom":false}],)"
        R"("text":"User has answered your questions: \"Extras?\"=\"\". You can now continue with the user's answers in mind."})");
}

BOOST_AUTO_TEST_CASE(cancelled) {
    BOOST_TEST(native(Outcome::cancelled()) == R"({"answered":false,"answers":[],"cancelled":true})");
    BOOST_TEST(native(Outcome::cancelled("no terminal")) ==
               R"({"answered":false,"answers":[],"cancelled":true,"reason":"no terminal"})");
}

// docs/model.md shows the native shape: every cancelled result it shows is one askhost writes for
// a real cancel. The dialogs send none with a reason (Esc and a confirmed discard are the spec's
// {answered: false, cancelled: true}); the terminal frontend's "no terminal" is one the host gives.
BOOST_AUTO_TEST_CASE(documented_cancel_results_are_real_ones) {
    std::ifstream in(ASKHOST_DOCS "/model.md");
    BOOST_TEST_REQUIRE(in.good());
    const std::vector<std::string> real = {native(Outcome::cancelled()), native(Outcome::cancelled("no terminal"))};
    int shown = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("{\"answered\":false", 0) != 0 || line.find("\"cancelled\":true") == std::string::npos) continue;
        ++shown;
        BOOST_TEST((std::find(real.begin(), real.end(), line) != real.end()), "not a result askhost writes: " << line);
    }
    BOOST_TEST(shown == 2);
}

BOOST_AUTO_TEST_CASE(timed_out) {
    BOOST_TEST(native(Outcome::timed_out()) == R"({"answered":false,"answers":[],"timedOut":true})");
}

BOOST_AUTO_TEST_CASE(connection_lost) {
    BOOST_TEST(native(Outcome::connection_lost()) == R"({"answered":false,"connectionLost":true})");
}

BOOST_AUTO_TEST_CASE(pending) {
    BOOST_TEST(native(Outcome::pending(".askhost/pending-questions.json", 2)) ==
               R"({"answered":false,"pendingFile":".askhost/pending-questions.json","openQuestions":2,)"
               R"("text":"Questions pending. User input required.\n\nTo answer, run:\n)"
               R"(  askhost answer '[\"<answer 1>\", \"<answer 2>\"]'\n\nOr edit the JSON file and run:\n)"
               R"(  askhost answer --file .askhost/pending-questions.json\n\n)"
               R"(Questions saved to: .askhost/pending-questions.json"})");
}

BOOST_AUTO_TEST_CASE(refused) {
    BOOST_TEST(native(Outcome::refused(
                   Refusal{"invalid_schema", "questions[1].options", "questions[1].options: 5 given, at most 4"})) ==
               R"({"answered":false,"error":{"code":"invalid_schema",)"
               R"("message":"questions[1].options: 5 given, at most 4","path":"questions[1].options"}})");
}

BOOST_AUTO_TEST_CASE(strings_are_escaped_and_repaired) {
    const Outcome o = Outcome::answered({typed("Say \"hi\"\\?", std::string("a\x07"
                                                                            "b\xFF"
                                                                            "c\n",
                                                                            6))});
    const std::string json = native(o);
    BOOST_TEST(valid_json(json));
    BOOST_TEST(json.find(R"("question":"Say \"hi\"\\?")") != std::string::npos);
    BOOST_TEST(json.find(R"("answer":"a\u0007b)"
                         "\xEF\xBF\xBD"
                         R"(c\n")") != std::string::npos);
    for (const Outcome& other : {Outcome::cancelled("\xC0"), Outcome::pending("p\xFF", 1),
                                 Outcome::refused(Refusal{"invalid_schema", "\xED\xA0\x80", "m"})})
        BOOST_TEST(valid_json(native(other)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(answers_map_shape)

BOOST_AUTO_TEST_CASE(labels_keyed_by_question_text) {
    BOOST_TEST(
        answers_map({picked("Which database?", "SQLite"), typed("Name?", "order-processor"),
                     multi("Features?", {"Auth", "REST API", "Admin"})}) ==
        R"({"answers":{"Which database?":"SQLite","Name?":"order-processor","Features?":"Auth, REST API, Admin"}})");
}

BOOST_AUTO_TEST_CASE(annotations_only_when_present) {
    Answer a = picked("Layout?", "Grid");
    a.preview = "<b>grid</b>";
    Answer b = typed("Name?", "svc");
    b.notes = "short";
    Answer c = picked("Db?", "PG");
    BOOST_TEST(answers_map({a, b, c}) ==
               R"({"answers":{"Layout?":"Grid","Name?":"svc","Db?":"PG"},)"
               R"("annotations":{"Layout?":{"preview":"<b>grid</b>"},"Name?":{"notes":"short"}}})");
    BOOST_TEST(answers_map({}) == R"({"answers":{}})");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(model_texts)

BOOST_AUTO_TEST_CASE(entries_joined_as_the_reference_does) {
    BOOST_TEST(model_text({picked("Which database?", "SQLite")}) == prefix + "\"Which database?\"=\"SQLite\"" + suffix);
    BOOST_TEST(model_text({picked("A?", "x"), typed("B?", "y")}) == prefix + "\"A?\"=\"x\", \"B?\"=\"y\"" + suffix);
    BOOST_TEST(model_text(std::vector<Answer>{}) ==
               "User has answered your questions: . You can now continue with the user's answers in mind.");
}

BOOST_AUTO_TEST_CASE(multi_select_joined_with_comma_space) {
    BOOST_TEST(model_text({multi("Features?", {"Auth", "REST API", "Admin"})}) ==
               prefix + "\"Features?\"=\"Auth, REST API, Admin\"" + suffix);
}

BOOST_AUTO_TEST_CASE(preview_and_notes_parts) {
    Answer both = picked("Layout?", "Grid");
    both.preview = "| a | b |\n|---|---|";
    both.notes = "looks fine";
    BOOST_TEST(model_text({both}) ==
               "User has answered your questions: \"Layout?\"=\"Grid\" selected preview:\n| a | b |\n|---|---| "
               "user notes: looks fine. You can now continue with the user's answers in mind.");
    Answer preview_only = picked("P?", "x");
    preview_only.preview = "P";
    Answer notes_only = picked("N?", "y");
    notes_only.notes = "N";
    BOOST_TEST(model_text({preview_only, notes_only}) ==
               prefix + "\"P?\"=\"x\" selected preview:\nP, \"N?\"=\"y\" user notes: N" + suffix);
}

BOOST_AUTO_TEST_CASE(quotes_are_not_escaped) {
    BOOST_TEST(model_text({typed("Say \"hi\"?", "He said \"ok\"")}) ==
               prefix + "\"Say \"hi\"?\"=\"He said \"ok\"\"" + suffix);
}

BOOST_AUTO_TEST_CASE(preset_overload_matches_annotations_by_question) {
    const std::vector<PresetAnswer> presets{{"Features?", {"Auth", "Admin"}, true}, {"Db?", {"PG"}, false}};
    const std::vector<PresetAnnotation> notes{{"Db?", "<i>pg</i>", "fast"}, {"Other?", "ignored", "ignored"}};
    BOOST_TEST(model_text(presets, notes) ==
               prefix + "\"Features?\"=\"Auth, Admin\", \"Db?\"=\"PG\" selected preview:\n<i>pg</i> user notes: fast" +
                   suffix);
    BOOST_TEST(model_text(presets, {}) == prefix + "\"Features?\"=\"Auth, Admin\", \"Db?\"=\"PG\"" + suffix);
}

BOOST_AUTO_TEST_CASE(pending_instructions) {
    BOOST_TEST(pending_text("/tmp/q.json", 2) ==
               "Questions pending. User input required.\n\n"
               "To answer, run:\n  askhost answer '[\"<answer 1>\", \"<answer 2>\"]'\n\n"
               "Or edit the JSON file and run:\n  askhost answer --file /tmp/q.json\n\n"
               "Questions saved to: /tmp/q.json");
}

// Issue 43: one open question was shown two placeholders, and `askhost answer` refused the example.
BOOST_AUTO_TEST_CASE(pending_example_has_a_placeholder_per_open_question) {
    const auto example = [](std::size_t open) {
        const std::string text = pending_text("q.json", open);
        const auto at = text.find("askhost answer ");
        return text.substr(at, text.find('\n', at) - at);
    };
    BOOST_TEST(example(1) == "askhost answer '[\"<answer>\"]'");
    BOOST_TEST(example(3) == "askhost answer '[\"<answer 1>\", \"<answer 2>\", \"<answer 3>\"]'");
    BOOST_TEST(example(0) == "askhost answer '[\"<answer 1>\", ...]'");  // an older host's reply: not known
}

BOOST_AUTO_TEST_CASE(pending_file_is_quoted_for_the_shell_where_it_must_be) {
    BOOST_TEST(pending_text("my dir/it's.json", 1).find("askhost answer --file 'my dir/it'\\''s.json'\n") !=
               std::string::npos);
    BOOST_TEST(pending_text("my dir/it's.json", 1).find("Questions saved to: my dir/it's.json") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(presets)

std::vector<Question> sample_questions() {
    Question db{"Db?", "Database", {{"PG", "", std::nullopt}, {"SQLite", "", std::nullopt}}, false};
    Question features{"Features?", "Features", {{"Auth", "", std::nullopt}, {"Admin", "", std::nullopt}}, true};
    Question name{"Name?", "", {}, false};
    return {db, features, name};
}

BOOST_AUTO_TEST_CASE(selected_option_and_custom) {
    const auto answers = answers_from_presets(
        sample_questions(),
        {{"Name?", {"svc"}, false}, {"Db?", {"SQLite"}, false}, {"Features?", {"Auth", "Billing"}, true}},
        {{"Db?", "prev", "note"}});
    BOOST_TEST_REQUIRE(answers.size() == 3u);
    // Presets keep their own order, as the reference's Object.entries(answers) does.
    BOOST_TEST(answers[0].question == "Name?");
    BOOST_TEST(!answers[0].selected_option.has_value());
    BOOST_TEST(answers[0].was_custom);
    BOOST_TEST(!answers[0].multi);
    BOOST_TEST(answers[1].question == "Db?");
    BOOST_TEST((answers[1].selected_option == std::string("SQLite")));
    BOOST_TEST(!answers[1].was_custom);
    BOOST_TEST(answers[1].preview == "prev");
    BOOST_TEST(answers[1].notes == "note");
    BOOST_TEST(answers[2].multi);
    BOOST_TEST(!answers[2].selected_option.has_value());
    BOOST_TEST(answers[2].was_custom);  // "Billing" is no option
}

// A multi-select answer is an array and carries no selectedOption, with one pick as with several:
// what the dialogs send (docs/dialog.md), so presets and the writer say the same.
BOOST_AUTO_TEST_CASE(multi_select_question_answered_with_a_string) {
    const auto answers = answers_from_presets(sample_questions(), {{"Features?", {"Admin"}, false}}, {});
    BOOST_TEST_REQUIRE(answers.size() == 1u);
    BOOST_TEST(answers[0].multi);
    BOOST_TEST(!answers[0].selected_option.has_value());
    BOOST_TEST(!answers[0].was_custom);
    BOOST_TEST(native(Outcome::answered(answers)).find(R"("answer":["Admin"],"wasCustom":false)") != std::string::npos);
    const auto as_array = answers_from_presets(sample_questions(), {{"Features?", {"Admin"}, true}}, {});
    BOOST_TEST(!as_array.at(0).selected_option.has_value());
}

BOOST_AUTO_TEST_CASE(multi_select_answers_never_carry_selected_option) {
    Answer one = multi("Features?", {"Admin"});
    one.selected_option = "Admin";  // as a client's outcome may say it
    BOOST_TEST(native(Outcome::answered({one})).find("selectedOption") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(custom_text_for_an_option_question) {
    const auto answers = answers_from_presets(sample_questions(), {{"Db?", {"DynamoDB"}, false}}, {});
    BOOST_TEST(!answers[0].selected_option.has_value());
    BOOST_TEST(answers[0].was_custom);
}

BOOST_AUTO_TEST_CASE(from_parsed_input_to_the_same_model_text) {
    const auto parsed = parse_ask_input(
        R"({"questions":[{"question":"Which database?","header":"DB","options":[{"label":"PG"},{"label":"SQLite"}]},
                         {"question":"Features?","header":"F","multiSelect":true,"options":[{"label":"Auth"},{"label":"Admin"}]}],
            "answers":{"Which database?":"PG","Features?":["Auth","Admin"]},
            "annotations":{"Which database?":{"notes":"keep it simple"}}})",
        Profile::Strict);
    BOOST_TEST_REQUIRE(std::holds_alternative<AskInput>(parsed));
    const AskInput& in = std::get<AskInput>(parsed);
    const auto answers = answers_from_presets(in.questions, in.preset_answers, in.preset_annotations);
    const std::string expected =
        prefix + "\"Which database?\"=\"PG\" user notes: keep it simple, \"Features?\"=\"Auth, Admin\"" + suffix;
    BOOST_TEST(model_text(in.preset_answers, in.preset_annotations) == expected);
    BOOST_TEST(model_text(answers) == expected);
    BOOST_TEST(answers_map(answers) == R"({"answers":{"Which database?":"PG","Features?":"Auth, Admin"},)"
                                       R"("annotations":{"Which database?":{"notes":"keep it simple"}}})");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(result_cap)

BOOST_AUTO_TEST_CASE(small_results_fit) {
    BOOST_TEST(result_within_cap(Outcome::answered({picked("Q?", "A")})));
    BOOST_TEST(result_within_cap(Outcome::cancelled()));
    BOOST_TEST(result_within_cap(Outcome::connection_lost()));
}

BOOST_AUTO_TEST_CASE(exact_boundary) {
    // The refusal message appears once, so the serialised size grows byte for byte with it.
    const auto sized = [](std::size_t n) {
        return Outcome::refused(Refusal{"invalid_schema", "p", std::string(n, 'm')});
    };
    const std::size_t base = native(sized(0)).size();
    const std::size_t fits = Limits::max_result_bytes - base;
    BOOST_TEST(native(sized(fits)).size() == Limits::max_result_bytes);
    BOOST_TEST(result_within_cap(sized(fits)));
    BOOST_TEST(!result_within_cap(sized(fits + 1)));
}

BOOST_AUTO_TEST_CASE(long_answers_exceed) {
    BOOST_TEST(!result_within_cap(Outcome::answered({typed("Q?", std::string(60000, 'x'))})));
    BOOST_TEST(result_within_cap(Outcome::answered({typed("Q?", std::string(40000, 'x'))})));
}

BOOST_AUTO_TEST_CASE(fitting_cuts_the_longest_text_and_keeps_the_whole) {
    std::vector<std::pair<std::size_t, std::string>> kept;
    auto keep = [&](std::size_t q, std::string_view whole) {
        kept.emplace_back(q, std::string(whole));
        return "/tmp/kept-" + std::to_string(kept.size());
    };
    Outcome small = Outcome::answered({typed("Q?", std::string(40000, 'x'))});
    BOOST_TEST(fit_result_cap(small, keep) == 0u);
    BOOST_TEST(kept.empty());

    // "é" is two bytes: the cut never ends inside one.
    const std::string long_text = "a" + [] {
        std::string s;
        for (int i = 0; i < 40000; ++i) s += "\xc3\xa9";
        return s;
    }();
    Answer label = typed("R?", std::string(3000, 'L'));
    label.selected_option = label.values[0];  // an option's label is never cut
    Outcome big = Outcome::answered({typed("Q?", long_text), label});
    big.answers[0].notes = std::string(30000, 'n');
    BOOST_TEST(fit_result_cap(big, keep) == 1u);
    BOOST_TEST(result_within_cap(big, kResultMargin));
    BOOST_REQUIRE(kept.size() == 1u);
    BOOST_TEST(kept[0].first == 0u);
    BOOST_TEST(kept[0].second == long_text);
    const std::string& cut = big.answers[0].values[0];
    BOOST_TEST(cut == long_text.substr(0, 1999) + " [... cut: the whole answer, 80001 bytes, is in /tmp/kept-1]");
    BOOST_TEST(big.answers[0].notes.size() == 30000u);
    BOOST_TEST(big.answers[1].values[0].size() == 3000u);

    Outcome lost = Outcome::answered({typed("Q?", std::string(150000, 'z'))});
    BOOST_TEST(fit_result_cap(lost, [](std::size_t, std::string_view) { return std::string(); }) == 1u);
    BOOST_TEST(lost.answers[0].values[0].find("askhost could not save the rest") != std::string::npos);

    Outcome cancelled = Outcome::cancelled();
    BOOST_TEST(fit_result_cap(cancelled, keep) == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

// Result<T>: a value or the Error that says why not; the Error's kind gives the exit status.
BOOST_AUTO_TEST_SUITE(result)

Result<int> half(int n) {
    if (n % 2) return Error::usage(std::to_string(n) + " is odd");
    return n / 2;
}

BOOST_AUTO_TEST_CASE(a_value) {
    auto r = half(8);
    BOOST_TEST(static_cast<bool>(r));
    BOOST_TEST(r.has_value());
    BOOST_TEST(*r == 4);
    BOOST_TEST(r.value_or(-1) == 4);
    BOOST_TEST(!r.status().has_value());
    *r = 5;
    BOOST_TEST(*r == 5);
}

BOOST_AUTO_TEST_CASE(an_error) {
    auto r = half(7);
    BOOST_TEST(!r);
    BOOST_TEST(r.error().message == "7 is odd");
    BOOST_TEST((r.error().kind == Error::Kind::Usage));
    BOOST_TEST(r.error().exit_status() == 2);
    BOOST_TEST(r.value_or(-1) == -1);
    Status s = r.status();
    BOOST_TEST(s.has_value());
    BOOST_TEST(s->message == "7 is odd");
}

BOOST_AUTO_TEST_CASE(members_through_the_arrow) {
    Result<std::string> r = "a/b";  // made from what makes a std::string
    BOOST_TEST(r->size() == 3u);
    r->append("/c");
    BOOST_TEST(*r == "a/b/c");
    const Result<std::string>& c = r;
    BOOST_TEST(c->front() == 'a');
    BOOST_TEST(std::string(std::move(r).operator*()) == "a/b/c");
}

BOOST_AUTO_TEST_CASE(the_error_keeps_its_path_and_kind) {
    Result<std::string> r = Error::failed("/tmp/x: owned by another user", "/tmp/x");
    BOOST_TEST(!r);
    BOOST_TEST(r.error().path == "/tmp/x");
    BOOST_TEST(r.error().exit_status() == 1);
    Error moved = std::move(r).error();
    BOOST_TEST(moved.message == "/tmp/x: owned by another user");
    Result<int> nf = Error::not_found("agent: not found");
    BOOST_TEST(nf.error().exit_status() == 127);
    Result<int> cr = Error::cannot_run("agent: permission denied");
    BOOST_TEST(cr.error().exit_status() == 126);
}

BOOST_AUTO_TEST_CASE(move_only_values) {
    Result<std::unique_ptr<int>> r = std::make_unique<int>(3);
    BOOST_TEST(**r == 3);
    std::unique_ptr<int> taken = *std::move(r);
    BOOST_TEST(*taken == 3);
}

BOOST_AUTO_TEST_SUITE_END()
