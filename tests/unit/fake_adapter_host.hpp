// The AdapterHost the adapter unit tests drive an adapter through: it records what the adapter
// does (lines sent to the agent, output, logs, withdrawals, timers) and keeps its asks for the
// test to answer: the test's call stands for the broker's later turn; a withdrawn ask's reply is
// dropped, as the broker drops it.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/adapter.hpp"

namespace askhost::testing {

struct FakeHost final : AdapterHost {
    std::vector<std::string> sent, printed, logs, withdrawn;
    std::vector<std::pair<AskInput, OnOutcome>> asks;
    std::vector<std::function<void()>> timers;  // after(): run by the test
    Profile prof = Profile::Lenient;
    AdapterSettings settings_;
    std::string cwd;
    bool input_closed = false;

    AskTicket ask(AskInput input, OnOutcome reply) override {
        auto slot = std::make_shared<AskSlot>();
        slot->id = "ask-" + std::to_string(asks.size() + 1);
        slot->withdraw = [this, id = slot->id] { withdrawn.push_back(id); };
        asks.emplace_back(std::move(input),
                          [slot, reply = std::move(reply)](Outcome o) { slot->deliver(reply, std::move(o)); });
        return AskTicket(slot);
    }
    void output(Stream, std::string_view text) override { printed.emplace_back(text); }
    void send(std::string_view line) override { sent.emplace_back(line); }
    Profile profile() const override { return prof; }
    void log(std::string_view m) override { logs.emplace_back(m); }
    void close_input() override { input_closed = true; }
    void after(std::chrono::milliseconds, std::function<void()> fn) override { timers.push_back(std::move(fn)); }
    std::string working_directory() const override { return cwd; }
    const AdapterSettings& settings() const override { return settings_; }

    std::string all_output() const {
        std::string s;
        for (const auto& p : printed) s += p;
        return s;
    }
};

// The adapter called `name`, registered by `register_fn`, on `host`.
inline std::unique_ptr<AgentAdapter> make_adapter(void (*register_fn)(AdapterRegistry&), const char* name,
                                                  AdapterHost& host) {
    AdapterRegistry reg;
    register_fn(reg);
    return reg.find(name)->create(host);
}

// Launches the agent on argv as a session does: the adapter's launching(), then started().
inline void launch(AgentAdapter& adapter, std::vector<std::string> argv) {
    adapter.launching(argv);
    adapter.started();
}

// body(host, adapter, one_shot) for a command-line prompt both ways: the agent launched on argv
// once as a one-shot run (no --stdio: no editor can prompt) and once not.
template <typename Make, typename Body>
void for_each_one_shot(Make make, const std::vector<std::string>& argv, Body body) {
    for (bool one_shot : {true, false}) {
        FakeHost host;
        host.settings_.one_shot = one_shot;
        auto adapter = make(host);
        launch(*adapter, argv);
        BOOST_TEST_CONTEXT("one_shot " << one_shot) { body(host, *adapter, one_shot); }
    }
}

}  // namespace askhost::testing
