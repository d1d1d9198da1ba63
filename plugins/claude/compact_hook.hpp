// Claude Code's PreCompact hook (`askhost hook`): what the person decided when asked reaches the
// compaction. Claude Code (2.1.197) joins the stdout of each successful PreCompact hook into the
// compaction's custom instructions. The questions and answers are read from the session's
// transcript (the hook input's transcript_path), so every way they were asked counts: Claude's
// own dialog, askhost hook, askhost mcp. The prose is askhost history --summary's.
#pragma once

#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "store/journal.hpp"

namespace askhost::claude {

// What the hook prints for a transcript's exchanges (claude_transcript.hpp): "" when there are none
// (Claude's default then).
std::string compaction_instructions(const std::vector<store::Exchange>& exchanges);

// The PreCompact hook: reads the transcript the input names, prints the instructions. Always 0:
// a hook that fails must not keep Claude from compacting.
int run_precompact(const rapidjson::Value& input);

}  // namespace askhost::claude
