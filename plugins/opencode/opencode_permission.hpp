// The pure half of `askhost opencode permission`: one of OpenCode's permission prompts
// (`permission.asked`: a shell command, an edit, a fetch, a folder outside the project), as
// askhost's OpenCode plugin hands it over, read into a typed permission (core/model/permission),
// and what askhost prints back for the outcome, which the plugin gives to OpenCode's own API
// (`POST /permission/{id}/reply`). OpenCode's three replies are the question's three options, in
// OpenCode's words; nothing else is decided here (docs/opencode.md).
#pragma once

#include <string>

#include <rapidjson/document.h>

#include "common/permission_question.hpp"
#include "core/model/outcome.hpp"

namespace askhost::opencode {

// One request as the plugin writes it on askhost's stdin (OpenCode's own fields, and its folder):
//   {"id": "per_...", "sessionID": "ses_...", "directory": "/project", "permission": "bash",
//    "patterns": ["git push *"], "always": ["git push *"], "metadata": {"command": "git push"},
//    "tool": {"messageID", "callID"}?}
struct PermissionAsk {
    bool ours = false;  // false: nothing to ask (OpenCode's own prompt takes it); `why` says so
    std::string why;
    std::string id;       // OpenCode's request id
    std::string session;  // OpenCode's session id
    PermissionRequest request;
    Ask ask;  // agent "opencode", route "plugin", one question with the typed permission
};

PermissionAsk read_permission_request(const rapidjson::Value& request);

// What askhost prints for the outcome, one JSON line for the plugin: {"reply": "once" | "always" |
// "reject"}, with "message" when the person typed a refusal (declined in askhost: "reject"); ""
// for nothing (timed out, gone: OpenCode's own prompt stays the one that answers).
std::string permission_reply(const PermissionAsk& asked, const Outcome& outcome);

}  // namespace askhost::opencode
