#define BOOST_TEST_MODULE pi_adapter
#include <boost/test/unit_test.hpp>

#include <functional>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "core/adapter.hpp"
#include "fake_adapter_host.hpp"

using namespace askhost;

namespace askhost {
void register_pi_adapter(AdapterRegistry&);
std::vector<std::string> pi_rpc_argv(const std::vector<std::string>& argv, std::string& prompt);
}  // namespace askhost

namespace {

using testing::FakeHost;

std::unique_ptr<AgentAdapter> make(FakeHost& host) { return testing::make_adapter(register_pi_adapter, "pi", host); }

Answer pick(std::string q, std::string v, bool option = true) {
    Answer a;
    a.question = std::move(q);
    a.values = {v};
    if (option) a.selected_option = v;
    else a.was_custom = true;
    return a;
}

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
    return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(argv_runs_rpc_mode_and_takes_the_prompt_out) {
    std::string prompt;
    BOOST_TEST(joined(pi_rpc_argv({"pi", "--model", "m", "-e", "x.ts", "fix", "it"}, prompt)) ==
               "pi --model m -e x.ts --mode rpc");
    BOOST_TEST(prompt == "fix it");
    BOOST_TEST(joined(pi_rpc_argv({"pi", "--mode", "json", "-p", "@notes.md"}, prompt)) == "pi --mode rpc @notes.md");
    BOOST_TEST(prompt.empty());
}

BOOST_AUTO_TEST_CASE(select_input_confirm_editor_answers) {
    FakeHost host;
    auto a = make(host);
    a->on_line(
        R"({"type":"extension_ui_request","id":"u1","method":"select","title":"Pick a color","options":["red","green"]})");
    a->on_line(
        R"({"type":"extension_ui_request","id":"u2","method":"input","title":"Your name?","placeholder":"type here"})");
    a->on_line(
        R"({"type":"extension_ui_request","id":"u3","method":"confirm","title":"Proceed?","message":"Really?"})");
    a->on_line(R"({"type":"extension_ui_request","id":"u4","method":"editor","title":"Edit","prefill":"a\nb"})");
    BOOST_REQUIRE(host.asks.size() == 4u);
    BOOST_TEST(host.asks[0].first.questions[0].options.size() == 2u);
    BOOST_TEST(host.asks[1].first.questions[0].options.empty());
    BOOST_TEST(host.asks[2].first.questions[0].question == "Proceed?\n\nReally?");
    host.asks[0].second(Outcome::answered({pick("Pick a color", "green")}));
    host.asks[1].second(Outcome::answered({pick("Your name?", "Alice", false)}));
    host.asks[2].second(Outcome::answered({pick("Proceed?\n\nReally?", "No")}));
    host.asks[3].second(Outcome::answered({pick("Edit", "Keep it as it is")}));
    BOOST_TEST(host.sent[0] == R"({"type":"extension_ui_response","id":"u1","value":"green"})");
    BOOST_TEST(host.sent[1] == R"({"type":"extension_ui_response","id":"u2","value":"Alice"})");
    BOOST_TEST(host.sent[2] == R"({"type":"extension_ui_response","id":"u3","confirmed":false})");
    BOOST_TEST(host.sent[3] == R"({"type":"extension_ui_response","id":"u4","value":"a\nb"})");
}

BOOST_AUTO_TEST_CASE(cancel_and_notify) {
    FakeHost host;
    auto a = make(host);
    a->on_line(R"({"type":"extension_ui_request","id":"u1","method":"select","title":"T","options":["a","b"]})");
    host.asks[0].second(Outcome::cancelled());
    BOOST_TEST(host.sent.back() == R"({"type":"extension_ui_response","id":"u1","cancelled":true})");
    a->on_line(R"({"type":"extension_ui_request","id":"n1","method":"notify","message":"hello","notifyType":"info"})");
    a->on_line(R"({"type":"extension_ui_request","id":"n2","method":"setStatus","statusKey":"k","statusText":"x"})");
    BOOST_TEST(host.asks.size() == 1u);
    BOOST_TEST(joined(host.printed) == "pi: hello\n");
}

BOOST_AUTO_TEST_CASE(abandoned_dialogs_close) {
    FakeHost host;
    auto a = make(host);
    a->on_line(R"({"type":"tool_execution_start","toolCallId":"c1","toolName":"t","args":{}})");
    a->on_line(R"({"type":"extension_ui_request","id":"u1","method":"input","title":"A?"})");
    a->on_line(
        R"({"type":"extension_ui_request","id":"u2","method":"select","title":"B?","options":["x","y"],"timeout":500})");
    BOOST_REQUIRE(host.timers.size() == 1u);
    host.timers[0]();  // pi's own timeout ran out
    BOOST_TEST(host.withdrawn == std::vector<std::string>{"ask-2"});
    a->on_line(
        R"({"type":"tool_execution_end","toolCallId":"c1","toolName":"t","result":{"content":[]},"isError":false})");
    BOOST_TEST((host.withdrawn == std::vector<std::string>{"ask-2", "ask-1"}));
    BOOST_TEST(host.sent.empty());  // pi gave up on them: no reply is owed

    a->on_line(R"({"type":"extension_ui_request","id":"u3","method":"input","title":"C?"})");
    a->stopping();
    BOOST_TEST(host.sent[0] == R"({"id":"askhost-abort","type":"abort"})");
    BOOST_TEST(host.sent[1] == R"({"type":"extension_ui_response","id":"u3","cancelled":true})");
}

BOOST_AUTO_TEST_CASE(command_line_prompt_ends_with_the_turn_only_when_no_editor_can_prompt) {
    testing::for_each_one_shot(make, {"pi", "hello"}, [](FakeHost& host, AgentAdapter& a, bool one_shot) {
        BOOST_TEST(host.sent.back() == R"({"id":"askhost-1","type":"prompt","message":"hello"})");
        a.on_line(R"({"type":"agent_start"})");
        BOOST_TEST(a.prompt("more"));
        BOOST_TEST(host.sent.back() ==
                   R"({"id":"askhost-2","type":"prompt","message":"more","streamingBehavior":"followUp"})");
        a.on_line(R"({"type":"agent_end","messages":[]})");
        BOOST_TEST(host.input_closed == one_shot);
    });
}

// The arguments are shown serialised, which recurses once a level: 200 000 overflowed the stack.
BOOST_AUTO_TEST_CASE(tool_arguments_nested_too_deep_are_not_shown) {
    FakeHost host;
    auto a = make(host);
    a->on_line(R"({"type":"tool_execution_start","toolCallId":"t1","toolName":"bash","args":)" +
               std::string(200000, '[') + std::string(200000, ']') + "}");
    a->on_line(R"({"type":"tool_execution_start","toolCallId":"t2","toolName":"read","args":{"path":"a.txt"}})");
    BOOST_TEST(joined(host.printed) == "* bash(...)\n * read({\"path\":\"a.txt\"})\n");
}

// pi's events carry fields and types askhost does not know: they are ignored, wrong types read as
// absent, and a line without a type is output.
BOOST_AUTO_TEST_CASE(lenient_reading_of_pi_events) {
    FakeHost host;
    auto a = make(host);
    a->on_line(
        R"({"type":"extension_ui_request","id":"u1","method":"select","title":"T","options":["a",7,"b","a",null],"timeout":5E+2,"extra":{}})");
    BOOST_REQUIRE(host.asks.size() == 1u);
    BOOST_TEST(host.asks[0].first.questions[0].options.size() == 2u);
    BOOST_REQUIRE(host.timers.size() == 1u);
    a->on_line(R"({"type":"extension_ui_request","id":"u2","method":"input","title":7,"timeout":"soon"})");
    BOOST_TEST(host.asks.at(1).first.questions[0].question == "pi asks");
    BOOST_TEST(host.timers.size() == 1u);
    a->on_line(R"({"type":"extension_ui_request","id":"u3","method":["select"]})");
    a->on_line(R"({"type":"turn_start","turnIndex":1})");
    a->on_line(
        R"({"type":"tool_execution_end","toolCallId":"c9","result":{"content":[{"type":"text","text":"x"},5,{"text":"y"}]},"isError":"no"})");
    a->on_line(R"({"type":"tool_execution_end","result":{"content":"z"},"isError":true})");
    a->on_line(
        R"({"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"Done."},{"type":"text","text":""},{"type":"toolCall"}],"errorMessage":"limit"}})");
    a->on_line(R"({"type":"message_end","message":{"role":"assistant","content":"Done.","errorMessage":"hidden"}})");
    a->on_line(R"({"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"me"}]}})");
    a->on_line(R"({"type":"response","command":"prompt","success":false,"error":"busy"})");
    a->on_line(R"({"type":"response","command":"abort","success":"no"})");
    a->on_line(R"({"type":null,"id":"x"})");
    BOOST_TEST(host.asks.size() == 2u);
    BOOST_TEST(joined(host.printed) ==
               "  -> xy\n   -> error: \n Done.\n pi: limit\n pi: prompt failed: busy\n {\"type\":null,\"id\":\"x\"}\n");
    BOOST_TEST(host.sent.empty());
}

// What askhost writes to pi, byte for byte.
BOOST_AUTO_TEST_CASE(messages_to_pi_keep_their_shape) {
    FakeHost host;
    auto a = make(host);
    BOOST_TEST(a->prompt("say \"hi\"\n"));
    BOOST_TEST(host.sent.back() == R"({"id":"askhost-1","type":"prompt","message":"say \"hi\"\n"})");
    a->on_line(R"({"type":"extension_ui_request","id":"e\"1","method":"editor","title":"E","prefill":"x"})");
    host.asks[0].second(Outcome::answered({pick("E", "new\ttext", false)}));
    BOOST_TEST(host.sent.back() == R"({"type":"extension_ui_response","id":"e\"1","value":"new\ttext"})");
    a->on_line(R"({"type":"extension_ui_request","id":"c1","method":"confirm","title":"OK?"})");
    host.asks[1].second(Outcome::answered({pick("OK?", "yes", false)}));
    BOOST_TEST(host.sent.back() == R"({"type":"extension_ui_response","id":"c1","confirmed":true})");
    a->on_line(R"({"type":"extension_ui_request","id":"s1","method":"select","title":"S","options":[""]})");
    BOOST_TEST(host.sent.back() == R"({"type":"extension_ui_response","id":"s1","cancelled":true})");
}
