// askhost mcp: newline-delimited JSON-RPC lines to the MCP server (initialize, tools/list,
// tools/call ask_user_question, cancellations). Asks are answered at once, later, or cancelled;
// every message the server writes must be valid JSON, and every call answered at most once.
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>

#include "../../plugins/mcp/mcp_server.hpp"
#include "fuzz.hpp"
#include "oracle.hpp"
#include "transport/framing.hpp"

using namespace askhost;

namespace {

class FakeAsker final : public mcp::McpAsker {
public:
    std::function<void()> ask(Ask ask, mcp::McpServer&, OnOutcome reply) override {
        FUZZ_CHECK(!validate_questions(ask.questions, Profile::Strict));
        ++asks_;
        std::vector<Answer> answers;
        for (const auto& q : ask.questions) {
            const std::string label = q.options.empty() ? std::string("typed") : q.options[0].label;
            answers.push_back(Answer{q.question, {label}, q.multi_select, label, false, {}, {}});
        }
        Outcome o = asks_ % 3 == 0 ? Outcome::cancelled("fuzz") : Outcome::answered(std::move(answers));
        if (asks_ % 2) {
            reply(std::move(o));
            return {};
        }
        auto alive = std::make_shared<bool>(true);
        held_.push_back([reply = std::move(reply), o, alive]() mutable {
            if (*alive) reply(std::move(o));
        });
        return [alive] { *alive = false; };
    }
    void answer_held() {
        auto held = std::move(held_);
        held_.clear();
        for (auto& h : held) h();
    }

private:
    int asks_ = 0;
    std::deque<std::function<void()>> held_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    RpcEndpoint rpc([](std::string body) {
        FUZZ_CHECK(oracle_valid_json(body));
        FUZZ_CHECK(body.find('\n') == std::string::npos);
    });
    FakeAsker asker;
    {
        mcp::McpServer server(rpc, asker, [](std::string_view) {});
        LineDecoder lines;
        lines.feed({reinterpret_cast<const char*>(data), size}, [&](FrameDecoder::Event ev) {
            if (ev.ok) rpc.receive(ev.body);
        });
        lines.feed("\n", [&](FrameDecoder::Event ev) {
            if (ev.ok) rpc.receive(ev.body);
        });
        asker.answer_held();
        server.close();
    }
    asker.answer_held();
    return 0;
}
