// The pure half of `askhost opencode summary`: at a compaction of an OpenCode session
// (`experimental.session.compacting`), askhost's OpenCode plugin reads the session's `question`
// tool calls through OpenCode's own API and hands them over; what askhost prints goes into the
// compaction's prompt, so that what the person decided when asked survives it, in askhost history
// --summary's words (as askhost hook's PreCompact does for Claude Code). Every call counts, however
// it was answered: in OpenCode's own dialog, or in askhost.
#pragma once

#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "store/journal.hpp"

namespace askhost::opencode {

// The plugin's request: {"calls": [{"questions": [OpenCode's questions], "status": "completed" |
// "error" | ..., "answers": [[labels or text] per question]}]}, in the order asked. A completed
// call with answers is answered, one that ended in an error (dismissed) cancelled; the rest (still
// running, no questions) tell nothing and are left out.
std::vector<store::Exchange> exchanges_of_calls(const rapidjson::Value& request);

// What goes into the compaction's prompt for these exchanges: "" when there are none.
std::string compaction_context(const std::vector<store::Exchange>& exchanges);

}  // namespace askhost::opencode
