// What `askhost hook` makes of Claude Code's hook input, and what it prints for an outcome: the
// pure half of the hook (no socket, no process), shared by hook_command.cpp and the `hook` fuzz
// target.
#pragma once

#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "common/permission_question.hpp"
#include "core/model/outcome.hpp"

namespace askhost::claude {

// One hook input, read.
struct HookRequest {
    enum class Kind {
        NotOurs,    // another event or tool, or an input Claude's own dialog should take: print nothing
        Reply,      // decided at once (a sub-agent's question is refused): print `reply`
        Question,   // AskUserQuestion to ask: `ask`
        Permission  // a tool's permission to ask: `ask` from `permission`
    };
    Kind kind = Kind::NotOurs;
    std::string event;  // hook_event_name: PreToolUse or PermissionRequest
    std::string reply;  // Kind::Reply
    std::string why;    // Kind::NotOurs: what to log, if anything
    Ask ask;            // Question, Permission (agent "claude", route "hook", strict)
    PermissionRequest permission;
    std::string original;  // the tool input as askhost writes it (Question: updatedInput is built on it)
};

HookRequest read_hook_request(const rapidjson::Value& hook);

// What the hook prints for the outcome of the request's ask ("" for nothing: Claude's own dialog
// decides).
std::string hook_reply(const HookRequest& request, const Outcome& outcome);

}  // namespace askhost::claude
