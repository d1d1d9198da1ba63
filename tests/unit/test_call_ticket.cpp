#define BOOST_TEST_MODULE call_ticket
#include <boost/test/unit_test.hpp>

#include <functional>
#include <string>
#include <vector>

#include "core/call_ticket.hpp"

using askhost::CallTicket;

namespace {

// A peer that keeps each call's reply handler, to answer it when the test says.
struct Peer {
    std::vector<std::function<void(std::string)>> calls;
    std::vector<std::string> cancels;
    std::size_t call(std::function<void(std::string)> reply) {
        calls.push_back(std::move(reply));
        return calls.size() - 1;
    }
};

}  // namespace

BOOST_AUTO_TEST_CASE(the_reply_is_handed_on_once) {
    Peer peer;
    CallTicket ticket;
    std::vector<std::string> heard;
    peer.call(ticket.reply([&](std::string r) { heard.push_back(r); }));
    BOOST_TEST(ticket.open());
    peer.calls[0]("first");
    peer.calls[0]("again");
    BOOST_TEST(heard == std::vector<std::string>{"first"});
    BOOST_TEST(!ticket.open());
}

BOOST_AUTO_TEST_CASE(cancel_tells_the_peer_once_and_a_later_reply_is_dropped) {
    Peer peer;
    CallTicket ticket;
    int heard = 0;
    const std::size_t id = peer.call(ticket.reply([&](const std::string&) { ++heard; }));
    ticket.on_cancel([&peer, id] { peer.cancels.push_back(std::to_string(id)); });
    ticket.cancel();
    ticket.cancel();
    BOOST_TEST(peer.cancels == std::vector<std::string>{"0"});
    BOOST_TEST(!ticket.open());
    peer.calls[0]("late");
    BOOST_TEST(heard == 0);
}

BOOST_AUTO_TEST_CASE(after_the_reply_cancel_tells_nothing) {
    Peer peer;
    CallTicket ticket;
    peer.call(ticket.reply([](const std::string&) {}));
    ticket.on_cancel([&peer] { peer.cancels.push_back("told"); });
    peer.calls[0]("answer");
    ticket.cancel();
    BOOST_TEST(peer.cancels.empty());
}

BOOST_AUTO_TEST_CASE(a_cancel_set_after_the_reply_is_never_run) {
    // A peer that replies from inside the call (a closed channel's error) closes the ticket before
    // the caller could say how to cancel.
    CallTicket ticket;
    int heard = 0, told = 0;
    auto reply = ticket.reply([&](int) { ++heard; });
    reply(1);
    ticket.on_cancel([&] { ++told; });
    ticket.cancel();
    BOOST_TEST(heard == 1);
    BOOST_TEST(told == 0);
}

BOOST_AUTO_TEST_CASE(copies_share_one_call) {
    Peer peer;
    CallTicket ticket;
    int heard = 0, told = 0;
    peer.call(ticket.reply([&](const std::string&) { ++heard; }));
    ticket.on_cancel([&] { ++told; });
    CallTicket copy = ticket;
    copy.cancel();
    BOOST_TEST(!ticket.open());
    ticket.cancel();
    BOOST_TEST(told == 1);
    peer.calls[0]("late");
    BOOST_TEST(heard == 0);
}

BOOST_AUTO_TEST_CASE(dropping_the_ticket_cancels_nothing) {
    Peer peer;
    int heard = 0, told = 0;
    {
        CallTicket ticket;
        peer.call(ticket.reply([&](const std::string&) { ++heard; }));
        ticket.on_cancel([&] { ++told; });
    }
    BOOST_TEST(told == 0);
    peer.calls[0]("answer");
    BOOST_TEST(heard == 1);
}

BOOST_AUTO_TEST_CASE(a_reply_that_cancels_its_own_ticket_tells_nothing) {
    // The handler runs with the call closed already: what it does to the ticket is a no-op.
    Peer peer;
    CallTicket ticket;
    int told = 0;
    peer.call(ticket.reply([&](const std::string&) { ticket.cancel(); }));
    ticket.on_cancel([&] { ++told; });
    peer.calls[0]("answer");
    BOOST_TEST(told == 0);
}
