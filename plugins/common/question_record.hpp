// A question tool's call and result read back from an agent's own record of its session (Claude
// Code's transcript, Codex's rollout). The compaction hooks of both (plugins/claude/compact_hook,
// plugins/codex/codex_hook) turn them into the journal's exchanges for askhost history's prose.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "core/model/outcome.hpp"
#include "core/model/question.hpp"

namespace askhost {

// The questions of a call's input ({"questions": [...]}, the strict schema's shape); a question
// without text is left out.
std::vector<Question> questions_of_call(const rapidjson::Value& input);

// What a result says about its questions.
struct RecordedResult {
    enum class Kind {
        Answered,    // answers: one per question the result answers
        Cancelled,   // an error result (declined, timed out, ...)
        Pending,     // print mode: pending_file holds the questions
        Refused,     // a sub-agent's question (REQ-AUQ-005): nothing was asked
        Unreadable,  // no answer found in it
    };
    Kind kind = Kind::Unreadable;
    std::vector<Answer> answers{};
    std::string pending_file{};
};

// The outcome a session's summary gives a recorded result: "answered", "pending" or "cancelled";
// "" for one that tells nothing (refused: nothing was asked; unreadable).
std::string_view summary_outcome(RecordedResult::Kind kind);

// structured: the record's structured result, if it keeps one: the reference's {"answers": {...}}
// or {"structuredContent": {"answers": ...}}, or JSON text of either. text: the result's text as
// the model read it (itself such JSON when the client hands the model the structured content, else
// the reference sentence `"q"="a", ... .`). is_error: the record marks the result as an error.
RecordedResult read_result(const std::vector<Question>& questions, const rapidjson::Value* structured,
                           std::string_view text, bool is_error);

}  // namespace askhost
