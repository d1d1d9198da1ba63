// The pure half of `askhost opencode ask`: what askhost's OpenCode plugin hands it for one question
// request of OpenCode's `question` tool, read into an Ask, and what it prints back for the
// outcome, which the plugin gives to OpenCode's own API (docs/opencode.md). No socket, no process:
// shared by opencode_command.cpp and the unit tests.
#pragma once

#include <string>

#include <rapidjson/document.h>

#include "core/model/outcome.hpp"

namespace askhost::opencode {

// One request as the plugin writes it on askhost's stdin:
//   {"id": "que_...", "sessionID": "ses_...", "directory": "/project",
//    "questions": [{"question", "header", "options": [{"label", "description"}], "multiple"?, "custom"?}]}
struct QuestionRequest {
    bool ours = false;  // false: nothing to ask (OpenCode's own dialog takes it); `why` says so
    std::string why;
    std::string id;       // OpenCode's request id
    std::string session;  // OpenCode's session id
    Ask ask;              // agent "opencode", route "plugin", lenient, cwd the directory
};

QuestionRequest read_question_request(const rapidjson::Value& request);

// What askhost prints for the outcome, one JSON line for the plugin: {"answers": [[labels or text,
// ...] per question, in the order of the questions]} (OpenCode's reply), {"reject": true} (the
// person declined in askhost: OpenCode's reject, "The user dismissed this question"), or "" (timed
// out, gone, pending: OpenCode's own dialog stays the one that answers).
std::string question_reply(const QuestionRequest& request, const Outcome& outcome);

}  // namespace askhost::opencode
