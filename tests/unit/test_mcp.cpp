#define BOOST_TEST_MODULE mcp
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include <unistd.h>

#include <rapidjson/document.h>

#include "../../plugins/mcp/mcp_server.hpp"

using namespace askhost;
using namespace askhost::mcp;

namespace {

rapidjson::Document parse(const std::string& s) {
    rapidjson::Document d;
    d.Parse(s.c_str());
    BOOST_REQUIRE(!d.HasParseError());
    return d;
}

// Asks are kept for the test to answer; cancels are counted.
struct FakeAsker final : McpAsker {
    std::vector<std::pair<Ask, OnOutcome>> asks;
    int cancels = 0;
    std::function<void()> ask(Ask a, mcp::McpServer&, OnOutcome r) override {
        asks.emplace_back(std::move(a), std::move(r));
        return [this] { ++cancels; };
    }
};

struct Fixture {
    std::vector<std::string> sent;
    RpcEndpoint rpc{[this](std::string body) { sent.push_back(std::move(body)); }};
    FakeAsker asker;
    McpServer server{rpc, asker, nullptr};
    rapidjson::Document last() { return parse(sent.back()); }
};

const char* kQuestion =
    R"J({"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"relational"},{"label":"SQLite","description":"a file"}]})J";

std::string call(int id, const std::string& args, const std::string& name = "ask_user_question") {
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":")" + name +
           R"(","arguments":)" + args + "}}";
}

Answer answer(std::string q, std::vector<std::string> values, bool multi = false) {
    Answer a;
    a.question = std::move(q);
    a.values = std::move(values);
    a.multi = multi;
    return a;
}

}  // namespace

BOOST_AUTO_TEST_CASE(negotiates_known_versions_and_falls_back_to_the_newest) {
    BOOST_TEST(negotiate_version("2025-06-18") == "2025-06-18");
    BOOST_TEST(negotiate_version("2025-11-25") == "2025-11-25");
    BOOST_TEST(negotiate_version("2030-01-01") == "2025-11-25");
    BOOST_TEST(negotiate_version("") == "2025-11-25");
}

BOOST_AUTO_TEST_CASE(tool_list_has_the_strict_schema) {
    auto d = parse(tools_list_json());
    const auto& tools = d["tools"];
    BOOST_REQUIRE(tools.Size() == 1u);
    BOOST_TEST(std::string(tools[0]["name"].GetString()) == "ask_user_question");
    const auto& q = tools[0]["inputSchema"]["properties"]["questions"];
    BOOST_TEST(q["maxItems"].GetInt() == 4);
    BOOST_TEST(q["items"]["properties"]["header"]["maxLength"].GetInt() == 12);
    BOOST_TEST(q["items"]["properties"]["options"]["minItems"].GetInt() == 2);
    BOOST_TEST(!tools[0]["inputSchema"]["additionalProperties"].GetBool());
}

// What tools/list publishes is what a call may send: at every level of the schema, a field it
// marks required is refused when missing and only then, and an unknown member is refused exactly
// where the schema closes the object.
BOOST_AUTO_TEST_CASE(published_schema_is_what_is_accepted) {
    auto d = parse(tools_list_json());
    const rapidjson::Value& root = d["tools"][0]["inputSchema"];
    const rapidjson::Value& question = root["properties"]["questions"]["items"];
    const rapidjson::Value& option = question["properties"]["options"]["items"];
    const rapidjson::Value& metadata = root["properties"]["metadata"];
    const std::string valid = std::string(R"({"questions":[)") + kQuestion + R"(],"metadata":{"source":"s"}})";
    // The object at each level inside a fresh copy of the valid input.
    using Pick = rapidjson::Value& (*)(rapidjson::Document&);
    const std::vector<std::pair<const rapidjson::Value*, Pick>> levels = {
        {&root, [](rapidjson::Document& in) -> rapidjson::Value& { return in; }},
        {&question, [](rapidjson::Document& in) -> rapidjson::Value& { return in["questions"][0]; }},
        {&option, [](rapidjson::Document& in) -> rapidjson::Value& { return in["questions"][0]["options"][1]; }},
        {&metadata, [](rapidjson::Document& in) -> rapidjson::Value& { return in["metadata"]; }},
    };
    auto accepted = [](const rapidjson::Document& in) {
        return std::holds_alternative<AskInput>(parse_ask_input(in, Profile::Strict));
    };
    BOOST_TEST(accepted(parse(valid)));
    for (const auto& [schema, pick] : levels) {
        std::vector<std::string> required;
        if (schema->HasMember("required"))
            for (const auto& r : (*schema)["required"].GetArray()) required.emplace_back(r.GetString());
        for (const auto& p : (*schema)["properties"].GetObject()) {
            const std::string name = p.name.GetString();
            auto in = parse(valid);
            if (!pick(in).HasMember(name.c_str())) continue;
            pick(in).RemoveMember(name.c_str());
            const bool is_required = std::find(required.begin(), required.end(), name) != required.end();
            BOOST_TEST(accepted(in) == !is_required, "without " << name);
        }
        auto in = parse(valid);
        pick(in).AddMember("zz_extra", "x", in.GetAllocator());
        const bool closed = schema->HasMember("additionalProperties") && !(*schema)["additionalProperties"].GetBool();
        BOOST_TEST(accepted(in) == !closed, "an unknown member where additionalProperties is " << !closed);
    }
}

BOOST_AUTO_TEST_CASE(answered_result_has_model_text_and_answers_map) {
    auto multi = answer("Features?", {"Auth", "REST"}, true);
    auto one = answer("Which database?", {"SQLite"});
    one.notes = "small";
    auto d = parse(tool_result_json(Outcome::answered({one, multi})));
    BOOST_TEST(std::string(d["content"][0]["text"].GetString()) ==
               "User has answered your questions: \"Which database?\"=\"SQLite\" user notes: small, "
               "\"Features?\"=\"Auth, REST\". You can now continue with the user's answers in mind.");
    BOOST_TEST(std::string(d["structuredContent"]["answers"]["Features?"].GetString()) == "Auth, REST");
    BOOST_TEST(std::string(d["structuredContent"]["annotations"]["Which database?"]["notes"].GetString()) == "small");
    BOOST_TEST(!d["isError"].GetBool());
}

BOOST_AUTO_TEST_CASE(unanswered_results_are_tool_errors) {
    auto text = [](const Outcome& o) {
        auto d = parse(tool_result_json(o));
        BOOST_TEST(d["isError"].GetBool());
        return std::string(d["content"][0]["text"].GetString());
    };
    BOOST_TEST(text(Outcome::cancelled()) == "User declined to answer questions");
    BOOST_TEST(text(Outcome::cancelled("no terminal")) == "User declined to answer questions (no terminal)");
    BOOST_TEST(text(Outcome::timed_out()) == "User declined to answer questions (no answer within the time limit)");
    BOOST_TEST(text(Outcome::connection_lost()) ==
               "User declined to answer questions (the connection to the user was lost)");
    BOOST_TEST(text(Outcome::refused({"invalid_schema", "questions", "questions: 5 given, at most 4"})) ==
               "Invalid ask_user_question input: questions: 5 given, at most 4");
}

BOOST_AUTO_TEST_CASE(results_over_the_cap_become_an_error) {
    auto d = parse(tool_result_json(Outcome::answered({answer("Q?", {std::string(99000, 'x')})})));
    BOOST_TEST(d["isError"].GetBool());
    BOOST_TEST(std::string(d["content"][0]["text"].GetString()).find("100000-byte limit") != std::string::npos);
    auto ok = parse(tool_result_json(Outcome::answered({answer("Q?", {std::string(49000, 'x')})})));
    BOOST_TEST(!ok["isError"].GetBool());
}

BOOST_AUTO_TEST_CASE(pending_result_names_the_file) {
    auto d = parse(tool_result_json(Outcome::pending(".askhost/pending-questions.json", 3)));
    BOOST_TEST(!d["isError"].GetBool());
    BOOST_TEST(std::string(d["structuredContent"]["pendingFile"].GetString()) == ".askhost/pending-questions.json");
}

BOOST_FIXTURE_TEST_CASE(initialize_then_call_then_answer, Fixture) {
    rpc.receive(
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"claude-code"}}})");
    BOOST_TEST(std::string(last()["result"]["protocolVersion"].GetString()) == "2025-06-18");
    rpc.receive(call(2, std::string(R"({"questions":[)") + kQuestion + "]}"));
    BOOST_REQUIRE(asker.asks.size() == 1u);
    BOOST_TEST(asker.asks[0].first.agent == "claude-code");
    BOOST_TEST(server.open_calls() == 1u);
    asker.asks[0].second(Outcome::answered({answer("Which database?", {"SQLite"})}));
    BOOST_TEST(last()["id"].GetInt() == 2);
    BOOST_TEST(std::string(last()["result"]["structuredContent"]["answers"]["Which database?"].GetString()) ==
               "SQLite");
    BOOST_TEST(server.open_calls() == 0u);
}

// The reference's result carries the questions asked beside the answers.
BOOST_FIXTURE_TEST_CASE(structured_content_echoes_the_questions, Fixture) {
    rpc.receive(call(1, std::string(R"({"questions":[)") + kQuestion + "]}"));
    BOOST_REQUIRE(asker.asks.size() == 1u);
    asker.asks[0].second(Outcome::answered({answer("Which database?", {"SQLite"})}));
    auto d = last();
    const auto& sc = d["result"]["structuredContent"];
    BOOST_REQUIRE(sc.HasMember("questions"));
    auto echoed =
        parse(R"({"questions":[)" +
              std::string(kQuestion).insert(std::string(kQuestion).size() - 1, R"(,"multiSelect":false)") + "]}");
    BOOST_TEST((sc["questions"] == echoed["questions"]));
    BOOST_TEST(std::string(sc["answers"]["Which database?"].GetString()) == "SQLite");
    // Pre-supplied answers too.
    rpc.receive(call(2, std::string(R"({"questions":[)") + kQuestion + R"(],"answers":{"Which database?":"SQLite"}})"));
    BOOST_TEST((last()["result"]["structuredContent"]["questions"] == echoed["questions"]));
    // Previews would break the cap: the echo leaves them out, the answer stays.
    Question big;
    big.question = "Which database?";
    big.header = "Database";
    for (const char* l : {"A", "B", "C", "D"}) big.options.push_back(Option{l, "", std::string(30000, 'p')});
    auto r = parse(tool_result_json(Outcome::answered({answer("Which database?", {"A"})}), {big}));
    BOOST_TEST(!r["isError"].GetBool());
    BOOST_TEST(!r["structuredContent"]["questions"][0]["options"][0].HasMember("preview"));
}

BOOST_AUTO_TEST_CASE(description_keeps_the_references_guidance) {
    const std::string d(tool_description());
    BOOST_TEST(d.find("plan mode") != std::string::npos);
    BOOST_TEST(d.find("exit_plan_mode") != std::string::npos);
    BOOST_TEST(d.find("open-ended") != std::string::npos);
    BOOST_TEST(d.find("Phrase the choices yourself") != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(alias_presets_and_refusals_never_reach_the_asker, Fixture) {
    rpc.receive(call(1, std::string(R"({"questions":[)") + kQuestion + R"(],"answers":{"Which database?":"SQLite"}})",
                     "AskUserQuestion"));
    BOOST_TEST(!last()["result"]["isError"].GetBool());
    rpc.receive(call(2, R"({"questions":[]})"));
    BOOST_TEST(std::string(last()["result"]["content"][0]["text"].GetString()) ==
               "Invalid ask_user_question input: questions: Provide 1-4 questions");
    rpc.receive(call(3, R"({})", "Bash"));
    BOOST_TEST(last()["error"]["code"].GetInt() == -32602);
    BOOST_TEST(asker.asks.empty());
}

// REQ-AUQ-005: Codex marks a spawned agent's call in _meta; the main thread's call is asked.
BOOST_FIXTURE_TEST_CASE(a_codex_subagents_call_is_refused, Fixture) {
    const std::string args = std::string(R"({"questions":[)") + kQuestion + "]}";
    auto with_meta = [&](int id, const std::string& meta) {
        return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
               R"(,"method":"tools/call","params":{"name":"ask_user_question","_meta":)" + meta + R"(,"arguments":)" +
               args + "}}";
    };
    rpc.receive(
        with_meta(1, R"({"x-codex-turn-metadata":{"thread_source":"subagent","subagent_kind":"thread_spawn"}})"));
    BOOST_TEST(last()["result"]["isError"].GetBool());
    BOOST_TEST(std::string(last()["result"]["content"][0]["text"].GetString()) == kSubagentRefusal);
    rpc.receive(with_meta(2, R"({"x-codex-turn-metadata":{"subagent_kind":"review"}})"));
    BOOST_TEST(last()["result"]["isError"].GetBool());
    BOOST_TEST(asker.asks.empty());
    rpc.receive(with_meta(3, R"({"x-codex-turn-metadata":{"thread_source":"user","turn_trigger":"exec"}})"));
    BOOST_TEST(asker.asks.size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(cancelled_notification_withdraws_the_ask, Fixture) {
    rpc.receive(call(7, std::string(R"({"questions":[)") + kQuestion + "]}"));
    BOOST_REQUIRE(asker.asks.size() == 1u);
    const auto replies = sent.size();
    rpc.receive(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}})");
    BOOST_TEST(asker.cancels == 1);
    BOOST_TEST(sent.size() == replies);  // MCP: no reply to a cancelled request
    BOOST_TEST(server.open_calls() == 0u);
    rpc.receive(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}})");
    BOOST_TEST(asker.cancels == 1);
}

// 2026-07-28: the version in each request's _meta; results say resultType; unknown versions -32022.
BOOST_FIXTURE_TEST_CASE(modern_requests_carry_their_version, Fixture) {
    const std::string meta =
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";
    rpc.receive(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_user_question",)" + meta +
                R"(,"arguments":{"questions":[)" + kQuestion + R"(],"answers":{"Which database?":"SQLite"}}}})");
    BOOST_TEST(std::string(last()["result"]["resultType"].GetString()) == "complete");
    BOOST_TEST(!last()["result"]["isError"].GetBool());
    rpc.receive(R"({"jsonrpc":"2.0","id":2,"method":"ping","params":{)" + meta + "}}");
    BOOST_TEST(last()["error"]["code"].GetInt() == -32601);
    rpc.receive(
        R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01"}}})");
    BOOST_TEST(last()["error"]["code"].GetInt() == -32022);
    BOOST_TEST(std::string(last()["error"]["data"]["supported"][0].GetString()) == "2026-07-28");
    // The client's capabilities are required with the version (an empty object declares none).
    rpc.receive(
        R"({"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})");
    BOOST_TEST(last()["error"]["code"].GetInt() == -32602);
    rpc.receive(R"({"jsonrpc":"2.0","id":4,"method":"server/discover"})");
    BOOST_TEST(std::string(last()["result"]["supportedVersions"][1].GetString()) == "2025-11-25");
    rpc.receive(R"({"jsonrpc":"2.0","id":5,"method":"tools/list"})");
    BOOST_TEST(!last()["result"].HasMember("resultType"));
}

BOOST_FIXTURE_TEST_CASE(unknown_methods_are_method_not_found, Fixture) {
    rpc.receive(R"({"jsonrpc":"2.0","id":"d","method":"resources/list"})");
    BOOST_TEST(last()["error"]["code"].GetInt() == -32601);
    BOOST_TEST(std::string(last()["id"].GetString()) == "d");
}

BOOST_FIXTURE_TEST_CASE(closing_cancels_every_open_call, Fixture) {
    rpc.receive(call(1, std::string(R"({"questions":[)") + kQuestion + "]}"));
    rpc.receive(call(2, std::string(R"({"questions":[)") + kQuestion + "]}"));
    server.close();
    BOOST_TEST(asker.cancels == 2);
}

BOOST_FIXTURE_TEST_CASE(bad_params_are_32602_naming_the_field, Fixture) {
    rpc.receive(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}})");
    BOOST_TEST(last()["error"]["code"].GetInt() == -32602);
    BOOST_TEST(std::string(last()["error"]["message"].GetString()) == "params.name: expected a string");
    rpc.receive(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":[]})");
    BOOST_TEST(std::string(last()["error"]["message"].GetString()) == "params: expected an object");
    rpc.receive(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"Bash"}})");
    BOOST_TEST(std::string(last()["error"]["message"].GetString()) == "Unknown tool: Bash");
    rpc.receive(R"({"jsonrpc":"2.0","id":4,"method":"nope"})");
    BOOST_TEST(std::string(last()["error"]["message"].GetString()) == "Method not found: nope");
    // initialize reads what it can and never refuses.
    rpc.receive(
        R"({"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":7,"clientInfo":{"name":""},"capabilities":{"elicitation":{}}}})");
    BOOST_TEST(std::string(last()["result"]["protocolVersion"].GetString()) == "2025-11-25");
    BOOST_TEST(server.client_name() == "mcp client");
    BOOST_TEST(server.client_elicits());
    BOOST_TEST(asker.asks.empty());
}

BOOST_FIXTURE_TEST_CASE(an_id_in_use_is_refused_and_progress_is_sent_for_the_token, Fixture) {
    rpc.receive(
        R"({"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"ask_user_question","_meta":{"progressToken":12345678901234567890123},"arguments":{"questions":[)" +
        std::string(kQuestion) + "]}}}");
    BOOST_REQUIRE(asker.asks.size() == 1u);
    rpc.receive(R"({"jsonrpc":"2.0","id":"c","method":"ping"})");
    BOOST_TEST(last()["error"]["code"].GetInt() == -32600);
    BOOST_TEST(std::string(last()["error"]["message"].GetString()) ==
               R"(request id already in use: "c" is a tools/call still waiting for its answer)");
    server.progress("12345678901234567890123", 1, "waiting");
    BOOST_TEST(
        sent.back() ==
        R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":12345678901234567890123,"progress":1,"message":"waiting"}})");
    const auto replies = sent.size();
    rpc.receive(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}})");
    BOOST_TEST(sent.size() == replies);  // no reply to a cancelled call
    BOOST_TEST(asker.cancels == 1);
    rpc.receive(R"({"jsonrpc":"2.0","id":"c","method":"ping"})");
    BOOST_TEST(last()["result"].IsObject());
}

// A task's record (the tasks extension) reads back as written; its owner is this process.
BOOST_AUTO_TEST_CASE(a_task_record_reads_back) {
    TaskRecord r;
    r.id = TaskStore::new_id();
    r.status = "input_required";
    r.status_message = "waiting";
    r.created_ms = 1;
    r.updated_ms = 2;
    r.ttl_ms = 3;
    r.expires_ms = 4;
    r.arguments = R"({"questions":[]})";
    r.input_requests = R"({"questions-2":{"method":"elicitation/create"}})";
    r.input_round = 2;
    r.client_name = "c";
    r.owner_pid = ::getpid();
    r.owner_start = process_start(r.owner_pid);
    auto back = task_from_file(task_file_json(r));
    BOOST_REQUIRE(back.has_value());
    BOOST_TEST(back->id == r.id);
    BOOST_TEST(back->status == r.status);
    BOOST_TEST(back->status_message == r.status_message);
    BOOST_TEST((back->created_ms == 1 && back->updated_ms == 2 && back->ttl_ms == 3 && back->expires_ms == 4));
    BOOST_TEST(back->arguments == r.arguments);
    BOOST_TEST(back->input_requests == r.input_requests);
    BOOST_TEST(back->input_round == 2);
    BOOST_TEST(back->client_name == "c");
    BOOST_TEST(owner_alive(*back));
    back->owner_start += "0";
    BOOST_TEST(!owner_alive(*back));  // the pid used again by another process is not the owner
    BOOST_TEST(!task_from_file("{").has_value());
    BOOST_TEST(TaskStore::valid_id(r.id));
    BOOST_TEST(!TaskStore::valid_id("../../etc/passwd"));
    BOOST_TEST(!TaskStore::valid_id(r.id + "0"));
    const std::string got = task_result_json(*back, "complete", 2000, "");
    BOOST_TEST(std::string(parse(got)["inputRequests"]["questions-2"]["method"].GetString()) == "elicitation/create");
    BOOST_TEST(std::string(parse(got)["createdAt"].GetString()) == "1970-01-01T00:00:00Z");
}
