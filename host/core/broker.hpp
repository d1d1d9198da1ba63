// Pending asks, which frontends saw them, first answer wins, timeouts, waiting state.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "core/ask_ticket.hpp"
#include "core/frontend.hpp"
#include "core/lifetime.hpp"

namespace askhost {

class Broker {
public:
    explicit Broker(boost::asio::io_context& io);
    ~Broker();
    Broker(const Broker&) = delete;
    Broker& operator=(const Broker&) = delete;

    // A frontend joins: it is shown the ask on screen now (if any) and every later one.
    void add_frontend(Frontend& f);
    // A viewer joins (askhost web): shown every ask as a frontend is, but it does not count as
    // one: the fallback still answers when no frontend is attached, as if the viewer were not there.
    // `queued`: it is also shown the asks waiting behind the one on screen, each as it arrives, and
    // may answer any of them (a page that lists every waiting question).
    void add_viewer(Frontend& f, bool queued = false);
    // A frontend (or viewer) leaves. `vanished`: it went away mid-question (the ask it showed gets
    // connectionLost when no other frontend still shows it).
    void remove_frontend(Frontend& f, bool vanished);
    // Shown only when no frontend is attached (e.g. the pending-questions file).
    void set_fallback(Frontend* f);
    // 0: wait forever (the default; the spec has no timeout).
    void set_timeout(std::chrono::milliseconds t);

    // Queue an ask (its id is assigned here). `reply` runs exactly once, on a later turn of the
    // loop (never from inside this call), unless the ask is withdrawn or its ticket cancelled first.
    AskTicket ask(Ask ask, OnOutcome reply);
    // The agent no longer wants an answer: close it everywhere, no reply.
    void withdraw(const std::string& id);
    // Close every pending ask without a reply (the agent exited: nobody is left to answer).
    void withdraw_all();

    // Asks waiting, in arrival order; the first is the one on screen.
    std::vector<const Ask*> pending() const;
    bool waiting() const { return !queue_.empty(); }

    // Hooks: state changes (REQ-AUQ-006) and every outcome before it is handed back (journal).
    std::function<void()> on_state;
    // Shapes an outcome before anyone hears of it (HostCore fits strict results to their cap).
    std::function<void(const Ask&, Outcome&)> shape_outcome;
    std::function<void(const Ask&, const Outcome&)> on_outcome;
    // Every ask once its id is assigned, before any frontend shows it (journal).
    std::function<void(const Ask&)> on_submit;
    // An ask closed without an outcome: the agent took it back (journal).
    std::function<void(const Ask&)> on_withdrawn;

private:
    struct Entry;
    std::shared_ptr<AskSlot> enqueue(Ask ask, OnOutcome reply);
    // Takes an ask out of the queue (its timer stopped, nothing left to withdraw): null if it is gone.
    std::shared_ptr<Entry> take(const std::string& id);
    void show_head();
    // show_head on the next turn of the loop, unless the broker is gone by then (a loop may outlive
    // its broker: a fuzzer's next input runs the same loop).
    void show_head_later();
    void show_to(Entry& head, Frontend& f);
    void show_queued(const std::shared_ptr<Entry>& e);
    void finish(const std::string& id, Outcome outcome, Frontend* from);
    std::vector<Frontend*> targets() const;

    boost::asio::io_context& io_;
    std::vector<Frontend*> frontends_;
    std::vector<Frontend*> viewers_;         // shown after the targets, never instead of the fallback
    std::vector<Frontend*> queued_viewers_;  // viewers shown the queued asks too (a subset of viewers_)
    Frontend* fallback_ = nullptr;
    std::chrono::milliseconds timeout_{0};
    std::deque<std::shared_ptr<Entry>> queue_;
    unsigned long next_id_ = 1;
    Lifetime lifetime_;  // last: what the broker posted finds it ended before the rest goes
};

}  // namespace askhost
