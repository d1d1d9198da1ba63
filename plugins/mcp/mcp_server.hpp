// `askhost mcp`: an MCP server (JSON-RPC 2.0 over newline-delimited stdio) with one tool,
// ask_user_question. It knows MCP, not where the person is: an McpAsker shows the questions.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "claude/claude_transcript.hpp"
#include "core/call_ticket.hpp"
#include "core/lifetime.hpp"
#include "core/model/outcome.hpp"
#include "mcp_protocol.hpp"
#include "mcp_tasks.hpp"
#include "transport/jsonrpc.hpp"
#include "transport/rpc_binder.hpp"

namespace askhost::mcp {

constexpr std::string_view kToolName = "ask_user_question";
constexpr std::string_view kToolAlias = "AskUserQuestion";  // the reference implementation's alias
// The 2025 era's versions (an initialize handshake), newest first; a client asking for another
// version gets the newest.
constexpr std::string_view kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
// The stateless era: no handshake, every request says its version and the client's capabilities
// in _meta, and a call that needs the person returns input_required (docs/mcp.md).
constexpr std::string_view kModernVersion = "2026-07-28";
// MCP's UnsupportedProtocolVersion error (2026-07-28).
constexpr int kUnsupportedProtocolVersion = -32022;
// And MissingRequiredClientCapability: tasks/* from a client that did not declare the tasks extension.
constexpr int kMissingRequiredClientCapability = -32021;
// The key of askhost's one input request in an input_required result.
constexpr std::string_view kInputKey = "questions";

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
    std::optional<claude::ClaudeTranscripts> claude_transcripts = claude::ClaudeTranscripts::from_environment();
    std::chrono::milliseconds claude_transcript_wait{3000};
    // Tasks (io.modelcontextprotocol/tasks): where their records are kept ("" keeps none: no tasks
    // are offered), how long a record is kept from its creation, the poll interval the client is
    // given, and how often the owner looks at its tasks' records for a cancel from elsewhere.
    std::filesystem::path tasks_dir = TaskStore::default_dir();
    // How long a question that waits on the client (a requestState not yet retried, a task) stays
    // asked before it ends unanswered (with `io`), and how long a task's record outlives that.
    std::chrono::milliseconds expire_after{std::chrono::hours(24)};
    std::chrono::milliseconds task_kept_after{std::chrono::hours(1)};
    std::chrono::milliseconds task_poll_interval{2000};
    std::chrono::milliseconds task_watch_interval{1000};
    ~McpServer();

    // Withdraw every question still open, the tasks' too (their records stay: the next askhost
    // mcp asked about one asks it again).
    void close();
    // The client went away: its calls are withdrawn; the tasks' questions go on waiting (one shown
    // in the client's form waits in askhost instead), and `done` runs once none is left.
    void client_gone(std::function<void()> done);
    std::size_t open_calls() const { return open_.size(); }
    std::size_t open_tasks() const { return tasks_.size(); }

    // What the client declared: in initialize, or in the _meta of the call being asked (2026-07-28).
    bool client_elicits() const { return asking_ ? asking_->caller.elicits : client_elicits_; }
    const std::string& client_name() const { return asking_ ? asking_->caller.client_name : client_name_; }
    // The tools/call whose question the asker is given now (its request id as JSON, or "task ID"
    // for a task's question), for elicit.
    std::string asking_call() const;
    // Asks the client's own form; `reply` gets the outcome, or a cancel when the client refuses.
    // The returned function drops a late reply. For a call of the 2025 era, an elicitation/create
    // request; for one of 2026-07-28 (`call`), the call's result is input_required with the same
    // form, and the retry that carries its answers gives `reply` the outcome.
    std::function<void()> elicit(const Ask& ask, OnOutcome reply, const std::string& call = {});
    // Sends notifications/progress for a call's progress token (JSON text), if it gave one.
    void progress(const std::string& token_json, int step, std::string_view message);

private:
    // Who makes a call, and in which era.
    struct Caller {
        bool modern = false;  // 2026-07-28: results carry resultType, questions go by input_required
        bool elicits = false;
        std::string client_name;
        bool tasks = false;  // declared the tasks extension: a question that waits becomes a task
    };
    // The question being given to the asker, and by whom.
    struct Asking {
        Caller caller;
        std::string id;  // the call's request id (JSON), or "task ID"
    };
    // A task whose question this process holds (its owner).
    struct TaskRun {
        Ask ask;
        Caller caller;
        CallTicket asked;             // the question as the asker has it: its outcome once, withdrawn once
        OnOutcome form;               // set while the client's form is the question's face
        std::string key;              // that form's input key
        std::int64_t expires_ms = 0;  // then the question ends as timed out
        std::shared_ptr<boost::asio::steady_timer> expiry;
    };
    // A tools/call waiting for its outcome. A call of 2026-07-28 answered with input_required is
    // parked under its requestState; the retry that brings the answers takes its place.
    struct Call {
        Reply<json::RawJson> reply;
        std::string id;  // the request waiting now (JSON)
        Caller caller;
        std::vector<Question> questions;
        CallTicket asked;  // the question as the asker has it: its outcome once, withdrawn once
    };
    struct Parked {
        std::shared_ptr<Call> call;
        Ask ask;
        OnOutcome answer;
        std::shared_ptr<boost::asio::steady_timer> expiry;  // withdraws the question unretried
    };

    // The protocol, bound one line a method (the types: mcp_protocol.hpp).
    void initialize(const InitializeParams& p, Reply<InitializeResult> reply);
    void ping(const json::Ignored&, Reply<json::EmptyObject> reply);
    void discover(const json::Ignored&, Reply<DiscoverResult> reply);
    void list_tools(const json::Ignored&, Reply<json::RawJson> reply);
    void call_tool(const CallToolParams& p, Reply<json::RawJson> reply);
    // Before a request is dispatched: its era from _meta, refused when the version is unknown.
    void dispatch(std::string_view method, const rapidjson::Value& params, Responder r,
                  const RpcEndpoint::OnRequest& next);
    // The call checked: refused, answered at once, or asked.
    void answer_call(Parsed<AskInput> parsed, const std::optional<std::string>& progress_token,
                     const Reply<json::RawJson>& reply, const Caller& caller);
    // Looks for a Claude Code call's tool_use in its transcripts until found or `deadline`.
    void await_claude_caller(std::string tool_use_id, std::chrono::steady_clock::time_point deadline,
                             const std::shared_ptr<Parsed<AskInput>>& parsed, std::optional<std::string> progress_token,
                             Reply<json::RawJson> reply, Caller caller);
    // A retry with a requestState: the parked question's answers.
    void resume(const CallToolParams& p, const Reply<json::RawJson>& reply);
    std::function<void()> park(const std::shared_ptr<Call>& open_call, const Ask& ask, OnOutcome answer);
    void cancelled(const CancelledParams& p);
    // The tasks extension.
    void get_task(const TaskParams& p, Reply<json::RawJson> reply);
    void update_task(const TaskParams& p, Reply<json::RawJson> reply);
    void cancel_task(const TaskParams& p, Reply<json::RawJson> reply);
    // A question that waits, as a task: its record written, the CreateTaskResult sent, then asked.
    // False (nothing sent) when no record can be written.
    bool start_task(const Ask& ask, const Caller& caller, const Reply<json::RawJson>& reply);
    // Asks a task's question in this process, which becomes its owner.
    void run_task(const std::string& id, Ask ask, const Caller& caller, std::int64_t expires_ms);
    void finish_task(const std::string& id, const Outcome& o);
    std::function<void()> task_form(const std::string& id, const Ask& ask, OnOutcome answer);
    // The task's record, or an error sent: unknown, expired, or not a task id at all.
    std::optional<TaskRecord> find_task(const std::string& id, const Reply<json::RawJson>& reply);
    // A task whose owner is gone is asked again here, for the client asking about it now.
    void adopt_if_orphaned(TaskRecord& r);
    // The owner looks at its tasks' records: one cancelled or deleted elsewhere is withdrawn here.
    void watch_tasks();
    void check_done();
    Caller caller_of_request() const;
    void tick(const std::string& id, const std::string& token_json, int step);
    void stop_ticking(const std::string& id);

    RpcEndpoint& rpc_;
    McpAsker& asker_;
    Log log_;
    std::string client_name_ = "mcp client";
    bool client_elicits_ = false;
    RequestMeta request_;                                // the request being dispatched
    std::optional<Asking> asking_;                       // the question the asker is given now
    std::map<std::string, std::shared_ptr<Call>> open_;  // tools/call request id (JSON) -> call
    std::map<std::string, Parked> parked_;               // requestState -> question awaiting its retry
    std::map<std::string, TaskRun> tasks_;               // task id -> the question this process holds
    std::shared_ptr<boost::asio::steady_timer> task_watch_;
    std::function<void()> when_done_;  // the client is gone: run once no task is left
    boost::asio::io_context* io_;
    std::map<std::string, std::shared_ptr<boost::asio::steady_timer>> ticking_;  // calls sending progress
    Lifetime lifetime_;
    RpcBinder<McpServer> bind_;  // last: its handlers use everything above
};

}  // namespace askhost::mcp
