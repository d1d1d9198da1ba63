// `askhost gemini-hook`: what the person decided when asked survives Gemini CLI's compression.
// Gemini CLI (0.61) discards what a PreCompress hook prints, and runs PreCompress before every
// model request (also when it then finds the history under its threshold and compresses nothing),
// so PreCompress cannot say that a compression happened. Gemini's own session record can: after a
// compression it sets the record's message list to the compressed history, without the earlier
// tool calls. The BeforeAgent hook, run once per prompt, reads the record (the hook input's
// transcript_path): when an answered ask_user_question call of askhost mcp, or of Gemini's own
// ask_user (answered in its dialog or through askhost gemini-hook), is no longer in the history
// the model reads and the answers were not given since, its `additionalContext` (added to
// the prompt) carries them in askhost history --summary's words. docs/gemini.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "store/journal.hpp"

namespace askhost::mcp {

// What a Gemini CLI session record (JSON lines) says about askhost's questions.
struct GeminiRecord {
    bool main = true;  // the main conversation's record (not a sub-agent's)
    // every answered, cancelled or pending ask_user_question and ask_user call
    std::vector<store::Exchange> exchanges;
    bool dropped = false;  // one of them is no longer in the history the model reads (a compression)
    bool told = false;     // the history holds the answers as this hook gave them (since the compression)
};

GeminiRecord read_gemini_record(std::string_view jsonl);

// The BeforeAgent hook: prints Gemini's hook output with the context when a compression dropped
// answered questions from the history. Always 0: a failing hook must not trouble Gemini's session.
int run_before_agent(const rapidjson::Value& input);

}  // namespace askhost::mcp
