// An outgoing call as its caller holds it (an ask/show to a client, an ask/submit to a host, an
// elicitation to an MCP client): its reply is handed on at most once, and cancel() takes the call
// back at most once; whichever comes first closes the other.
//   CallTicket ticket;
//   std::string id = call<R>(rpc, "ask/show", params, ticket.reply([](Result<R> r) { ... }));
//   ticket.on_cancel([&rpc, id] { rpc.notify("$/cancelRequest", ...); });
//   ...
//   ticket.cancel();  // the peer hears it once; a reply that comes later is dropped
#pragma once

#include <functional>
#include <memory>
#include <utility>

namespace askhost {

// Copies share one call. Dropping every copy cancels nothing: the reply still comes (what the
// caller's own Lifetime is for).
class CallTicket {
public:
    CallTicket() : state_(std::make_shared<State>()) {}

    // Whether neither the reply nor cancel() has come yet.
    bool open() const { return !state_->closed; }

    // What cancel() does while the call is open: tell the peer (nothing, for a peer that needs no
    // telling). Set once the call is made, since it usually needs the call's id.
    void on_cancel(std::function<void()> tell) {
        if (open()) state_->tell = std::move(tell);
    }

    // `handler` wrapped to run at most once, and never after cancel(): pass it as the call's reply.
    template <class Handler>
    auto reply(Handler handler) const {
        return [state = state_, handler = std::move(handler)](auto&&... args) mutable {
            if (state->closed) return;
            state->closed = true;
            handler(std::forward<decltype(args)>(args)...);
        };
    }

    // Takes the call back, once: its on_cancel runs, and no reply is handed on after it.
    void cancel() const {
        if (state_->closed) return;
        state_->closed = true;
        if (state_->tell) state_->tell();
    }

private:
    struct State {
        bool closed = false;
        // Kept after the call closes: what it holds (a connection) lives as long as the ticket.
        std::function<void()> tell;
    };
    std::shared_ptr<State> state_;
};

}  // namespace askhost
