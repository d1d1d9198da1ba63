#define BOOST_TEST_MODULE opencode
#include <boost/test/unit_test.hpp>

#include <string>

#include "json/json_access.hpp"
#include "opencode/opencode_question.hpp"

using namespace askhost;
using namespace askhost::opencode;

namespace {

// A request as askhost's OpenCode plugin writes it: OpenCode 1.18's question.asked, with the folder.
const std::string kRequest =
    R"j({"id":"que_1","sessionID":"ses_1","directory":"/work/project","questions":[)j"
    R"j({"question":"Which database should we use?","header":"Database of the new service (30)","options":[{"label":"PostgreSQL","description":"Battle-tested"},{"label":"SQLite","description":"File-based"}]},)j"
    R"j({"question":"Which features should we include?","header":"Features","multiple":true,"custom":false,"options":[{"label":"Auth","description":"OAuth2"},{"label":"REST API","description":"OpenAPI"},{"label":"Admin","description":"A web UI"}]}]})j";

QuestionRequest read(const std::string& text) {
    rapidjson::Document doc;
    BOOST_REQUIRE(!json::parse(doc, text));
    return read_question_request(doc);
}

Answer answer(std::string q, std::vector<std::string> values, bool multi = false) {
    Answer a;
    a.question = std::move(q);
    a.values = std::move(values);
    a.multi = multi;
    return a;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_request_becomes_an_ask_with_every_field) {
    const auto r = read(kRequest);
    BOOST_TEST_REQUIRE(r.ours, r.why);
    BOOST_TEST(r.id == "que_1");
    BOOST_TEST(r.session == "ses_1");
    BOOST_TEST(r.ask.agent == "opencode");
    BOOST_TEST(r.ask.route == "plugin");
    BOOST_TEST(r.ask.cwd == "/work/project");
    BOOST_TEST((r.ask.profile == Profile::Lenient));
    BOOST_TEST_REQUIRE(r.ask.questions.size() == 2u);
    const auto& db = r.ask.questions[0];
    BOOST_TEST(db.question == "Which database should we use?");
    BOOST_TEST(db.header == "Database of the new service (30)");  // OpenCode's headers go up to 30
    BOOST_TEST(!db.multi_select);
    BOOST_TEST_REQUIRE(db.options.size() == 2u);
    BOOST_TEST(db.options[1].label == "SQLite");
    BOOST_TEST(db.options[1].description == "File-based");
    BOOST_TEST(r.ask.questions[1].multi_select);
    BOOST_TEST(r.ask.questions[1].options.size() == 3u);
}

BOOST_AUTO_TEST_CASE(answers_come_back_in_the_order_of_the_questions) {
    const auto r = read(kRequest);
    // The editor's answers in another order: OpenCode's reply follows its questions.
    const auto out =
        question_reply(r, Outcome::answered({answer("Which features should we include?", {"Auth", "REST API"}, true),
                                             answer("Which database should we use?", {"SQLite"})}));
    BOOST_TEST(out == "{\"answers\":[[\"SQLite\"],[\"Auth\",\"REST API\"]]}\n");
    // A typed answer goes as it is; a multi-select left empty is [].
    const auto typed = question_reply(r, Outcome::answered({answer("Which database should we use?", {"DuckDB \"x\""}),
                                                            answer("Which features should we include?", {}, true)}));
    BOOST_TEST(typed == "{\"answers\":[[\"DuckDB \\\"x\\\"\"],[]]}\n");
}

BOOST_AUTO_TEST_CASE(a_decline_rejects_and_the_rest_leaves_opencodes_dialog) {
    const auto r = read(kRequest);
    BOOST_TEST(question_reply(r, Outcome::cancelled("no")) == "{\"reject\":true}\n");
    BOOST_TEST(question_reply(r, Outcome::timed_out()).empty());
    BOOST_TEST(question_reply(r, Outcome::connection_lost()).empty());
    BOOST_TEST(question_reply(r, Outcome::pending("/p.json", 2)).empty());
}

BOOST_AUTO_TEST_CASE(what_askhost_cannot_ask_is_left_to_opencode) {
    for (const std::string bad : {
             R"j([])j",
             R"j({"sessionID":"s","questions":[{"question":"Q?","options":[]}]})j",           // no id
             R"j({"id":"que_1","questions":[]})j",                                            // no questions
             R"j({"id":"que_1","questions":[7]})j",                                           // not an object
             R"j({"id":"que_1","questions":[{"question":"","options":[]}]})j",                // empty text
             R"j({"id":"que_1","questions":[{"question":"Q?"},{"question":"Q?"}]})j",         // the same twice
             R"j({"id":"que_1","questions":[{"question":"Q?","options":[1,2]}]})j",           // options not objects
             R"j({"id":"que_1","questions":[{"question":"Q?","options":[{"label":""}]}]})j",  // empty label
         }) {
        const auto r = read(bad);
        BOOST_TEST(!r.ours, bad);
        BOOST_TEST(!r.why.empty(), bad);
    }
}
