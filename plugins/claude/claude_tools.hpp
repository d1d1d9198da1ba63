// Claude Code's tool calls as askhost asks them, shared by the stream-json adapter (can_use_tool)
// and `askhost hook` (PreToolUse, PermissionRequest): one mapping, so both look and answer alike.
#pragma once

#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "common/permission_question.hpp"
#include "core/command_line.hpp"
#include "core/model/outcome.hpp"

namespace askhost::claude {

inline constexpr std::string_view kAskTool = "AskUserQuestion";

// A tool that asks the person: Claude's AskUserQuestion, or an MCP server's ask_user_question
// (`mcp__SERVER__ask_user_question`, askhost mcp under any server name).
bool is_question_tool(std::string_view tool);

// Claude's input with `answers` (and `annotations`) set: what its AskUserQuestion reads back.
// `original_json` is the input as askhost wrote it (to_json).
std::string input_with_answers(const std::string& original_json, const std::vector<Answer>& answers);

// A tool call (Bash, Write, ...) as a permission question: Allow / Deny / Always allow this tool,
// the command or path first and the model's description after.
PermissionRequest tool_permission_request(const std::string& tool, const rapidjson::Value& input);

// `askhost hook [install]` (hook_command.cpp): its declaration and what runs it.
extern const cli::Command kHookCommand;
int run_hook(const std::vector<std::string>& args);

}  // namespace askhost::claude
