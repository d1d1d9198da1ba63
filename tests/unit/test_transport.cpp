#define BOOST_TEST_MODULE transport
#include <boost/test/unit_test.hpp>

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "core/call_ticket.hpp"
#include "json/json_codec.hpp"
#include "transport/connection.hpp"
#include "transport/framing.hpp"
#include "transport/jsonrpc.hpp"
#include "transport/rpc_binder.hpp"

using namespace askhost;

namespace {

struct Collected {
    std::vector<std::string> bodies;
    std::vector<std::string> errors;
};

Collected feed_in_pieces(const std::string& stream, std::size_t piece, std::size_t max_body = 1 << 20) {
    FrameDecoder d(max_body);
    Collected c;
    for (std::size_t i = 0; i < stream.size(); i += piece)
        d.feed(std::string_view(stream).substr(i, piece), [&](FrameDecoder::Event e) {
            if (e.ok) c.bodies.push_back(e.body);
            else c.errors.push_back(e.error);
        });
    return c;
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_split_of_the_stream_gives_the_same_messages) {
    std::string stream = encode_frame("{\"a\":1}") + encode_frame("{\"b\":\"ü\"}") + encode_frame("[]");
    for (std::size_t piece = 1; piece <= stream.size(); ++piece) {
        auto c = feed_in_pieces(stream, piece);
        BOOST_TEST_CONTEXT("piece size " << piece) {
            BOOST_TEST(c.errors.empty());
            BOOST_REQUIRE_EQUAL(c.bodies.size(), 3u);
            BOOST_TEST(c.bodies[0] == "{\"a\":1}");
            BOOST_TEST(c.bodies[1] == "{\"b\":\"ü\"}");
            BOOST_TEST(c.bodies[2] == "[]");
        }
    }
}

BOOST_AUTO_TEST_CASE(header_names_are_case_insensitive_and_other_headers_ignored) {
    std::string stream =
        "content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
        "CONTENT-LENGTH:2\r\n\r\n[]";
    auto c = feed_in_pieces(stream, stream.size());
    BOOST_TEST(c.errors.empty());
    BOOST_REQUIRE_EQUAL(c.bodies.size(), 2u);
    BOOST_TEST(c.bodies[1] == "[]");
}

BOOST_AUTO_TEST_CASE(oversized_frame_is_skipped_without_buffering_and_the_stream_goes_on) {
    std::string big(5000, 'x');
    std::string stream = encode_frame(big) + encode_frame("{}");
    FrameDecoder d(1000);
    Collected c;
    std::size_t max_buffered = 0;
    for (std::size_t i = 0; i < stream.size(); i += 7) {
        d.feed(std::string_view(stream).substr(i, 7), [&](FrameDecoder::Event e) {
            if (e.ok) c.bodies.push_back(e.body);
            else c.errors.push_back(e.error);
        });
        max_buffered = std::max(max_buffered, d.buffered());
    }
    BOOST_REQUIRE_EQUAL(c.errors.size(), 1u);
    BOOST_TEST(c.errors[0] == "frame of 5000 bytes is over the limit of 1000 bytes; skipped");
    BOOST_REQUIRE_EQUAL(c.bodies.size(), 1u);
    BOOST_TEST(c.bodies[0] == "{}");
    BOOST_TEST(max_buffered < 1100u);
}

BOOST_AUTO_TEST_CASE(missing_or_bad_content_length_is_an_error_then_resync) {
    auto c = feed_in_pieces("Content-Type: x\r\n\r\n" + encode_frame("{}"), 3);
    BOOST_REQUIRE_EQUAL(c.errors.size(), 1u);
    BOOST_TEST(c.errors[0] == "frame without a Content-Length header");
    BOOST_REQUIRE_EQUAL(c.bodies.size(), 1u);

    c = feed_in_pieces("Content-Length: 12abc\r\n\r\n" + encode_frame("{}"), 100);
    BOOST_REQUIRE_EQUAL(c.errors.size(), 1u);
    BOOST_TEST(c.errors[0].rfind("invalid Content-Length", 0) == 0);
    BOOST_TEST(c.bodies.size() == 1u);
}

BOOST_AUTO_TEST_CASE(endless_header_is_dropped_with_bounded_memory) {
    FrameDecoder d;
    std::vector<std::string> errors;
    std::string junk(100000, 'a');
    d.feed(junk, [&](FrameDecoder::Event e) {
        if (!e.ok) errors.push_back(e.error);
    });
    BOOST_TEST(!errors.empty());
    BOOST_TEST(d.buffered() <= FrameDecoder::max_header_bytes + 4);
}

BOOST_AUTO_TEST_CASE(empty_body_frame) {
    auto c = feed_in_pieces("Content-Length: 0\r\n\r\n", 1);
    BOOST_REQUIRE_EQUAL(c.bodies.size(), 1u);
    BOOST_TEST(c.bodies[0].empty());
}

namespace {

struct Pair {
    std::vector<std::string> sent;
    RpcEndpoint ep{[this](std::string b) { sent.push_back(std::move(b)); }};
};

}  // namespace

BOOST_AUTO_TEST_CASE(parse_error_keeps_the_endpoint_usable) {
    Pair p;
    p.ep.receive("{not json");
    BOOST_REQUIRE_EQUAL(p.sent.size(), 1u);
    BOOST_TEST(p.sent[0].find("\"id\":null") != std::string::npos);
    BOOST_TEST(p.sent[0].find("-32700") != std::string::npos);
    p.ep.receive(R"({"jsonrpc":"2.0","id":4,"method":"nope"})");
    BOOST_REQUIRE_EQUAL(p.sent.size(), 2u);
    BOOST_TEST(p.sent[1] == R"({"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"method not found: nope"}})");
}

BOOST_AUTO_TEST_CASE(requests_are_dispatched_and_replied_once) {
    Pair p;
    int calls = 0;
    p.ep.on_request = [&](std::string_view m, const rapidjson::Value& params, Responder r) {
        ++calls;
        BOOST_TEST(m == "echo");
        BOOST_TEST(params["x"].GetInt() == 5);
        r.result("{\"ok\":true}");
        r.result("{\"ok\":false}");  // a second reply is ignored
    };
    p.ep.receive(R"({"jsonrpc":"2.0","id":"a","method":"echo","params":{"x":5}})");
    BOOST_TEST(calls == 1);
    BOOST_REQUIRE_EQUAL(p.sent.size(), 1u);
    BOOST_TEST(p.sent[0] == R"({"jsonrpc":"2.0","id":"a","result":{"ok":true}})");
}

BOOST_AUTO_TEST_CASE(a_dropped_responder_replies_with_an_error) {
    Pair p;
    p.ep.on_request = [&](std::string_view, const rapidjson::Value&, Responder) {};
    p.ep.receive(R"({"jsonrpc":"2.0","id":1,"method":"x"})");
    BOOST_REQUIRE_EQUAL(p.sent.size(), 1u);
    BOOST_TEST(p.sent[0].find("-32603") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(calls_get_their_replies_and_close_fails_the_rest) {
    Pair p;
    std::vector<std::string> got;
    auto id1 = p.ep.call("ask/show", "{}", [&](const rapidjson::Value* r, const RpcError* e) {
        got.push_back(r ? to_json(*r) : "error:" + e->message);
    });
    auto id2 = p.ep.call("ask/show", "{}", [&](const rapidjson::Value* r, const RpcError* e) {
        got.push_back(r ? to_json(*r) : "error:" + e->message);
    });
    BOOST_TEST(id1 != id2);
    p.ep.receive("{\"jsonrpc\":\"2.0\",\"id\":" + id2 + ",\"result\":{\"answered\":false}}");
    p.ep.receive("{\"jsonrpc\":\"2.0\",\"id\":" + id2 + ",\"result\":{}}");  // duplicate: ignored
    p.ep.close("connection lost");
    BOOST_REQUIRE_EQUAL(got.size(), 2u);
    BOOST_TEST(got[0] == "{\"answered\":false}");
    BOOST_TEST(got[1] == "error:connection lost");
}

BOOST_AUTO_TEST_CASE(invalid_messages_are_refused_by_shape) {
    Pair p;
    p.ep.receive("[1,2]");
    p.ep.receive(R"({"jsonrpc":"2.0","id":{"x":1},"method":"m"})");
    p.ep.receive(R"({"jsonrpc":"2.0","id":2,"method":"m","params":5})");
    p.ep.receive("\"\xff\"");
    BOOST_REQUIRE_EQUAL(p.sent.size(), 4u);
    BOOST_TEST(p.sent[0].find("-32600") != std::string::npos);
    BOOST_TEST(p.sent[1].find("-32600") != std::string::npos);
    BOOST_TEST(p.sent[2].find("-32602") != std::string::npos);
    BOOST_TEST(p.sent[3].find("-32700") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(every_envelope_comes_from_one_writer) {
    BOOST_TEST(jsonrpc::request("3", "ask/show", R"({"a":1})") ==
               R"({"jsonrpc":"2.0","id":3,"method":"ask/show","params":{"a":1}})");
    BOOST_TEST(jsonrpc::request("\"x\"", "shutdown", "") == R"({"jsonrpc":"2.0","id":"x","method":"shutdown"})");
    BOOST_TEST(jsonrpc::notification("exit", "") == R"({"jsonrpc":"2.0","method":"exit"})");
    BOOST_TEST(jsonrpc::notification("a\"b", "[]") == R"({"jsonrpc":"2.0","method":"a\"b","params":[]})");
    BOOST_TEST(jsonrpc::notification_head("agent/output") + "{}}" == jsonrpc::notification("agent/output", "{}"));
    BOOST_TEST(jsonrpc::result("null", "null") == R"({"jsonrpc":"2.0","id":null,"result":null})");
    BOOST_TEST(jsonrpc::error("7", -32602, "params.x: \"y\"") ==
               R"({"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"params.x: \"y\""}})");
    BOOST_TEST(jsonrpc::error("7", -32000, "m", R"({"k":[1]})") ==
               R"({"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"m","data":{"k":[1]}}})");
}

BOOST_AUTO_TEST_CASE(a_parsed_message_is_received_like_its_text) {
    Pair p;
    p.ep.on_request = [&](std::string_view, const rapidjson::Value&, Responder r) { r.result("1"); };
    rapidjson::Document doc;
    doc.Parse(R"({"jsonrpc":"2.0","id":"q","method":"m","params":[]})");
    p.ep.receive(doc);
    BOOST_REQUIRE_EQUAL(p.sent.size(), 1u);
    BOOST_TEST(p.sent[0] == R"({"jsonrpc":"2.0","id":"q","result":1})");
}

BOOST_AUTO_TEST_CASE(max_depth_refuses_a_message_whole_and_answers_what_waits) {
    Pair p;
    std::vector<std::string> problems, got;
    p.ep.peer = "the agent";
    p.ep.max_depth = 8;
    p.ep.on_problem = [&](std::string_view s) { problems.emplace_back(s); };
    p.ep.on_request = [&](std::string_view, const rapidjson::Value&, Responder r) { r.result("{}"); };
    p.ep.on_notify = [&](std::string_view, const rapidjson::Value&) { got.push_back("notified"); };
    const std::string deep = std::string(20, '[') + std::string(20, ']');
    p.ep.receive(R"({"jsonrpc":"2.0","id":1,"method":"m","params":)" + deep + "}");
    p.ep.receive(R"({"jsonrpc":"2.0","method":"n","params":)" + deep + "}");
    auto id = p.ep.call("c", "{}", [&](const rapidjson::Value* r, const RpcError* e) {
        got.push_back(r ? to_json(*r) : std::to_string(e->code) + " " + e->message);
    });
    p.ep.receive(R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":)" + deep + "}");
    p.ep.receive(R"({"jsonrpc":"2.0","method":"n","params":[[[]]]})");  // deep enough is fine
    BOOST_REQUIRE_EQUAL(p.sent.size(), 2u);
    BOOST_TEST(p.sent[0] ==
               R"({"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"message nested deeper than 8 levels"}})");
    BOOST_TEST(got == (std::vector<std::string>{"-32600 message nested deeper than 8 levels", "notified"}));
    BOOST_TEST(problems ==
               (std::vector<std::string>{"refused a request of the agent: message nested deeper than 8 levels",
                                         "the agent sent a message nested deeper than 8 levels; ignored"}));
}

BOOST_AUTO_TEST_CASE(abandon_drops_calls_and_silences_responders_still_held) {
    Pair p;
    std::vector<Responder> held;
    int replies = 0;
    p.ep.on_request = [&](std::string_view, const rapidjson::Value&, Responder r) { held.push_back(std::move(r)); };
    p.ep.receive(R"({"jsonrpc":"2.0","id":1,"method":"m"})");
    p.ep.receive(R"({"jsonrpc":"2.0","id":2,"method":"m"})");
    p.ep.call("c", "{}", [&](const rapidjson::Value*, const RpcError*) { ++replies; });
    p.sent.clear();
    p.ep.abandon();
    held[0].result("{}");
    held.clear();  // the other one, dropped unanswered
    p.ep.notify("n", "{}");
    BOOST_TEST(p.sent.empty());
    BOOST_TEST(replies == 0);
}

// --- the typed layer: json_codec and RpcBinder ---------------------------------------------

namespace {

struct TOption {
    std::string label;
    std::optional<std::string> description;
};
json::FieldStatus from_json(const rapidjson::Value& v, TOption& out, const json::Path& at) {
    return json::ObjectReader(v, at).required("label", out.label).optional("description", out.description).status();
}
// Its reader a hidden friend: the array reader in json_codec finds it by argument-dependent lookup alone.
struct TQuestion {
    std::string question;
    std::vector<TOption> options;
    bool multi = false;
    friend json::FieldStatus from_json(const rapidjson::Value& v, TQuestion& out, const json::Path& at) {
        return json::ObjectReader(v, at)
            .required("question", out.question)
            .required("options", out.options)
            .optional("multiSelect", out.multi)
            .status();
    }
};
struct TParams {
    std::vector<TQuestion> questions;
    std::map<std::string, std::int64_t> counts;
    std::string hint = "none";
};
json::FieldStatus from_json(const rapidjson::Value& v, TParams& out, const json::Path& at) {
    return json::ObjectReader(v, at)
        .required("questions", out.questions)
        .optional("counts", out.counts)
        .lenient("hint", out.hint)
        .status();
}

// The error message from_json gives for `text`, or "" when it reads.
std::string problem_reading(const std::string& text) {
    rapidjson::Document d;
    BOOST_REQUIRE_MESSAGE(!json::parse(d, text), text);
    TParams p;
    auto e = from_json(d, p, json::Path("params"));
    return e ? e->message : std::string();
}

struct TResult {
    std::string name;
    std::optional<int> count;
};
void to_json(const TResult& r, json::Writer& w) {
    json::ObjectWriter(w).field("name", r.name).optional("count", r.count);
}

}  // namespace

BOOST_AUTO_TEST_CASE(from_json_names_the_path_of_the_bad_field) {
    const std::string q0 = R"({"question":"A?","options":[{"label":"x"}]})";
    BOOST_TEST(problem_reading(R"({"questions":[)" + q0 + "]}") == "");
    BOOST_TEST(
        problem_reading(R"({"questions":[)" + q0 + "," + q0 + R"(,{"question":"C?","options":[{"label":3}]}]})") ==
        "params.questions[2].options[0].label: expected a string");
    BOOST_TEST(problem_reading(R"({"questions":[{"question":"A?"}]})") ==
               "params.questions[0].options: expected an array");
    BOOST_TEST(problem_reading(R"({"questions":[{"question":"A?","options":[],"multiSelect":"yes"}]})") ==
               "params.questions[0].multiSelect: expected a boolean");
    BOOST_TEST(problem_reading(R"({"questions":[{"question":"A?","options":[{"label":"x","description":null}]}]})") ==
               "params.questions[0].options[0].description: expected a string");
    BOOST_TEST(problem_reading(R"({"questions":[],"counts":{"a b\"":1.5}})") ==
               R"(params.counts["a b\""]: expected an integer)");
    BOOST_TEST(problem_reading(R"({"questions":[],"hint":5})") == "");  // lenient: read as absent
    BOOST_TEST(problem_reading(R"([])") == "params: expected an object");
    BOOST_TEST(problem_reading(R"({"questions":1E+2})") == "params.questions: expected an array");

    rapidjson::Document d;
    BOOST_REQUIRE(!json::parse(d, R"({"questions":[],"counts":{"a":-7},"hint":"h"})"));
    TParams p;
    auto e = from_json(d, p, json::Path("params"));
    BOOST_TEST(!e);
    BOOST_TEST(p.counts.at("a") == -7);
    BOOST_TEST(p.hint == "h");
}

BOOST_AUTO_TEST_CASE(to_json_writes_fields_and_leaves_out_empty_optionals) {
    BOOST_TEST(json::to_text(TResult{"a\"b", 3}) == R"({"name":"a\"b","count":3})");
    BOOST_TEST(json::to_text(TResult{"x", std::nullopt}) == R"({"name":"x"})");
    BOOST_TEST(json::to_text(std::vector<TResult>{{"x", 1}}) == R"([{"name":"x","count":1}])");
    BOOST_TEST(json::to_text(json::Null{}) == "null");
    BOOST_TEST(json::to_text(json::EmptyObject{}) == "{}");
    BOOST_TEST(json::to_text(RequestId{"\"id-1\""}) == R"("id-1")");
}

namespace {

struct Server {
    std::vector<std::string> sent;
    RpcEndpoint rpc{[this](std::string body) { sent.push_back(std::move(body)); }};
    RpcBinder<Server> bind{rpc, *this};
    std::vector<std::string> heard;
    std::optional<Reply<TResult>> held;
    bool open = true;

    Server() {
        bind.gate = [this](std::string_view method, const Responder&) -> std::optional<RpcError> {
            if (open || method == "count") return std::nullopt;
            return RpcError{-32002, "closed"};
        };
        bind.method("count", &Server::count);
        bind.method("later", &Server::later);
        bind.notification("note", &Server::note);
    }
    void count(const TParams& p, Reply<TResult> reply) {
        if (p.questions.empty()) return reply.error(-32001, "no questions");
        reply({p.hint, static_cast<int>(p.questions.size())});
    }
    void later(const json::Ignored&, Reply<TResult> reply) { held = reply; }
    void note(const TOption& o) { heard.push_back(o.label); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(a_bound_method_reads_its_params_and_writes_its_result) {
    Server s;
    s.rpc.receive(
        R"({"jsonrpc":"2.0","id":1,"method":"count","params":{"questions":[{"question":"A?","options":[]}],"hint":"h"}})");
    BOOST_TEST(s.sent.back() == R"({"jsonrpc":"2.0","id":1,"result":{"name":"h","count":1}})");
    s.rpc.receive(
        R"({"jsonrpc":"2.0","id":2,"method":"count","params":{"questions":[{"question":"A?","options":[{}]}]}})");
    BOOST_TEST(
        s.sent.back() ==
        R"({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"params.questions[0].options[0].label: expected a string"}})");
    s.rpc.receive(R"({"jsonrpc":"2.0","id":3,"method":"count","params":{"questions":[]}})");
    BOOST_TEST(s.sent.back() == R"({"jsonrpc":"2.0","id":3,"error":{"code":-32001,"message":"no questions"}})");
    s.rpc.receive(R"({"jsonrpc":"2.0","id":4,"method":"nope"})");
    BOOST_TEST(s.sent.back() ==
               R"({"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"method not found: nope"}})");
    s.open = false;
    s.rpc.receive(R"({"jsonrpc":"2.0","id":5,"method":"nope"})");
    BOOST_TEST(s.sent.back() == R"({"jsonrpc":"2.0","id":5,"error":{"code":-32002,"message":"closed"}})");
    BOOST_TEST(s.sent.size() == 5u);
}

BOOST_AUTO_TEST_CASE(bound_notifications_with_bad_params_are_ignored) {
    Server s;
    s.rpc.receive(R"({"jsonrpc":"2.0","method":"note","params":{"label":"a"}})");
    s.rpc.receive(R"({"jsonrpc":"2.0","method":"note","params":{"label":1}})");
    s.rpc.receive(R"({"jsonrpc":"2.0","method":"other","params":{}})");
    BOOST_TEST(s.heard == std::vector<std::string>{"a"});
    BOOST_TEST(s.sent.empty());
}

BOOST_AUTO_TEST_CASE(a_reply_kept_for_later_answers_once_and_a_dropped_one_errs) {
    Server s;
    s.rpc.receive(R"({"jsonrpc":"2.0","id":"a","method":"later"})");
    BOOST_TEST(s.sent.empty());
    BOOST_REQUIRE(s.held.has_value());
    BOOST_TEST(s.held->id_json() == R"("a")");
    Reply<TResult> copy = *s.held;
    (*s.held)({"done", std::nullopt});
    copy({"again", 2});
    BOOST_TEST(s.sent.size() == 1u);
    BOOST_TEST(s.sent[0] == R"({"jsonrpc":"2.0","id":"a","result":{"name":"done"}})");
    s.held.reset();
    s.rpc.receive(R"({"jsonrpc":"2.0","id":"b","method":"later"})");
    s.held.reset();  // the last copy goes unanswered
    BOOST_TEST(s.sent.back().find(R"("id":"b","error":{"code":-32603)") != std::string::npos);
}

// LSP's $/cancelRequest: a request the peer cancelled and its handler then dropped is answered
// -32800 (RequestCancelled), not as a request dropped by mistake.
BOOST_AUTO_TEST_CASE(a_cancelled_request_dropped_unanswered_is_request_cancelled) {
    Pair p;
    std::map<std::string, Responder> held;
    std::vector<std::string> notified;
    p.ep.on_request = [&](std::string_view, const rapidjson::Value& params, Responder r) {
        held.emplace(params["k"].GetString(), std::move(r));
    };
    p.ep.on_notify = [&](std::string_view m, const rapidjson::Value&) { notified.emplace_back(m); };
    p.ep.receive(R"({"jsonrpc":"2.0","id":7,"method":"wait","params":{"k":"int"}})");
    p.ep.receive(R"({"jsonrpc":"2.0","id":"7","method":"wait","params":{"k":"string"}})");
    p.ep.receive(R"({"jsonrpc":"2.0","id":8,"method":"wait","params":{"k":"answered"}})");
    p.ep.receive(R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}})");
    p.ep.receive(R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":8}})");
    p.ep.receive(R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":[[7]]}})");  // not an id: ignored
    BOOST_TEST(notified == std::vector<std::string>(3, "$/cancelRequest"));  // the handler hears them all
    held.at("answered").result("{}");  // a handler may still answer a cancelled request
    held.erase("int");
    held.erase("string");
    held.clear();
    BOOST_REQUIRE_EQUAL(p.sent.size(), 3u);
    BOOST_TEST(p.sent[0] == R"({"jsonrpc":"2.0","id":8,"result":{}})");
    BOOST_TEST(p.sent[1] == R"({"jsonrpc":"2.0","id":7,"error":{"code":-32800,"message":"request cancelled"}})");
    BOOST_TEST(p.sent[2] ==
               R"({"jsonrpc":"2.0","id":"7","error":{"code":-32603,"message":"request dropped without a reply"}})");
}

BOOST_AUTO_TEST_CASE(a_cancelled_typed_reply_dropped_is_request_cancelled) {
    Server s;
    s.rpc.receive(R"({"jsonrpc":"2.0","id":"c","method":"later"})");
    s.rpc.receive(R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"c"}})");
    BOOST_TEST(s.sent.empty());
    s.held.reset();
    BOOST_REQUIRE_EQUAL(s.sent.size(), 1u);
    BOOST_TEST(s.sent[0] == R"({"jsonrpc":"2.0","id":"c","error":{"code":-32800,"message":"request cancelled"}})");
}

// MCP's notifications/cancelled: the request it names gets no reply at all, not even when its
// reply (a copy of it too) is used or dropped later.
BOOST_AUTO_TEST_CASE(a_withheld_reply_sends_nothing_then_or_later) {
    Server s;
    s.rpc.receive(R"({"jsonrpc":"2.0","id":"w","method":"later"})");
    BOOST_REQUIRE(s.held.has_value());
    Reply<TResult> copy = *s.held;
    s.held->withhold();
    copy({"late", 1});
    copy.error(-32800, "cancelled");
    s.held.reset();
    BOOST_TEST(s.sent.empty());
    s.rpc.receive(R"({"jsonrpc":"2.0","id":"x","method":"later"})");
    (*s.held)({"done", std::nullopt});  // the next request is answered as ever
    BOOST_REQUIRE_EQUAL(s.sent.size(), 1u);
    BOOST_TEST(s.sent[0] == R"({"jsonrpc":"2.0","id":"x","result":{"name":"done"}})");
}

// --- typed calls: the result read at "result", one error case ----------------------------------

namespace {

// A result read in its call's context: `scale` is set before the reply comes.
struct TCount {
    std::int64_t scale = 1;
    std::int64_t x = 0;
};
json::FieldStatus from_json(const rapidjson::Value& v, TCount& out, const json::Path& at) {
    json::ObjectReader r(v, at);
    if (!r.required("x", out.x).ok()) return r.status();
    out.x *= out.scale;
    return {};
}

// What a typed call gave, as text: the value, or "error CODE [PATH]: MESSAGE".
struct Caller {
    std::vector<std::string> sent;
    RpcEndpoint rpc{[this](std::string body) { sent.push_back(std::move(body)); }};
    std::vector<std::string> got;

    std::string count(TCount blank = {}) {
        return call<TCount>(
            rpc, "count", TResult{"n", std::nullopt},
            [this](Result<TCount> r) {
                if (r) got.push_back(std::to_string(r->x));
                else
                    got.push_back("error " + std::to_string(r.error().code) + " [" + r.error().path +
                                  "]: " + r.error().message);
            },
            blank);
    }
    void reply(const std::string& id, const std::string& rest) {
        rpc.receive(R"({"jsonrpc":"2.0","id":)" + id + "," + rest + "}");
    }
};

}  // namespace

BOOST_AUTO_TEST_CASE(a_typed_call_writes_its_params_and_reads_its_result) {
    Caller c;
    const std::string id = c.count();
    BOOST_TEST(c.sent.back() == R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":"count","params":{"name":"n"}})");
    c.reply(id, R"("result":{"x":3,"more":true})");
    const std::string scaled = c.count(TCount{10, 0});
    c.reply(scaled, R"("result":{"x":4})");
    BOOST_TEST(c.got == (std::vector<std::string>{"3", "40"}));
}

BOOST_AUTO_TEST_CASE(a_typed_call_gets_the_peers_error_or_the_path_that_does_not_read) {
    Caller c;
    c.reply(c.count(), R"("error":{"code":-32001,"message":"no agent"})");
    c.reply(c.count(), R"("result":{"x":"three"})");
    c.reply(c.count(), R"("result":null)");
    c.count();
    c.rpc.close("connection lost");
    c.count();  // after the close: at once
    BOOST_TEST(c.got == (std::vector<std::string>{
                            "error -32001 []: no agent", "error 0 [result.x]: result.x: expected an integer",
                            "error 0 [result]: result: expected an object", "error -32603 []: connection lost",
                            "error -32603 []: connection closed"}));
}

// A call held as a ticket over a real endpoint: a cancel reaches the peer once and the late reply
// is dropped; after a reply, a cancel says nothing; a call on a closed endpoint closes its ticket.
BOOST_AUTO_TEST_CASE(a_call_ticket_cancels_once_and_drops_the_late_reply) {
    Caller c;
    auto held = [&c](CallTicket& ticket) {
        const std::string id = call<TCount>(
            c.rpc, "count", TResult{"n", std::nullopt},
            ticket.reply([&c](Result<TCount> r) { c.got.push_back(r ? std::to_string(r->x) : r.error().message); }));
        ticket.on_cancel([&c, id] { c.rpc.notify("$/cancelRequest", R"({"id":)" + id + "}"); });
        return id;
    };
    CallTicket first, second, third;
    const std::string a = held(first), b = held(second);
    first.cancel();
    first.cancel();
    BOOST_TEST(c.sent.back() == R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":)" + a + "}}");
    const std::size_t sent = c.sent.size();
    c.reply(a, R"("result":{"x":1})");
    c.reply(b, R"("result":{"x":2})");
    second.cancel();
    BOOST_TEST(c.sent.size() == sent);
    BOOST_TEST(c.got == std::vector<std::string>{"2"});
    c.rpc.close("gone");
    held(third);
    BOOST_TEST(!third.open());
    third.cancel();
    BOOST_TEST(c.sent.size() == sent);
    BOOST_TEST(c.got == (std::vector<std::string>{"2", "connection closed"}));
}

// A Connection's read buffer: a few KiB while the peer is quiet, doubled while reads fill it (a
// frame of 300 KB), back to the small size once a few reads in a row are small again; every message
// arrives whole.
BOOST_AUTO_TEST_CASE(the_read_buffer_grows_for_a_large_frame_and_shrinks_back) {
    int fds[2];
    BOOST_REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
    boost::asio::io_context io;
    auto conn = std::make_shared<Connection>(io, fds[0], ::dup(fds[0]));
    std::vector<std::string> methods;
    std::size_t largest_text = 0, largest_buffer = 0;
    conn->rpc().on_notify = [&](std::string_view method, const rapidjson::Value& params) {
        methods.emplace_back(method);
        largest_text = std::max<std::size_t>(largest_text, params["text"].GetStringLength());
        largest_buffer = std::max(largest_buffer, conn->read_buffer_size());
    };
    conn->start();
    BOOST_TEST(conn->read_buffer_size() == Connection::min_read_buffer);

    auto send = [&](const std::string& method, std::size_t text_bytes) {
        const std::string frame =
            encode_frame(jsonrpc::notification(method, "{\"text\":\"" + std::string(text_bytes, 'x') + "\"}"));
        // Written from a thread: the socket holds less than the large frame.
        std::thread writer([&] {
            std::size_t off = 0;
            while (off < frame.size()) {
                const ssize_t n = ::write(fds[1], frame.data() + off, frame.size() - off);
                if (n <= 0) break;
                off += static_cast<std::size_t>(n);
            }
        });
        const std::size_t before = methods.size();
        while (methods.size() == before) io.run_one();
        writer.join();
    };
    send("small/1", 10);
    BOOST_TEST(conn->read_buffer_size() == Connection::min_read_buffer);
    send("large", 300000);
    BOOST_TEST(largest_text == 300000u);
    BOOST_TEST(largest_buffer > Connection::min_read_buffer);
    BOOST_TEST(largest_buffer <= Connection::max_read_buffer);
    for (std::size_t i = 2; i < 2 + Connection::quiet_reads_to_shrink; ++i) send("small/" + std::to_string(i), 10);
    BOOST_TEST(conn->read_buffer_size() == Connection::min_read_buffer);
    BOOST_TEST((methods == std::vector<std::string>{"small/1", "large", "small/2", "small/3", "small/4", "small/5"}));
    conn.reset();
    ::close(fds[1]);
}
