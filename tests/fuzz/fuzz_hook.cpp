// `askhost hook`'s input, as Claude Code writes it on the hook's stdin: read as the hook reads it,
// then answered, cancelled and timed out. Every reply is one line of valid JSON (or nothing); an
// AskUserQuestion answered comes back with every other value of its tool input unchanged, number
// literals included; what is asked passes the strict rules.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../../plugins/claude/claude_tools.hpp"
#include "../../plugins/claude/hook_reply.hpp"
#include "fuzz.hpp"
#include "json/json_access.hpp"
#include "json_check.hpp"
#include "transport/jsonrpc.hpp"

using namespace askhost;
using namespace askhost::claude;

namespace {

// The JSON events of an object without the members the answer sets.
std::vector<std::string> events_without_answers(const rapidjson::Value& input) {
    rapidjson::Document copy;
    copy.CopyFrom(input, copy.GetAllocator());
    if (json::is_object(copy)) {
        while (copy.RemoveMember("answers")) {}
        while (copy.RemoveMember("annotations")) {}
    }
    return json_events(to_json(copy));
}

void check_reply(const std::string& reply) {
    if (reply.empty()) return;
    FUZZ_CHECK(reply.back() == '\n' && reply.find('\n') == reply.size() - 1);
    FUZZ_CHECK(valid_json(reply));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    rapidjson::Document hook;
    if (json::parse(hook, text) || !json::is_object(hook)) return 0;
    const HookRequest r = read_hook_request(hook);
    switch (r.kind) {
        case HookRequest::Kind::NotOurs: FUZZ_CHECK(hook_reply(r, Outcome::cancelled()).empty()); return 0;
        case HookRequest::Kind::Reply:
            FUZZ_CHECK(!r.reply.empty());
            check_reply(r.reply);
            return 0;
        case HookRequest::Kind::Question:
        case HookRequest::Kind::Permission: break;
    }
    FUZZ_CHECK(!validate_questions(r.ask.questions, Profile::Strict));
    FUZZ_CHECK(r.ask.agent == "claude" && r.ask.route == "hook");
    for (const Outcome& o : {Outcome::cancelled(), Outcome::timed_out(), Outcome::connection_lost()})
        check_reply(hook_reply(r, o));
    // Answered: the first option of each question, then each one typed (with quotes and an emoji).
    for (int typed = 0; typed < 2; ++typed) {
        std::vector<Answer> answers;
        for (const Question& q : r.ask.questions) {
            Answer a;
            a.question = q.question;
            a.multi = q.multi_select;
            if (typed || q.options.empty()) {
                a.values = {"typed \"x\"\n\xF0\x9F\x9A\x80"};
                a.was_custom = true;
            } else {
                a.values = {q.options.front().label};
                a.selected_option = q.options.front().label;
            }
            answers.push_back(std::move(a));
        }
        const std::string reply = hook_reply(r, Outcome::answered(answers));
        FUZZ_CHECK(!reply.empty());
        check_reply(reply);
        if (r.kind != HookRequest::Kind::Question) continue;
        rapidjson::Document out;
        FUZZ_CHECK(!json::parse(out, reply));
        const rapidjson::Value* spec = json::member(out, "hookSpecificOutput");
        FUZZ_CHECK(spec != nullptr);
        const rapidjson::Value* updated = json::member(*spec, "updatedInput");
        if (const rapidjson::Value* decision = json::member(*spec, "decision"))
            updated = json::member(*decision, "updatedInput");
        FUZZ_CHECK(updated != nullptr && json::member(*updated, "answers") != nullptr);
        const rapidjson::Value* input = json::member(hook, "tool_input");
        FUZZ_CHECK(input != nullptr);
        FUZZ_CHECK(events_without_answers(*updated) == events_without_answers(*input));
    }
    return 0;
}
