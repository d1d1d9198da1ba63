// The agents' own question tools, caught by their hooks: Gemini CLI's `ask_user` (a BeforeTool
// hook) and Codex's `request_user_input` (a PreToolUse hook). The pure half (no socket, no
// process): the hook input read into an Ask, and what the hook prints for an outcome. Both agents
// take an answer only as a blocked call whose reason the model reads, so the reason says in plain
// words that the user answered and what, question by question in the order asked. Printing
// nothing gives the question back to the agent: its own dialog shows it (docs/gemini.md,
// docs/codex.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "common/question_record.hpp"
#include "core/model/outcome.hpp"

namespace askhost::mcp {

enum class OwnTool { GeminiAskUser, CodexRequestUserInput };

struct OwnRequest {
    enum class Kind {
        NotOurs,   // another event or tool, or a question the agent's own dialog should take: print nothing
        Reply,     // decided at once (a sub-agent's question is refused): print `reply`
        Question,  // to ask: `ask`
    };
    Kind kind = Kind::NotOurs;
    OwnTool tool = OwnTool::GeminiAskUser;
    std::string reply;  // Kind::Reply
    std::string why;    // Kind::NotOurs: what to log, if anything
    Ask ask;            // Kind::Question (lenient; agent "gemini" or "codex", route "hook")
    // Per question, in order: the text the agent asked (ask.questions carry what askhost shows:
    // a placeholder added as a hint) and the key of its answer (Codex: its `id`; Gemini: "0", "1", ...).
    std::vector<std::string> texts, keys;
};

// Gemini CLI's BeforeTool hook input for `ask_user`: {hook_event_name: "BeforeTool", tool_name,
// tool_input: {questions: [{question, header, type: choice|text|yesno, options: [{label,
// description}], multiSelect, placeholder}]}, cwd, ...}.
OwnRequest read_gemini_request(const rapidjson::Value& hook);
// Codex's PreToolUse hook input for `request_user_input`: {hook_event_name: "PreToolUse",
// tool_name, tool_input: {questions: [{id, header, question, options: [{label, description}]}]},
// cwd, agent_id? (a sub-agent's)}.
OwnRequest read_codex_request(const rapidjson::Value& hook);

// The words the model reads for an answer: that the user answered, and each answer in question
// order (Codex's with their ids).
std::string answered_words(const OwnRequest& request, const std::vector<Answer>& answers);

// What the hook prints for the outcome: Gemini's {"decision":"deny","reason":...} or Codex's
// PreToolUse deny with permissionDecisionReason; "" for nothing (the agent's own dialog asks):
// a timeout, a gone host, a pending or refused ask.
std::string own_reply(const OwnRequest& request, const Outcome& outcome);

// An own tool's call read back from the agent's record of its session (Codex's rollout, Gemini
// CLI's session record), for what the compactions keep: its questions as the agent asked them
// (the text without the placeholder hint) and the key of each answer. Empty questions: nothing to
// tell (no questions, or a secret one askhost leaves to Codex).
struct OwnCall {
    OwnTool tool = OwnTool::GeminiAskUser;
    std::vector<Question> questions;
    std::vector<std::string> keys;
};
OwnCall own_call_of(OwnTool tool, const rapidjson::Value& arguments);

// What the call's result, as the model read it, says: askhost's answer (the words of
// answered_words, inside the agent's "blocked" wrapper), askhost's decline, the agent's own
// dialog's answer (JSON with `answers` by key: Gemini's {"answers":{"0":"SQLite"}}, Codex's
// {"answers":{"id":{"answers":["SQLite"]}}}), or its dismissal or an error (cancelled).
RecordedResult read_own_result(const OwnCall& call, std::string_view text, bool is_error);

}  // namespace askhost::mcp
