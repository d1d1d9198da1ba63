// A Frontend that shows each ask in another host, through its socket (ask/submit): the ask service's
// own host adds one when an editor's host opens the workspace while a question waits.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>

#include "core/frontend.hpp"
#include "core/lifetime.hpp"
#include "frontends/editor/host_client.hpp"

namespace askhost {

// An editor's host that appeared while our own host held a question: shown there too, through
// its socket. A host that goes away takes nothing with it: the question goes on waiting here.
class RemoteFrontend final : public Frontend {
public:
    using Log = void (*)(std::string_view);
    RemoteFrontend(boost::asio::io_context& io, std::string socket, const std::string& who, Log log,
                   std::function<void()> gone)
        : client_(io, std::move(socket), who) {
        client_.on_log = log;
        client_.on_closed = std::move(gone);
    }
    Status connect() { return client_.connect(); }

    std::string_view name() const override { return "editor host"; }
    void show(const Ask& ask, Done done) override {
        std::string id = ask.id;
        open_[id] =
            client_.submit(ask, ask.profile, [this, id, done = std::move(done), token = lifetime_.token()](Outcome o) {
                if (!token) return;
                open_.erase(id);
                // The host went away: not an answer; it is taken off the broker by `gone`.
                if (o.kind == OutcomeKind::ConnectionLost) return;
                done(std::move(o));
            });
    }
    void withdraw(const std::string& ask_id) override {
        auto it = open_.find(ask_id);
        if (it == open_.end()) return;
        const CallTicket submitted = std::move(it->second);
        open_.erase(it);
        submitted.cancel();
    }

private:
    HostClient client_;
    std::map<std::string, CallTicket> open_;  // by ask id
    Lifetime lifetime_;                       // last: ends before the client goes
};

}  // namespace askhost
