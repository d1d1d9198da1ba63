// The editor protocol (docs/protocol.md) against the editor hub, in process: each case reads like
// the messages it sends and the replies it expects.
#define BOOST_TEST_MODULE editor_protocol
#include <boost/test/unit_test.hpp>

#include <functional>
#include <string>

#include "frontends/editor/editor_protocol.hpp"
#include "frontends/editor/host_client.hpp"
#include "test_editor.hpp"

using namespace askhost;
using askhost::test::Message;
using askhost::test::TestClient;
using askhost::test::TestEditor;

namespace {

int code_of(const Message& m) { return m["error"]["code"].GetInt(); }

Ask database_ask() {
    Ask ask;
    ask.agent = "demo-agent";
    ask.route = "agent";
    ask.questions.push_back(
        {"Which database?", "Database", {{"PostgreSQL", "", std::nullopt}, {"SQLite", "", std::nullopt}}, false});
    return ask;
}

}  // namespace

BOOST_AUTO_TEST_CASE(initialize_answers_with_server_info_and_capabilities) {
    TestEditor ed;
    ed.hub.set_socket_path("/run/user/1000/askhost/host-1.sock");
    Message r = ed.reply_to(
        ed.request("initialize", R"({"clientInfo":{"name":"nvim","version":"0.10"},"capabilities":{"ask":{}}})"));
    BOOST_TEST(r.str({"result", "serverInfo", "name"}) == "askhost");
    BOOST_TEST(!r.str({"result", "serverInfo", "version"}).empty());
    const auto& caps = r["result"]["capabilities"];
    BOOST_TEST(caps["ask"]["multiSelect"].GetBool());
    BOOST_TEST(caps["ask"]["previews"].GetBool());
    BOOST_TEST(caps["agent"]["start"].GetBool());
    BOOST_TEST(caps["workspace"]["workspaceFolders"]["changeNotifications"].GetBool());
    BOOST_TEST(r.str({"result", "socket"}) == "/run/user/1000/askhost/host-1.sock");
    BOOST_TEST(ed.hub.primary_client().first == "nvim");
    BOOST_TEST(ed.hub.primary_client().second == "0.10");

    Message again = ed.reply_to(ed.request("initialize", "{}"));
    BOOST_TEST(code_of(again) == -32600);
    BOOST_TEST(again.str({"error", "message"}) == "initialize was already called");
}

BOOST_AUTO_TEST_CASE(initialize_reads_what_it_can_and_never_refuses) {
    TestEditor ed;
    Message r = ed.reply_to(ed.request("initialize", R"([1,2])"));
    BOOST_TEST(r.has("result"));
    BOOST_TEST(ed.hub.primary_client().first == "editor");  // no clientInfo: named for its role

    TestEditor other;
    r = other.reply_to(other.request(
        "initialize",
        R"({"clientInfo":{"name":7},"capabilities":true,"workspaceFolders":[5,{"uri":"file:///home/me/shop","name":"shop"},{"uri":"https://x"}]})"));
    BOOST_TEST(r.has("result"));
    BOOST_TEST(r["result"]["socket"].IsNull());
    auto folders = other.hub.workspace_folders();
    BOOST_REQUIRE(folders.size() == 1u);
    BOOST_TEST(folders[0].path == "/home/me/shop");
    BOOST_TEST(folders[0].name == "shop");
}

BOOST_AUTO_TEST_CASE(initialized_brings_the_state_and_workspace_changes_count) {
    TestEditor ed;
    ed.initialize(R"({"rootUri":"file:///home/me/a"})");
    Message state = ed.next("ask/state");
    BOOST_TEST(state.str({"params", "state"}) == "idle");
    BOOST_TEST(state["params"]["pending"].Size() == 0u);
    ed.notify(
        "workspace/didChangeWorkspaceFolders",
        R"({"event":{"added":[{"uri":"file:///home/me/b","name":"b"}],"removed":[{"uri":"file:///home/me/a"}]}})");
    ed.settle();
    auto folders = ed.hub.workspace_folders();
    BOOST_REQUIRE(folders.size() == 1u);
    BOOST_TEST(folders[0].path == "/home/me/b");
}

BOOST_AUTO_TEST_CASE(requests_before_initialize_are_refused) {
    TestEditor ed;
    Message r = ed.reply_to(ed.request("agent/start", R"({"command":["ok"]})"));
    BOOST_TEST(code_of(r) == -32002);
    BOOST_TEST(r.str({"error", "message"}) == "initialize first");
    r = ed.reply_to(ed.request("no/such/method"));
    BOOST_TEST(code_of(r) == -32002);
    BOOST_TEST(ed.agent.started.empty());
}

BOOST_AUTO_TEST_CASE(unknown_methods_get_32601_and_unknown_notifications_nothing) {
    TestEditor ed;
    ed.initialize();
    ed.notify("no/such/notification", R"({"x":1})");
    ed.notify("$/setTrace", R"({"value":"off"})");
    Message r = ed.reply_to(ed.request("no/such/method"));
    BOOST_TEST(code_of(r) == -32601);
    BOOST_TEST(r.str({"error", "message"}) == "method not found: no/such/method");
    for (const auto& m : ed.settle()) BOOST_TEST(m.method() == "ask/state");  // nothing answers a notification
}

BOOST_AUTO_TEST_CASE(bad_params_are_32602_naming_the_path) {
    TestEditor ed;
    ed.initialize();
    auto error_of = [&](std::string_view method, std::string_view params) {
        Message r = ed.reply_to(ed.request(method, params));
        BOOST_TEST(code_of(r) == -32602);
        return r.str({"error", "message"});
    };
    BOOST_TEST(error_of("agent/start", R"({"command":["ok",2]})") == "params.command[1]: expected a string");
    BOOST_TEST(error_of("agent/start", R"({"command":"ok"})") == "params.command: expected an array");
    BOOST_TEST(error_of("agent/start", R"({})") == "params.command: expected an array");
    BOOST_TEST(error_of("agent/start", R"({"command":[]})") == "params.command: expected a non-empty array of strings");
    BOOST_TEST(error_of("agent/start", R"({"command":["ok"],"env":{"DEBUG":1}})") ==
               R"(params.env["DEBUG"]: expected a string)");
    BOOST_TEST(error_of("agent/start", R"({"command":["ok"],"env":[]})") == "params.env: expected an object");
    BOOST_TEST(error_of("agent/start", R"([])") == "params: expected an object");
    BOOST_TEST(error_of("agent/prompt", R"({"text":5})") == "params.text: expected a string");
    BOOST_TEST(error_of("agent/prompt", R"({})") == "params.text: expected a string");
    BOOST_TEST(error_of("ask/submit", R"({"profile":"loose","questions":[]})") ==
               R"(params.profile: expected "strict" or "lenient")");
    BOOST_TEST(error_of("ask/submit", R"([{"questions":[]}])") == "params: expected an object");
    BOOST_TEST(ed.agent.started.empty());
}

BOOST_AUTO_TEST_CASE(the_agent_starts_takes_prompts_and_stops) {
    TestEditor ed;
    ed.initialize();
    Message r = ed.reply_to(ed.request("agent/start", R"({"command":["nope"]})"));
    BOOST_TEST(code_of(r) == -32001);
    BOOST_TEST(r.str({"error", "message"}) == "cannot run 'nope': not found on PATH");
    r = ed.reply_to(ed.request("agent/start", R"({"command":["ok","--flag"],"cwd":"/tmp","env":{"DEBUG":"1"}})"));
    BOOST_TEST(r["result"]["pid"].GetInt() == 4242);
    BOOST_REQUIRE(ed.agent.started.size() == 1u);
    BOOST_TEST(ed.agent.started[0].argv.size() == 2u);
    BOOST_TEST(ed.agent.started[0].cwd == "/tmp");
    BOOST_TEST(ed.agent.started[0].env.at("DEBUG") == "1");
    BOOST_TEST(ed.agent.adapters[0] == "auto");

    r = ed.reply_to(ed.request("agent/prompt", R"({"text":"set up the project"})"));
    BOOST_TEST(r["result"].IsObject());
    BOOST_TEST(r["result"].MemberCount() == 0u);
    BOOST_TEST(ed.agent.prompts.at(0) == "set up the project");

    r = ed.reply_to(ed.request("agent/stop"));
    BOOST_TEST(r["result"]["exitCode"].IsNull());
    BOOST_TEST(r["result"]["signal"].GetInt() == 15);
    r = ed.reply_to(ed.request("agent/stop"));
    BOOST_TEST(code_of(r) == -32001);
    BOOST_TEST(r.str({"error", "message"}) == "no agent is running");
}

BOOST_AUTO_TEST_CASE(ask_show_round_trip_with_an_answer) {
    TestEditor ed;
    ed.initialize();
    ed.next("ask/state");
    std::optional<Outcome> outcome;
    const AskTicket ticket = ed.broker.ask(database_ask(), [&](Outcome o) { outcome = std::move(o); });

    Message waiting = ed.next("ask/state");
    BOOST_TEST(waiting.str({"params", "state"}) == "waiting");
    BOOST_TEST(waiting["params"]["pending"].Size() == 1u);
    Message show = ed.next("ask/show");
    BOOST_TEST(show.str({"params", "id"}) == ticket.id());
    BOOST_TEST(show.str({"params", "agent"}) == "demo-agent");
    BOOST_TEST(show.str({"params", "questions"}) == "");  // an array, not a string
    BOOST_TEST(show["params"]["questions"][0]["options"][1]["label"].GetString() == std::string("SQLite"));

    ed.respond(
        show,
        R"({"answered":true,"answers":[{"question":"Which database?","answer":"SQLite","selectedOption":"SQLite","wasCustom":false}]})");
    Message idle = ed.next("ask/state");
    BOOST_TEST(idle.str({"params", "state"}) == "idle");
    ed.drain();  // the broker hands the outcome over on a later turn
    BOOST_REQUIRE(outcome.has_value());
    BOOST_TEST(static_cast<int>(outcome->kind) == static_cast<int>(OutcomeKind::Answered));
    BOOST_REQUIRE(outcome->answers.size() == 1u);
    BOOST_TEST(outcome->answers[0].values.at(0) == "SQLite");
    for (const auto& m : ed.settle()) BOOST_TEST(m.method() != "$/cancelRequest");  // the answer was this client's
}

// ask/state lists each pending ask as ask/show shows it to a client that shows everything (the
// same text, written once per ask); an answered ask leaves the list.
BOOST_AUTO_TEST_CASE(ask_state_lists_each_pending_ask_as_ask_show_shows_it) {
    TestEditor ed;
    ed.initialize();
    ed.next("ask/state");
    Ask second = database_ask();
    second.questions[0].question = "Which cache?";
    second.questions[0].options[0].preview = "## Redis";
    second.cwd = "/tmp/project";
    const AskTicket a = ed.broker.ask(database_ask(), [](Outcome) {});
    const AskTicket b = ed.broker.ask(second, [](Outcome) {});
    BOOST_TEST(ed.next("ask/state")["params"]["pending"].Size() == 1u);  // the first, before its ask/show
    Message show = ed.next("ask/show");
    Message state = ed.next("ask/state");
    BOOST_REQUIRE(state["params"]["pending"].Size() == 2u);
    BOOST_TEST(to_json(state["params"]["pending"][0]) == to_json(show["params"]));
    BOOST_TEST(to_json(state["params"]["pending"][1]) ==
               json::to_text(ShowAsk{*ed.broker.pending()[1], ClientAskCaps{}}));
    BOOST_TEST(ask_state_params(ed.broker.pending()) == to_json(state["params"]));
    ed.respond(show, R"({"answered":false})");
    Message after = ed.next("ask/state");
    BOOST_REQUIRE(after["params"]["pending"].Size() == 1u);
    BOOST_TEST(after.str({"params", "state"}) == "waiting");
    BOOST_TEST(after["params"]["pending"][0]["id"].GetString() == b.id());
    BOOST_TEST(a.id() != b.id());
}

BOOST_AUTO_TEST_CASE(the_first_answer_wins_and_the_other_client_is_told) {
    TestEditor ed;
    ed.initialize();
    TestClient attach(ed, false);
    attach.initialize(R"({"clientInfo":{"name":"askhost attach"}})");
    std::optional<Outcome> outcome;
    const AskTicket ticket = ed.broker.ask(database_ask(), [&](Outcome o) { outcome = std::move(o); });
    Message shown_here = ed.next("ask/show");
    Message shown_there = attach.next("ask/show");
    attach.respond(
        shown_there,
        R"({"answered":true,"answers":[{"question":"Which database?","answer":"PostgreSQL","selectedOption":"PostgreSQL","wasCustom":false}]})");
    Message cancel = ed.next("$/cancelRequest");
    BOOST_TEST(to_json(cancel["params"]["id"]) == shown_here.id_json());
    ed.drain();
    BOOST_REQUIRE(outcome.has_value());
    BOOST_TEST(outcome->answers.at(0).values.at(0) == "PostgreSQL");
    // The editor's late answer changes nothing.
    ed.respond(
        shown_here,
        R"({"answered":true,"answers":[{"question":"Which database?","answer":"SQLite","selectedOption":"SQLite","wasCustom":false}]})");
    ed.settle();
    BOOST_TEST(outcome->answers.at(0).values.at(0) == "PostgreSQL");
    for (const auto& m : attach.settle()) BOOST_TEST(m.method() != "$/cancelRequest");
}

BOOST_AUTO_TEST_CASE(a_socket_client_leaving_is_no_answer_and_one_that_shows_nothing_is_not_asked) {
    TestEditor ed;
    ed.initialize();
    TestClient attach(ed, false);
    attach.initialize();
    TestClient status_line(ed, false);
    status_line.initialize(R"({"clientInfo":{"name":"status"},"capabilities":{"ask":false}})");
    bool ended = false;
    const AskTicket ticket = ed.broker.ask(database_ask(), [&](Outcome) { ended = true; });
    ed.next("ask/show");
    attach.next("ask/show");
    attach.close();
    ed.settle();
    BOOST_TEST(!ended);  // the question goes on waiting in the editor
    BOOST_TEST(ed.hub.client_count() == 2u);
    BOOST_TEST(!ed.primary_lost);
    bool status_heard_state = false;
    for (const auto& m : status_line.settle()) {
        BOOST_TEST(m.method() != "ask/show");
        status_heard_state = status_heard_state || m.method() == "ask/state";
    }
    BOOST_TEST(status_heard_state);
}

// The outcome of database_ask() when the client's reply to its ask/show is `reply` (made from the
// request's id: a result or an error).
Outcome outcome_of_reply(const std::function<std::string(const std::string& id_json)>& reply) {
    TestEditor ed;
    ed.initialize();
    std::optional<Outcome> outcome;
    const AskTicket ticket = ed.broker.ask(database_ask(), [&](Outcome o) { outcome = std::move(o); });
    Message show = ed.next("ask/show");
    ed.send(reply(show.id_json()));
    ed.next("ask/state");
    ed.settle();
    BOOST_REQUIRE(outcome.has_value());
    return *outcome;
}

BOOST_AUTO_TEST_CASE(an_invalid_answer_is_refused_to_the_client_and_the_question_shown_again) {
    TestEditor ed;
    ed.initialize();
    std::optional<Outcome> outcome;
    const AskTicket ticket = ed.broker.ask(database_ask(), [&](Outcome o) { outcome = std::move(o); });
    Message show = ed.next("ask/show");
    const std::string ask_id = show["params"]["id"].GetString();
    // An empty answer, then one whose selectedOption disagrees with it: neither decides anything.
    ed.respond(show, R"({"answered":true,"answers":[{"question":"Which database?","answer":""}]})");
    Message refused = ed.next("ask/answerRefused");
    BOOST_TEST(refused["params"]["askId"].GetString() == ask_id);
    BOOST_TEST(std::string(refused["params"]["message"].GetString()) ==
               "result.answers[0].answer: empty: an answer that says nothing is not an answer");
    Message again = ed.next("ask/show");
    BOOST_TEST(again["params"]["id"].GetString() == ask_id);
    BOOST_TEST(again.id_json() != show.id_json());
    BOOST_TEST(!outcome.has_value());
    ed.respond(
        again,
        R"({"answered":true,"answers":[{"question":"Which database?","answer":"SQLite","selectedOption":"PostgreSQL"}]})");
    refused = ed.next("ask/answerRefused");
    BOOST_TEST(std::string(refused["params"]["message"].GetString()) ==
               "result.answers[0].selectedOption: \"PostgreSQL\" disagrees with the answer \"SQLite\"");
    again = ed.next("ask/show");
    BOOST_TEST(!outcome.has_value());
    // A good answer is taken.
    ed.respond(
        again,
        R"({"answered":true,"answers":[{"question":"Which database?","answer":"SQLite","selectedOption":"SQLite"}]})");
    ed.settle();
    BOOST_REQUIRE(outcome.has_value());
    BOOST_TEST(static_cast<int>(outcome->kind) == static_cast<int>(OutcomeKind::Answered));
    BOOST_TEST(outcome->answers.at(0).values.at(0) == "SQLite");
}

BOOST_AUTO_TEST_CASE(a_client_that_keeps_answering_wrong_stops_being_asked_and_the_question_waits) {
    TestEditor ed;
    ed.initialize();
    std::optional<Outcome> outcome;
    const AskTicket ticket = ed.broker.ask(database_ask(), [&](Outcome o) { outcome = std::move(o); });
    const std::string wrong =
        R"({"answered":true,"answers":[{"question":"Which database?","answer":"x","selectedOption":"x"}]})";
    for (int i = 0; i < 3; ++i) {
        Message show = ed.next("ask/show");
        ed.respond(show, wrong);
        ed.next("ask/answerRefused");
    }
    for (const auto& m : ed.settle()) BOOST_TEST(m.method() != "ask/show");
    BOOST_TEST(!outcome.has_value());  // no answer made up: it waits for another face
}

BOOST_AUTO_TEST_CASE(an_error_reply_to_ask_show_cancels_with_the_clients_message) {
    Outcome o =
        outcome_of_reply([](const std::string& id) { return jsonrpc::error(id, -32603, "the dialog crashed"); });
    BOOST_TEST(static_cast<int>(o.kind) == static_cast<int>(OutcomeKind::Cancelled));
    BOOST_TEST(o.reason == "the client could not show the question: the dialog crashed");
}

BOOST_AUTO_TEST_CASE(a_withdrawn_ask_is_cancelled_with_the_show_requests_id) {
    TestEditor ed;
    ed.initialize();
    bool answered = false;
    const AskTicket ticket = ed.broker.ask(database_ask(), [&](Outcome) { answered = true; });
    Message show = ed.next("ask/show");
    ed.broker.withdraw(ticket.id());
    Message cancel = ed.next("$/cancelRequest");
    BOOST_TEST(to_json(cancel["params"]["id"]) == show.id_json());
    BOOST_TEST(cancel.str({"params", "askId"}) == ticket.id());
    // A reply after the cancel is dropped.
    ed.respond(show, R"({"answered":false,"cancelled":true})");
    ed.settle();
    BOOST_TEST(!answered);
}

BOOST_AUTO_TEST_CASE(ask_submit_round_trip_and_cancel_request_from_the_client) {
    TestEditor ed;
    ed.initialize(R"({"clientInfo":{"name":"submitter"}})");
    const int submit = ed.request(
        "ask/submit",
        R"({"profile":"strict","agent":"claude-code","questions":[{"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL"},{"label":"SQLite"}]}]})");
    Message show = ed.next("ask/show");
    BOOST_TEST(show.str({"params", "agent"}) == "claude-code");
    BOOST_TEST(show.str({"params", "route"}) == "submit");
    ed.respond(
        show,
        R"({"answered":true,"answers":[{"question":"Which database?","answer":"SQLite","selectedOption":"SQLite","wasCustom":false}]})");
    Message r = ed.reply_to(submit);
    BOOST_TEST(r["result"]["answered"].GetBool());
    BOOST_TEST(r.str({"result", "text"}).find("\"Which database?\"=\"SQLite\"") != std::string::npos);

    // Refused at once: the path names the field.
    r = ed.reply_to(ed.request(
        "ask/submit",
        R"({"profile":"strict","questions":[{"question":"Q?","header":"H","options":[{"label":""},{"label":"B"}]}]})"));
    BOOST_TEST(!r["result"]["answered"].GetBool());
    BOOST_TEST(r.str({"result", "error", "code"}) == "invalid_schema");
    BOOST_TEST(r.str({"result", "error", "path"}).find("questions[0].options[0]") == 0u);

    // The client takes its question back: the host withdraws the ask/show, and no result follows
    // (the dropped request is answered with an error, as every request is answered).
    const int second = ed.request("ask/submit", R"({"questions":[{"question":"Name?"}]})");
    Message show2 = ed.next("ask/show");
    ed.notify("$/cancelRequest", "{\"id\":" + std::to_string(second) + "}");
    Message cancel = ed.next("$/cancelRequest");
    BOOST_TEST(to_json(cancel["params"]["id"]) == show2.id_json());
    for (const auto& m : ed.settle())
        if (m.id_json() == std::to_string(second)) BOOST_CHECK_MESSAGE(!m.has("result"), m.text());
    BOOST_TEST(ed.broker.pending().empty());
}

BOOST_AUTO_TEST_CASE(shutdown_then_exit_ends_with_0) {
    TestEditor ed;
    ed.initialize();
    Message r = ed.reply_to(ed.request("shutdown"));
    BOOST_TEST(r["result"].IsNull());
    r = ed.reply_to(ed.request("agent/stop"));
    BOOST_TEST(code_of(r) == -32600);
    BOOST_TEST(r.str({"error", "message"}) == "the server is shutting down");
    ed.notify("exit");
    ed.settle();
    BOOST_REQUIRE(ed.exit_code.has_value());
    BOOST_TEST(*ed.exit_code == 0);
    BOOST_TEST(ed.hub.client_count() == 0u);
    BOOST_TEST(!ed.primary_lost);
}

BOOST_AUTO_TEST_CASE(exit_without_shutdown_ends_with_1) {
    TestEditor ed;
    ed.initialize();
    ed.notify("exit");
    ed.settle();
    BOOST_REQUIRE(ed.exit_code.has_value());
    BOOST_TEST(*ed.exit_code == 1);
}

BOOST_AUTO_TEST_CASE(the_editor_going_away_mid_question_is_connection_lost) {
    TestEditor ed;
    ed.initialize();
    std::optional<Outcome> outcome;
    const AskTicket ticket = ed.broker.ask(database_ask(), [&](Outcome o) { outcome = std::move(o); });
    ed.next("ask/show");
    ed.close();
    ed.settle();
    BOOST_REQUIRE(outcome.has_value());
    BOOST_TEST(static_cast<int>(outcome->kind) == static_cast<int>(OutcomeKind::ConnectionLost));
    BOOST_TEST(ed.primary_lost);
    BOOST_TEST(ed.hub.client_count() == 0u);
}

BOOST_AUTO_TEST_CASE(malformed_messages_are_answered_and_the_connection_stays) {
    TestEditor ed;
    ed.initialize();
    ed.send("{broken");
    ed.send("[]");
    ed.conn->peer_write("Content-Type: text/plain\r\n\r\n");
    std::vector<Message> errors;
    for (const auto& m : ed.settle())
        if (m.has("error")) errors.push_back(m);
    BOOST_REQUIRE(errors.size() == 3u);
    BOOST_TEST(code_of(errors[0]) == -32700);
    BOOST_TEST(errors[1].str({"error", "message"}) == "batches are not supported");
    BOOST_TEST(errors[2].str({"error", "message"}) == "frame without a Content-Length header");
    BOOST_TEST(ed.reply_to(ed.request("shutdown"))["result"].IsNull());
}

BOOST_AUTO_TEST_CASE(output_before_initialized_is_kept_and_comes_first) {
    TestEditor ed;
    ed.hub.agent_output(Stream::Stdout, "early\xff\n");
    ed.hub.agent_exit(AgentExit{3, 0});
    ed.initialize();
    Message out = ed.next("agent/output");
    BOOST_TEST(out.str({"params", "stream"}) == "stdout");
    BOOST_TEST(out.str({"params", "text"}) == "early\xEF\xBF\xBD\n");  // invalid bytes become U+FFFD
    Message exit = ed.next("agent/exit");
    BOOST_TEST(exit["params"]["exitCode"].GetInt() == 3);
    BOOST_TEST(exit["params"]["signal"].IsNull());
}

// What askhost's own clients (attach, HostClient for mcp and hook) send, byte for byte.
BOOST_AUTO_TEST_CASE(askhosts_own_clients_write_the_protocol_with_to_json) {
    InitializeParams hello;
    hello.client_name = "askhost attach";
    hello.client_version = "1.2.3";
    BOOST_TEST(
        json::to_text(hello) ==
        R"({"clientInfo":{"name":"askhost attach","version":"1.2.3"},"capabilities":{"ask":{"multiSelect":true,"previews":true,"notes":true}}})");
    hello.show_asks = false;
    BOOST_TEST(json::to_text(hello) ==
               R"({"clientInfo":{"name":"askhost attach","version":"1.2.3"},"capabilities":{"ask":false}})");
    BOOST_TEST(json::to_text(CancelParams{{"7"}}) == R"({"id":7})");
    Ask ask = database_ask();
    ask.id = "ask-3";
    const std::string submit = json::to_text(SubmitAsk{ask, Profile::Strict});
    BOOST_TEST(submit.find(R"({"id":"ask-3","questions":[{"question":"Which database?")") == 0u);
    BOOST_TEST(submit.ends_with(R"(,"route":"agent","profile":"strict"})"));

    // And the host reads them back.
    TestEditor ed;
    Message r = ed.reply_to(ed.request("initialize", json::to_text(hello)));
    BOOST_TEST(r.has("result"));
    ed.notify("initialized", "{}");
    const int id = ed.request("ask/submit", submit);
    ed.settle();
    BOOST_TEST(ed.broker.pending().size() == 1u);  // shown to nobody: this client shows no questions
    ed.notify("$/cancelRequest", json::to_text(CancelParams{{std::to_string(id)}}));
    ed.settle();
    BOOST_TEST(ed.broker.pending().empty());
}

// capabilities.ask: the host adapts what it shows to what the client can show.
BOOST_AUTO_TEST_CASE(a_client_without_multi_select_or_previews_gets_plain_lists) {
    TestEditor ed;
    ed.initialize(R"({"clientInfo":{"name":"plain"},"capabilities":{"ask":{"multiSelect":false,"previews":false}}})");
    Ask ask;
    ask.agent = "demo-agent";
    ask.questions.push_back(
        {"Which features?", "Features", {{"Auth", "", "<b>auth</b>"}, {"REST", "", std::nullopt}}, true});
    std::optional<Outcome> outcome;
    const AskTicket ticket = ed.broker.ask(ask, [&](Outcome o) { outcome = std::move(o); });
    Message show = ed.next("ask/show");
    const auto& q = show["params"]["questions"][0];
    BOOST_TEST(!q["multiSelect"].GetBool());
    BOOST_TEST(!q["options"][0].HasMember("preview"));
    ed.respond(
        show,
        R"({"answered":true,"answers":[{"question":"Which features?","answer":"REST","selectedOption":"REST","wasCustom":false}]})");
    ed.settle();
    BOOST_REQUIRE(outcome.has_value());
    BOOST_TEST(static_cast<int>(outcome->kind) == static_cast<int>(OutcomeKind::Answered));
    BOOST_TEST(outcome->answers.at(0).values == std::vector<std::string>{"REST"});
}

// What askhost's own clients (mcp, hook) read of ask/submit's result: the native outcome, an
// answer checked against the ask, the rest lenient; no object at all names "result".
BOOST_AUTO_TEST_CASE(a_hosts_submit_result_reads_back_into_an_outcome) {
    auto read = [](const char* text) -> std::pair<std::string, Outcome> {
        rapidjson::Document d;
        BOOST_REQUIRE(!json::parse(d, text));
        HostOutcome out{database_ask(), {}};
        auto e = from_json(d, out, json::Path("result"));
        return {e ? e->message : std::string(), out.outcome};
    };
    auto [ok, answered] = read(R"({"answered":true,"answers":[{"question":"Which database?","answer":"SQLite"}]})");
    BOOST_TEST(ok == "");
    BOOST_TEST(answered.answers.at(0).selected_option.value_or("") == "SQLite");
    BOOST_TEST(read(R"({"answered":true,"answers":[]})").first ==
               "result.answers: question 1 (\"Which database?\") has no answer");
    BOOST_TEST(read("[]").first == "result: expected an object");
    auto refused = read(R"({"answered":false,"error":{"code":"invalid_schema","message":"m","path":"p"}})").second;
    BOOST_TEST(static_cast<int>(refused.kind) == static_cast<int>(OutcomeKind::Refused));
    BOOST_TEST(refused.error.path == "p");
    BOOST_TEST(read(R"({"answered":false,"pendingFile":"f"})").second.pending_file == "f");
    BOOST_TEST(read(R"({"answered":false,"pendingFile":"f","openQuestions":3})").second.open_questions == 3U);
    BOOST_TEST(static_cast<int>(read(R"({"answered":"no","timedOut":true})").second.kind) ==
               static_cast<int>(OutcomeKind::TimedOut));
    BOOST_TEST(read(R"({"answered":false,"reason":"gone"})").second.reason == "gone");
}
