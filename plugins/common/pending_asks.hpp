// The agent's requests that wait for the person: its protocol request id -> the ask's ticket and
// what the reply needs (the route back). One container for every adapter.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/adapter.hpp"

namespace askhost {

template <class Data = std::monostate>
class PendingAsks {
public:
    // The outcome and the request's data, once: the request has left the container by then.
    using Answer = std::function<void(Outcome, Data)>;

    explicit PendingAsks(AdapterHost& host) : host_(host) {}
    PendingAsks(const PendingAsks&) = delete;
    PendingAsks& operator=(const PendingAsks&) = delete;

    bool contains(const std::string& id) const { return open_.count(id) != 0; }
    bool empty() const { return open_.empty(); }
    std::size_t size() const { return open_.size(); }

    // Asks the person for request `id`; `answer` runs on a later turn unless the request is taken
    // (or the container destroyed) first. An id that already waits is left alone: false.
    bool ask(const std::string& id, AskInput input, Data data, Answer answer) {
        if (contains(id)) return false;
        AskTicket ticket = host_.ask(std::move(input), [this, id, answer = std::move(answer)](Outcome o) {
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
    AdapterHost& host_;
    std::map<std::string, Entry> open_;
};

}  // namespace askhost
