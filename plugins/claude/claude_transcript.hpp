// Claude Code's transcript of a session: one JSON object a line, appended as things happen
// (projects/<folder>/<session>.jsonl; a sub-agent's in <session>/subagents/agent-<id>.jsonl).
// The one reader of it: askhost hook asks it whether Claude's own dialog answered (a tool's result
// came) and what the person decided (for compaction); askhost mcp asks it whose tool_use a call is
// (REQ-AUQ-005 under Claude's plain MCP route, docs/subagents.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

#include "store/journal.hpp"

namespace askhost::claude {

// Its lines are read with store::read_last_lines (the end of a transcript), or these:
// what was appended to a transcript after byte `from` (at most 4 MiB of it).
std::string transcript_since(const std::filesystem::path& file, off_t from);

// Whether these lines record a tool's result (the person answered in Claude's own dialog).
bool holds_tool_result(std::string_view jsonl);

// Where these lines hold the tool_use `id`: not at all, in the main conversation, or in a
// sub-agent's line (isSidechain).
enum class ToolUse { None, Main, Sidechain };
ToolUse tool_use_in(std::string_view jsonl, std::string_view id);

// Every AskUserQuestion and *__ask_user_question call of the main conversation in these lines,
// with its outcome: answered (the answers), cancelled (an error result), pending. A sub-agent's
// (sidechain) lines and a call without a result are left out.
std::vector<store::Exchange> exchanges_in_transcript(std::string_view jsonl);

// A session's transcripts, found from the environment Claude Code gives an MCP server it starts.
// Claude Code writes a tool_use line about 0.1 s after the call, so a caller looks again for a
// short while.
struct ClaudeTranscripts {
    std::filesystem::path projects;  // $CLAUDE_CONFIG_DIR/projects, or ~/.claude/projects
    std::string session_id;          // $CLAUDE_CODE_SESSION_ID: Claude Code started this server

    // Set when Claude Code started this process (it passes its session id to MCP servers).
    static std::optional<ClaudeTranscripts> from_environment();

    enum class Caller { Main, Subagent, Unknown };
    // Whose tool_use `tool_use_id` is, as the transcripts stand now: Unknown when no transcript
    // holds it (yet), or the id is not one Claude Code writes. A sub-agent's own transcript is
    // every line the sub-agent's; older versions wrote its lines, marked, into the session's.
    Caller caller_of(std::string_view tool_use_id) const;
    // The session's transcript, or a sub-agent's folder of it, exists: only then is it worth
    // looking again.
    bool session_written() const;
};

}  // namespace askhost::claude
