// An MCP client's answer to askhost mcp's form (elicitation/create), as the client writes it: the
// first byte picks the ask the form was for (one choice, a multi-select, a free-text question, all
// three), the rest is the result. It is an answer to every question (each value an option label
// or the person's own text) or a cancel with a reason, never half of one; the tool result built
// from it is valid JSON; the form itself is valid JSON.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../../plugins/mcp/mcp_server.hpp"
#include "fuzz.hpp"
#include "json/json_access.hpp"
#include "json_check.hpp"

using namespace askhost;

namespace {

Ask make_ask(unsigned which) {
    const Question db{"Which database?",
                      "Database",
                      {{"PostgreSQL", "Relational", std::nullopt}, {"SQLite", "File-based", std::nullopt}},
                      false};
    const Question features{"Which features?",
                            "Features",
                            {{"Auth", "", std::nullopt}, {"REST API", "", std::nullopt}, {"Admin", "", std::nullopt}},
                            true};
    const Question name{"Name the service?", "Name", {}, false};
    Ask a;
    a.id = "ask-1";
    a.agent = "fuzz";
    a.profile = Profile::Strict;
    switch (which % 4) {
        case 0: a.questions = {db}; break;
        case 1: a.questions = {features}; break;
        case 2: a.questions = {name}; break;
        default: a.questions = {db, features, name}; break;
    }
    return a;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const Ask ask = make_ask(data[0]);
    FUZZ_CHECK(valid_json(mcp::elicitation_params(ask)));
    rapidjson::Document result;
    if (json::parse(result, {reinterpret_cast<const char*>(data + 1), size - 1})) return 0;
    mcp::ElicitResult read;
    FUZZ_CHECK(!from_json(result, read, json::Path("result")));  // lenient: any result reads
    const Outcome o = mcp::outcome_from_elicitation(read, ask);
    FUZZ_CHECK(o.kind == OutcomeKind::Answered || o.kind == OutcomeKind::Cancelled);
    if (o.kind == OutcomeKind::Cancelled) FUZZ_CHECK(!o.reason.empty());
    if (o.kind == OutcomeKind::Answered) {
        FUZZ_CHECK(o.answers.size() == ask.questions.size());
        for (std::size_t i = 0; i < o.answers.size(); ++i) {
            const Answer& a = o.answers[i];
            const Question& q = ask.questions[i];
            FUZZ_CHECK(a.question == q.question && !a.values.empty() && a.multi == q.multi_select);
            FUZZ_CHECK(q.multi_select || a.values.size() == 1);
            for (const auto& v : a.values) {
                bool label = false;
                for (const auto& opt : q.options) label = label || opt.label == v;
                FUZZ_CHECK(label || a.was_custom);
                FUZZ_CHECK(utf8_valid(v));
            }
            if (a.selected_option) FUZZ_CHECK(!a.was_custom && a.values.front() == *a.selected_option);
        }
    }
    FUZZ_CHECK(valid_json(mcp::tool_result_json(o)));
    return 0;
}
