// `askhost gemini-hook` (BeforeTool, ask_user) and `askhost codex-hook` (PreToolUse,
// request_user_input): the agents' own questions asked through the ask service (own_questions.hpp
// reads them and writes the answers). Always 0: printing nothing gives the question back to the agent.
#pragma once

#include <rapidjson/document.h>

#include "own_questions.hpp"

namespace askhost::mcp {

int run_gemini_before_tool(const rapidjson::Value& input);
int run_codex_pre_tool_use(const rapidjson::Value& input);

}  // namespace askhost::mcp
