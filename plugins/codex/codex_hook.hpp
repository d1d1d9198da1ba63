// `askhost codex-hook`: what the person decided when asked survives Codex's compaction. Codex
// (0.169) discards what a PreCompact hook prints (plain stdout is debug output; its JSON output has
// no field for the summariser), but a SessionStart hook whose matcher is `compact` runs right after
// a compaction, and its `additionalContext` is added to the history the model reads next. The
// questions and answers are read from the session's rollout (the hook input's transcript_path),
// the main conversation's own file: askhost mcp's ask_user_question calls, Codex's own
// request_user_input calls (docs/codex.md) and their results. The
// prose is askhost history --summary's. docs/codex.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "common/permission_question.hpp"
#include "core/model/outcome.hpp"
#include "store/journal.hpp"

namespace askhost::mcp {

// Every MCP ask_user_question call and every call of Codex's own request_user_input (answered in
// Codex's dialog or through askhost) in a Codex rollout (JSON lines), with its outcome: answered,
// cancelled, pending. A refused call (a sub-agent's) and a call without a result are left out.
std::vector<store::Exchange> exchanges_in_rollout(std::string_view jsonl);

// The context the hook adds for these exchanges: "" when there are none.
std::string compaction_context(const std::vector<store::Exchange>& exchanges);

// A hook's output that adds `context` to what the model reads next, one JSON line:
// {"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": CONTEXT}} (Codex's
// SessionStart and Gemini CLI's BeforeAgent read the same shape).
std::string additional_context_output(std::string_view event, std::string_view context);

// The SessionStart hook (source `compact`): reads the rollout the input names, prints Codex's
// hook output with the context. Always 0: a failing hook must not trouble Codex's session.
int run_session_start(const rapidjson::Value& input);

// Codex's approval of a command (its PermissionRequest hook, in Claude Code's shape: tool_name
// "Bash", tool_input {command, description}) as askhost asks it: the typed permission with the
// whole command, and two options, Allow and Deny (Codex refuses a hook's "always" rules: the
// person's "don't ask again" stays in Codex's own prompt).
struct CodexPermission {
    PermissionRequest request;
    Ask ask;
};
CodexPermission read_codex_permission(const rapidjson::Value& hook);
// The hook's output for the person's decision: allow, or deny with their words; "" (print nothing,
// Codex's own prompt asks) for a cancel, a timeout or anything that decides nothing.
std::string codex_permission_reply(const PermissionRequest& request, const Outcome& outcome);
// The PermissionRequest hook: asked where askhost can show it, else (or `own-questions = never`)
// nothing printed at once and Codex's own prompt asks. Always 0.
int run_permission_request(const rapidjson::Value& input);

}  // namespace askhost::mcp
