// Claude Code's PreCompact hook (`askhost hook`): what the person decided when asked reaches the
// compaction. Claude Code (2.1.197) joins the stdout of each successful PreCompact hook into the
// compaction's custom instructions. The questions and answers are read from the session's
// transcript (the hook input's transcript_path), so every way they were asked counts: Claude's
// own dialog, askhost hook, askhost mcp. The prose is askhost history --summary's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "store/journal.hpp"

namespace askhost::claude {

// Every AskUserQuestion and *__ask_user_question call of the main conversation in a transcript
// (JSON lines), with its outcome: answered (the answers), cancelled (an error result), pending.
// A sub-agent's (sidechain) lines and a call without a result are left out.
std::vector<store::Exchange> exchanges_in_transcript(std::string_view jsonl);

// What the hook prints for these exchanges: "" when there are none (Claude's default then).
std::string compaction_instructions(const std::vector<store::Exchange>& exchanges);

// The PreCompact hook: reads the transcript the input names, prints the instructions. Always 0:
// a hook that fails must not keep Claude from compacting.
int run_precompact(const rapidjson::Value& input);

}  // namespace askhost::claude
