// The editor protocol's messages as types (docs/protocol.md, "Editor protocol"): what each method
// takes and gives, read with from_json and written with to_json. The hub binds them to handlers.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/adapter.hpp"
#include "core/agent_control.hpp"
#include "core/model/question.hpp"
#include "frontends/editor/ask_json.hpp"
#include "json/json_codec.hpp"
#include "transport/rpc_binder.hpp"

namespace askhost {

// LSP's WorkspaceFolder as the client gave it: read leniently (a folder that is not an object, or
// whose uri is not file://, is skipped by the hub, as it always was).
struct WorkspaceFolderParam {
    std::string uri;
    std::string name;
};

// initialize: every field is optional and a wrongly typed one reads as absent (editors send
// `"capabilities": true` or `params: []`, and get a result).
struct InitializeParams {
    std::string client_name;
    std::string client_version;
    ClientAskCaps ask_caps;
    std::optional<bool> show_asks;  // capabilities.ask as a boolean: false = never show questions
    bool passive = false;           // capabilities.passive: a viewer (askhost web), not a person here
    bool queued = false;            // capabilities.queued: a viewer shown the queued asks too
    std::optional<std::vector<WorkspaceFolderParam>> workspace_folders;
    std::string root_uri;
};
// askhost's own clients (askhost attach, askhost mcp and hook through HostClient) send one too.
void to_json(const InitializeParams& p, json::Writer& w);

// serverInfo and capabilities are askhost's own; socket is null when there is none.
struct InitializeResult {
    std::string socket;
};

// workspace/didChangeWorkspaceFolders.
struct WorkspaceFoldersChange {
    std::vector<WorkspaceFolderParam> added;
    std::vector<WorkspaceFolderParam> removed;
};
struct DidChangeWorkspaceFoldersParams {
    std::optional<WorkspaceFoldersChange> event;
};

// agent/start: command (argv, at least one string), cwd?, env? (strings), adapter? ("auto").
struct AgentStartParams {
    LaunchSpec spec;
    std::string adapter = "auto";
};
struct AgentStartResult {
    int pid = 0;
};

struct AgentPromptParams {
    std::string text;
};

// ask/submit: the question parts are passed on as they came, for parse_ask_input to judge (its
// refusals are results, not errors); profile must name a rule set.
struct AskSubmitParams {
    Profile profile = Profile::Lenient;
    json::Borrowed questions, metadata, answers, annotations, permission;
    std::string agent, client, route, cwd;
};

// What askhost's own clients send as ask/submit: the ask's fields and the rules they were
// checked against.
struct SubmitAsk {
    const Ask& ask;
    Profile profile;
};

// $/cancelRequest from a client: the ask/submit request it no longer needs.
struct CancelParams {
    RequestId id;
};
// $/cancelRequest to a client: the ask/show request (id) of the ask (askId) withdrawn.
struct CancelRequestParams {
    RequestId id;
    std::string ask_id;
};

// ask/answerRefused to a client: its answer to ask askId was not taken (message says why); the
// question is shown again.
struct AnswerRefusedParams {
    std::string ask_id;
    std::string message;
};

// agent/output; text is borrowed (from the agent's output, or the message being read).
struct AgentOutputParams {
    Stream stream = Stream::Stdout;
    std::string_view text;
};

// ask/show as askhost's own clients read it (askhost attach, askhost web): the ask, checked like an
// agent's (leniently: the host checked it already), and the parts a viewer passes on as they came.
struct AskShowParams {
    Ask ask;                             // id, questions, permission, agent, route, cwd
    json::Borrowed questions, metadata;  // as given (metadata absent: null value pointer)
};

// ask/show's result from a client: an outcome (native shape), or an outcome in that shape that the
// client was given and checked against the ask already, passed on as it came (askhost web: the
// page's answer).
struct AskShowResult {
    // Not explicit: a face replies with its outcome as it is, reply(outcome).
    AskShowResult(Outcome o) : value(std::move(o)) {}
    AskShowResult(json::RawJson given) : value(std::move(given)) {}
    std::variant<Outcome, json::RawJson> value;
};

// What a client reads of ask/state and agent/exit (askhost attach): absent or wrong reads as absent.
struct AskStateParams {
    std::string state;
};
struct AgentExitParams {
    std::optional<std::int64_t> exit_code, signal;
};

json::FieldStatus from_json(const rapidjson::Value& v, WorkspaceFolderParam& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, InitializeParams& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, WorkspaceFoldersChange& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, DidChangeWorkspaceFoldersParams& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, AgentStartParams& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, AgentPromptParams& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, Profile& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, AskSubmitParams& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, CancelParams& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, CancelRequestParams& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, Stream& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, AgentOutputParams& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, AskShowParams& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, AskStateParams& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, AgentExitParams& out, const json::Path& at);

void to_json(const InitializeResult& r, json::Writer& w);
void to_json(const AgentStartResult& r, json::Writer& w);
// agent/stop's result and agent/exit's params: {exitCode, signal}, null for the one that is not.
void to_json(const AgentExit& e, json::Writer& w);
void to_json(const CancelRequestParams& p, json::Writer& w);
void to_json(const CancelParams& p, json::Writer& w);
void to_json(const AnswerRefusedParams& p, json::Writer& w);
void to_json(const SubmitAsk& s, json::Writer& w);
void to_json(const AgentOutputParams& p, json::Writer& w);
// The native shape (ask/show's result from a client, ask/submit's result to one).
void to_json(const Outcome& o, json::Writer& w);
void to_json(const AskShowResult& r, json::Writer& w);

}  // namespace askhost
