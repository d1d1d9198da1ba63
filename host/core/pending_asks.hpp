// The requests that wait for the person, by the asker's request id: an agent's (the adapters), or
// an editor client's ask/submit. Each holds its ask's ticket and what its reply needs (the route
// back); an answer finds its request, and the request leaves the queue before it is answered.
#pragma once

#include <cassert>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/adapter.hpp"
#include "core/ask_ticket.hpp"

namespace askhost {

template <class Data = std::monostate>
class PendingAsks {
public:
    // The outcome and the request's data, once: the request has left the queue by then.
    using Answer = std::function<void(Outcome, Data)>;
    // Makes the ask, given where its outcome goes (Broker::ask, AdapterHost::ask): its ticket.
    using Start = std::function<AskTicket(OnOutcome)>;

    // Asks with start() alone.
    PendingAsks() = default;
    // An adapter's: ask() asks through its host.
    explicit PendingAsks(AdapterHost& host) : host_(&host) {}
    PendingAsks(const PendingAsks&) = delete;
    PendingAsks& operator=(const PendingAsks&) = delete;

    bool contains(const std::string& id) const { return open_.count(id) != 0; }
    bool empty() const { return open_.empty(); }
    std::size_t size() const { return open_.size(); }

    // Asks the person for request `id` through the adapter's host; `answer` runs on a later turn
    // unless the request is taken (or the queue destroyed) first. An id that already waits is left
    // alone: false.
    // NOLINTNEXTLINE(performance-unnecessary-value-param): `input` is moved; clang-tidy 14 misreads the template
    bool ask(const std::string& id, AskInput input, Data data, Answer answer) {
        assert(host_);
        return start(
            id, [&](OnOutcome reply) { return host_->ask(std::move(input), std::move(reply)); }, std::move(data),
            std::move(answer));
    }

    // The same, the ask made by `make` (which must not give its outcome from inside the call).
    bool start(const std::string& id, const Start& make, Data data, Answer answer) {
        if (contains(id)) return false;
        AskTicket ticket = make([this, id, answer = std::move(answer)](Outcome o) {
            auto it = open_.find(id);
            if (it == open_.end()) return;
            Data d = std::move(it->second.data);
            open_.erase(it);
            answer(std::move(o), std::move(d));
        });
        open_.emplace(id, Entry{std::move(ticket), std::move(data)});
        return true;
    }

    // The agent no longer wants request `id` answered: its ask is withdrawn. Its data, if it waited.
    std::optional<Data> take(const std::string& id) {
        auto it = open_.find(id);
        if (it == open_.end()) return std::nullopt;
        Entry e = std::move(it->second);
        open_.erase(it);
        e.ticket.cancel();
        return std::move(e.data);
    }

    // Request `id` leaves the queue with its ask still open: its ticket (empty when none waited),
    // to cancel or keep (a request that takes its id's place, before the earlier is withdrawn).
    AskTicket release(const std::string& id) {
        auto it = open_.find(id);
        if (it == open_.end()) return {};
        AskTicket ticket = std::move(it->second.ticket);
        open_.erase(it);
        return ticket;
    }

    // Every request leaves, its ask withdrawn (nobody is left to answer).
    void clear() {
        auto open = std::move(open_);
        open_.clear();
    }

    // Every request, taken in id order (each ask withdrawn as it is taken).
    std::vector<std::pair<std::string, Data>> take_all() {
        auto open = std::move(open_);
        open_.clear();
        std::vector<std::pair<std::string, Data>> out;
        for (auto& [id, e] : open) {
            e.ticket.cancel();
            out.emplace_back(id, std::move(e.data));
        }
        return out;
    }

    // The ids of the requests whose data matches.
    std::vector<std::string> ids_where(const std::function<bool(const Data&)>& match) const {
        std::vector<std::string> out;
        for (const auto& [id, e] : open_)
            if (match(e.data)) out.push_back(id);
        return out;
    }

private:
    struct Entry {
        AskTicket ticket;
        Data data;
    };
    AdapterHost* host_ = nullptr;
    std::map<std::string, Entry> open_;
};

}  // namespace askhost
