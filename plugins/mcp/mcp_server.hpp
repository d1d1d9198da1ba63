// `askhost mcp`: an MCP server (JSON-RPC 2.0 over newline-delimited stdio) with one tool,
// ask_user_question. It knows MCP, not where the person is: an McpAsker shows the questions.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "claude_transcript.hpp"
#include "core/lifetime.hpp"
#include "core/model/outcome.hpp"
#include "mcp_protocol.hpp"
#include "transport/jsonrpc.hpp"
#include "transport/rpc_binder.hpp"

namespace askhost::mcp {

constexpr std::string_view kToolName = "ask_user_question";
constexpr std::string_view kToolAlias = "AskUserQuestion";  // the reference implementation's alias
// Newest first; a client asking for another version gets the newest.
constexpr std::string_view kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

// The version to answer an initialize with.
std::string negotiate_version(std::string_view requested);
// The tools/list result: {"tools":[{name, title, description, inputSchema, annotations}]}.
std::string tools_list_json();
// The tool's description, as a model reads it.
std::string_view tool_description();
// The tools/call result for an outcome: text content with the model text, structuredContent
// {questions, answers, annotations?} as the reference's result (questions: those asked, when
// given; their options' previews left out when they would break the cap); a cancel (and every other unanswered end) is isError with
// "User declined to answer questions (...)"; a refusal is isError naming the field. A result
// over Limits::max_result_bytes is replaced by an error saying so.
std::string tool_result_json(const Outcome& outcome, const std::vector<Question>& questions = {});

class McpServer;

// Shows one ask to the person somewhere (the host over its socket, the client's own form through
// elicitation, a terminal, a host of its own that waits).
class McpAsker {
public:
    virtual ~McpAsker() = default;
    // `reply` runs exactly once unless the returned cancel function is called first. `server`
    // says what the client can do (elicitation) and sends it requests.
    virtual std::function<void()> ask(Ask ask, McpServer& server, OnOutcome reply) = 0;
};

// The elicitation/create params (form mode) for an ask: per question a choice field (options as
// an enum, with "Other" when typed answers are allowed) and a free-text field for Other; a
// multi-select question's choice is an array of the labels.
std::string elicitation_params(const Ask& ask);
// The client's elicitation result back into an outcome: accept with content -> answered,
// decline or cancel (or an accept that answers nothing) -> cancelled.
Outcome outcome_from_elicitation(const ElicitResult& result, const Ask& ask);

class McpServer {
public:
    using Log = std::function<void(std::string_view)>;
    // With `io`, a call that carries a progressToken gets notifications/progress while it waits
    // (every progress_interval): clients show them; none of them extends its tool timeout.
    McpServer(RpcEndpoint& rpc, McpAsker& asker, Log log, boost::asio::io_context* io = nullptr);
    std::chrono::milliseconds progress_interval{10000};
    // Under Claude Code: its transcripts, where a sub-agent's call is told from the main
    // conversation's; how long a call waits for its tool_use to be written there (with `io`).
    std::optional<ClaudeTranscripts> claude_transcripts = ClaudeTranscripts::from_environment();
    std::chrono::milliseconds claude_transcript_wait{3000};
    ~McpServer();

    // The client went away: withdraw every question still open.
    void close();
    std::size_t open_calls() const { return open_.size(); }

    // What the client declared in initialize.
    bool client_elicits() const { return client_elicits_; }
    const std::string& client_name() const { return client_name_; }
    // Asks the client's own form (elicitation/create); `reply` gets the outcome, or a cancel when
    // the client refuses. The returned function drops a late reply.
    std::function<void()> elicit(const Ask& ask, OnOutcome reply);
    // Sends notifications/progress for a call's progress token (JSON text), if it gave one.
    void progress(const std::string& token_json, int step, std::string_view message);

private:
    // The protocol, bound one line a method (the types: mcp_protocol.hpp).
    void initialize(const InitializeParams& p, Reply<InitializeResult> reply);
    void ping(const json::Ignored&, Reply<json::EmptyObject> reply);
    void list_tools(const json::Ignored&, Reply<json::RawJson> reply);
    void call_tool(const CallToolParams& p, Reply<json::RawJson> reply);
    // The call checked: refused, answered at once, or asked.
    void answer_call(Parsed<AskInput> parsed, const std::optional<std::string>& progress_token,
                     const Reply<json::RawJson>& reply);
    // Looks for a Claude Code call's tool_use in its transcripts until found or `deadline`.
    void await_claude_caller(std::string tool_use_id, std::chrono::steady_clock::time_point deadline,
                             const std::shared_ptr<Parsed<AskInput>>& parsed, std::optional<std::string> progress_token,
                             Reply<json::RawJson> reply);
    void cancelled(const CancelledParams& p);
    void tick(const std::string& id, const std::string& token_json, int step);

    RpcEndpoint& rpc_;
    McpAsker& asker_;
    Log log_;
    std::string client_name_ = "mcp client";
    bool client_elicits_ = false;
    std::map<std::string, std::function<void()>> open_;  // tools/call request id (JSON) -> cancel
    boost::asio::io_context* io_;
    std::map<std::string, std::shared_ptr<boost::asio::steady_timer>> ticking_;  // calls sending progress
    Lifetime lifetime_;
    RpcBinder<McpServer> bind_;  // last: its handlers use everything above
};

}  // namespace askhost::mcp
