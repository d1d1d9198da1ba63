#define BOOST_TEST_MODULE opencode
#include <boost/test/unit_test.hpp>

#include <string>

#include "json/json_access.hpp"
#include "opencode/opencode_compaction.hpp"
#include "opencode/opencode_permission.hpp"
#include "opencode/opencode_question.hpp"
#include "store/session_summary.hpp"

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

namespace {

// OpenCode 1.18's permission.asked for its bash tool, as the plugin writes it (with the folder).
const std::string kPermission =
    R"j({"id":"per_1","sessionID":"ses_1","directory":"/work/project","permission":"bash",)j"
    R"j("patterns":["git push origin main"],"always":["git push *"],"metadata":{"command":"git push origin main"},)j"
    R"j("tool":{"messageID":"msg_1","callID":"call_1"}})j";

PermissionAsk read_permission(const std::string& text) {
    rapidjson::Document doc;
    BOOST_REQUIRE(!json::parse(doc, text));
    return read_permission_request(doc);
}

Outcome picked(const PermissionAsk& p, const std::string& label) {
    Answer a;
    a.question = p.ask.questions.at(0).question;
    a.values = {label};
    a.selected_option = label;
    return Outcome::answered({a});
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_permission_prompt_becomes_a_typed_permission_with_opencodes_three_replies) {
    const auto p = read_permission(kPermission);
    BOOST_TEST_REQUIRE(p.ours, p.why);
    BOOST_TEST(p.id == "per_1");
    BOOST_TEST(p.session == "ses_1");
    BOOST_TEST((p.ask.agent == "opencode" && p.ask.route == "plugin" && p.ask.cwd == "/work/project"));
    BOOST_TEST_REQUIRE(p.ask.questions.size() == 1u);
    BOOST_TEST(p.ask.questions[0].question.find("git push origin main") != std::string::npos);
    BOOST_TEST_REQUIRE(p.ask.permission.has_value());
    const Permission& typed = *p.ask.permission;
    BOOST_TEST(typed.tool == "bash");
    BOOST_TEST(typed.command == "git push origin main");
    BOOST_TEST_REQUIRE(typed.options.size() == 3u);
    BOOST_TEST(typed.options[0].label == "Allow once");
    BOOST_TEST((typed.options[0].kind == PermissionKind::AllowOnce));
    BOOST_TEST(typed.options[1].label == "Always allow");
    BOOST_TEST((typed.options[1].kind == PermissionKind::AllowAlways));
    BOOST_TEST(typed.options[2].label == "Reject");
    BOOST_TEST((typed.options[2].kind == PermissionKind::RejectOnce));
    // "Always" says what OpenCode will keep allowing: its own `always` patterns.
    BOOST_TEST(p.ask.questions[0].options[1].description.find("git push *") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(each_choice_is_opencodes_reply_and_a_typed_answer_a_reject_with_its_words) {
    const auto p = read_permission(kPermission);
    BOOST_TEST(permission_reply(p, picked(p, "Allow once")) == "{\"reply\":\"once\"}\n");
    BOOST_TEST(permission_reply(p, picked(p, "Always allow")) == "{\"reply\":\"always\"}\n");
    BOOST_TEST(permission_reply(p, picked(p, "Reject")) == "{\"reply\":\"reject\"}\n");
    Answer typed;
    typed.question = p.ask.questions[0].question;
    typed.values = {"push to a branch instead"};
    typed.was_custom = true;
    BOOST_TEST(permission_reply(p, Outcome::answered({typed})) ==
               "{\"reply\":\"reject\",\"message\":\"push to a branch instead\"}\n");
    BOOST_TEST(permission_reply(p, Outcome::cancelled("Esc")) == "{\"reply\":\"reject\"}\n");
    // Nobody answered in askhost: OpenCode's own prompt stays the one that answers.
    BOOST_TEST(permission_reply(p, Outcome::timed_out()).empty());
    BOOST_TEST(permission_reply(p, Outcome::connection_lost()).empty());
}

BOOST_AUTO_TEST_CASE(an_edit_and_an_unknown_kind_are_shown_and_a_bad_request_left_to_opencode) {
    const auto edit =
        read_permission(R"j({"id":"per_2","sessionID":"s","permission":"edit","patterns":["src/a.ts"],"always":["*"],)j"
                        R"j("metadata":{"filepath":"/work/project/src/a.ts","diff":"--- a\n+++ b\n+x"}})j");
    BOOST_TEST_REQUIRE(edit.ours, edit.why);
    BOOST_TEST(edit.ask.permission->path == "/work/project/src/a.ts");
    BOOST_TEST(edit.ask.permission->content == "--- a\n+++ b\n+x");
    BOOST_TEST(edit.ask.questions[0].question.find("Allow edit: /work/project/src/a.ts?") != std::string::npos);
    const auto other =
        read_permission(R"j({"id":"per_3","sessionID":"s","permission":"doom_loop","patterns":["read"]})j");
    BOOST_TEST_REQUIRE(other.ours, other.why);
    BOOST_TEST(other.ask.questions[0].question.find("doom_loop read") != std::string::npos);
    for (const std::string bad : {R"j([])j", R"j({"id":"per_4"})j", R"j({"permission":"bash"})j"})
        BOOST_TEST(!read_permission(bad).ours, bad);
}

BOOST_AUTO_TEST_CASE(the_sessions_question_calls_become_the_compactions_words) {
    rapidjson::Document doc;
    BOOST_REQUIRE(!json::parse(
        doc,
        R"j({"calls":[)j"
        // answered (in askhost or OpenCode's dialog alike): OpenCode's answers by position
        R"j({"status":"completed","questions":[{"question":"Which database?","header":"DB","options":[{"label":"PostgreSQL (Recommended)"},{"label":"SQLite"}]},)j"
        R"j({"question":"Which features?","header":"F","multiple":true,"options":[{"label":"Auth"},{"label":"REST API"}]}],)j"
        R"j("answers":[["SQLite"],["Auth","REST API"]]},)j"
        // a typed answer; dismissed; still running; nothing asked
        R"j({"status":"completed","questions":[{"question":"Name?","header":"N","options":[{"label":"api"}]}],"answers":[["billing"]]},)j"
        R"j({"status":"error","questions":[{"question":"Deploy?","header":"D","options":[{"label":"Yes"},{"label":"No"}]}]},)j"
        R"j({"status":"running","questions":[{"question":"Later?","header":"L","options":[]}]},)j"
        R"j({"status":"completed","questions":[]},7]})j"));
    const auto exchanges = exchanges_of_calls(doc);
    BOOST_TEST_REQUIRE(exchanges.size() == 3u);
    BOOST_TEST(exchanges[0].agent == "opencode");
    const std::string words = compaction_context(exchanges);
    BOOST_TEST(words.find("Keep in the summary what the user decided when asked") == 0u);
    BOOST_TEST(words.find("User was asked \"Which database?\" and chose SQLite.") != std::string::npos, words);
    BOOST_TEST(words.find("User was asked \"Which features?\" and chose Auth and REST API.") != std::string::npos,
               words);
    BOOST_TEST(words.find("User was asked \"Name?\" and answered 'billing'.") != std::string::npos, words);
    BOOST_TEST(words.find("User was asked \"Deploy?\" and declined to answer.") != std::string::npos, words);
    BOOST_TEST(words.find("Later?") == std::string::npos, words);
    BOOST_TEST(compaction_context(exchanges_of_calls(rapidjson::Value(rapidjson::kObjectType))).empty());
}
