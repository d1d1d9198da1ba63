// Tool-permission requests shown as questions, and the --allow-tools policy that answers some of
// them without asking. Shared by every adapter whose agent asks before it runs a tool:
// plugins/acp (session/request_permission) uses it, and plugins/claude (can_use_tool for tools
// other than AskUserQuestion) should use it too, so that both look and decide alike.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "core/model/outcome.hpp"
#include "core/model/permission.hpp"

namespace askhost {

// One answer the agent accepts, in the agent's own words.
struct PermissionChoice {
    std::string id;     // what goes back to the agent (ACP's optionId, or the adapter's own)
    std::string label;  // "Yes", "Always allow this tool", ...
    PermissionKind kind = PermissionKind::AllowOnce;
    std::string description;  // optional
};

struct PermissionRequest {
    std::string tool{};    // the tool's name ("Bash", "Write"); may be empty
    std::string title{};   // what the call does in the agent's words ("touch x", "Write notes.txt")
    std::string detail{};  // the command or paths, when they add to the title
    std::vector<PermissionChoice> choices{};
    // What the faces show as data (core/model/permission.hpp), whole: the command that will run,
    // or the file an edit writes, what it puts there and what that replaces, and the agent's
    // reason. ({}: a designated initializer may leave them out.)
    std::string command{}, path{}, content{}, replaces{}, reason{};
};

// Allow / Deny / Always allow this tool: for agents that offer no choices of their own (Claude
// Code's can_use_tool). "Always" is remembered by the ToolPolicy, not by the agent.
std::vector<PermissionChoice> default_permission_choices(std::string_view tool);

// The typed fields of a tool's input: command (or, for a tool without one, its URL, pattern or
// query, so Grep's pattern beside its path; for a tool whose input names none of these, an MCP
// server's tool, its whole input as indented JSON), path, content (Write's content, Edit's
// new_string), replaces (Edit's old_string), reason (its description). Claude Code's tool
// inputs, which claude-agent-acp forwards as rawInput too.
void fill_permission_fields(PermissionRequest& request, const rapidjson::Value& input);

// The command, file paths, URL or pattern in a tool's input, joined readably ("" when none).
// Knows Claude Code's tool inputs (command, file_path, notebook_path, path, url, pattern, ...),
// which claude-agent-acp forwards as rawInput too.
std::string describe_tool_input(const rapidjson::Value& input);

// A Claude-shaped tool call's wording (Claude Code's hook and can_use_tool, Codex's
// PermissionRequest hook): what will run leads the title; the model's description of it is only
// its claim, so it comes after as the detail (a "List files" description on `rm -rf build` must
// not be what the person reads first). With nothing to describe, the description, else the tool
// (request.tool, set first), is the title.
void describe_permission(PermissionRequest& request, const rapidjson::Value& input);

// One question, "Allow Bash: touch x? (Create a marker file)", header "Permission", one option
// per choice in the agent's order, and the typed `permission` beside it (the whole command, the
// meaning of each option) that every face shows instead of reading the wording. Labels are made
// unique and never empty; a wording cut short says how much it leaves out.
AskInput permission_ask(const PermissionRequest& request);

// What the person decided.
struct PermissionDecision {
    const PermissionChoice* choice = nullptr;  // null when cancelled
    std::string message;                       // text the person typed ("Other"): the choice is then a rejection
    bool cancelled() const { return choice == nullptr; }
};

// An answered outcome picks the choice by label (a selectedOption that disagrees with the answer
// picks nothing: cancelled); a typed answer rejects (first reject choice)
// with the text as `message`; anything else (cancelled, timed out, gone, pending) cancels.
PermissionDecision decide_permission(const PermissionRequest& request, const Outcome& outcome);

// --allow-tools LIST, and the tools the person allowed for the rest of the run.
class ToolPolicy {
public:
    ToolPolicy() = default;
    // Comma- or space-separated tool names; a trailing '*' matches a prefix ("mcp__ask__*"), a
    // lone "*" every tool.
    explicit ToolPolicy(std::string_view list) { allow(list); }
    void allow(std::string_view list);

    bool allows(std::string_view tool) const;
    bool empty() const { return patterns_.empty(); }
    // Why `tool` is allowed without asking, for the log line: "--allow-tools", or the person's
    // "always" earlier in this session; empty when it is not.
    std::string_view reason(std::string_view tool) const;

    // The choice to take without asking (the narrowest allow: allow-once before always), or null.
    const PermissionChoice* automatic_choice(const PermissionRequest& request) const;

    // The person chose "always" for an agent that does not remember it itself: remember here.
    void remember(const PermissionRequest& request, const PermissionChoice& choice);

private:
    struct Pattern {
        std::string text;
        bool remembered = false;  // from the person's "always", not --allow-tools
    };
    const Pattern* match(std::string_view tool) const;
    std::vector<Pattern> patterns_;
};

}  // namespace askhost
