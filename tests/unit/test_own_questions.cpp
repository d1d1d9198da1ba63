#define BOOST_TEST_MODULE own_questions
#include <boost/test/unit_test.hpp>

#include <string>

#include <rapidjson/document.h>

#include "../../plugins/mcp/own_questions.hpp"

using namespace askhost;
using namespace askhost::mcp;

namespace {

rapidjson::Document doc(const std::string& text) {
    rapidjson::Document d;
    d.Parse(text.c_str(), text.size());
    BOOST_REQUIRE(!d.HasParseError());
    return d;
}

// Gemini CLI 0.61's BeforeTool input for ask_user, one question of each type.
const std::string kGemini =
    R"j({"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"BeforeTool","tool_name":"ask_user",)j"
    R"j("tool_input":{"questions":[)j"
    R"j({"question":"Which database?","header":"Database","type":"choice","options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"File"}]},)j"
    R"j({"question":"Which features?","header":"Features 16chars","type":"choice","multiSelect":true,"options":[{"label":"Auth","description":"a"},{"label":"Search","description":"s"}]},)j"
    R"j({"question":"Service name?","header":"Name","type":"text","placeholder":"order-service"},)j"
    R"j({"question":"Deploy?","header":"Deploy","type":"yesno"}]}})j";

const std::string kCodex =
    R"j({"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"request_user_input","tool_use_id":"c1",)j"
    R"j("tool_input":{"questions":[)j"
    R"j({"id":"db","header":"Database","question":"Which database?","isOther":true,"isSecret":false,"options":[{"label":"PostgreSQL","description":"r"},{"label":"SQLite","description":"f"}]},)j"
    R"j({"id":"name","header":"Name","question":"Service name?","isOther":false,"isSecret":false,"options":null}]}})j";

Answer answer(std::string q, std::vector<std::string> values, std::string notes = {}) {
    Answer a;
    a.question = std::move(q);
    a.multi = values.size() > 1;
    a.values = std::move(values);
    a.notes = std::move(notes);
    return a;
}

}  // namespace

BOOST_AUTO_TEST_CASE(gemini_shapes_map) {
    auto d = doc(kGemini);
    OwnRequest r = read_gemini_request(d);
    BOOST_REQUIRE(r.kind == OwnRequest::Kind::Question);
    BOOST_TEST(r.ask.agent == "gemini");
    BOOST_TEST(r.ask.route == "hook");
    BOOST_TEST(r.ask.cwd == "/p");
    BOOST_TEST((r.ask.profile == Profile::Lenient));
    const auto& q = r.ask.questions;
    BOOST_REQUIRE(q.size() == 4u);
    BOOST_TEST(q[0].options.size() == 2u);
    BOOST_TEST(q[0].options[1].description == "File");
    BOOST_TEST(!q[0].multi_select);
    BOOST_TEST(q[1].multi_select);
    BOOST_TEST(q[1].header == "Features 16chars");
    BOOST_TEST(q[2].options.empty());
    BOOST_TEST(q[2].question == "Service name?\n(for example: order-service)");
    BOOST_TEST(q[3].options.size() == 2u);
    BOOST_TEST(q[3].options[0].label == "Yes");
    BOOST_TEST(q[3].options[1].label == "No");
    BOOST_TEST(r.texts[2] == "Service name?");
}

BOOST_AUTO_TEST_CASE(gemini_answer_in_words_and_question_order) {
    auto d = doc(kGemini);
    OwnRequest r = read_gemini_request(d);
    // Given out of order, one with notes, one unanswered.
    auto out =
        own_reply(r, Outcome::answered({answer("Deploy?", {"Yes"}), answer("Which database?", {"SQLite"}, "small"),
                                        answer("Which features?", {"Auth", "Search"})}));
    auto o = doc(out);
    BOOST_TEST(std::string(o["decision"].GetString()) == "deny");
    BOOST_TEST(std::string(o["reason"].GetString()) ==
               "The user answered your questions (in askhost, so the tool shows no result of its own; this is the "
               "user's answer, not an error): \"Which database?\"=\"SQLite\" (user's notes: small), \"Which "
               "features?\"=\"Auth, Search\", \"Service name?\"=(no answer), \"Deploy?\"=\"Yes\". Continue with these "
               "answers in mind; do not ask them again.");
}

BOOST_AUTO_TEST_CASE(cancel_is_a_decline_and_the_rest_gives_the_question_back) {
    auto d = doc(kGemini);
    OwnRequest r = read_gemini_request(d);
    auto o = doc(own_reply(r, Outcome::cancelled()));
    BOOST_TEST(std::string(o["reason"].GetString()) == "User declined to answer questions");
    BOOST_TEST(own_reply(r, Outcome::timed_out()).empty());
    BOOST_TEST(own_reply(r, Outcome::connection_lost()).empty());
    BOOST_TEST(own_reply(r, Outcome::pending("f", 1)).empty());
}

BOOST_AUTO_TEST_CASE(codex_ids_key_the_answers) {
    auto d = doc(kCodex);
    OwnRequest r = read_codex_request(d);
    BOOST_REQUIRE(r.kind == OwnRequest::Kind::Question);
    BOOST_TEST(r.ask.agent == "codex");
    BOOST_TEST(r.keys[0] == "db");
    BOOST_TEST(r.keys[1] == "name");
    BOOST_TEST(r.ask.questions[1].options.empty());
    auto o = doc(
        own_reply(r, Outcome::answered({answer("Which database?", {"SQLite"}), answer("Service name?", {"orders"})})));
    const auto& spec = o["hookSpecificOutput"];
    BOOST_TEST(std::string(spec["hookEventName"].GetString()) == "PreToolUse");
    BOOST_TEST(std::string(spec["permissionDecision"].GetString()) == "deny");
    const std::string reason = spec["permissionDecisionReason"].GetString();
    BOOST_TEST(reason.find("[db] \"Which database?\"=\"SQLite\", [name] \"Service name?\"=\"orders\".") !=
               std::string::npos);
}

BOOST_AUTO_TEST_CASE(codex_subagent_refused_secret_left) {
    auto d = doc(
        R"j({"hook_event_name":"PreToolUse","tool_name":"request_user_input","agent_id":"a1","tool_input":{"questions":[{"id":"x","question":"Q?","options":null}]}})j");
    OwnRequest r = read_codex_request(d);
    BOOST_REQUIRE(r.kind == OwnRequest::Kind::Reply);
    BOOST_TEST(r.reply.find("Only the main conversation can ask the user questions") != std::string::npos);
    auto s = doc(
        R"j({"hook_event_name":"PreToolUse","tool_name":"request_user_input","tool_input":{"questions":[{"id":"x","question":"Token?","isSecret":true,"options":null}]}})j");
    BOOST_TEST((read_codex_request(s).kind == OwnRequest::Kind::NotOurs));
}

BOOST_AUTO_TEST_CASE(not_ours_and_bad_input) {
    for (
        const char* text : {
            R"j({"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{}})j",
            R"j({"hook_event_name":"AfterTool","tool_name":"ask_user","tool_input":{"questions":[]}})j",
            R"j({"hook_event_name":"BeforeTool","tool_name":"ask_user","tool_input":{"questions":"x"}})j",
            R"j({"hook_event_name":"BeforeTool","tool_name":"ask_user","tool_input":{"questions":[{"question":""}]}})j",
            R"j({"hook_event_name":"BeforeTool","tool_name":"ask_user","tool_input":{"questions":[{"question":"a","type":"choice","options":[{"label":"x"},{"label":"x"}]}]}})j",
        }) {
        auto d = doc(text);
        BOOST_TEST((read_gemini_request(d).kind == OwnRequest::Kind::NotOurs), text);
    }
}

// ---- the calls read back from the agents' records, for the compactions ----------------------

namespace {

const Answer* answer_to(const RecordedResult& r, const std::string& q) {
    for (const auto& a : r.answers)
        if (a.question == q) return &a;
    return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_CASE(askhosts_words_read_back_question_by_question) {
    auto d = doc(kGemini);
    OwnRequest r = read_gemini_request(d);
    const OwnCall call = own_call_of(OwnTool::GeminiAskUser, d["tool_input"]);
    BOOST_REQUIRE(call.questions.size() == 4u);
    BOOST_TEST(call.questions[2].question == "Service name?");  // as the agent asked it, no hint
    BOOST_TEST(call.keys[3] == "3");
    const std::string reason = doc(own_reply(
        r, Outcome::answered({answer("Which database?", {"SQLite"}, "small"),
                              answer("Which features?", {"Auth", "Search"}),
                              answer("Service name?\n(for example: order-service)", {"billing"})})))["reason"]
                                   .GetString();
    const RecordedResult got = read_own_result(call, "Tool execution blocked: " + reason, true);
    BOOST_TEST((got.kind == RecordedResult::Kind::Answered));
    BOOST_REQUIRE(answer_to(got, "Which database?"));
    BOOST_TEST(answer_to(got, "Which database?")->values == std::vector<std::string>{"SQLite"});
    BOOST_REQUIRE(answer_to(got, "Which features?"));
    BOOST_TEST((answer_to(got, "Which features?")->values == std::vector<std::string>{"Auth", "Search"}));
    BOOST_REQUIRE(answer_to(got, "Service name?"));
    BOOST_TEST(answer_to(got, "Service name?")->values.at(0) == "billing");
    BOOST_TEST(answer_to(got, "Service name?")->was_custom);
    BOOST_TEST(!answer_to(got, "Deploy?"));  // (no answer)

    auto c = doc(kCodex);
    OwnRequest cr = read_codex_request(c);
    const OwnCall codex = own_call_of(OwnTool::CodexRequestUserInput, c["tool_input"]);
    BOOST_TEST(codex.keys[0] == "db");
    const std::string words = doc(own_reply(
        cr, Outcome::answered({answer("Which database?", {"PostgreSQL"}),
                               answer("Service name?", {"orders"})})))["hookSpecificOutput"]["permissionDecisionReason"]
                                  .GetString();
    const RecordedResult cg =
        read_own_result(codex, "Tool call blocked by PreToolUse hook: " + words + ". Tool: request_user_input", false);
    BOOST_TEST((cg.kind == RecordedResult::Kind::Answered));
    BOOST_REQUIRE(cg.answers.size() == 2u);
    BOOST_TEST(answer_to(cg, "Which database?")->values.at(0) == "PostgreSQL");
    BOOST_TEST(answer_to(cg, "Service name?")->values.at(0) == "orders");
}

BOOST_AUTO_TEST_CASE(the_agents_own_dialogs_results_and_declines) {
    auto d = doc(kGemini);
    const OwnCall gemini = own_call_of(OwnTool::GeminiAskUser, d["tool_input"]);
    const RecordedResult own = read_own_result(gemini, R"j({"answers":{"0":"SQLite","3":"No"}})j", false);
    BOOST_TEST((own.kind == RecordedResult::Kind::Answered));
    BOOST_TEST(answer_to(own, "Which database?")->values.at(0) == "SQLite");
    BOOST_TEST(answer_to(own, "Deploy?")->values.at(0) == "No");
    BOOST_TEST((read_own_result(gemini, "User dismissed ask_user dialog without answering.", false).kind ==
                RecordedResult::Kind::Cancelled));
    BOOST_TEST((read_own_result(gemini, "Tool execution blocked: User declined to answer questions", true).kind ==
                RecordedResult::Kind::Cancelled));
    BOOST_TEST((read_own_result(gemini, R"j({"answers":{}})j", false).kind == RecordedResult::Kind::Unreadable));

    auto c = doc(kCodex);
    const OwnCall codex = own_call_of(OwnTool::CodexRequestUserInput, c["tool_input"]);
    const RecordedResult cg =
        read_own_result(codex, R"j({"answers":{"db":{"answers":["SQLite"]},"name":{"answers":["billing"]}}})j", false);
    BOOST_TEST((cg.kind == RecordedResult::Kind::Answered));
    BOOST_TEST(answer_to(cg, "Which database?")->values.at(0) == "SQLite");
    BOOST_TEST(answer_to(cg, "Service name?")->values.at(0) == "billing");
    // A secret question is never askhost's to tell.
    auto s = doc(R"j({"questions":[{"id":"x","question":"Token?","isSecret":true,"options":null}]})j");
    BOOST_TEST(own_call_of(OwnTool::CodexRequestUserInput, s).questions.empty());
}
