#define BOOST_TEST_MODULE claude_adapter
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "../../plugins/claude/claude_tools.hpp"
#include "../../plugins/claude/hook_reply.hpp"
#include "core/adapter.hpp"
#include "fake_adapter_host.hpp"
#include "parsed.hpp"

using namespace askhost;

namespace askhost {
void register_claude_adapter(AdapterRegistry&);
std::vector<std::string> claude_control_argv(const std::vector<std::string>& argv, std::string& prompt);
}  // namespace askhost

namespace {

using testing::FakeHost;

std::unique_ptr<AgentAdapter> make(FakeHost& host) {
    host.prof = Profile::Strict;
    return testing::make_adapter(register_claude_adapter, "claude", host);
}

using testing::parse;

const std::string kAsk =
    R"J({"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"AskUserQuestion","input":{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"relational"},{"label":"SQLite","description":"a file"}],"multiSelect":false}]},"tool_use_id":"toolu_1"}})J";

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
    return out;
}

Answer one(std::string q, std::string v) {
    Answer a;
    a.question = std::move(q);
    a.values = {std::move(v)};
    return a;
}

}  // namespace

BOOST_AUTO_TEST_CASE(argv_gets_the_control_channel_and_loses_its_prompt) {
    std::string prompt;
    auto argv = claude_control_argv({"claude", "--model", "opus", "set up", "the project"}, prompt);
    BOOST_TEST(joined(argv) ==
               "claude --model opus -p --input-format stream-json --output-format stream-json "
               "--verbose --permission-prompt-tool stdio");
    BOOST_TEST(prompt == "set up the project");
    argv = claude_control_argv(
        {"claude", "-p", "--output-format", "text", "--allowedTools", "Bash", "Edit", "--verbose"}, prompt);
    BOOST_TEST(joined(argv) ==
               "claude -p --allowedTools Bash Edit --verbose --input-format stream-json "
               "--output-format stream-json --permission-prompt-tool stdio");
    BOOST_TEST(prompt.empty());
    argv = claude_control_argv({"claude", "--resume", "abc", "--output-format=json", "hello"}, prompt);
    BOOST_TEST(joined(argv) ==
               "claude --resume abc -p --input-format stream-json --output-format stream-json "
               "--verbose --permission-prompt-tool stdio");
    BOOST_TEST(prompt == "hello");
}

BOOST_AUTO_TEST_CASE(ask_user_question_is_answered_with_updated_input) {
    FakeHost host;
    auto a = make(host);
    a->on_line(kAsk);
    BOOST_REQUIRE(host.asks.size() == 1u);
    BOOST_TEST(host.asks[0].first.questions[0].header == "Database");
    auto answer = one("Which database?", "SQLite");
    answer.notes = "small";
    host.asks[0].second(Outcome::answered({answer}));
    auto d = parse(host.sent.back());
    const auto& r = d["response"];
    BOOST_TEST(std::string(r["request_id"].GetString()) == "r1");
    BOOST_TEST(std::string(r["response"]["behavior"].GetString()) == "allow");
    const auto& in = r["response"]["updatedInput"];
    BOOST_TEST(std::string(in["answers"]["Which database?"].GetString()) == "SQLite");
    BOOST_TEST(std::string(in["annotations"]["Which database?"]["notes"].GetString()) == "small");
    BOOST_TEST(in["questions"].Size() == 1u);
}

BOOST_AUTO_TEST_CASE(cancel_denies_and_cancel_request_withdraws) {
    FakeHost host;
    auto a = make(host);
    a->on_line(kAsk);
    host.asks[0].second(Outcome::cancelled());
    auto d = parse(host.sent.back());
    BOOST_TEST(std::string(d["response"]["response"]["behavior"].GetString()) == "deny");
    BOOST_TEST(std::string(d["response"]["response"]["message"].GetString()) == "User declined to answer questions");
    a->on_line(kAsk);
    host.asks[1].second(Outcome::cancelled("no terminal"));
    BOOST_TEST(std::string(parse(host.sent.back())["response"]["response"]["message"].GetString()) ==
               "User declined to answer questions (no terminal)");
    a->on_line(kAsk);
    a->on_line(R"({"type":"control_cancel_request","request_id":"r1"})");
    BOOST_TEST(host.withdrawn == std::vector<std::string>{"ask-3"});
}

BOOST_AUTO_TEST_CASE(invalid_questions_are_denied_naming_the_field) {
    FakeHost host;
    auto a = make(host);
    a->on_line(
        R"({"type":"control_request","request_id":"r2","request":{"subtype":"can_use_tool","tool_name":"AskUserQuestion","input":{"questions":[{"question":"Q?","header":"H","options":[{"label":"A"}]}]}}})");
    BOOST_TEST(host.asks.empty());
    auto d = parse(host.sent.back());
    BOOST_TEST(std::string(d["response"]["response"]["message"].GetString()) ==
               R"(Invalid AskUserQuestion input: questions[0].options: Question "Q?" must have 2-4 options)");
}

// Each tool request's input is copied and serialised, both recursing once a level: 200 000 levels
// overflowed the stack.
BOOST_AUTO_TEST_CASE(requests_nested_too_deep_are_denied) {
    const std::string deep = std::string(200000, '[') + std::string(200000, ']');
    FakeHost host;
    auto a = make(host);
    for (const char* tool : {"AskUserQuestion", "Bash"}) {
        a->on_line(R"({"type":"control_request","request_id":"r-)" + std::string(tool) +
                   R"(","request":{"subtype":"can_use_tool","tool_name":")" + tool + R"(","input":{"questions":)" +
                   deep + "}}}");
        auto d = parse(host.sent.back());
        BOOST_TEST(std::string(d["response"]["request_id"].GetString()) == "r-" + std::string(tool));
        BOOST_TEST(std::string(d["response"]["response"]["behavior"].GetString()) == "deny");
        BOOST_TEST(std::string(d["response"]["response"]["message"].GetString()) ==
                   "askhost: the request is nested deeper than 128 levels");
    }
    const auto sent = host.sent.size();
    a->on_line(R"({"type":"assistant","message":{"content":)" + deep + "}}");
    BOOST_TEST(host.sent.size() == sent);
    BOOST_TEST(host.asks.empty());
    a->on_line(kAsk);
    BOOST_TEST(host.asks.size() == 1u);
}

BOOST_AUTO_TEST_CASE(other_tools_are_questions_unless_allowed) {
    const std::string bash =
        R"({"type":"control_request","request_id":"r3","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"touch x","description":"Create x"}}})";
    FakeHost host;
    auto a = make(host);
    a->on_line(bash);
    BOOST_REQUIRE(host.asks.size() == 1u);
    const auto& q = host.asks[0].first.questions[0];
    BOOST_TEST(q.options.size() == 3u);
    // The typed permission beside the question (issue 45): the command and the model's reason.
    BOOST_REQUIRE(host.asks[0].first.permission.has_value());
    BOOST_TEST(host.asks[0].first.permission->command == "touch x");
    BOOST_TEST(host.asks[0].first.permission->reason == "Create x");
    auto always = one(q.question, "Always allow this tool");
    always.selected_option = "Always allow this tool";
    host.asks[0].second(Outcome::answered({always}));
    BOOST_TEST(std::string(parse(host.sent.back())["response"]["response"]["behavior"].GetString()) == "allow");
    a->on_line(bash);  // remembered: no second question
    BOOST_TEST(host.asks.size() == 1u);
    BOOST_TEST(std::string(parse(host.sent.back())["response"]["response"]["behavior"].GetString()) == "allow");

    FakeHost allowed;
    allowed.settings_.allow_tools = {"Bash,Edit"};
    auto b = make(allowed);
    b->on_line(bash);
    BOOST_TEST(allowed.asks.empty());
    BOOST_TEST(std::string(parse(allowed.sent.back())["response"]["response"]["updatedInput"]["command"].GetString()) ==
               "touch x");
}

BOOST_AUTO_TEST_CASE(stream_json_becomes_readable_output) {
    FakeHost host;
    auto a = make(host);
    a->on_line(
        R"({"type":"assistant","message":{"content":[{"type":"text","text":"Hello."},{"type":"tool_use","name":"Bash","input":{"command":"ls"}}]}})");
    a->on_line(R"({"type":"stream_event","event":{}})");
    a->on_line("plain text");
    BOOST_TEST(joined(host.printed) == "Hello.\n * Bash(ls)\n plain text\n");
}

BOOST_AUTO_TEST_CASE(a_command_line_prompt_is_one_turn_only_when_no_editor_can_prompt) {
    testing::for_each_one_shot(make, {"claude", "do it"}, [](FakeHost& host, AgentAdapter& a, bool one_shot) {
        BOOST_REQUIRE(host.sent.size() == 2u);
        BOOST_TEST(std::string(parse(host.sent[1])["message"]["content"].GetString()) == "do it");
        BOOST_TEST(!host.input_closed);
        a.on_line(R"({"type":"result","subtype":"success","is_error":false,"result":"done"})");
        BOOST_TEST(host.input_closed == one_shot);
    });
}

// What askhost writes to Claude, byte for byte: the control channel's shapes stay as Claude reads them.
BOOST_AUTO_TEST_CASE(messages_to_claude_keep_their_shape) {
    FakeHost host;
    auto a = make(host);
    testing::launch(*a, {"claude", "say \"hi\""});
    BOOST_TEST(
        host.sent[0] ==
        R"({"type":"control_request","request_id":"askhost_init","request":{"subtype":"initialize","hooks":null}})");
    BOOST_TEST(
        host.sent[1] ==
        R"({"type":"user","session_id":"","message":{"role":"user","content":"say \"hi\""},"parent_tool_use_id":null})");
    a->on_line(R"({"type":"control_request","request_id":"h1","request":{"subtype":"hook_callback"}})");
    BOOST_TEST(
        host.sent.back() ==
        R"({"type":"control_response","response":{"subtype":"error","request_id":"h1","error":"askhost does not handle hook_callback"}})");
    a->on_line(
        R"({"type":"control_request","request_id":"b1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls","n":1E+2}}})");
    host.asks.back().second(Outcome::cancelled());
    BOOST_TEST(
        host.sent.back() ==
        R"({"type":"control_response","response":{"subtype":"success","request_id":"b1","response":{"behavior":"deny","message":"The user did not allow Bash"}}})");
    FakeHost allowed;
    allowed.settings_.allow_tools = {"Bash"};
    auto b = make(allowed);
    b->on_line(
        R"({"type":"control_request","request_id":"b2","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls","n":1E+2,"x":1.50}}})");
    BOOST_TEST(
        allowed.sent.back() ==
        R"({"type":"control_response","response":{"subtype":"success","request_id":"b2","response":{"behavior":"allow","updatedInput":{"command":"ls","n":1E+2,"x":1.50}}}})");
    a->on_line(kAsk);
    a->stopping();
    BOOST_TEST(host.sent.back() ==
               R"({"type":"control_request","request_id":"askhost_interrupt_1","request":{"subtype":"interrupt"}})");
}

// Claude's stream carries fields and types askhost does not know: they are ignored, and a line
// without a type is output.
BOOST_AUTO_TEST_CASE(unknown_fields_and_types_are_ignored_and_untyped_lines_shown) {
    FakeHost host;
    auto a = make(host);
    a->on_line(R"({"type":"keep_alive","extra":[1,2]})");
    a->on_line(
        R"({"type":"assistant","message":{"content":[7,{"type":"text","text":"Hi","citations":null},{"type":"thinking"}]},"uuid":"u"})");
    a->on_line(
        R"({"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"a"},{"text":"b"}],"is_error":true},{"type":"tool_result","content":"ok","is_error":"yes"}]}})");
    a->on_line(R"({"type":"system","subtype":"api_retry","attempt":"x","error":"overloaded"})");
    a->on_line(R"({"type":"control_request","request_id":"z","request":"can_use_tool"})");
    a->on_line(
        R"({"type":"control_response","response":{"subtype":"error","request_id":"askhost_init","error":"boom"}})");
    a->on_line(R"({"type":"control_response","response":"error"})");
    BOOST_TEST(host.logs == std::vector<std::string>{"claude: boom"});
    a->on_line(R"({"type":7,"text":"no type"})");
    a->on_line(R"({"type":""})");
    BOOST_TEST(joined(host.printed) ==
               "Hi\n   -> error: ab\n   -> ok\n claude: model API retry ? (overloaded)\n {\"type\":7,\"text\":\"no "
               "type\"}\n {\"type\":\"\"}\n");
    BOOST_TEST(host.sent.empty());
}

// `askhost hook`'s replies, byte for byte as Claude Code has always been given them.
BOOST_AUTO_TEST_CASE(hook_replies_keep_their_bytes) {
    auto request = [](const std::string& hook) { return claude::read_hook_request(parse(hook)); };
    const std::string question =
        R"({"questions":[{"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL","description":"relational"},{"label":"SQLite","description":"a file"}],"multiSelect":false}],"n":0.1,"big":9007199254740993})";
    const std::string pre = R"({"hookSpecificOutput":{"hookEventName":"PreToolUse",)";
    const std::string perm = R"({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":)";

    auto sub = request(R"({"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","agent_id":"a1"})");
    BOOST_TEST(claude::hook_reply(sub, Outcome::cancelled()) ==
               pre + R"("permissionDecision":"deny","permissionDecisionReason":")" + kSubagentRefusal + "\"}}\n");

    const std::vector<Answer> picked = {one("Which database?", "SQLite")};
    for (const std::string event : {"PreToolUse", "PermissionRequest"}) {
        auto q = request(R"({"hook_event_name":")" + event + R"(","tool_name":"AskUserQuestion","tool_input":)" +
                         question + "}");
        const std::string updated = claude::input_with_answers(q.original, picked);
        BOOST_TEST(updated.find(R"("n":0.1,"big":9007199254740993)") != std::string::npos);  // numbers keep their value
        const bool is_pre = event == "PreToolUse";
        BOOST_TEST(claude::hook_reply(q, Outcome::answered(picked)) ==
                   (is_pre ? pre + R"("permissionDecision":"allow","updatedInput":)" + updated + "}}\n"
                           : perm + R"({"behavior":"allow","updatedInput":)" + updated + "}}}\n"));
        BOOST_TEST(
            claude::hook_reply(q, Outcome::cancelled()) ==
            (is_pre
                 ? pre +
                       R"("permissionDecision":"deny","permissionDecisionReason":"User declined to answer questions"}})"
                       "\n"
                 : perm + R"({"behavior":"deny","message":"User declined to answer questions"}}})"
                          "\n"));
        BOOST_TEST(claude::hook_reply(q, Outcome::timed_out()).empty());
    }

    auto bash =
        request(R"({"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm \"x\""}})");
    BOOST_REQUIRE(bash.kind == claude::HookRequest::Kind::Permission);
    auto choose = [&](PermissionKind kind) {
        for (std::size_t i = 0; i < bash.permission.choices.size(); ++i)
            if (bash.permission.choices[i].kind == kind) {
                Answer a = one(bash.ask.questions[0].question, bash.ask.questions[0].options[i].label);
                a.selected_option = a.values.front();
                return Outcome::answered({a});
            }
        BOOST_FAIL("no such choice");
        return Outcome::cancelled();
    };
    BOOST_TEST(claude::hook_reply(bash, choose(PermissionKind::AllowOnce)) == perm + R"({"behavior":"allow"}}})"
                                                                                     "\n");
    BOOST_TEST(
        claude::hook_reply(bash, choose(PermissionKind::AllowAlways)) ==
        perm +
            R"({"behavior":"allow","updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash"}],"behavior":"allow","destination":"session"}]}}})"
            "\n");
    BOOST_TEST(claude::hook_reply(bash, choose(PermissionKind::RejectOnce)) ==
               perm + R"({"behavior":"deny","message":"The user denied Bash"}}})"
                      "\n");
    BOOST_TEST(claude::hook_reply(bash, Outcome::answered({one(bash.ask.questions[0].question, "not \"that\"")})) ==
               perm + R"({"behavior":"deny","message":"The user denied Bash: not \"that\""}}})"
                      "\n");
    BOOST_TEST(claude::hook_reply(bash, Outcome::cancelled()) ==
               perm + R"({"behavior":"deny","message":"The user did not allow Bash"}}})"
                      "\n");
}
