// The page protocol's vectors (tests/web/page_protocol.json) replayed against askhost web's side
// (host/web/page_protocol.cpp): each message reads and is written back the same, a lenient one as
// it reads, a refused one not at all. The page's side replays the same file
// (tests/web/page_protocol.test.mjs over host/web/page/dist/protocol.js).
#define BOOST_TEST_MODULE page_protocol
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <variant>

#include <rapidjson/document.h>

#include "json/json_access.hpp"
#include "json_vectors.hpp"
#include "web/page_protocol.hpp"

using namespace askhost;
using namespace askhost::web;

namespace {

const rapidjson::Document& vectors() {
    static const rapidjson::Document doc = test::read_json_vectors(ASKHOST_TESTS "/web/page_protocol.json");
    return doc;
}

std::string about(const rapidjson::Value& c) { return json::string_of(c, "about"); }

// The message read as M, written back, and parsed again (compared as values: member order aside).
template <class M>
std::optional<rapidjson::Document> round_trip(const rapidjson::Value& message, std::string& error) {
    M read;
    if (auto e = from_json(message, read, json::Path("message"))) {
        error = e->message;
        return std::nullopt;
    }
    rapidjson::Document back;
    back.Parse(json::to_text(read).c_str());
    return back;
}

template <class M>
void replay(const char* section) {
    const auto& list = vectors()[section];
    BOOST_TEST_REQUIRE(list.Size() > 0u);
    for (const auto& c : list.GetArray()) {
        BOOST_TEST_CONTEXT(section << ": " << about(c)) {
            std::string error;
            auto back = round_trip<M>(c["message"], error);
            BOOST_TEST_REQUIRE(back.has_value(), error);
            const auto& want = c.HasMember("reads_as") ? c["reads_as"] : c["message"];
            BOOST_TEST((*back == want), json::to_text(*back) << " != " << json::to_text(want));
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_servers_messages_read_and_write_back_the_same) { replay<ServerMessage>("server"); }

BOOST_AUTO_TEST_CASE(the_pages_messages_read_and_write_back_the_same) { replay<PageMessage>("page"); }

BOOST_AUTO_TEST_CASE(lenient_fields_read_as_the_vectors_say) { replay<ServerMessage>("lenient"); }

BOOST_AUTO_TEST_CASE(refused_messages_are_neither_sides) {
    for (const auto& c : vectors()["refused"].GetArray()) {
        BOOST_TEST_CONTEXT(about(c)) {
            std::string error;
            BOOST_TEST(!round_trip<ServerMessage>(c["message"], error).has_value());
            BOOST_TEST(!error.empty());
            BOOST_TEST(!round_trip<PageMessage>(c["message"], error).has_value());
        }
    }
}

// Every message type either side sends is in the vectors, so that the page's replay covers it too.
BOOST_AUTO_TEST_CASE(every_type_has_a_vector) {
    std::set<std::string> seen;
    for (const char* section : {"server", "page"})
        for (const auto& c : vectors()[section].GetArray()) seen.insert(json::string_of(c["message"], "type"));
    const std::set<std::string> all{"snapshot", "added",           "removed",           "result",
                                    "push-key", "push-subscribed", "push-unsubscribed", "push-dropped",
                                    "answer",   "push-subscribe",  "push-unsubscribe"};
    BOOST_TEST(seen == all, "the vectors miss a type or name one the protocol has not");
    BOOST_TEST(std::variant_size_v<ServerMessage> + std::variant_size_v<PageMessage> == all.size());
}

// What askhost web sends, byte for byte: the type first, then the fields in the order docs/web.md shows.
BOOST_AUTO_TEST_CASE(messages_are_written_type_first_in_the_documented_order) {
    BOOST_TEST(json::to_text(ServerMessage{AnswerResult{"1:ask-1", std::nullopt}}) ==
               R"({"type":"result","key":"1:ask-1","ok":true})");
    BOOST_TEST(json::to_text(ServerMessage{AnswerResult{"1:ask-1", "gone"}}) ==
               R"({"type":"result","key":"1:ask-1","ok":false,"error":"gone"})");
    BOOST_TEST(json::to_text(ServerMessage{Removed{"1:ask-1", "host-gone"}}) ==
               R"({"type":"removed","key":"1:ask-1","reason":"host-gone"})");
    WebAsk a;
    a.key = "9:ask-1";
    a.questions.json = R"([{"question":"Q?"}])";
    a.metadata = AsGiven{R"({"m":1})"};
    a.agent = "codex";
    a.host = {9, "mcp", "/s"};
    a.workspace = "/w";
    a.who = "codex · MCP";
    a.since = 5;
    BOOST_TEST(
        json::to_text(ServerMessage{Snapshot{"run", {a}}}) ==
        R"({"type":"snapshot","server":"run","asks":[{"key":"9:ask-1","questions":[{"question":"Q?"}],"metadata":{"m":1},"agent":"codex","host":{"pid":9,"kind":"mcp","socket":"/s"},"workspace":"/w","who":"codex · MCP","since":5}]})");
}
