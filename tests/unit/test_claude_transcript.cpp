// Claude Code's transcript, read in one place (plugins/claude/claude_transcript): what askhost hook
// reads for compaction and for "answered in Claude's own dialog", and what askhost mcp reads for
// whose tool_use a call is.
#define BOOST_TEST_MODULE claude_transcript
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "claude/claude_transcript.hpp"
#include "claude/compact_hook.hpp"

using namespace askhost;
using namespace askhost::claude;
namespace fs = std::filesystem;

namespace {

// Transcript lines as Claude Code 2.1.197 writes them (one JSON object a line, no spaces).
const std::string kAsk =
    R"j({"type":"assistant","isSidechain":false,"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"AskUserQuestion","input":{"questions":[)j"
    R"j({"question":"Which database should we use?","header":"Database","multiSelect":false,"options":[{"label":"PostgreSQL (Recommended)"},{"label":"SQLite"}]},)j"
    R"j({"question":"Which features should we include?","header":"Features","multiSelect":true,"options":[{"label":"Authentication"},{"label":"REST API"}]}]}}]}})j"
    "\n";
const std::string kAnswered =
    R"j({"type":"user","isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"Your questions have been answered."}]},)j"
    R"j("toolUseResult":{"questions":[],"answers":{"Which database should we use?":"PostgreSQL (Recommended)","Which features should we include?":"Authentication, REST API"}}})j"
    "\n";
// askhost mcp's result: the model text (the transcript keeps the content).
const std::string kMcpAsk =
    R"j({"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_02","name":"mcp__ask__ask_user_question","input":{"questions":[)j"
    R"j({"question":"What should we name this service?","header":"Name","options":[{"label":"api"},{"label":"svc"}]}]}}]}})j"
    "\n";
const std::string kMcpAnswered =
    R"j({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_02","content":[{"type":"text","text":"User has answered your questions: \"What should we name this service?\"=\"order-processor\". You can now continue with the user's answers in mind."}]}]}})j"
    "\n";
// askhost mcp's structuredContent, as Claude Code keeps it: JSON text.
const std::string kMcpStructured =
    R"j({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_05","content":"{\"answers\":{\"Which database should we use?\":\"SQLite\"}}"}]},"toolUseResult":"{\"answers\":{\"Which database should we use?\":\"SQLite\"}}"})j"
    "\n";
const std::string kSideAsk =
    R"j({"type":"assistant","isSidechain":true,"message":{"content":[{"type":"tool_use","id":"toolu_03","name":"mcp__ask__ask_user_question","input":{"questions":[{"question":"Sub?","options":[{"label":"a"},{"label":"b"}]}]}}]}})j"
    "\n";
const std::string kDeclinedAsk =
    R"j({"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_04","name":"AskUserQuestion","input":{"questions":[{"question":"Deploy now?","options":[{"label":"Yes"},{"label":"No"}]}]}}]}})j"
    "\n";
const std::string kDeclined =
    R"j({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_04","is_error":true,"content":"User declined to answer questions"}]}})j"
    "\n";

}  // namespace

BOOST_AUTO_TEST_CASE(the_transcripts_questions_become_the_summary_prose) {
    const auto ex = exchanges_in_transcript(kAsk + kAnswered + kMcpAsk + kMcpAnswered + kSideAsk + kDeclinedAsk +
                                            kDeclined + "not json\n");
    BOOST_REQUIRE(ex.size() == 3u);
    BOOST_TEST(ex[0].outcome == "answered");
    BOOST_TEST(ex[0].answers[1].values == (std::vector<std::string>{"Authentication", "REST API"}));
    BOOST_TEST(ex[1].answers[0].values == (std::vector<std::string>{"order-processor"}));
    BOOST_TEST(ex[2].outcome == "cancelled");
    BOOST_TEST(compaction_instructions(ex) ==
               "Keep in the summary what the user decided when asked, as it stands here (these are the user's own "
               "answers; later work should follow them): User was asked \"Which database should we use?\" and chose "
               "PostgreSQL. User was asked \"Which features should we include?\" and chose Authentication and REST "
               "API. User was asked \"What should we name this service?\" and answered 'order-processor'. User was "
               "asked \"Deploy now?\" and declined to answer.");
}

BOOST_AUTO_TEST_CASE(structured_content_kept_as_json_text) {
    std::string ask = kAsk;
    ask.replace(ask.find("toolu_01"), 8, "toolu_05");
    const auto ex = exchanges_in_transcript(ask + kMcpStructured);
    BOOST_REQUIRE(ex.size() == 1u);
    BOOST_TEST(ex[0].answers.size() == 1u);
    BOOST_TEST(ex[0].answers[0].values == (std::vector<std::string>{"SQLite"}));
}

BOOST_AUTO_TEST_CASE(nothing_asked_prints_nothing) {
    BOOST_TEST(compaction_instructions(exchanges_in_transcript(kAsk)).empty());  // no result yet
    BOOST_TEST(compaction_instructions(exchanges_in_transcript(kSideAsk)).empty());
    BOOST_TEST(compaction_instructions(exchanges_in_transcript("")).empty());
}

BOOST_AUTO_TEST_CASE(a_tool_result_says_claudes_own_dialog_answered) {
    BOOST_TEST(holds_tool_result(kAnswered));
    BOOST_TEST(holds_tool_result("{}\n" + kDeclined));
    BOOST_TEST(!holds_tool_result(kAsk + "{}\n"));
    // The words alone are no result: a line that is no JSON, or text that mentions one.
    BOOST_TEST(!holds_tool_result(R"j({"type":"user","message":{"content":"what is a \"tool_result\"?"}})j"));
    BOOST_TEST(!holds_tool_result(R"j({"type":"user","message":{"content":[{"type":"tool_result")j"));
}

BOOST_AUTO_TEST_CASE(a_tool_use_is_the_main_conversations_or_a_sidechains) {
    BOOST_TEST((tool_use_in(kAsk + kAnswered, "toolu_01") == ToolUse::Main));
    BOOST_TEST((tool_use_in(kAsk + kSideAsk, "toolu_03") == ToolUse::Sidechain));
    // The result names the call's id too: it is no tool_use.
    BOOST_TEST((tool_use_in(kAnswered, "toolu_01") == ToolUse::None));
    BOOST_TEST((tool_use_in(kAsk, "toolu_0") == ToolUse::None));
    BOOST_TEST((tool_use_in("", "toolu_01") == ToolUse::None));
}

BOOST_AUTO_TEST_CASE(the_caller_is_found_in_the_sessions_transcripts) {
    char tmpl[] = "/tmp/askhost-transcript-XXXXXX";
    BOOST_REQUIRE(::mkdtemp(tmpl));
    const fs::path projects = fs::path(tmpl) / "projects";
    const ClaudeTranscripts t{projects, "s1"};
    BOOST_TEST(!t.session_written());
    BOOST_TEST((t.caller_of("toolu_01") == ClaudeTranscripts::Caller::Unknown));
    // A sub-agent's own transcript, written before the session's: every line of it is the sub-agent's.
    const fs::path folder = projects / "-tmp-project";
    fs::create_directories(folder / "s1" / "subagents");
    BOOST_TEST(t.session_written());
    std::ofstream(folder / "s1" / "subagents" / "agent-a1.jsonl") << kMcpAsk;
    BOOST_TEST((t.caller_of("toolu_02") == ClaudeTranscripts::Caller::Subagent));
    // The session's own: the main conversation's, or a sidechain line of an older version.
    std::ofstream(folder / "s1.jsonl") << kAsk << kSideAsk;
    BOOST_TEST((t.caller_of("toolu_01") == ClaudeTranscripts::Caller::Main));
    BOOST_TEST((t.caller_of("toolu_03") == ClaudeTranscripts::Caller::Subagent));
    BOOST_TEST((t.caller_of("toolu_04") == ClaudeTranscripts::Caller::Unknown));
    // An id Claude Code does not write is looked for nowhere; a link is not followed.
    BOOST_TEST((t.caller_of("toolu_01\"") == ClaudeTranscripts::Caller::Unknown));
    std::ofstream(folder / "elsewhere.jsonl") << kAsk;
    fs::remove(folder / "s1.jsonl");
    fs::create_symlink(folder / "elsewhere.jsonl", folder / "s1.jsonl");
    BOOST_TEST((t.caller_of("toolu_01") == ClaudeTranscripts::Caller::Unknown));
    fs::remove_all(tmpl);
}

BOOST_AUTO_TEST_CASE(what_was_appended_since_a_point) {
    char tmpl[] = "/tmp/askhost-transcript-XXXXXX";
    BOOST_REQUIRE(::mkdtemp(tmpl));
    const fs::path file = fs::path(tmpl) / "t.jsonl";
    std::ofstream(file) << kAsk;
    const auto from = static_cast<off_t>(fs::file_size(file));
    std::ofstream(file, std::ios::app) << kAnswered;
    BOOST_TEST(transcript_since(file, from) == kAnswered);
    BOOST_TEST(!holds_tool_result(transcript_since(file, 0).substr(0, kAsk.size())));
    BOOST_TEST(transcript_since(fs::path(tmpl) / "none.jsonl", 0).empty());
    fs::remove_all(tmpl);
}
