#include "ask_ticket.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

namespace askhost {

void AskSlot::cancel() {
    if (!open) return;
    open = false;
    auto take_back = std::move(withdraw);
    withdraw = nullptr;
    if (take_back) take_back();
}

void AskSlot::deliver(const std::function<void(Outcome)>& reply, Outcome outcome) {
    if (!open) return;
    open = false;
    withdraw = nullptr;
    if (reply) reply(std::move(outcome));
}

AskTicket& AskTicket::operator=(AskTicket&& other) noexcept {
    if (this != &other) {
        cancel();
        slot_ = std::move(other.slot_);
    }
    return *this;
}

const std::string& AskTicket::id() const {
    static const std::string none;
    return slot_ ? slot_->id : none;
}

void AskTicket::cancel() {
    if (slot_) slot_->cancel();
}

AskTicket AskTicket::answered(boost::asio::io_context& io, std::function<void(Outcome)> reply, Outcome outcome) {
    auto slot = std::make_shared<AskSlot>();
    deliver_later(io, slot, std::move(reply), std::move(outcome));
    return AskTicket(std::move(slot));
}

void deliver_later(boost::asio::io_context& io, std::shared_ptr<AskSlot> slot, std::function<void(Outcome)> reply,
                   Outcome outcome) {
    boost::asio::post(io, [slot = std::move(slot), reply = std::move(reply), outcome = std::move(outcome)]() mutable {
        slot->deliver(reply, std::move(outcome));
    });
}

}  // namespace askhost
