#include "core/broker.hpp"

#include <algorithm>

#include <boost/asio/post.hpp>

namespace askhost {

struct Broker::Entry {
    Ask ask;
    OnOutcome reply;
    std::shared_ptr<AskSlot> slot;  // shared with the asker's ticket
    std::unique_ptr<boost::asio::steady_timer> timer;
    std::vector<Frontend*> showing;  // frontends that have it on screen
    bool shown = false;
};

Broker::Broker(boost::asio::io_context& io) : io_(io) {}

Broker::~Broker() {
    for (auto& e : queue_) {
        boost::system::error_code ignored;
        if (e->timer) e->timer->cancel(ignored);  // the throwing form must not run in a destructor
        e->slot->open = false;                    // a ticket outliving the broker has nothing left to withdraw
        e->slot->withdraw = nullptr;
    }
}

void Broker::add_frontend(Frontend& f) {
    if (std::find(frontends_.begin(), frontends_.end(), &f) != frontends_.end()) return;
    frontends_.push_back(&f);
    if (queue_.empty()) return;
    auto head = queue_.front();
    if (!head->shown) return show_head();  // nobody had it yet: everyone it goes to now, f among them
    // The fallback had it (nobody was attached): a person is here now, so show it to them.
    if (fallback_ && std::find(head->showing.begin(), head->showing.end(), fallback_) != head->showing.end()) {
        head->showing.erase(std::remove(head->showing.begin(), head->showing.end(), fallback_), head->showing.end());
        fallback_->withdraw(head->ask.id);
    }
    show_to(*head, f);
}

void Broker::add_viewer(Frontend& f, bool queued) {
    if (std::find(viewers_.begin(), viewers_.end(), &f) != viewers_.end()) return;
    viewers_.push_back(&f);
    if (queued) queued_viewers_.push_back(&f);
    if (queue_.empty()) return;
    auto head = queue_.front();
    if (!head->shown) show_head();
    else show_to(*head, f);
    if (!queued) return;
    // The asks behind the head too, oldest first (a copy: one may be answered from inside show()).
    const auto waiting = queue_;
    for (const auto& e : waiting)
        if (e != head && std::find(queue_.begin(), queue_.end(), e) != queue_.end()) show_to(*e, f);
}

// An ask queued behind the head, to the viewers that are shown those too.
void Broker::show_queued(const std::shared_ptr<Entry>& e) {
    const auto viewers = queued_viewers_;
    for (Frontend* f : viewers) {
        if (queue_.empty() || queue_.front() == e) return;                       // the head: show_head's
        if (std::find(queue_.begin(), queue_.end(), e) == queue_.end()) return;  // answered meanwhile
        if (std::find(e->showing.begin(), e->showing.end(), f) == e->showing.end()) show_to(*e, *f);
    }
}

void Broker::show_to(Entry& head, Frontend& f) {
    head.showing.push_back(&f);
    const std::string id = head.ask.id;
    f.show(head.ask, [this, id, fp = &f, alive = lifetime_.token()](Outcome o) {
        if (alive) finish(id, std::move(o), fp);
    });
}

void Broker::remove_frontend(Frontend& f, bool vanished) {
    frontends_.erase(std::remove(frontends_.begin(), frontends_.end(), &f), frontends_.end());
    viewers_.erase(std::remove(viewers_.begin(), viewers_.end(), &f), viewers_.end());
    queued_viewers_.erase(std::remove(queued_viewers_.begin(), queued_viewers_.end(), &f), queued_viewers_.end());
    if (queue_.empty()) return;
    auto head = queue_.front();
    // The asks behind the head that it was shown (a queued viewer): nothing else changes for them.
    for (auto& e : queue_)
        if (e != head) e->showing.erase(std::remove(e->showing.begin(), e->showing.end(), &f), e->showing.end());
    auto it = std::find(head->showing.begin(), head->showing.end(), &f);
    if (it == head->showing.end()) return;
    head->showing.erase(it);
    if (!head->showing.empty()) return;
    if (vanished) {
        finish(head->ask.id, Outcome::connection_lost(), nullptr);
    } else {
        head->shown = false;
        show_head();
    }
}

void Broker::set_fallback(Frontend* f) { fallback_ = f; }

void Broker::set_timeout(std::chrono::milliseconds t) { timeout_ = t; }

std::vector<Frontend*> Broker::targets() const {
    std::vector<Frontend*> to = frontends_;
    if (to.empty() && fallback_) to.push_back(fallback_);
    // Viewers last: a fallback that answers from inside show() ends the ask before they see it.
    to.insert(to.end(), viewers_.begin(), viewers_.end());
    return to;
}

AskTicket Broker::ask(Ask ask, OnOutcome reply) { return AskTicket(enqueue(std::move(ask), std::move(reply))); }

std::shared_ptr<AskSlot> Broker::enqueue(Ask ask, OnOutcome reply) {
    auto e = std::make_shared<Entry>();
    ask.id = "ask-" + std::to_string(next_id_++);
    e->ask = std::move(ask);
    e->reply = std::move(reply);
    const std::string id = e->ask.id;
    e->slot = std::make_shared<AskSlot>();
    e->slot->id = id;
    e->slot->withdraw = [this, id] { withdraw(id); };
    auto slot = e->slot;
    if (timeout_.count() > 0) {
        e->timer = std::make_unique<boost::asio::steady_timer>(io_, timeout_);
        e->timer->async_wait([this, id, alive = lifetime_.token()](const boost::system::error_code& ec) {
            // An expired wait is already queued: cancelling the timer in ~Broker does not stop it.
            if (!ec && alive) finish(id, Outcome::timed_out(), nullptr);
        });
    }
    if (on_submit) on_submit(e->ask);
    queue_.push_back(e);
    if (on_state) on_state();
    show_head();
    show_queued(e);
    return slot;
}

void Broker::show_head() {
    if (queue_.empty()) return;
    auto head = queue_.front();
    if (head->shown) return;
    auto to = targets();
    if (to.empty()) return;  // nobody yet: it waits until a frontend attaches
    head->shown = true;
    const std::string id = head->ask.id;
    for (Frontend* f : to) {
        // A queued viewer was shown it while it waited behind another: not twice.
        if (std::find(head->showing.begin(), head->showing.end(), f) != head->showing.end()) continue;
        head->showing.push_back(f);
        f->show(head->ask, [this, id, f, alive = lifetime_.token()](Outcome o) {
            if (alive) finish(id, std::move(o), f);  // a frontend may answer after the broker is gone
        });
        // A frontend may answer from inside show(); stop if this ask is already done.
        if (queue_.empty() || queue_.front()->ask.id != id) return;
    }
}

std::shared_ptr<Broker::Entry> Broker::take(const std::string& id) {
    auto it = std::find_if(queue_.begin(), queue_.end(), [&](const auto& e) { return e->ask.id == id; });
    if (it == queue_.end()) return nullptr;
    auto entry = *it;
    queue_.erase(it);
    if (entry->timer) entry->timer->cancel();
    entry->slot->withdraw = nullptr;  // it has left the queue: nothing to take back any more
    return entry;
}

void Broker::finish(const std::string& id, Outcome outcome, Frontend* from) {
    auto entry = take(id);
    if (!entry) return;  // already decided: the first answer won
    // Everyone else who shows it closes it.
    for (Frontend* f : entry->showing)
        if (f != from) f->withdraw(id);
    entry->showing.clear();
    if (shape_outcome) shape_outcome(entry->ask, outcome);
    if (on_outcome) on_outcome(entry->ask, outcome);
    // The asker hears it on the next turn, never from inside ask() or a frontend's done().
    deliver_later(io_, entry->slot, std::move(entry->reply), std::move(outcome));
    if (on_state) on_state();
    // Show the next ask after this turn, so a frontend's done() returns before it is reused.
    show_head_later();
}

void Broker::withdraw(const std::string& id) {
    auto entry = take(id);
    if (!entry) return;
    entry->slot->open = false;  // no reply
    for (Frontend* f : entry->showing) f->withdraw(id);
    if (on_withdrawn) on_withdrawn(entry->ask);
    if (on_state) on_state();
    show_head_later();
}

void Broker::show_head_later() {
    boost::asio::post(io_, [this, alive = lifetime_.token()] {
        if (alive) show_head();
    });
}

void Broker::withdraw_all() {
    while (!queue_.empty()) withdraw(queue_.front()->ask.id);
}

std::vector<const Ask*> Broker::pending() const {
    std::vector<const Ask*> out;
    for (const auto& e : queue_) out.push_back(&e->ask);
    return out;
}

}  // namespace askhost
