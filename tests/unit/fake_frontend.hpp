// A frontend for the broker tests that remembers what it was shown and withdrawn and answers when
// the test tells it to, and the loop's next turn, on which the broker delivers outcomes.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/broker.hpp"

namespace askhost::testing {

// The loop's next turn (restart: a poll that ran out of work leaves the context stopped).
inline void next_turn(boost::asio::io_context& io) {
    io.restart();
    io.poll();
}

struct FakeFrontend final : Frontend {
    std::string label;
    std::vector<std::string> shown, withdrawn;
    std::map<std::string, Done> open;
    explicit FakeFrontend(std::string l = "fake") : label(std::move(l)) {}
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

// An ask of one free-text question q, from the agent "test".
inline Ask make_ask(const std::string& q) {
    Ask a;
    a.questions.push_back(Question{q, "", {}, false});
    a.agent = "test";
    return a;
}

}  // namespace askhost::testing
