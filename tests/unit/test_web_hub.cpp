// WebHub, what askhost web shows, against real hosts (HostCore) on real sockets in a private
// runtime folder: a question's key is never another question's, not even one of a host whose pid
// was another host's (here two hosts of one process, one after the other, each asking its first
// question, "ask-1"), so that nothing said of the first (a notification's action, an answer sent
// late) can answer the second; and a question keeps its key in a later run of askhost web, so that
// a phone's notification and a page's #ask= still name it.
#define BOOST_TEST_MODULE web_hub
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <rapidjson/document.h>
#include <boost/asio/io_context.hpp>

#include "frontends/editor/host_core.hpp"
#include "host_world.hpp"
#include "web/web_hub.hpp"

using namespace askhost;
using askhost::web::WaitingAsk;
using askhost::web::WebHub;
namespace fs = std::filesystem;

namespace {

// A private runtime folder and workspace while it lives (host_world.hpp).
struct World : test::HostWorld {
    World() : test::HostWorld("askhost-hub") {}
};
using test::run_until;
using test::TestHost;

Ask one_question(const std::string& text, std::vector<std::string> labels) {
    Ask a;
    Question q{text, "Q", {}, false};
    for (auto& l : labels) q.options.push_back({std::move(l), "", {}});
    a.questions.push_back(std::move(q));
    a.agent = "codex";
    return a;
}

rapidjson::Document answer(const std::string& question, const std::string& label) {
    rapidjson::Document d;
    d.Parse((R"({"answered":true,"answers":[{"question":")" + question + R"(","answer":")" + label +
             R"(","selectedOption":")" + label + R"(","wasCustom":false}]})")
                .c_str());
    return d;
}

// As askhost and askhost web (their mains): a peer that closed its socket is an error value,
// not a death (here a host writing to the stopped server's connection).
struct IgnoreSigpipe {
    IgnoreSigpipe() { std::signal(SIGPIPE, SIG_IGN); }
};
BOOST_TEST_GLOBAL_FIXTURE(IgnoreSigpipe);

}  // namespace

BOOST_AUTO_TEST_CASE(a_pid_seen_again_is_another_host_and_its_questions_get_keys_never_used) {
    World w;
    boost::asio::io_context io;
    auto first = std::make_unique<TestHost>(io, w.workspace);
    WebHub hub(io, fs::path(first->core.socket_path()).parent_path().string());
    std::vector<std::string> added, removed;
    hub.on_added = [&](const WaitingAsk& a) { added.push_back(a.key); };
    hub.on_removed = [&](const std::string& key, std::string_view) { removed.push_back(key); };
    hub.start(std::chrono::milliseconds(20));

    std::optional<Outcome> first_got;
    AskTicket first_ask = first->core.broker().ask(one_question("Which database?", {"PostgreSQL", "SQLite"}),
                                                   [&](Outcome o) { first_got = std::move(o); });
    BOOST_REQUIRE(run_until(io, [&] { return added.size() == 1u; }));
    const std::string old_key = added[0];
    BOOST_TEST(old_key.starts_with(std::to_string(::getpid()) + "."));
    BOOST_TEST(old_key.ends_with(":" + first_ask.id()));

    // The host ends with its question, and another starts with the same pid (the same process
    // here, as a pid reused later would be), whose first question has the same id.
    const std::string old_id = first_ask.id();
    first_ask.cancel();
    first.reset();
    BOOST_REQUIRE(run_until(io, [&] { return removed.size() == 1u && hub.host_count() == 0u; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // started later, as a reused pid's process is
    TestHost second(io, w.workspace);
    std::optional<Outcome> got;
    AskTicket second_ask = second.core.broker().ask(one_question("Allow Bash: rm -rf build?", {"Allow", "Deny"}),
                                                    [&](Outcome o) { got = std::move(o); });
    BOOST_REQUIRE(run_until(io, [&] { return added.size() == 2u; }));
    BOOST_TEST(second_ask.id() == old_id);
    const std::string new_key = added[1];
    BOOST_TEST(new_key.starts_with(std::to_string(::getpid()) + "."));
    BOOST_TEST(new_key != old_key);

    // An answer to the first question's key, late (a notification's action, say), answers nothing.
    auto late = answer("Allow Bash: rm -rf build?", "Allow");
    auto refused = hub.answer(old_key, late);
    BOOST_REQUIRE(refused.has_value());
    BOOST_TEST(refused->find("no such question waits") != std::string::npos);
    BOOST_TEST(hub.waiting().size() == 1u);

    auto deny = answer("Allow Bash: rm -rf build?", "Deny");
    BOOST_TEST(!hub.answer(new_key, deny).has_value());
    BOOST_REQUIRE(run_until(io, [&] { return got.has_value(); }));
    BOOST_TEST(got->answers.at(0).values.at(0) == "Deny");
    BOOST_TEST((!first_got.has_value() || first_got->answers.empty()));
}

BOOST_AUTO_TEST_CASE(a_question_keeps_its_key_in_a_later_run_of_the_server) {
    World w;
    boost::asio::io_context io;
    auto earlier = std::make_unique<TestHost>(io, w.workspace);
    const std::string registry = fs::path(earlier->core.socket_path()).parent_path().string();
    std::string first_key;
    std::optional<Outcome> got;
    std::optional<TestHost> host;
    std::optional<AskTicket> ask;
    {
        // The first run watched another host before this one: its connections are numbered apart
        // from a later run's, which sees this host alone.
        WebHub hub(io, registry);
        std::vector<std::string> added;
        hub.on_added = [&](const WaitingAsk& a) { added.push_back(a.key); };
        hub.start(std::chrono::milliseconds(20));
        BOOST_REQUIRE(run_until(io, [&] { return hub.host_count() == 1u; }));
        earlier.reset();
        BOOST_REQUIRE(run_until(io, [&] { return hub.host_count() == 0u; }));
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        host.emplace(io, w.workspace);
        ask.emplace(host->core.broker().ask(one_question("Which database?", {"PostgreSQL", "SQLite"}),
                                            [&](Outcome o) { got = std::move(o); }));
        BOOST_REQUIRE(run_until(io, [&] { return added.size() == 1u; }));
        first_key = added[0];
    }  // askhost web stops; the question waits on in its host

    WebHub again(io, registry);
    std::vector<std::string> added;
    again.on_added = [&](const WaitingAsk& a) { added.push_back(a.key); };
    again.start(std::chrono::milliseconds(20));
    BOOST_REQUIRE(run_until(io, [&] { return added.size() == 1u; }));
    BOOST_TEST(added[0] == first_key);
    BOOST_TEST(first_key.starts_with(std::to_string(::getpid()) + "."));
    BOOST_TEST(first_key.ends_with(":" + ask->id()));

    // What the phone's notification of the first run says reaches the question in the second.
    auto sqlite = answer("Which database?", "SQLite");
    BOOST_TEST(!again.answer(first_key, sqlite).has_value());
    BOOST_REQUIRE(run_until(io, [&] { return got.has_value(); }));
    BOOST_TEST(got->answers.at(0).values.at(0) == "SQLite");
}
