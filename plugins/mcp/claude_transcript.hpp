// REQ-AUQ-005 under Claude Code's plain MCP route: its tools/call carries only the model's
// tool_use id (_meta "claudecode/toolUseId"), the same for the main conversation and a sub-agent.
// What tells them apart is where Claude Code writes that tool_use: the session's transcript
// (projects/<folder>/<session>.jsonl) or a sub-agent's (projects/<folder>/<session>/subagents/
// agent-<id>.jsonl, each line "isSidechain":true). It writes the line about 0.1 s after the call,
// so the caller looks again for a short while (docs/subagents.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace askhost::mcp {

struct ClaudeTranscripts {
    std::filesystem::path projects;  // $CLAUDE_CONFIG_DIR/projects, or ~/.claude/projects
    std::string session_id;          // $CLAUDE_CODE_SESSION_ID: Claude Code started this server

    // Set when Claude Code started this process (it passes its session id to MCP servers).
    static std::optional<ClaudeTranscripts> from_environment();

    enum class Caller { Main, Subagent, Unknown };
    // Whose tool_use `tool_use_id` is, as the transcripts stand now: Unknown when no transcript
    // holds it (yet), or the id is not one Claude Code writes.
    Caller caller_of(std::string_view tool_use_id) const;
    // The session's transcript, or a sub-agent's folder of it, exists: only then is it worth
    // looking again.
    bool session_written() const;
};

}  // namespace askhost::mcp
