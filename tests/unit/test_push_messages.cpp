// The Web Push messages' vectors (tests/web/push_messages.json) replayed against askhost web's
// side (host/web/web_push_message.cpp): each message reads and is written back the same, a lenient
// one as it reads, a refused one not at all; the `made` ones are what the sender writes for their
// questions, byte for byte as the vector (member order aside). The service worker's side replays
// the same file (tests/web/push_messages.test.mjs over host/web/page/dist/sw.js).
#define BOOST_TEST_MODULE push_messages
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>

#include <rapidjson/document.h>

#include "json/json_access.hpp"
#include "json_vectors.hpp"
#include "web/web_hub.hpp"
#include "web/web_push_message.hpp"

using namespace askhost;
using namespace askhost::web::push;

namespace {

const rapidjson::Document& vectors() {
    static const rapidjson::Document doc = test::read_json_vectors(ASKHOST_TESTS "/web/push_messages.json");
    return doc;
}

std::string about(const rapidjson::Value& c) { return json::string_of(c, "about"); }

rapidjson::Document parsed(const std::string& text) {
    rapidjson::Document doc;
    doc.Parse(text.c_str());
    return doc;
}

// The message read, written back, and parsed again (compared as values: member order aside).
std::optional<rapidjson::Document> round_trip(const rapidjson::Value& message, std::string& error) {
    Message read;
    if (auto e = from_json(message, read, json::Path("message"))) {
        error = e->message;
        return std::nullopt;
    }
    return parsed(json::to_text(read));
}

void replay(const char* section) {
    const auto& list = vectors()[section];
    BOOST_TEST_REQUIRE(list.Size() > 0u);
    for (const auto& c : list.GetArray()) {
        BOOST_TEST_CONTEXT(section << ": " << about(c)) {
            std::string error;
            auto back = round_trip(c["message"], error);
            BOOST_TEST_REQUIRE(back.has_value(), error);
            const auto& want = c.HasMember("reads_as") ? c["reads_as"] : c["message"];
            BOOST_TEST((*back == want), json::to_text(*back) << " != " << json::to_text(want));
        }
    }
}

web::WaitingAsk waiting(const std::string& key, const std::string& who, const std::string& question,
                        std::vector<std::string> labels) {
    web::WaitingAsk a;
    a.key = key;
    a.page.key = key;
    a.page.who = who;
    Question q;
    q.question = question;
    for (auto& l : labels) q.options.push_back({l, "", std::nullopt});
    a.ask.questions.push_back(q);
    return a;
}

web::WaitingAsk permission() {
    auto p = waiting("77:ask-3", "claude · hook", "Allow Bash: rm -rf build?", {"Allow", "Deny"});
    p.ask.permission = Permission{"Bash", "rm -rf build", "", "", "", "", {}};
    p.ask.permission->options = {{"Allow", PermissionKind::AllowOnce}, {"Deny", PermissionKind::RejectOnce}};
    return p;
}

// What the sender writes for each `made` vector.
std::map<std::string, std::string> made() {
    const std::string run = "k3Jd0Qx7";
    const auto db = waiting("4242:ask-1", "codex · MCP", "Which database?", {"PostgreSQL", "SQLite"});
    return {
        {"full", ask_message(db, Content::Full, run)},
        {"permission", ask_message(permission(), Content::Full, run)},
        {"bidi", ask_message(waiting("1:c", "codex · MCP", "evil\u202etxt", {}), Content::Full, run)},
        {"who", ask_message(db, Content::Who, run)},
        {"none", ask_message(db, Content::None, run)},
        {"burst", burst_message({line_of(db), line_of(permission())}, 2, Content::Full, run)},
        {"close", close_message("4242:ask-1")},
    };
}

}  // namespace

BOOST_AUTO_TEST_CASE(messages_read_and_write_back_the_same) { replay("push"); }

BOOST_AUTO_TEST_CASE(lenient_fields_read_as_the_vectors_say) { replay("lenient"); }

// A search names where it looks, as the page's list does: "Grep: password" alone hid the folder.
BOOST_AUTO_TEST_CASE(a_search_permission_says_where_it_looks) {
    auto g = waiting("77:ask-4", "claude · hook", "Allow Grep: password?", {"Allow", "Deny"});
    g.ask.permission = Permission{"Grep", "password", "/home/me/.ssh", "", "", "", {}};
    g.ask.permission->options = {{"Allow", PermissionKind::AllowOnce}, {"Deny", PermissionKind::RejectOnce}};
    const std::string m = ask_message(g, Content::Full, "k3Jd0Qx7");
    BOOST_TEST(m.find(R"("body":"Grep: password in /home/me/.ssh")") != std::string::npos, m);
}

BOOST_AUTO_TEST_CASE(refused_messages_are_not_read) {
    for (const auto& c : vectors()["refused"].GetArray()) {
        BOOST_TEST_CONTEXT(about(c)) {
            std::string error;
            BOOST_TEST(!round_trip(c["message"], error).has_value());
            BOOST_TEST(!error.empty());
        }
    }
}

BOOST_AUTO_TEST_CASE(the_sender_writes_the_vectors_messages) {
    const auto sent = made();
    std::size_t seen = 0;
    for (const auto& c : vectors()["push"].GetArray()) {
        if (!c.HasMember("made")) continue;
        const std::string name = json::string_of(c, "made");
        BOOST_TEST_CONTEXT(name) {
            BOOST_TEST_REQUIRE(sent.count(name) == 1u);
            const auto& text = sent.at(name);
            BOOST_TEST((parsed(text) == c["message"]), text << " != " << json::to_text(c["message"]));
            ++seen;
        }
    }
    BOOST_TEST(seen == sent.size(), "a message the sender makes has no vector");
}

// Written type first, the fields in the order docs/web-page.md shows.
BOOST_AUTO_TEST_CASE(messages_are_written_type_first_in_the_documented_order) {
    BOOST_TEST(close_message("1:a") == R"({"type":"close","tag":"1:a"})");
    AskPush m{"1:a", "s", "t", "b", std::nullopt, std::nullopt};
    m.actions = std::vector<Action>{{"0", "A", true}, {"1", "B", false}};
    BOOST_TEST(
        json::to_text(Message{m}) ==
        R"({"type":"ask","tag":"1:a","server":"s","title":"t","body":"b","actions":[{"action":"0","title":"A","open":true},{"action":"1","title":"B"}]})");
}
