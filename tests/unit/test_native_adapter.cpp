#define BOOST_TEST_MODULE native_adapter
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "core/adapter.hpp"
#include "fake_adapter_host.hpp"
#include "frontends/editor/ask_json.hpp"
#include "frontends/editor/editor_hub.hpp"
#include "json/json_text.hpp"

using namespace askhost;

namespace askhost {
void register_native_adapter(AdapterRegistry&);
}

namespace {

using testing::FakeHost;

std::unique_ptr<AgentAdapter> make(FakeHost& host) {
    return testing::make_adapter(register_native_adapter, "native", host);
}

rapidjson::Document parse(const std::string& s) {
    rapidjson::Document d;
    d.Parse(s.c_str());
    return d;
}

const char* kAsk = R"({"type":"ask_user_request","requestId":"r1","questions":[{"question":"Name?"}]})";

}  // namespace

BOOST_AUTO_TEST_CASE(output_lines_pass_through_with_their_newline) {
    FakeHost h;
    auto a = make(h);
    a->on_line("hello");
    a->on_line("{\"type\":\"other\"}");
    a->on_line("{broken \"type\"");
    a->on_line("");
    BOOST_TEST(h.printed ==
               (std::vector<std::string>{"hello\n", "{\"type\":\"other\"}\n", "{broken \"type\"\n", "\n"}));
    BOOST_TEST(h.asks.empty());
}

BOOST_AUTO_TEST_CASE(a_request_becomes_an_ask_and_the_outcome_a_response) {
    FakeHost h;
    auto a = make(h);
    a->on_line(kAsk);
    BOOST_REQUIRE_EQUAL(h.asks.size(), 1u);
    BOOST_TEST(h.asks[0].first.questions.at(0).question == "Name?");
    Answer ans;
    ans.question = "Name?";
    ans.values = {"svc"};
    ans.was_custom = true;
    h.asks[0].second(Outcome::answered({ans}));
    BOOST_REQUIRE_EQUAL(h.sent.size(), 1u);
    auto d = parse(h.sent[0]);
    BOOST_TEST(std::string(d["type"].GetString()) == "ask_user_response");
    BOOST_TEST(std::string(d["requestId"].GetString()) == "r1");
    BOOST_TEST(d["answered"].GetBool());
    BOOST_TEST(std::string(d["answers"][0]["answer"].GetString()) == "svc");
}

// Roo Code's suggestions are offered as options; a field nobody knows is refused by name, never
// dropped (issue 33).
BOOST_AUTO_TEST_CASE(suggestions_are_options_and_unknown_fields_are_refused) {
    FakeHost h;
    auto a = make(h);
    a->on_line(
        R"({"type":"ask_user_request","requestId":"r1","questions":[{"question":"Yes or no?","suggestions":["yes","no"]}]})");
    BOOST_REQUIRE_EQUAL(h.asks.size(), 1u);
    const auto& q = h.asks[0].first.questions.at(0);
    BOOST_REQUIRE_EQUAL(q.options.size(), 2u);
    BOOST_TEST(q.options[0].label == "yes");
    BOOST_TEST(q.options[1].label == "no");

    a->on_line(
        R"({"type":"ask_user_request","requestId":"r2","questions":[{"question":"Name?","placeholder":"svc"}]})");
    a->on_line(R"({"type":"ask_user_request","requestId":"r3","questions":[{"question":"Name?"}],"timeout":30})");
    BOOST_REQUIRE_EQUAL(h.sent.size(), 2u);
    auto d = parse(h.sent[0]);
    BOOST_TEST(std::string(d["requestId"].GetString()) == "r2");
    BOOST_TEST(std::string(d["error"]["code"].GetString()) == "invalid_schema");
    BOOST_TEST(std::string(d["error"]["path"].GetString()) == "questions[0].placeholder");
    BOOST_TEST(std::string(d["error"]["message"].GetString()) == "questions[0].placeholder: unknown field");
    d = parse(h.sent[1]);
    BOOST_TEST(std::string(d["requestId"].GetString()) == "r3");
    BOOST_TEST(std::string(d["error"]["message"].GetString()) == "timeout: unknown field");
    BOOST_TEST(h.asks.size() == 1u);
}

BOOST_AUTO_TEST_CASE(duplicate_request_id_while_waiting_is_refused) {
    FakeHost h;
    auto a = make(h);
    a->on_line(kAsk);
    a->on_line(kAsk);
    BOOST_REQUIRE_EQUAL(h.sent.size(), 1u);
    auto d = parse(h.sent[0]);
    BOOST_TEST(std::string(d["error"]["code"].GetString()) == "invalid_request");
    BOOST_TEST(h.asks.size() == 1u);
}

BOOST_AUTO_TEST_CASE(cancel_withdraws_and_never_replies) {
    FakeHost h;
    auto a = make(h);
    a->on_line(kAsk);
    a->on_line(R"({"type":"ask_user_cancel","requestId":"r1"})");
    BOOST_TEST(h.withdrawn == std::vector<std::string>{"ask-1"});
    BOOST_TEST(h.sent.empty());
}

BOOST_AUTO_TEST_CASE(strict_profile_checks_only_the_tool_fields) {
    FakeHost h;
    h.prof = Profile::Strict;
    auto a = make(h);
    a->on_line(
        R"({"type":"ask_user_request","requestId":"r","questions":[{"question":"Q?","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}]}]})");
    BOOST_TEST(h.asks.size() == 1u);
    BOOST_TEST(h.sent.empty());
}

BOOST_AUTO_TEST_CASE(subagent_refused_before_validation) {
    FakeHost h;
    auto a = make(h);
    a->on_line(R"({"type":"ask_user_request","requestId":"r","subagent":true,"questions":[]})");
    BOOST_REQUIRE_EQUAL(h.sent.size(), 1u);
    auto d = parse(h.sent[0]);
    BOOST_TEST(std::string(d["error"]["code"].GetString()) == "subagent");
}

BOOST_AUTO_TEST_CASE(a_request_id_comes_back_byte_for_byte) {
    // Numbers keep their value (docs/robustness.md): a literal no double holds, or written its own way.
    for (std::string id : {"123456789012345678901234567890", "1.50", "-0", "1E+2", "7", "\"r-1\""}) {
        FakeHost h;
        auto a = make(h);
        a->on_line(R"({"type":"ask_user_request","requestId":)" + id + R"(,"subagent":true,"questions":[]})");
        BOOST_REQUIRE_EQUAL(h.sent.size(), 1u);
        BOOST_TEST(h.sent[0].rfind(R"({"type":"ask_user_response","requestId":)" + id + ",", 0) == 0u, h.sent[0]);
    }
}

BOOST_AUTO_TEST_CASE(a_request_id_that_is_no_string_or_number_is_refused_with_null) {
    for (const char* id : {"null", "true", "[1]", "{\"a\":1}"}) {
        FakeHost h;
        auto a = make(h);
        a->on_line(std::string(R"({"type":"ask_user_request","requestId":)") + id + R"(,"questions":[]})");
        BOOST_REQUIRE_EQUAL(h.sent.size(), 1u);
        BOOST_TEST(h.sent[0] ==
                   R"({"type":"ask_user_response","requestId":null,"answered":false,"error":{"code":"invalid_request",)"
                   R"("message":"requestId: required, a string or a number","path":"requestId"}})");
        BOOST_TEST(h.logs.size() == 1u);
        BOOST_TEST(h.asks.empty());
    }
}

BOOST_AUTO_TEST_CASE(a_cancel_names_the_request_as_it_was_written) {
    FakeHost h;
    auto a = make(h);
    a->on_line(
        R"({"type":"ask_user_request","requestId":123456789012345678901234567890,"questions":[{"question":"Q?"}]})");
    a->on_line(R"({"type":"ask_user_cancel","requestId":123456789012345678901234567891})");
    BOOST_TEST(h.withdrawn.empty());
    a->on_line(R"({"type":"ask_user_cancel","requestId":123456789012345678901234567890})");
    BOOST_TEST(h.withdrawn == std::vector<std::string>{"ask-1"});
    BOOST_TEST(h.sent.empty());
}

BOOST_AUTO_TEST_CASE(a_type_that_is_no_string_or_unknown_is_output) {
    FakeHost h;
    auto a = make(h);
    a->on_line(R"({"type":1,"requestId":"r"})");
    a->on_line(R"({"type":"ask_user_response","requestId":"r"})");
    a->on_line(R"(["type"])");
    BOOST_TEST(h.printed.size() == 3u);
    BOOST_TEST(h.sent.empty());
}

namespace {

Ask two_questions() {
    Ask ask;
    ask.id = "ask-1";
    ask.questions.push_back(Question{"Which DB?", "DB", {{"Postgres", "", {}}, {"SQLite", "", {}}}, false});
    ask.questions.push_back(Question{"Features?", "F", {{"Auth", "", {}}, {"API", "", {}}}, true});
    return ask;
}

}  // namespace

BOOST_AUTO_TEST_CASE(client_outcome_is_matched_by_question_and_ordered) {
    auto ask = two_questions();
    auto d = parse(R"({"answered":true,"answers":[{"question":"Features?","answer":["Auth","API"]},
                                                   {"question":"Which DB?","answer":"SQLite"}]})");
    auto parsed = parse_client_outcome(d, ask);
    BOOST_REQUIRE(parsed.has_value());
    const auto& o = *parsed;
    BOOST_TEST(o.answers.at(0).question == "Which DB?");
    BOOST_TEST(o.answers.at(0).selected_option.value_or("") == "SQLite");
    BOOST_TEST(!o.answers.at(0).was_custom);
    BOOST_TEST(o.answers.at(1).multi);
    BOOST_TEST(o.answers.at(1).values == (std::vector<std::string>{"Auth", "API"}));
}

BOOST_AUTO_TEST_CASE(client_outcome_refusals_name_the_field) {
    auto ask = two_questions();
    auto check = [&](const char* json, const std::string& message) {
        auto d = parse(json);
        auto parsed = parse_client_outcome(d, ask);
        BOOST_REQUIRE(!parsed.has_value());
        BOOST_TEST(parsed.error().message == message);
    };
    check(R"({"answers":[]})", "result.answered: expected a boolean");
    check(R"({"answered":true,"answers":[{"question":"Which DB?","answer":"SQLite"}]})",
          "result.answers: question 2 (\"Features?\") has no answer");
    check(R"({"answered":true,"answers":[{"question":"Nope","answer":"x"}]})",
          "result.answers[0].question: no such question \"Nope\"");
    check(
        R"({"answered":true,"answers":[{"question":"Which DB?","answer":""},{"question":"Features?","answer":["Auth"]}]})",
        "result.answers[0].answer: empty: an answer that says nothing is not an answer");
    check(
        R"({"answered":true,"answers":[{"question":"Which DB?","answer":["a","b"]},{"question":"Features?","answer":["Auth"]}]})",
        "result.answers[0].answer: several values for a single-choice question");
}

BOOST_AUTO_TEST_CASE(a_typed_answer_that_is_no_label_is_custom) {
    auto ask = two_questions();
    auto d = parse(
        R"({"answered":true,"answers":[{"question":"Which DB?","answer":"DynamoDB"},{"question":"Features?","answer":"Auth"}]})");
    auto o = *parse_client_outcome(d, ask);
    BOOST_TEST(o.answers[0].was_custom);
    BOOST_TEST(!o.answers[0].selected_option.has_value());
    BOOST_TEST(o.answers[1].multi);  // a multi-select question answered from a plain list
}

BOOST_AUTO_TEST_CASE(cancel_and_timeout_results) {
    auto ask = two_questions();
    auto d = parse(R"({"answered":false,"cancelled":true,"reason":"closed"})");
    auto o = *parse_client_outcome(d, ask);
    BOOST_TEST(static_cast<int>(o.kind) == static_cast<int>(OutcomeKind::Cancelled));
    BOOST_TEST(o.reason == "closed");
}

BOOST_AUTO_TEST_CASE(capabilities_downgrade_what_is_sent) {
    auto ask = two_questions();
    ask.questions[0].options[0].preview = "<b>x</b>";
    auto caps_doc = parse(R"({"ask":{"multiSelect":false,"previews":false}})");
    auto caps = parse_client_caps(caps_doc);
    auto params = parse(ask_show_params(ask, caps));
    BOOST_TEST(!params["questions"][1]["multiSelect"].GetBool());
    BOOST_TEST(!params["questions"][0]["options"][0].HasMember("preview"));
    auto full = parse(ask_show_params(ask, ClientAskCaps{}));
    BOOST_TEST(full["questions"][1]["multiSelect"].GetBool());
    BOOST_TEST(std::string(full["questions"][0]["options"][0]["preview"].GetString()) == "<b>x</b>");
}

BOOST_AUTO_TEST_CASE(repair_utf8_keeps_valid_text_and_replaces_bad_bytes) {
    BOOST_TEST(repair_utf8("héllo 中文 ✓ 😀") == "héllo 中文 ✓ 😀");
    BOOST_TEST(repair_utf8("a\xff"
                           "b") ==
               "a\xEF\xBF\xBD"
               "b");
    BOOST_TEST(repair_utf8("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong
    BOOST_TEST(repair_utf8("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
    BOOST_TEST(repair_utf8("\xE4\xB8") == "\xEF\xBF\xBD");  // cut short: one maximal subpart, one U+FFFD
}
