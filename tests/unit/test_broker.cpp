#define BOOST_TEST_MODULE broker
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <vector>

#include "core/broker.hpp"

using namespace askhost;

namespace {

// The loop's next turn (restart: a poll that ran out of work leaves the context stopped).
void next_turn(boost::asio::io_context& io) {
    io.restart();
    io.poll();
}

// A frontend that remembers what it was shown and answers when told to.
struct FakeFrontend final : Frontend {
    std::string label;
    std::vector<std::string> shown, withdrawn;
    std::map<std::string, Done> open;
    explicit FakeFrontend(std::string l) : label(std::move(l)) {}
    std::string_view name() const override { return label; }
    void show(const Ask& ask, Done done) override {
        shown.push_back(ask.id);
        open[ask.id] = std::move(done);
    }
    void withdraw(const std::string& id) override {
        withdrawn.push_back(id);
        open.erase(id);
    }
    void answer(const std::string& id, Outcome o) {
        auto d = std::move(open.at(id));
        open.erase(id);
        d(std::move(o));
    }
};

Ask make_ask(const std::string& q) {
    Ask a;
    a.questions.push_back(Question{q, "", {}, false});
    a.agent = "test";
    return a;
}

Outcome answer_with(const std::string& q, const std::string& v) {
    Answer a;
    a.question = q;
    a.values = {v};
    a.was_custom = true;
    return Outcome::answered({a});
}

}  // namespace

BOOST_AUTO_TEST_CASE(asks_are_shown_one_at_a_time_in_arrival_order) {
    boost::asio::io_context io;
    Broker b(io);
    FakeFrontend f("f");
    b.add_frontend(f);
    std::vector<std::string> replies;
    auto id1 = b.submit(make_ask("one"), [&](Outcome o) { replies.push_back("1:" + o.answers.at(0).values.at(0)); });
    auto id2 = b.submit(make_ask("two"), [&](Outcome o) { replies.push_back("2:" + o.answers.at(0).values.at(0)); });
    BOOST_TEST(f.shown == std::vector<std::string>{id1});
    BOOST_TEST(b.pending().size() == 2u);
    f.answer(id1, answer_with("one", "a"));
    next_turn(io);
    BOOST_TEST(f.shown == (std::vector<std::string>{id1, id2}));
    f.answer(id2, answer_with("two", "b"));
    next_turn(io);
    BOOST_TEST(replies == (std::vector<std::string>{"1:a", "2:b"}));
    BOOST_TEST(!b.waiting());
}

BOOST_AUTO_TEST_CASE(first_answer_wins_and_the_others_are_withdrawn) {
    boost::asio::io_context io;
    Broker b(io);
    FakeFrontend f1("editor"), f2("terminal");
    b.add_frontend(f1);
    b.add_frontend(f2);
    int replies = 0;
    auto id = b.submit(make_ask("q"), [&](Outcome o) {
        ++replies;
        BOOST_TEST(o.answers.at(0).values.at(0) == "from-2");
    });
    BOOST_TEST(f1.shown.size() == 1u);
    BOOST_TEST(f2.shown.size() == 1u);
    auto late = std::move(f1.open.at(id));
    f2.answer(id, answer_with("q", "from-2"));
    BOOST_TEST(f1.withdrawn == std::vector<std::string>{id});
    BOOST_TEST(f2.withdrawn.empty());
    late(answer_with("q", "from-1"));  // arrives after the decision: ignored
    next_turn(io);
    BOOST_TEST(replies == 1);
}

BOOST_AUTO_TEST_CASE(state_hook_sees_waiting_then_idle_and_the_reply_comes_on_a_later_turn) {
    boost::asio::io_context io;
    Broker b(io);
    FakeFrontend f("f");
    b.add_frontend(f);
    std::vector<std::string> events;
    b.on_state = [&] { events.push_back(b.waiting() ? "waiting" : "idle"); };
    b.on_outcome = [&](const Ask&, const Outcome&) { events.push_back("journal"); };
    auto id = b.submit(make_ask("q"), [&](Outcome) { events.push_back("reply"); });
    f.answer(id, Outcome::cancelled());
    BOOST_TEST(events == (std::vector<std::string>{"waiting", "journal", "idle"}));
    next_turn(io);
    BOOST_TEST(events == (std::vector<std::string>{"waiting", "journal", "idle", "reply"}));
}

BOOST_AUTO_TEST_CASE(a_vanished_frontend_gives_connection_lost) {
    boost::asio::io_context io;
    Broker b(io);
    FakeFrontend f("editor");
    b.add_frontend(f);
    std::optional<OutcomeKind> got;
    b.submit(make_ask("q"), [&](Outcome o) { got = o.kind; });
    b.remove_frontend(f, true);
    next_turn(io);
    BOOST_REQUIRE(got);
    BOOST_TEST(static_cast<int>(*got) == static_cast<int>(OutcomeKind::ConnectionLost));
}

BOOST_AUTO_TEST_CASE(a_vanished_frontend_is_no_loss_while_another_still_shows_the_ask) {
    boost::asio::io_context io;
    Broker b(io);
    FakeFrontend f1("a"), f2("b");
    b.add_frontend(f1);
    b.add_frontend(f2);
    std::optional<Outcome> got;
    auto id = b.submit(make_ask("q"), [&](Outcome o) { got = std::move(o); });
    b.remove_frontend(f1, true);
    next_turn(io);
    BOOST_TEST(!got);
    f2.answer(id, answer_with("q", "x"));
    next_turn(io);
    BOOST_REQUIRE(got);
    BOOST_TEST(static_cast<int>(got->kind) == static_cast<int>(OutcomeKind::Answered));
}

BOOST_AUTO_TEST_CASE(timeout_gives_a_typed_timed_out_outcome) {
    boost::asio::io_context io;
    Broker b(io);
    FakeFrontend f("f");
    b.add_frontend(f);
    b.set_timeout(std::chrono::milliseconds(10));
    std::optional<OutcomeKind> got;
    auto id = b.submit(make_ask("q"), [&](Outcome o) { got = o.kind; });
    io.run_for(std::chrono::seconds(2));
    BOOST_REQUIRE(got);
    BOOST_TEST(static_cast<int>(*got) == static_cast<int>(OutcomeKind::TimedOut));
    BOOST_TEST(f.withdrawn == std::vector<std::string>{id});
}

BOOST_AUTO_TEST_CASE(fallback_is_used_only_when_nobody_is_attached) {
    boost::asio::io_context io;
    Broker b(io);
    FakeFrontend fallback("pending-file"), person("terminal");
    b.set_fallback(&fallback);
    b.submit(make_ask("q"), [](Outcome) {});
    BOOST_TEST(fallback.shown.size() == 1u);
    // A person attaches: the ask moves to them.
    b.add_frontend(person);
    BOOST_TEST(fallback.withdrawn.size() == 1u);
    BOOST_TEST(person.shown.size() == 1u);
}

BOOST_AUTO_TEST_CASE(asks_wait_until_a_frontend_attaches) {
    boost::asio::io_context io;
    Broker b(io);
    FakeFrontend f("late");
    auto id = b.submit(make_ask("q"), [](Outcome) {});
    BOOST_TEST(b.waiting());
    b.add_frontend(f);
    BOOST_TEST(f.shown == std::vector<std::string>{id});
}

BOOST_AUTO_TEST_CASE(withdraw_closes_everywhere_without_reply) {
    boost::asio::io_context io;
    Broker b(io);
    FakeFrontend f("f");
    b.add_frontend(f);
    bool replied = false;
    auto id = b.submit(make_ask("q"), [&](Outcome) { replied = true; });
    b.withdraw(id);
    next_turn(io);
    BOOST_TEST(!replied);
    BOOST_TEST(f.withdrawn == std::vector<std::string>{id});
    BOOST_TEST(!b.waiting());
}

BOOST_AUTO_TEST_CASE(a_frontend_answering_inside_show_does_not_break_the_queue) {
    struct Instant final : Frontend {
        std::string_view name() const override { return "instant"; }
        void show(const Ask& a, Done d) override { d(Outcome::pending("/tmp/p-" + a.id)); }
        void withdraw(const std::string&) override {}
    } instant;
    boost::asio::io_context io;
    Broker b(io);
    b.add_frontend(instant);
    std::vector<std::string> files;
    b.submit(make_ask("a"), [&](Outcome o) { files.push_back(o.pending_file); });
    b.submit(make_ask("b"), [&](Outcome o) { files.push_back(o.pending_file); });
    next_turn(io);
    BOOST_TEST(files == (std::vector<std::string>{"/tmp/p-ask-1", "/tmp/p-ask-2"}));
}
