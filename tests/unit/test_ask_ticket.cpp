#define BOOST_TEST_MODULE ask_ticket
#include <boost/test/unit_test.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/broker.hpp"
#include "fake_frontend.hpp"

using namespace askhost;
using namespace askhost::testing;

namespace {

// Answers from inside show(), as the print frontend does.
struct InstantFrontend final : Frontend {
    std::string_view name() const override { return "instant"; }
    void show(const Ask&, Done done) override { done(Outcome::cancelled("at once")); }
    void withdraw(const std::string&) override {}
};

struct Fixture {
    boost::asio::io_context io;
    Broker broker{io};
    FakeFrontend front;
    int replies = 0;
    std::optional<Outcome> got;
    Fixture() { broker.add_frontend(front); }
    OnOutcome reply() {
        return [this](Outcome o) {
            ++replies;
            got = std::move(o);
        };
    }
};

}  // namespace

BOOST_FIXTURE_TEST_CASE(a_ticket_names_its_ask, Fixture) {
    AskTicket t = broker.ask(make_ask("q"), reply());
    BOOST_TEST(t.open());
    BOOST_TEST(front.shown == std::vector<std::string>{t.id()});
    BOOST_TEST(broker.pending().at(0)->id == t.id());
}

BOOST_FIXTURE_TEST_CASE(destroying_the_ticket_withdraws_the_ask, Fixture) {
    std::string id;
    {
        AskTicket t = broker.ask(make_ask("q"), reply());
        id = t.id();
    }
    BOOST_TEST(front.withdrawn == std::vector<std::string>{id});
    BOOST_TEST(!broker.waiting());
    next_turn(io);
    BOOST_TEST(replies == 0);
}

BOOST_FIXTURE_TEST_CASE(cancel_withdraws_the_ask_once, Fixture) {
    AskTicket t = broker.ask(make_ask("q"), reply());
    const std::string id = t.id();
    t.cancel();
    BOOST_TEST(!t.open());
    BOOST_TEST(!broker.waiting());
    t.cancel();
    t = AskTicket();  // the cancelled ask is not withdrawn again
    BOOST_TEST(front.withdrawn == std::vector<std::string>{id});
    next_turn(io);
    BOOST_TEST(replies == 0);
}

BOOST_FIXTURE_TEST_CASE(the_outcome_arrives_on_a_later_turn_never_inside_done, Fixture) {
    AskTicket t = broker.ask(make_ask("q"), reply());
    front.open.at(t.id())(Outcome::cancelled("no"));
    BOOST_TEST(replies == 0);  // decided, not yet handed back
    BOOST_TEST(!broker.waiting());
    BOOST_TEST(t.open());
    next_turn(io);
    BOOST_TEST(replies == 1);
    BOOST_TEST(got->reason == "no");
    BOOST_TEST(!t.open());
    t = AskTicket();  // after its outcome, nothing is withdrawn
    BOOST_TEST(front.withdrawn.empty());
}

BOOST_AUTO_TEST_CASE(an_ask_answered_inside_show_is_still_handed_back_after_ask_returns) {
    boost::asio::io_context io;
    Broker broker(io);
    InstantFrontend instant;
    broker.add_frontend(instant);
    int replies = 0;
    AskTicket t = broker.ask(make_ask("q"), [&](Outcome) { ++replies; });
    BOOST_TEST(replies == 0);
    BOOST_TEST(!t.id().empty());
    next_turn(io);
    BOOST_TEST(replies == 1);
}

BOOST_FIXTURE_TEST_CASE(a_cancel_between_the_decision_and_the_delivery_drops_the_outcome, Fixture) {
    AskTicket t = broker.ask(make_ask("q"), reply());
    front.open.at(t.id())(Outcome::cancelled());
    t.cancel();
    next_turn(io);
    BOOST_TEST(replies == 0);
    BOOST_TEST(front.withdrawn.empty());  // it had left the frontend already
}

BOOST_FIXTURE_TEST_CASE(a_moved_from_ticket_withdraws_nothing, Fixture) {
    AskTicket kept;
    std::string id;
    {
        AskTicket first = broker.ask(make_ask("q"), reply());
        id = first.id();
        kept = std::move(first);
    }
    BOOST_TEST(front.withdrawn.empty());
    BOOST_TEST(broker.waiting());
    BOOST_TEST(kept.id() == id);
    AskTicket moved(std::move(kept));
    kept = AskTicket();
    BOOST_TEST(front.withdrawn.empty());
    front.open.at(id)(Outcome::cancelled());
    next_turn(io);
    BOOST_TEST(replies == 1);
}

BOOST_FIXTURE_TEST_CASE(assigning_over_a_ticket_withdraws_the_ask_it_held, Fixture) {
    AskTicket t = broker.ask(make_ask("one"), reply());
    const std::string first = t.id();
    t = broker.ask(make_ask("two"), reply());
    BOOST_TEST(front.withdrawn == std::vector<std::string>{first});
    BOOST_TEST(broker.pending().size() == 1u);
    BOOST_TEST(broker.pending().at(0)->id == t.id());
}

BOOST_AUTO_TEST_CASE(a_ticket_may_outlive_its_broker) {
    boost::asio::io_context io;
    AskTicket t;
    {
        Broker broker(io);
        t = broker.ask(make_ask("q"), [](Outcome) {});
    }
    BOOST_TEST(!t.open());
    t.cancel();  // nothing left to withdraw, nothing touched
}

BOOST_AUTO_TEST_CASE(an_ask_answered_before_anyone_was_asked_arrives_on_a_later_turn) {
    boost::asio::io_context io;
    int replies = 0;
    AskTicket t = AskTicket::answered(
        io, [&](Outcome) { ++replies; }, Outcome::cancelled());
    BOOST_TEST(replies == 0);
    next_turn(io);
    BOOST_TEST(replies == 1);

    AskTicket dropped = AskTicket::answered(
        io, [&](Outcome) { ++replies; }, Outcome::cancelled());
    dropped.cancel();
    next_turn(io);
    BOOST_TEST(replies == 1);
}
