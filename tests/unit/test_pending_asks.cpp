#define BOOST_TEST_MODULE pending_asks
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "answers.hpp"
#include "common/first_line.hpp"
#include "common/tool_input.hpp"
#include "core/broker.hpp"
#include "core/pending_asks.hpp"
#include "fake_adapter_host.hpp"
#include "fake_frontend.hpp"

using namespace askhost;
using namespace askhost::testing;

namespace {

AskInput one_question(const std::string& q) {
    AskInput in;
    in.questions.push_back(Question{q, "", {}, false});
    return in;
}

// An adapter host on a real broker: outcomes come the way a session hands them over.
struct BrokerHost final : AdapterHost {
    boost::asio::io_context& io;
    Broker& broker;
    BrokerHost(boost::asio::io_context& i, Broker& b) : io(i), broker(b) {}
    AskTicket ask(AskInput input, OnOutcome reply) override {
        Ask a;
        a.questions = std::move(input.questions);
        return broker.ask(std::move(a), std::move(reply));
    }
    void output(Stream, std::string_view) override {}
    void send(std::string_view) override {}
    Profile profile() const override { return Profile::Lenient; }
    void log(std::string_view) override {}
};

struct Recorder final : Frontend {
    std::map<std::string, Done> open;
    std::vector<std::string> withdrawn;
    std::string_view name() const override { return "recorder"; }
    void show(const Ask& ask, Done done) override { open[ask.id] = std::move(done); }
    void withdraw(const std::string& id) override {
        withdrawn.push_back(id);
        open.erase(id);
    }
};

}  // namespace

BOOST_AUTO_TEST_CASE(an_answer_goes_to_its_request_with_its_data_and_the_request_leaves) {
    FakeHost host;
    PendingAsks<std::string> pending(host);
    std::vector<std::string> heard;
    BOOST_TEST(pending.ask("r1", one_question("A?"), "route-1", [&](Outcome o, std::string route) {
        heard.push_back(route + ":" + o.answers.at(0).values.at(0));
    }));
    BOOST_TEST(pending.ask("r2", one_question("B?"), "route-2", [&](Outcome o, std::string route) {
        heard.push_back(route + ":" + o.answers.at(0).values.at(0));
    }));
    BOOST_TEST(pending.size() == 2u);
    host.asks[1].second(Outcome::answered({typed("B?", "b")}));
    BOOST_TEST(heard == std::vector<std::string>{"route-2:b"});
    BOOST_TEST(!pending.contains("r2"));
    BOOST_TEST(pending.contains("r1"));
    pending.take_all();
    BOOST_TEST(host.withdrawn == std::vector<std::string>{"ask-1"});  // not the answered one
}

BOOST_AUTO_TEST_CASE(an_id_that_already_waits_is_not_asked_again) {
    FakeHost host;
    PendingAsks<> pending(host);
    BOOST_TEST(pending.ask("r", one_question("A?"), {}, [](Outcome, std::monostate) {}));
    BOOST_TEST(!pending.ask("r", one_question("B?"), {}, [](Outcome, std::monostate) {}));
    BOOST_TEST(host.asks.size() == 1u);
    BOOST_TEST(host.withdrawn.empty());
}

BOOST_AUTO_TEST_CASE(take_withdraws_the_ask_and_its_late_outcome_is_dropped) {
    FakeHost host;
    PendingAsks<int> pending(host);
    int answers = 0;
    pending.ask("r", one_question("A?"), 7, [&](Outcome, int) { ++answers; });
    auto data = pending.take("r");
    BOOST_REQUIRE(data);
    BOOST_TEST(*data == 7);
    BOOST_TEST(host.withdrawn == std::vector<std::string>{"ask-1"});
    BOOST_TEST(!pending.take("r"));
    host.asks[0].second(Outcome::cancelled());
    BOOST_TEST(answers == 0);
}

BOOST_AUTO_TEST_CASE(take_all_withdraws_in_id_order_and_gives_the_data_back) {
    FakeHost host;
    PendingAsks<int> pending(host);
    pending.ask("b", one_question("B?"), 2, [](Outcome, int) {});
    pending.ask("a", one_question("A?"), 1, [](Outcome, int) {});
    auto all = pending.take_all();
    BOOST_REQUIRE(all.size() == 2u);
    BOOST_TEST(all[0].first == "a");
    BOOST_TEST(all[0].second == 1);
    BOOST_TEST(all[1].first == "b");
    BOOST_TEST((host.withdrawn == std::vector<std::string>{"ask-2", "ask-1"}));
    BOOST_TEST(pending.empty());
}

BOOST_AUTO_TEST_CASE(ids_where_finds_requests_by_their_data) {
    FakeHost host;
    PendingAsks<std::string> pending(host);
    pending.ask("1", one_question("A?"), "tool-x", [](Outcome, std::string) {});
    pending.ask("2", one_question("B?"), "tool-y", [](Outcome, std::string) {});
    pending.ask("3", one_question("C?"), "tool-x", [](Outcome, std::string) {});
    BOOST_TEST(
        (pending.ids_where([](const std::string& t) { return t == "tool-x"; }) == std::vector<std::string>{"1", "3"}));
}

BOOST_AUTO_TEST_CASE(destroying_the_container_withdraws_every_ask) {
    FakeHost host;
    int answers = 0;
    {
        PendingAsks<> pending(host);
        pending.ask("a", one_question("A?"), {}, [&](Outcome, std::monostate) { ++answers; });
        pending.ask("b", one_question("B?"), {}, [&](Outcome, std::monostate) { ++answers; });
    }
    BOOST_TEST(host.withdrawn.size() == 2u);
    host.asks[0].second(Outcome::cancelled());  // too late: nobody is there to hear it
    BOOST_TEST(answers == 0);
}

BOOST_AUTO_TEST_CASE(on_a_real_broker_the_answer_comes_on_a_later_turn) {
    boost::asio::io_context io;
    Broker broker(io);
    Recorder front;
    broker.add_frontend(front);
    BrokerHost host(io, broker);
    PendingAsks<> pending(host);
    int answers = 0;
    pending.ask("r", one_question("A?"), {}, [&](Outcome, std::monostate) { ++answers; });
    front.open.begin()->second(Outcome::cancelled());
    BOOST_TEST(answers == 0);
    BOOST_TEST(pending.contains("r"));
    next_turn(io);
    BOOST_TEST(answers == 1);
    BOOST_TEST(pending.empty());
    BOOST_TEST(front.withdrawn.empty());
}

BOOST_AUTO_TEST_CASE(start_asks_a_broker_without_an_adapter_host) {
    // The editor client's way: an ask/submit's request id, the ask made by the broker itself.
    boost::asio::io_context io;
    Broker broker(io);
    Recorder front;
    broker.add_frontend(front);
    PendingAsks<> pending;
    std::vector<std::string> heard;
    auto by_broker = [&](const std::string& q) {
        return [&broker, q](OnOutcome reply) {
            Ask a;
            a.questions.push_back(Question{q, "", {}, false});
            return broker.ask(std::move(a), std::move(reply));
        };
    };
    BOOST_TEST(pending.start("1", by_broker("A?"), {}, [&](Outcome o, std::monostate) {
        heard.push_back("1:" + std::string(outcome_kind_name(o.kind)));
    }));
    BOOST_TEST(!pending.start("1", by_broker("B?"), {}, [&](Outcome, std::monostate) { heard.push_back("again"); }));
    BOOST_TEST(front.open.size() == 1u);
    front.open.begin()->second(Outcome::cancelled());
    next_turn(io);
    BOOST_TEST(heard == std::vector<std::string>{"1:cancelled"});
    BOOST_TEST(pending.empty());
}

BOOST_AUTO_TEST_CASE(release_leaves_the_ask_open_with_whoever_holds_its_ticket) {
    FakeHost host;
    PendingAsks<int> pending(host);
    int answers = 0;
    pending.ask("r", one_question("A?"), 7, [&](Outcome, int) { ++answers; });
    AskTicket earlier = pending.release("r");
    BOOST_TEST(!pending.contains("r"));
    BOOST_TEST(earlier.open());
    BOOST_TEST(host.withdrawn.empty());
    // The id is free for the request that takes its place; the earlier is withdrawn after.
    BOOST_TEST(pending.ask("r", one_question("B?"), 8, [&](Outcome, int) { ++answers; }));
    earlier.cancel();
    BOOST_TEST(host.withdrawn == std::vector<std::string>{"ask-1"});
    host.asks[0].second(Outcome::cancelled());  // the released one's outcome reaches nobody
    BOOST_TEST(answers == 0);
    BOOST_TEST(pending.contains("r"));
    BOOST_TEST(!pending.release("missing").open());
}

BOOST_AUTO_TEST_CASE(clear_withdraws_every_ask_and_answers_none) {
    FakeHost host;
    PendingAsks<int> pending(host);
    int answers = 0;
    pending.ask("a", one_question("A?"), 1, [&](Outcome, int) { ++answers; });
    pending.ask("b", one_question("B?"), 2, [&](Outcome, int) { ++answers; });
    pending.clear();
    BOOST_TEST(pending.empty());
    BOOST_TEST(host.withdrawn.size() == 2u);
    host.asks[1].second(Outcome::cancelled());
    BOOST_TEST(answers == 0);
}

BOOST_AUTO_TEST_CASE(a_tool_input_is_asked_or_answered_at_once) {
    FakeHost host;
    PendingAsks<> pending(host);
    std::vector<OutcomeKind> now;
    auto answer = [&](Outcome o, std::monostate) { now.push_back(o.kind); };
    rapidjson::Document doc;
    // Refused: answered at once, nobody asked.
    doc.Parse(R"({"type":"ask_user_request","requestId":"r1","questions":[]})");
    ask_tool_input(pending, "r1", tool_ask_input(doc, Profile::Lenient), {}, answer);
    // Every answer given by the agent: answered at once.
    doc.Parse(R"({"requestId":"r2","questions":[{"question":"A?"}],"answers":{"A?":"yes"}})");
    ask_tool_input(pending, "r2", tool_ask_input(doc, Profile::Lenient), {}, answer);
    BOOST_REQUIRE(now.size() == 2u);
    BOOST_TEST(static_cast<int>(now[0]) == static_cast<int>(OutcomeKind::Refused));
    BOOST_TEST(static_cast<int>(now[1]) == static_cast<int>(OutcomeKind::Answered));
    BOOST_TEST(host.asks.empty());
    // The envelope's own members (type, requestId) are not the tool's, even in the strict profile.
    doc.Parse(
        R"({"type":"x","requestId":"r3","questions":[{"question":"Q?","header":"H","options":[{"label":"a"},{"label":"b"}]}]})");
    ask_tool_input(pending, "r3", take_tool_ask_input(doc, Profile::Strict), {}, answer);
    BOOST_TEST(now.size() == 2u);
    BOOST_REQUIRE(host.asks.size() == 1u);
    BOOST_TEST(host.asks[0].first.questions.at(0).question == "Q?");
    BOOST_TEST(pending.contains("r3"));
    BOOST_TEST(doc["questions"].IsNull());  // taken, not copied
}

BOOST_AUTO_TEST_CASE(first_line_cuts_at_a_whole_character) {
    // A tool's output of 198 ASCII bytes and then an emoji: a cut at 200 bytes would fall inside it.
    const std::string emoji = "\xF0\x9F\x98\x80";
    const std::string line = askhost::first_line(std::string(198, 'x') + emoji + "tail");
    BOOST_TEST(line == std::string(198, 'x') + "...");
    BOOST_TEST(askhost::first_line("ok\nmore") == "ok ...");
    BOOST_TEST(askhost::first_line(std::string(196, 'x') + emoji + "tail") == std::string(196, 'x') + emoji + "...");
}
