// An open ask as whoever asked holds it: the ask's id, and the right to take it back.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "model/outcome.hpp"

namespace boost::asio {
class io_context;
}

namespace askhost {

// What an ask's ticket shares with whoever will answer it (the broker).
struct AskSlot {
    std::string id;
    bool open = true;                // the outcome is still to come, or on its way
    std::function<void()> withdraw;  // takes the ask back where it waits; empty once it left there

    // No outcome is wanted any more: closes the slot and takes the ask back where it waits.
    void cancel();
    // Runs `reply(outcome)` once, unless the slot was closed (its ticket cancelled) first.
    void deliver(const std::function<void(Outcome)>& reply, Outcome outcome);
};

// Move-only. Destroying it or cancel() withdraws the ask if it is still open; a moved-from ticket
// withdraws nothing. The outcome never arrives from inside the call that made the ticket.
class AskTicket {
public:
    AskTicket() = default;
    explicit AskTicket(std::shared_ptr<AskSlot> slot) : slot_(std::move(slot)) {}
    AskTicket(AskTicket&& other) noexcept = default;
    AskTicket& operator=(AskTicket&& other) noexcept;  // cancels the ask it held before
    AskTicket(const AskTicket&) = delete;
    AskTicket& operator=(const AskTicket&) = delete;
    ~AskTicket() { cancel(); }

    // The ask's id ("" for an empty ticket, or an ask answered before anyone was asked).
    const std::string& id() const;
    // Whether the outcome is still to come.
    bool open() const { return slot_ && slot_->open; }
    void cancel();
    // The shared state, for one who watches the ask without owning it (the agent's session).
    std::weak_ptr<AskSlot> slot() const { return slot_; }

    // A ticket for an ask answered before anyone was asked (known answers): `reply` gets
    // `outcome` on a later turn of `io`, unless the ticket is cancelled first.
    static AskTicket answered(boost::asio::io_context& io, std::function<void(Outcome)> reply, Outcome outcome);

private:
    std::shared_ptr<AskSlot> slot_;
};

// Posts `reply(outcome)` to a later turn of `io`; it runs unless `slot` is closed by then.
void deliver_later(boost::asio::io_context& io, std::shared_ptr<AskSlot> slot, std::function<void(Outcome)> reply,
                   Outcome outcome);

}  // namespace askhost
