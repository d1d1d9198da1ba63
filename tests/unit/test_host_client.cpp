// HostClient, the one client of a host's socket that askhost's own programs use, against a real
// host (HostCore) on a real socket in a private runtime folder: a person's face is shown each
// ask/show typed and answers it; a withdrawn ask reaches the face; a viewer passes an outcome on
// as it came; leaving is no answer. (The asker's side: tests/unit/test_ask_service.cpp.)
#define BOOST_TEST_MODULE host_client
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include <boost/asio/io_context.hpp>

#include "fake_frontend.hpp"
#include "frontends/editor/host_client.hpp"
#include "frontends/editor/host_core.hpp"
#include "host_world.hpp"

using namespace askhost;
namespace fs = std::filesystem;

namespace {

// A private runtime folder and workspace while it lives (host_world.hpp).
struct World : test::HostWorld {
    World() : test::HostWorld("askhost-client") {}
};
using test::run_until;
using test::TestHost;

Ask database_ask() {
    Ask a;
    a.questions.push_back(Question{"Which database?", "Database", {{"PostgreSQL", "", {}}, {"SQLite", "", {}}}, false});
    a.agent = "codex";
    a.route = "mcp";
    a.cwd = "/home/me/shop";
    a.metadata_json = R"({"source":"test"})";
    return a;
}

Outcome sqlite() {
    Answer a;
    a.question = "Which database?";
    a.values = {"SQLite"};
    a.selected_option = "SQLite";
    return Outcome::answered({a});
}

std::string kind_of(const Outcome& o) { return std::string(outcome_kind_name(o.kind)); }

}  // namespace

BOOST_AUTO_TEST_CASE(a_person_is_shown_each_ask_typed_and_its_outcome_answers_it) {
    World w;
    boost::asio::io_context io;
    TestHost host(io, w.workspace);
    HostClient client(io, host.core.socket_path(), "askhost test");
    std::optional<Status> greeted;
    client.on_greeted = [&](const Status& s) { greeted = s; };
    std::optional<Ask> shown;
    std::string questions_as_given, metadata_as_given;
    std::vector<std::string> states;
    HostFace face;
    face.show = [&](const AskShowParams& p, Reply<AskShowResult> reply) {
        shown = p.ask;
        questions_as_given = json::to_text(*p.questions.value);
        if (p.metadata.value) metadata_as_given = json::to_text(*p.metadata.value);
        reply(sqlite());
    };
    face.state = [&](const AskStateParams& p) { states.push_back(p.state); };
    client.show_to(ClientRole::Person, std::move(face));
    BOOST_REQUIRE(!client.connect());
    BOOST_REQUIRE(run_until(io, [&] { return greeted.has_value(); }));
    BOOST_TEST(!greeted->has_value());

    std::optional<Outcome> got;
    AskTicket ticket = host.core.broker().ask(database_ask(), [&](Outcome o) { got = std::move(o); });
    BOOST_REQUIRE(run_until(io, [&] { return got.has_value(); }));
    BOOST_REQUIRE(shown.has_value());
    BOOST_TEST(!shown->id.empty());
    BOOST_TEST(shown->agent == "codex");
    BOOST_TEST(shown->route == "mcp");
    BOOST_TEST(shown->cwd == "/home/me/shop");
    BOOST_REQUIRE(shown->questions.size() == 1u);
    BOOST_TEST(shown->questions[0].options.at(1).label == "SQLite");
    BOOST_TEST(questions_as_given.find(R"("question":"Which database?")") != std::string::npos);
    BOOST_TEST(metadata_as_given == R"({"source":"test"})");
    BOOST_TEST(kind_of(*got) == "answered");
    BOOST_TEST(got->answers.at(0).values.at(0) == "SQLite");
    BOOST_REQUIRE(run_until(io, [&] { return !states.empty() && states.back() == "idle"; }));
}

BOOST_AUTO_TEST_CASE(an_ask_answered_elsewhere_is_withdrawn_from_the_face) {
    World w;
    boost::asio::io_context io;
    TestHost host(io, w.workspace);
    testing::FakeFrontend editor("editor");
    host.core.broker().add_frontend(editor);
    HostClient client(io, host.core.socket_path(), "askhost test");
    std::optional<Reply<AskShowResult>> held;
    std::vector<std::string> withdrawn;
    HostFace face;
    face.show = [&](const AskShowParams&, Reply<AskShowResult> reply) { held = std::move(reply); };
    face.withdrawn = [&](const CancelRequestParams& p) {
        withdrawn.push_back(p.ask_id);
        held.reset();  // dropped: the host hears -32800, no answer
    };
    client.show_to(ClientRole::Person, std::move(face));
    BOOST_REQUIRE(!client.connect());

    std::optional<Outcome> got;
    AskTicket ticket = host.core.broker().ask(database_ask(), [&](Outcome o) { got = std::move(o); });
    BOOST_REQUIRE(run_until(io, [&] { return held.has_value() && !editor.open.empty(); }));
    const std::string id = editor.open.begin()->first;
    editor.answer(id, sqlite());
    BOOST_REQUIRE(run_until(io, [&] { return got.has_value() && !withdrawn.empty(); }));
    BOOST_TEST(withdrawn == std::vector<std::string>{id});
    BOOST_TEST(!held.has_value());
    BOOST_TEST(kind_of(*got) == "answered");
    host.core.broker().remove_frontend(editor, false);
}

BOOST_AUTO_TEST_CASE(a_viewer_passes_an_outcome_on_as_it_came) {
    World w;
    boost::asio::io_context io;
    TestHost host(io, w.workspace);
    HostClient client(io, host.core.socket_path(), "askhost test");
    HostFace face;
    face.show = [&](const AskShowParams&, Reply<AskShowResult> reply) {
        reply(json::RawJson{
            R"({"answered":true,"answers":[{"question":"Which database?","answer":"PostgreSQL","selectedOption":"PostgreSQL","wasCustom":false}]})"});
    };
    client.show_to(ClientRole::Viewer, std::move(face));
    BOOST_REQUIRE(!client.connect());
    std::optional<Outcome> got;
    AskTicket ticket = host.core.broker().ask(database_ask(), [&](Outcome o) { got = std::move(o); });
    BOOST_REQUIRE(run_until(io, [&] { return got.has_value(); }));
    BOOST_TEST(kind_of(*got) == "answered");
    BOOST_TEST(got->answers.at(0).values.at(0) == "PostgreSQL");
}

BOOST_AUTO_TEST_CASE(leaving_is_no_answer) {
    World w;
    boost::asio::io_context io;
    TestHost host(io, w.workspace);
    HostClient client(io, host.core.socket_path(), "askhost test");
    bool closed = false;
    std::optional<Reply<AskShowResult>> held;  // kept: a reply dropped unanswered is an error the host hears
    HostFace face;
    face.show = [&](const AskShowParams&, Reply<AskShowResult> reply) { held = std::move(reply); };
    client.show_to(ClientRole::Person, std::move(face));
    client.on_closed = [&] { closed = true; };
    BOOST_REQUIRE(!client.connect());
    std::optional<Outcome> got;
    AskTicket ticket = host.core.broker().ask(database_ask(), [&](Outcome o) { got = std::move(o); });
    BOOST_REQUIRE(run_until(io, [&] { return held.has_value(); }));
    client.close("detached");
    BOOST_TEST(closed);
    BOOST_TEST(client.closed_because() == "detached");
    BOOST_TEST(!client.connected());
    io.restart();
    io.run_for(std::chrono::milliseconds(100));
    BOOST_TEST(!got.has_value());  // the question still waits in the host
    BOOST_TEST(host.core.broker().pending().size() == 1u);
}
