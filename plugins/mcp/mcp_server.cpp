#include "mcp_server.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <random>

#include <unistd.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/call_ticket.hpp"
#include "json/json_access.hpp"
#include "store/fs_util.hpp"
#include "transport/rpc_errors.hpp"

namespace askhost::mcp {

namespace {

constexpr std::string_view kDescription =
    "Ask the user one to four multiple-choice questions and wait for the answers. Use it when you need "
    "a decision only the user can make: preferences, requirements, an ambiguous instruction, or a choice "
    "between implementation approaches.\n"
    "\n"
    "Guidelines:\n"
    "- Batch related questions into one call (1-4 questions) instead of asking in several rounds.\n"
    "- Give each question 2-4 distinct options. The label is what the user picks; the description says "
    "what choosing it implies.\n"
    "- Put the option you recommend first and add \"(Recommended)\" to its label.\n"
    "- Set multiSelect to true when several options can apply together; phrase the question to match.\n"
    "- The user can always type an answer of their own instead, so do not add an \"Other\" option.\n"
    "- header is a very short tag shown above the question (at most 12 characters), e.g. \"Database\".\n"
    "- Phrase the choices yourself. This tool is for picking among concrete options you offer, not for "
    "open-ended, free-form clarification; ask that in your reply instead.\n"
    "- Do not ask what you can infer from the code, the conversation or earlier answers.\n"
    "- In plan mode, use it to clarify requirements or to choose between approaches before you finalize "
    "the plan. Do not use it to ask whether the plan is approved; that is what the agent's own "
    "plan-approval step (exit_plan_mode) is for.";

// The reference implementation's schema (1-4 questions, 2-4 options, header at most 12), as askhost
// accepts it: an option's description is optional (REQ-AUQ-004) and metadata takes any members.
constexpr std::string_view kInputSchema =
    R"({"type":"object","required":["questions"],"additionalProperties":false,"properties":{
"questions":{"type":"array","minItems":1,"maxItems":4,"description":"Questions to ask the user. Provide 1-4 multiple-choice questions in one batch.","items":{"type":"object","required":["question","header","options"],"additionalProperties":false,"properties":{
"question":{"type":"string","description":"The full question shown to the user. Keep it clear and specific; if multiSelect is true, phrase it as a multi-select question."},
"header":{"type":"string","maxLength":12,"description":"Very short chip/tag label for the question (max 12 chars)."},
"options":{"type":"array","minItems":2,"maxItems":4,"description":"Available choices for this question. Provide 2-4 distinct options; they should be mutually exclusive unless multiSelect is true.","items":{"type":"object","required":["label"],"additionalProperties":false,"properties":{
"label":{"type":"string","description":"Short display text for the option. This is what the user selects."},
"description":{"type":"string","description":"Explanation of what the option means or what choosing it implies."},
"preview":{"type":"string","description":"Optional preview content (markdown or a small HTML fragment) shown alongside the choice."}}}},
"multiSelect":{"type":"boolean","description":"Set to true to allow the user to select multiple options for this question instead of just one."}}}},
"answers":{"type":"object","description":"Optional pre-supplied answers keyed by question text. Values may be a single string or an array of strings for multi-select questions."},
"annotations":{"type":"object","description":"Optional per-question annotation data keyed by question text, such as selected preview text or free-form user notes."},
"metadata":{"type":"object","additionalProperties":true,"description":"Optional metadata forwarded to the host with the question. Not displayed to the user.","properties":{"source":{"type":"string","description":"Optional identifier describing why this question was asked."}}}}})";

// A tools/call result: one text content block, then structuredContent when `structured` writes its
// members, then isError. Every result of this tool has this shape.
std::string tool_result(const std::string& text, bool is_error,
                        const std::function<void(JsonWriter&)>& structured = {}) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    w.Key("content");
    w.StartArray();
    w.StartObject();
    w.Key("type");
    w.String("text");
    w.Key("text");
    w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    w.EndObject();
    w.EndArray();
    if (structured) {
        w.Key("structuredContent");
        w.StartObject();
        structured(w);
        w.EndObject();
    }
    w.Key("isError");
    w.Bool(is_error);
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize());
}

std::string error_result(const std::string& text) { return tool_result(text, true); }

void write_text(JsonWriter& w, const char* key, const std::string& v) {
    w.Key(key);
    w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
}

// The questions as the reference's result echoes them (its schema: description always there).
void write_questions(JsonWriter& w, const std::vector<Question>& questions, bool previews) {
    json::write_objects(w, "questions", questions, [&](const Question& q) {
        write_text(w, "question", q.question);
        write_text(w, "header", q.header);
        json::write_objects(w, "options", q.options, [&](const Option& o) {
            write_text(w, "label", o.label);
            write_text(w, "description", o.description);
            if (o.preview && previews) write_text(w, "preview", *o.preview);
        });
        w.Key("multiSelect");
        w.Bool(q.multi_select);
    });
}

std::string answered_result(const Outcome& outcome, const std::vector<Question>& questions, bool previews) {
    return tool_result(model_text(outcome.answers), false, [&](JsonWriter& w) {
        if (!questions.empty()) write_questions(w, questions, previews);
        write_answers_map(w, outcome.answers);
    });
}

std::string declined(std::string_view why) { return error_result(declined_text(why)); }

}  // namespace

std::string negotiate_version(std::string_view requested) {
    for (auto v : kProtocolVersions)
        if (v == requested) return std::string(v);
    return std::string(kProtocolVersions[0]);
}

std::string_view tool_description() { return kDescription; }

namespace {

// The tools/list result is the same text in every session: written here at compile time (the
// description escaped, the schema's line breaks left out), so a session's start builds nothing.
constexpr std::string_view kListHead = R"({"tools":[{"name":")";
constexpr std::string_view kListTitle = R"(","title":"Ask the user","description":")";
constexpr std::string_view kListSchema = R"(","inputSchema":)";
constexpr std::string_view kListTail =
    R"(,"annotations":{"readOnlyHint":true,"destructiveHint":false,"openWorldHint":false}}]})";

// `put(c)` for each byte of the tools/list text; the description holds no control character but
// line breaks.
template <class Put>
constexpr void write_tools_list(Put put) {
    for (std::string_view part : {kListHead, kToolName, kListTitle}) {
        for (char c : part) put(c);
    }
    for (char c : kDescription) {
        if (c == '\n') {
            put('\\');
            put('n');
            continue;
        }
        if (c == '"' || c == '\\') put('\\');
        put(c);
    }
    for (char c : kListSchema) put(c);
    for (char c : kInputSchema) {
        if (c != '\n') put(c);
    }
    for (char c : kListTail) put(c);
}

constexpr std::size_t tools_list_size() {
    std::size_t n = 0;
    write_tools_list([&n](char) { ++n; });
    return n;
}

constexpr auto kToolsList = [] {
    std::array<char, tools_list_size()> text{};
    std::size_t i = 0;
    write_tools_list([&](char c) { text[i++] = c; });
    return text;
}();

}  // namespace

std::string tools_list_json() { return std::string(kToolsList.data(), kToolsList.size()); }

std::string tool_result_json(const Outcome& outcome, const std::vector<Question>& questions) {
    switch (outcome.kind) {
        case OutcomeKind::Answered: {
            std::string result = answered_result(outcome, questions, true);
            // The options' previews are the asker's own text: the first thing to leave out.
            if (result.size() > Limits::max_result_bytes) result = answered_result(outcome, questions, false);
            if (result.size() > Limits::max_result_bytes)
                return error_result("The answers are " + std::to_string(result.size()) + " bytes, more than the " +
                                    std::to_string(Limits::max_result_bytes) +
                                    "-byte limit for this tool's result; ask again for shorter answers.");
            return result;
        }
        case OutcomeKind::Cancelled: return declined(outcome.reason);
        case OutcomeKind::TimedOut: return declined("no answer within the time limit");
        case OutcomeKind::ConnectionLost: return declined("the connection to the user was lost");
        case OutcomeKind::Pending:
            return tool_result(pending_text(outcome.pending_file, outcome.open_questions), false, [&](JsonWriter& w) {
                w.Key("pendingFile");
                w.String(outcome.pending_file.data(), static_cast<rapidjson::SizeType>(outcome.pending_file.size()));
            });
        case OutcomeKind::Refused:
            if (outcome.error.code == "subagent") return error_result(outcome.error.message);
            return error_result("Invalid ask_user_question input: " + outcome.error.message);
    }
    return declined({});
}

namespace {

// The members every result of the 2026-07-28 era begins with: its type, and who answers.
std::string modern_head(std::string_view result_type) {
    return R"("resultType":)" + json::to_text(result_type) + R"(,"_meta":{)" + server_info_member() + "},";
}

// A result of the 2026-07-28 era says it is complete (every result of askhost's is an object).
std::string complete(std::string result, bool modern) {
    if (!modern || result.size() < 2 || result.front() != '{') return result;
    std::string head = modern_head("complete");
    if (result == "{}") head.pop_back();  // no member follows
    result.insert(1, head);
    return result;
}

// The inputRequests object: the elicitation form under `key`.
std::string input_requests(std::string_view key, const Ask& ask) {
    std::string out = "{" + json::to_text(key) + R"(:{"method":"elicitation/create","params":)";
    out += elicitation_params(ask);
    out += "}}";
    return out;
}

// A call of 2026-07-28 that needs the person: the elicitation form as its one input request, and
// the state its retry echoes.
std::string input_required(const Ask& ask, const std::string& state) {
    std::string out = "{" + modern_head("input_required") + R"("inputRequests":)";
    out += input_requests(kInputKey, ask);
    out += R"(,"requestState":)";
    out += json::to_text(state);
    out += '}';
    return out;
}

constexpr std::string_view kTaskWaiting = "waiting for the user's answer";
constexpr std::string_view kTaskInForm = "waiting for the user's answer in the client's form";

// An empty result of 2026-07-28 (tasks/update's and tasks/cancel's acknowledgement).
json::RawJson complete_empty() { return {complete("{}", true)}; }

// The call's questions as ask_user_question's arguments, to ask them again from a task's record.
std::string ask_arguments_json(const Ask& ask) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    write_questions(w, ask.questions, true);
    if (!ask.metadata_json.empty()) {
        w.Key("metadata");
        w.RawValue(ask.metadata_json.data(), ask.metadata_json.size(), rapidjson::kObjectType);
    }
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize());
}

Ask ask_of(AskInput input, const std::string& client_name) {
    Ask ask;
    ask.questions = std::move(input.questions);
    ask.metadata_json = std::move(input.metadata_json);
    ask.agent = client_name;
    ask.profile = Profile::Strict;
    return ask;
}

// An opaque, unguessable requestState: 128 random bits, in hex.
std::string new_request_state() {
    std::random_device random;
    std::string out;
    for (int i = 0; i < 4; ++i) {
        char part[9];
        std::snprintf(part, sizeof part, "%08x", static_cast<unsigned>(random()));
        out += part;
    }
    return out;
}

bool known_version(std::string_view v) {
    if (v == kModernVersion) return true;
    for (auto legacy : kProtocolVersions)
        if (v == legacy) return true;
    return false;
}

std::vector<std::string> supported_versions() {
    std::vector<std::string> out{std::string(kModernVersion)};
    for (auto v : kProtocolVersions) out.emplace_back(v);
    return out;
}

}  // namespace

McpServer::McpServer(RpcEndpoint& rpc, McpAsker& asker, Log log, boost::asio::io_context* io)
    : rpc_(rpc), asker_(asker), log_(std::move(log)), io_(io), bind_(rpc, *this) {
    // MCP forbids reusing an id in a session. Taking it again would orphan the open call (its
    // question could no longer be cancelled); the newcomer is refused, the open call goes on.
    bind_.gate = [this](std::string_view, const Responder& r) -> std::optional<RpcError> {
        if (!open_.count(r.id_json())) return std::nullopt;
        return RpcError{rpc_error::invalid_request,
                        "request id already in use: " + r.id_json() + " is a tools/call still waiting for its answer"};
    };
    bind_.not_found = "Method not found: ";
    bind_.method("initialize", &McpServer::initialize);
    bind_.method("ping", &McpServer::ping);
    bind_.method("server/discover", &McpServer::discover);
    bind_.method("tools/list", &McpServer::list_tools);
    bind_.method("tools/call", &McpServer::call_tool);
    bind_.method("tasks/get", &McpServer::get_task);
    bind_.method("tasks/update", &McpServer::update_task);
    bind_.method("tasks/cancel", &McpServer::cancel_task);
    bind_.notification("notifications/cancelled", &McpServer::cancelled);
    rpc_.on_request = [this, next = std::move(rpc_.on_request)](std::string_view method, const rapidjson::Value& params,
                                                                Responder r) {
        dispatch(method, params, std::move(r), next);
    };
}

McpServer::~McpServer() {
    lifetime_.end();
    close();
}

void McpServer::dispatch(std::string_view method, const rapidjson::Value& params, Responder r,
                         const RpcEndpoint::OnRequest& next) {
    request_ = request_meta(params);
    const std::string& version = request_.protocol_version;
    const std::string id = r.id_json();
    if (!version.empty() && !known_version(version) && method != "server/discover") {
        std::string names, data = R"({"supported":[)";
        for (const auto& v : supported_versions()) {
            names += (names.empty() ? "" : ", ") + v;
            data += (data.back() == '[' ? "\"" : ",\"") + v + "\"";
        }
        data += "],\"requested\":" + json::to_text(version) + "}";
        r = Responder{};  // answered here, with the error's data
        rpc_.send_message(
            jsonrpc::error(id, kUnsupportedProtocolVersion,
                           "Unsupported protocol version: " + version + " (askhost mcp speaks " + names + ")", data));
    } else if (version == kModernVersion && !request_.capabilities && method != "server/discover") {
        // The spec: a request without a required _meta field is malformed.
        r.error(rpc_error::invalid_params,
                "params._meta: io.modelcontextprotocol/clientCapabilities is required on every 2026-07-28 request "
                "(an empty object declares none)");
    } else if (version == kModernVersion && (method == "ping" || method == "logging/setLevel")) {
        r.error(rpc_error::method_not_found, "Method not found: " + std::string(method));  // gone in 2026-07-28
    } else if (method.rfind("tasks/", 0) == 0 && version != kModernVersion) {
        r.error(rpc_error::method_not_found, "Method not found: " + std::string(method) +
                                                 " (tasks are MCP 2026-07-28's tasks extension: send its _meta)");
    } else if (method.rfind("tasks/", 0) == 0 && !request_.tasks) {
        r = Responder{};  // answered here, with the error's data
        rpc_.send_message(
            jsonrpc::error(id, kMissingRequiredClientCapability,
                           "Missing required client capability: the tasks extension (io.modelcontextprotocol/tasks)",
                           R"({"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}})"));
    } else {
        // A reply goes out while this server lives; one the client cancelled is withheld (MCP).
        Responder reply(
            [this, alive = lifetime_.token()](std::string message) {
                if (alive) rpc_.send_message(std::move(message));
            },
            id);
        r = Responder{};
        next(method, params, std::move(reply));
    }
    request_ = {};
}

void McpServer::close() {
    boost::system::error_code ignored;  // the throwing cancel must not run in the destructor's path
    for (auto& [id, timer] : ticking_) timer->cancel(ignored);
    ticking_.clear();
    auto open = std::move(open_);
    open_.clear();
    auto parked = std::move(parked_);
    parked_.clear();
    for (auto& [id, call] : open) {
        call->asked.cancel();
        call->reply.error(rpc_error::request_cancelled, "cancelled by the client");
    }
    for (auto& [state, p] : parked) p.call->asked.cancel();
    if (task_watch_) task_watch_->cancel(ignored);
    task_watch_.reset();
    when_done_ = nullptr;
    auto tasks = std::move(tasks_);
    tasks_.clear();
    for (auto& [id, run] : tasks) run.asked.cancel();
}

std::string McpServer::asking_call() const { return asking_ ? asking_->id : std::string(); }

void McpServer::initialize(const InitializeParams& p, Reply<InitializeResult> reply) {
    if (!p.client_name.empty()) client_name_ = p.client_name;
    client_elicits_ = p.elicits;
    reply({negotiate_version(p.protocol_version)});
}

void McpServer::ping(const json::Ignored&, Reply<json::EmptyObject> reply) { reply({}); }

void McpServer::discover(const json::Ignored&, Reply<DiscoverResult> reply) {
    reply({supported_versions(), !tasks_dir.empty()});
}

void McpServer::list_tools(const json::Ignored&, Reply<json::RawJson> reply) {
    static const json::RawJson tools{tools_list_json()};  // the same text every time
    if (request_.protocol_version != kModernVersion) return reply(tools);
    // 2026-07-28 lists are cacheable: the list never changes while askhost runs.
    static const json::RawJson modern{"{" + modern_head("complete") + R"("ttlMs":86400000,"cacheScope":"public",)" +
                                      tools.text.substr(1)};
    reply(modern);
}

void McpServer::cancelled(const CancelledParams& p) {
    auto it = open_.find(p.request_id.json);
    if (it == open_.end()) return;
    auto call = std::move(it->second);
    open_.erase(it);
    stop_ticking(p.request_id.json);
    // MCP: the receiver of a cancel does not reply to the request it names.
    call->reply.withhold();
    call->asked.cancel();
}

void McpServer::call_tool(const CallToolParams& p, Reply<json::RawJson> reply) {
    Caller caller = caller_of_request();
    if (p.name != kToolName && p.name != kToolAlias)
        return reply.error(rpc_error::invalid_params, "Unknown tool: " + p.name);
    if (!p.request_state.empty()) return resume(p, reply);
    static const rapidjson::Value empty(rapidjson::kObjectType);
    const rapidjson::Value& args = p.arguments.value && !p.arguments.value->IsNull() ? *p.arguments.value : empty;
    auto parsed = parse_ask_input(args, Profile::Strict);
    if (std::holds_alternative<AskInput>(parsed) && p.meta.from_subagent)
        parsed = Refusal{"subagent", "subagent", kSubagentRefusal};
    // Claude Code marks nothing in the call: its transcripts say whose tool_use it is.
    if (std::holds_alternative<AskInput>(parsed) && claude_transcripts && !p.meta.claude_tool_use_id.empty()) {
        const auto who = claude_transcripts->caller_of(p.meta.claude_tool_use_id);
        if (who == claude::ClaudeTranscripts::Caller::Subagent) {
            parsed = Refusal{"subagent", "subagent", kSubagentRefusal};
        } else if (who == claude::ClaudeTranscripts::Caller::Unknown && io_ && claude_transcripts->session_written()) {
            return await_claude_caller(
                p.meta.claude_tool_use_id, std::chrono::steady_clock::now() + claude_transcript_wait,
                std::make_shared<Parsed<AskInput>>(std::move(parsed)), p.meta.progress_token, reply, std::move(caller));
        }
    }
    answer_call(std::move(parsed), p.meta.progress_token, reply, caller);
}

void McpServer::await_claude_caller(std::string tool_use_id, std::chrono::steady_clock::time_point deadline,
                                    const std::shared_ptr<Parsed<AskInput>>& parsed,
                                    std::optional<std::string> progress_token, Reply<json::RawJson> reply,
                                    Caller caller) {
    auto timer = std::make_shared<boost::asio::steady_timer>(*io_, std::chrono::milliseconds(50));
    timer->async_wait([this, timer, alive = lifetime_.token(), id = std::move(tool_use_id), deadline, parsed,
                       token = std::move(progress_token), reply,
                       caller = std::move(caller)](const boost::system::error_code& ec) mutable {
        if (ec || !alive) return;
        const auto who = claude_transcripts->caller_of(id);
        if (who == claude::ClaudeTranscripts::Caller::Unknown && std::chrono::steady_clock::now() < deadline)
            return await_claude_caller(std::move(id), deadline, parsed, std::move(token), reply, std::move(caller));
        if (who == claude::ClaudeTranscripts::Caller::Subagent)
            *parsed = Refusal{"subagent", "subagent", kSubagentRefusal};
        answer_call(std::move(*parsed), token, reply, caller);
    });
}

void McpServer::answer_call(Parsed<AskInput> parsed, const std::optional<std::string>& progress_token,
                            const Reply<json::RawJson>& reply, const Caller& caller) {
    if (auto now = outcome_without_asking(parsed)) {
        if (now->kind == OutcomeKind::Refused && log_) log_("refused an ask_user_question call: " + now->error.message);
        const auto* asked = std::get_if<AskInput>(&parsed);
        return reply(
            {complete(tool_result_json(*now, asked ? asked->questions : std::vector<Question>{}), caller.modern)});
    }
    Ask ask = ask_of(std::get<AskInput>(std::move(parsed)), caller.client_name);
    // A client of the tasks extension gets a task: the question may outlive this call.
    if (caller.tasks && io_ && !tasks_dir.empty() && start_task(ask, caller, reply)) return;
    const std::string id = reply.id_json();
    auto call = std::make_shared<Call>(Call{reply, id, caller, ask.questions, {}});
    open_[id] = call;
    asking_ = Asking{caller, id};
    call->asked.on_cancel(
        asker_.ask(std::move(ask), *this, call->asked.reply([this, call, alive = lifetime_.token()](const Outcome& o) {
            if (alive) {
                auto it = open_.find(call->id);
                if (it != open_.end() && it->second == call) open_.erase(it);
                stop_ticking(call->id);
            }
            call->reply({complete(tool_result_json(o, call->questions), call->caller.modern)});
        })));
    asking_.reset();
    auto it = open_.find(id);
    if (it == open_.end() || it->second != call) return;  // answered at once, or waiting for a retry
    // The person may take a while: say so where the client shows progress.
    if (io_ && progress_token) {
        ticking_[id] = std::make_shared<boost::asio::steady_timer>(*io_);
        tick(id, *progress_token, 1);
    }
}

void McpServer::resume(const CallToolParams& p, const Reply<json::RawJson>& reply) {
    auto it = parked_.find(p.request_state);
    if (it == parked_.end())
        return reply.error(rpc_error::invalid_params,
                           "requestState is not one askhost mcp gave for a question still open (altered, used "
                           "already, expired, or from another run): call ask_user_question again without it");
    const rapidjson::Value* responses = p.input_responses.value;
    const rapidjson::Value* answer = nullptr;
    if (responses && responses->IsObject()) {
        auto m = responses->FindMember(rapidjson::StringRef(kInputKey.data(), kInputKey.size()));
        if (m != responses->MemberEnd()) answer = &m->value;
    }
    // No answers yet: the same question again, under the same state.
    if (!answer) return reply({input_required(it->second.ask, it->first)});
    ElicitResult result;
    (void)from_json(*answer, result, json::Path("params.inputResponses.questions"));
    Parked parked = std::move(it->second);
    parked_.erase(it);
    if (parked.expiry) parked.expiry->cancel();
    parked.call->reply = reply;
    parked.call->id = reply.id_json();
    open_[parked.call->id] = parked.call;
    parked.answer(outcome_from_elicitation(result, parked.ask));
}

std::function<void()> McpServer::park(const std::shared_ptr<Call>& open_call, const Ask& ask, OnOutcome answer) {
    // open_call may be the very pointer open_ holds, which the erase below destroys: hold our own
    // (the copy clang-tidy would avoid is the fix for a use after free).
    const std::shared_ptr<Call> call = open_call;  // NOLINT(performance-unnecessary-copy-initialization)
    std::string state = new_request_state();
    while (parked_.count(state)) state = new_request_state();
    std::shared_ptr<boost::asio::steady_timer> expiry;
    if (io_) {
        // Nobody retries for a day: the question ends, withdrawn wherever it is, the state with it.
        expiry = std::make_shared<boost::asio::steady_timer>(*io_, expire_after);
        expiry->async_wait([this, state, alive = lifetime_.token()](const boost::system::error_code& ec) {
            if (ec || !alive) return;
            auto p = parked_.find(state);
            if (p == parked_.end()) return;
            auto expired = std::move(p->second.call);
            parked_.erase(p);
            if (log_) log_("a question waited for its retry (requestState) past --expire-after: withdrawn");
            expired->asked.cancel();
        });
    }
    parked_[state] = Parked{call, ask, std::move(answer), std::move(expiry)};
    auto it = open_.find(call->id);
    if (it != open_.end() && it->second == call) open_.erase(it);
    stop_ticking(call->id);
    call->reply({input_required(ask, state)});
    return [this, state, alive = lifetime_.token()] {
        if (alive) parked_.erase(state);
    };
}

void McpServer::stop_ticking(const std::string& id) {
    auto t = ticking_.find(id);
    if (t == ticking_.end()) return;
    boost::system::error_code ignored;
    t->second->cancel(ignored);
    ticking_.erase(t);
}

}  // namespace askhost::mcp

namespace askhost::mcp {

void McpServer::tick(const std::string& id, const std::string& token_json, int step) {
    auto t = ticking_.find(id);
    if (t == ticking_.end()) return;
    t->second->expires_after(progress_interval);
    t->second->async_wait([this, id, token_json, step, alive = lifetime_.token()](const boost::system::error_code& ec) {
        if (ec || !alive || !ticking_.count(id)) return;
        auto waited = std::chrono::duration_cast<std::chrono::seconds>(progress_interval * step).count();
        progress(token_json, step, "waiting for the user's answer (" + std::to_string(waited) + " s)");
        tick(id, token_json, step + 1);
    });
}

std::function<void()> McpServer::elicit(const Ask& ask, OnOutcome reply, const std::string& call_id) {
    if (call_id.rfind("task ", 0) == 0) return task_form(call_id.substr(5), ask, std::move(reply));
    if (!call_id.empty()) {
        auto it = open_.find(call_id);
        if (it != open_.end() && it->second->caller.modern) return park(it->second, ask, std::move(reply));
    }
    CallTicket form;  // the client is not told of a withdrawn form: its answer is dropped
    call<ElicitResult>(rpc_, "elicitation/create", json::RawJson{elicitation_params(ask)},
                       form.reply([ask, reply = std::move(reply), log = log_](Result<ElicitResult> result) {
                           if (!result) {
                               const std::string& why = result.error().message;
                               if (log) log("the client's elicitation failed: " + why);
                               reply(Outcome::cancelled("the client could not show the form: " + why));
                               return;
                           }
                           reply(outcome_from_elicitation(*result, ask));
                       }));
    return [form] { form.cancel(); };
}

void McpServer::progress(const std::string& token_json, int step, std::string_view message) {
    if (token_json.empty()) return;
    rpc_.notify("notifications/progress", json::to_text(ProgressParams{token_json, step, std::string(message)}));
}

}  // namespace askhost::mcp

// The tasks extension: a question that waits, held as a task (docs/mcp.md, "Tasks").
namespace askhost::mcp {

McpServer::Caller McpServer::caller_of_request() const {
    const bool modern = request_.protocol_version == kModernVersion;
    return Caller{modern, modern ? request_.elicits : client_elicits_,
                  modern && !request_.client_name.empty() ? request_.client_name : client_name_,
                  modern && request_.tasks};
}

bool McpServer::start_task(const Ask& ask, const Caller& caller, const Reply<json::RawJson>& reply) {
    TaskStore records(tasks_dir);
    const std::int64_t now = store::now_ms();
    records.sweep(now);
    TaskRecord r;
    r.id = TaskStore::new_id();
    r.created_ms = r.updated_ms = now;
    r.expires_ms = now + expire_after.count();
    r.ttl_ms = expire_after.count() + task_kept_after.count();
    r.status_message = kTaskWaiting;
    r.arguments = ask_arguments_json(ask);
    r.client_name = caller.client_name;
    r.owner_pid = ::getpid();
    r.owner_start = process_start(r.owner_pid);
    // Durable before it is handed out: a tasks/get for it must find it (the extension says so).
    if (auto e = records.create(r)) {
        if (log_) log_("no task for this call (" + e->message + "): it waits as a call does");
        return false;
    }
    reply({task_result_json(r, "task", task_poll_interval.count(), server_info_member())});
    run_task(r.id, ask, caller, r.expires_ms);
    return true;
}

void McpServer::run_task(const std::string& id, Ask ask, const Caller& caller, std::int64_t expires_ms) {
    TaskRun& run = tasks_[id];
    run.ask = ask;
    run.caller = caller;
    run.expires_ms = expires_ms;
    asking_ = Asking{caller, "task " + id};
    CallTicket asked = run.asked;  // a copy: run may be gone when the outcome comes at once
    asked.on_cancel(
        asker_.ask(std::move(ask), *this, asked.reply([this, id, alive = lifetime_.token()](const Outcome& o) {
            if (alive) finish_task(id, o);
        })));
    asking_.reset();
    auto it = tasks_.find(id);
    if (it == tasks_.end()) return;  // answered at once
    if (io_ && expires_ms > 0) {
        // Unanswered at expires_ms: withdrawn, and the task completes as a call that timed out.
        const auto left = std::chrono::milliseconds(std::max<std::int64_t>(0, expires_ms - store::now_ms()));
        it->second.expiry = std::make_shared<boost::asio::steady_timer>(*io_, left);
        it->second.expiry->async_wait([this, id, alive = lifetime_.token()](const boost::system::error_code& ec) {
            if (ec || !alive) return;
            auto t = tasks_.find(id);
            if (t == tasks_.end()) return;
            if (log_) log_("task " + id + ": no answer before --expire-after: withdrawn");
            t->second.asked.cancel();
            finish_task(id, Outcome::timed_out());
        });
    }
    if (!task_watch_) watch_tasks();
}

void McpServer::finish_task(const std::string& id, const Outcome& o) {
    auto it = tasks_.find(id);
    if (it == tasks_.end()) return;
    const std::string result = complete(tool_result_json(o, it->second.ask.questions), true);
    if (it->second.expiry) it->second.expiry->cancel();
    tasks_.erase(it);
    TaskStore(tasks_dir).update(id, [&](TaskRecord& r) {
        if (r.terminal()) return false;  // cancelled elsewhere first
        r.status = "completed";
        r.status_message = o.kind == OutcomeKind::Answered ? "answered" : "ended without an answer";
        r.result = result;
        r.input_requests.clear();
        r.updated_ms = store::now_ms();
        return true;
    });
    check_done();
}

std::function<void()> McpServer::task_form(const std::string& id, const Ask& ask, OnOutcome answer) {
    auto it = tasks_.find(id);
    if (it == tasks_.end()) return {};
    std::string key;
    TaskStore(tasks_dir).update(id, [&](TaskRecord& r) {
        if (r.terminal()) return false;
        ++r.input_round;  // a key is never used twice in a task's life
        key = std::string(kInputKey) + (r.input_round == 1 ? std::string() : "-" + std::to_string(r.input_round));
        r.status = "input_required";
        r.status_message = kTaskInForm;
        r.input_requests = input_requests(key, ask);
        r.updated_ms = store::now_ms();
        return true;
    });
    if (key.empty()) return {};
    it->second.form = std::move(answer);
    it->second.key = key;
    return [this, id, alive = lifetime_.token()] {
        if (!alive) return;
        auto t = tasks_.find(id);
        if (t != tasks_.end()) t->second.form = nullptr;
    };
}

std::optional<TaskRecord> McpServer::find_task(const std::string& id, const Reply<json::RawJson>& reply) {
    TaskStore records(tasks_dir);
    auto r = records.load(id);
    if (!r) {
        reply.error(rpc_error::invalid_params, "Failed to retrieve task: Task not found");
        return std::nullopt;
    }
    if (r->created_ms + r->ttl_ms < store::now_ms()) {
        records.remove(id);
        reply.error(rpc_error::invalid_params, "Failed to retrieve task: Task has expired");
        return std::nullopt;
    }
    return r;
}

void McpServer::adopt_if_orphaned(TaskRecord& r) {
    if (r.terminal() || tasks_.count(r.id) || !io_ || owner_alive(r)) return;
    const long me = ::getpid();
    const std::string start = process_start(me);
    bool adopted = false;
    TaskStore records(tasks_dir);
    auto now = records.update(r.id, [&](TaskRecord& t) {
        if (t.terminal() || owner_alive(t)) return false;  // another process was quicker
        t.owner_pid = me;
        t.owner_start = start;
        t.status = "working";
        t.status_message = kTaskWaiting;
        t.input_requests.clear();
        t.updated_ms = store::now_ms();
        adopted = true;
        return true;
    });
    if (!now) return;
    r = *now;
    if (!adopted) return;
    auto parsed = parse_ask_input(std::string_view(r.arguments), Profile::Strict);
    if (!std::holds_alternative<AskInput>(parsed)) {
        // A record that no longer reads as a question (edited by hand): nothing to ask again.
        if (auto failed = records.update(r.id, [](TaskRecord& t) {
                t.status = "failed";
                t.status_message = "the task's question could not be read back from its record";
                t.updated_ms = store::now_ms();
                return true;
            }))
            r = *failed;
        return;
    }
    if (r.expires_ms > 0 && store::now_ms() >= r.expires_ms) {
        // Its time ran out while no process held it: it ends as it would have.
        const auto input = std::get<AskInput>(std::move(parsed));
        const std::string result = complete(tool_result_json(Outcome::timed_out(), input.questions), true);
        if (auto ended = records.update(r.id, [&](TaskRecord& t) {
                t.status = "completed";
                t.status_message = "ended without an answer";
                t.result = result;
                t.updated_ms = store::now_ms();
                return true;
            }))
            r = *ended;
        return;
    }
    Caller caller = caller_of_request();
    if (caller.client_name.empty() || caller.client_name == client_name_) caller.client_name = r.client_name;
    if (log_) log_("task " + r.id + ": its askhost mcp is gone; asking its question again here");
    run_task(r.id, ask_of(std::get<AskInput>(std::move(parsed)), caller.client_name), caller, r.expires_ms);
    if (auto again = records.load(r.id)) r = *again;
}

void McpServer::get_task(const TaskParams& p, Reply<json::RawJson> reply) {
    auto r = find_task(p.task_id, reply);
    if (!r) return;
    adopt_if_orphaned(*r);
    reply({task_result_json(*r, "complete", task_poll_interval.count(), server_info_member())});
}

void McpServer::update_task(const TaskParams& p, Reply<json::RawJson> reply) {
    auto r = find_task(p.task_id, reply);
    if (!r) return;
    adopt_if_orphaned(*r);
    const std::string id = r->id;
    auto it = tasks_.find(id);
    const rapidjson::Value* responses = p.input_responses.value;
    // Only the form outstanding now is answered; other keys (old, unknown) are ignored, as the
    // extension says.
    if (it != tasks_.end() && it->second.form && responses && responses->IsObject()) {
        auto m = responses->FindMember(rapidjson::StringRef(it->second.key.data(), it->second.key.size()));
        if (m != responses->MemberEnd()) {
            ElicitResult result;
            (void)from_json(m->value, result, json::Path("params.inputResponses"));
            OnOutcome form = std::move(it->second.form);
            it->second.form = nullptr;
            const Ask ask = it->second.ask;
            form(outcome_from_elicitation(result, ask));
            // Still waiting (a form declined at once waits in askhost instead): no longer in the form.
            if (tasks_.count(id) && !tasks_[id].form)
                TaskStore(tasks_dir).update(id, [](TaskRecord& t) {
                    if (t.status != "input_required") return false;
                    t.status = "working";
                    t.status_message = kTaskWaiting;
                    t.input_requests.clear();
                    t.updated_ms = store::now_ms();
                    return true;
                });
        }
    }
    reply(complete_empty());
}

void McpServer::cancel_task(const TaskParams& p, Reply<json::RawJson> reply) {
    auto r = find_task(p.task_id, reply);
    if (!r) return;
    // Marked first: the owner, here or in another process, withdraws a question whose task ended.
    TaskStore(tasks_dir).update(r->id, [](TaskRecord& t) {
        if (t.terminal()) return false;
        t.status = "cancelled";
        t.status_message = "cancelled by the client";
        t.input_requests.clear();
        t.updated_ms = store::now_ms();
        return true;
    });
    auto it = tasks_.find(r->id);
    if (it != tasks_.end()) {
        const CallTicket asked = it->second.asked;
        tasks_.erase(it);
        asked.cancel();
    }
    reply(complete_empty());
    check_done();
}

void McpServer::watch_tasks() {
    if (!io_ || tasks_.empty()) {
        task_watch_.reset();
        return;
    }
    if (!task_watch_) task_watch_ = std::make_shared<boost::asio::steady_timer>(*io_);
    task_watch_->expires_after(task_watch_interval);
    task_watch_->async_wait(
        [this, alive = lifetime_.token(), timer = task_watch_](const boost::system::error_code& ec) {
            if (ec || !alive) return;
            TaskStore records(tasks_dir);
            std::vector<std::string> ended;
            for (const auto& [id, run] : tasks_) {
                auto r = records.load(id);
                if (!r || r->terminal()) ended.push_back(id);
            }
            for (const auto& id : ended) {
                auto it = tasks_.find(id);
                if (it == tasks_.end()) continue;
                const CallTicket asked = it->second.asked;
                tasks_.erase(it);
                asked.cancel();
            }
            check_done();
            watch_tasks();
        });
}

void McpServer::check_done() {
    if (!when_done_ || !tasks_.empty()) return;
    auto done = std::move(when_done_);
    when_done_ = nullptr;
    done();
}

void McpServer::client_gone(std::function<void()> done) {
    boost::system::error_code ignored;
    for (auto& [id, timer] : ticking_) timer->cancel(ignored);
    ticking_.clear();
    auto open = std::move(open_);
    open_.clear();
    auto parked = std::move(parked_);
    parked_.clear();
    for (auto& [id, call] : open) {
        call->asked.cancel();
        call->reply.error(rpc_error::request_cancelled, "cancelled by the client");
    }
    for (auto& [state, p] : parked) p.call->asked.cancel();
    // A question in the client's form has no face left: it waits in askhost instead.
    std::vector<std::string> in_form;
    for (const auto& [id, run] : tasks_)
        if (run.form) in_form.push_back(id);
    for (const auto& id : in_form) {
        auto it = tasks_.find(id);
        Ask ask = it->second.ask;
        Caller caller = it->second.caller;
        caller.elicits = false;
        const std::int64_t expires_ms = it->second.expires_ms;
        const CallTicket asked = it->second.asked;
        tasks_.erase(it);
        asked.cancel();
        TaskStore(tasks_dir).update(id, [](TaskRecord& t) {
            if (t.terminal()) return false;
            t.status = "working";
            t.status_message = kTaskWaiting;
            t.input_requests.clear();
            t.updated_ms = store::now_ms();
            return true;
        });
        run_task(id, std::move(ask), caller, expires_ms);
    }
    if (!tasks_.empty() && log_)
        log_("the client is gone; " + std::to_string(tasks_.size()) +
             " task(s) wait here for their answers (tasks/get from a new askhost mcp finds them)");
    when_done_ = std::move(done);
    check_done();
}

}  // namespace askhost::mcp
