// The native agent protocol's line parser: the agent's stdout through the real adapter, one line
// at a time and again as the supervisor hands a read's lines (on_lines, all at once). Asks are
// answered at once, later, or withdrawn; every line sent back to the agent must be one valid JSON
// ask_user_response, and both ways must pass on the same output.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/adapter.hpp"
#include "fuzz.hpp"
#include "json_check.hpp"

namespace askhost {
void register_native_adapter(AdapterRegistry& registry);
}

using namespace askhost;

namespace {

class FakeHost final : public AdapterHost {
public:
    explicit FakeHost(Profile p) : profile_(p) {}

    AskTicket ask(AskInput input, OnOutcome reply) override {
        const std::string id = "ask-" + std::to_string(++asks_);
        FUZZ_CHECK(!validate_questions(input.questions, profile_));
        // Answer every other one on the next turn, hold the rest for later (or for the agent to cancel).
        std::vector<Answer> answers;
        for (const auto& q : input.questions) {
            Answer a;
            a.question = q.question;
            a.values.push_back(q.options.empty() ? std::string("typed") : q.options.front().label);
            if (!q.options.empty()) a.selected_option = q.options.front().label;
            a.was_custom = q.options.empty();
            a.multi = q.multi_select;
            answers.push_back(std::move(a));
        }
        Outcome o = asks_ % 3 == 0 ? Outcome::cancelled("fuzz") : Outcome::answered(std::move(answers));
        auto slot = std::make_shared<AskSlot>();
        slot->id = id;
        slot->withdraw = [] {};
        (asks_ % 2 ? next_turn_ : held_).push_back([slot, reply = std::move(reply), o]() mutable {
            slot->deliver(reply, std::move(o));
        });
        return AskTicket(slot);
    }
    void output(Stream, std::string_view text) override {
        FUZZ_CHECK(!text.empty() && text.back() == '\n');
        printed.append(text);
    }
    void send(std::string_view line) override {
        FUZZ_CHECK(line.find('\n') == std::string_view::npos);
        FUZZ_CHECK(valid_json(line));
        FUZZ_CHECK(line.rfind("{\"type\":\"ask_user_response\",\"requestId\":", 0) == 0);
    }
    Profile profile() const override { return profile_; }
    void log(std::string_view) override {}

    // The loop's next turn: what was answered at once arrives now.
    void next_turn() { run(next_turn_); }
    void answer_held() { run(held_); }

    std::string printed;  // the output passed on

private:
    Profile profile_;
    int asks_ = 0;
    std::deque<std::function<void()>> next_turn_, held_;

    static void run(std::deque<std::function<void()>>& queue) {
        auto now = std::move(queue);
        queue.clear();
        for (auto& f : now) f();
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    static AdapterRegistry registry = [] {
        AdapterRegistry r;
        register_native_adapter(r);
        return r;
    }();
    const Profile profile = data[0] & 1 ? Profile::Strict : Profile::Lenient;
    const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);

    FakeHost by_line(profile);
    auto adapter = registry.find("native")->create(by_line);
    for (std::string_view rest = input; !rest.empty();) {
        auto nl = rest.find('\n');
        adapter->on_line(rest.substr(0, nl));
        by_line.next_turn();
        rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    }
    by_line.answer_held();
    adapter->finished();

    // A read's whole lines at once, then the unfinished last line on its own.
    FakeHost by_read(profile);
    auto reader = registry.find("native")->create(by_read);
    const auto last = input.rfind('\n');
    if (last != std::string_view::npos) reader->on_lines(input.substr(0, last + 1));
    if (last + 1 < input.size()) reader->on_line(input.substr(last == std::string_view::npos ? 0 : last + 1));
    by_read.next_turn();
    by_read.answer_held();
    reader->finished();
    FUZZ_CHECK(by_read.printed == by_line.printed);
    return 0;
}
