#include "mcp_server.hpp"

#include <array>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "json/json_access.hpp"
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
    bind_.method("tools/list", &McpServer::list_tools);
    bind_.method("tools/call", &McpServer::call_tool);
    bind_.notification("notifications/cancelled", &McpServer::cancelled);
}

McpServer::~McpServer() {
    lifetime_.end();
    close();
}

void McpServer::close() {
    boost::system::error_code ignored;  // the throwing cancel must not run in the destructor's path
    for (auto& [id, timer] : ticking_) timer->cancel(ignored);
    ticking_.clear();
    auto open = std::move(open_);
    open_.clear();
    for (auto& [id, cancel] : open)
        if (cancel) cancel();
}

void McpServer::initialize(const InitializeParams& p, Reply<InitializeResult> reply) {
    if (!p.client_name.empty()) client_name_ = p.client_name;
    client_elicits_ = p.elicits;
    reply({negotiate_version(p.protocol_version)});
}

void McpServer::ping(const json::Ignored&, Reply<json::EmptyObject> reply) { reply({}); }

void McpServer::list_tools(const json::Ignored&, Reply<json::RawJson> reply) {
    static const json::RawJson tools{tools_list_json()};  // the same text every time
    reply(tools);
}

void McpServer::cancelled(const CancelledParams& p) {
    auto it = open_.find(p.request_id.json);
    if (it == open_.end()) return;
    auto cancel = std::move(it->second);
    open_.erase(it);
    if (cancel) cancel();
}

void McpServer::call_tool(const CallToolParams& p, Reply<json::RawJson> reply) {
    if (p.name != kToolName && p.name != kToolAlias)
        return reply.error(rpc_error::invalid_params, "Unknown tool: " + p.name);
    static const rapidjson::Value empty(rapidjson::kObjectType);
    const rapidjson::Value& args = p.arguments.value && !p.arguments.value->IsNull() ? *p.arguments.value : empty;
    auto parsed = parse_ask_input(args, Profile::Strict);
    if (std::holds_alternative<AskInput>(parsed) && p.meta.from_subagent)
        parsed = Refusal{"subagent", "subagent", kSubagentRefusal};
    // Claude Code marks nothing in the call: its transcripts say whose tool_use it is.
    if (std::holds_alternative<AskInput>(parsed) && claude_transcripts && !p.meta.claude_tool_use_id.empty()) {
        const auto caller = claude_transcripts->caller_of(p.meta.claude_tool_use_id);
        if (caller == ClaudeTranscripts::Caller::Subagent) {
            parsed = Refusal{"subagent", "subagent", kSubagentRefusal};
        } else if (caller == ClaudeTranscripts::Caller::Unknown && io_ && claude_transcripts->session_written()) {
            return await_claude_caller(
                p.meta.claude_tool_use_id, std::chrono::steady_clock::now() + claude_transcript_wait,
                std::make_shared<Parsed<AskInput>>(std::move(parsed)), p.meta.progress_token, reply);
        }
    }
    answer_call(std::move(parsed), p.meta.progress_token, reply);
}

void McpServer::await_claude_caller(std::string tool_use_id, std::chrono::steady_clock::time_point deadline,
                                    const std::shared_ptr<Parsed<AskInput>>& parsed,
                                    std::optional<std::string> progress_token, Reply<json::RawJson> reply) {
    auto timer = std::make_shared<boost::asio::steady_timer>(*io_, std::chrono::milliseconds(50));
    timer->async_wait([this, timer, alive = lifetime_.token(), id = std::move(tool_use_id), deadline, parsed,
                       token = std::move(progress_token), reply](const boost::system::error_code& ec) mutable {
        if (ec || !alive) return;
        const auto caller = claude_transcripts->caller_of(id);
        if (caller == ClaudeTranscripts::Caller::Unknown && std::chrono::steady_clock::now() < deadline)
            return await_claude_caller(std::move(id), deadline, parsed, std::move(token), reply);
        if (caller == ClaudeTranscripts::Caller::Subagent) *parsed = Refusal{"subagent", "subagent", kSubagentRefusal};
        answer_call(std::move(*parsed), token, reply);
    });
}

void McpServer::answer_call(Parsed<AskInput> parsed, const std::optional<std::string>& progress_token,
                            const Reply<json::RawJson>& reply) {
    if (auto now = outcome_without_asking(parsed)) {
        if (now->kind == OutcomeKind::Refused && log_) log_("refused an ask_user_question call: " + now->error.message);
        const auto* asked = std::get_if<AskInput>(&parsed);
        return reply({tool_result_json(*now, asked ? asked->questions : std::vector<Question>{})});
    }
    auto input = std::get<AskInput>(std::move(parsed));
    Ask ask;
    ask.questions = std::move(input.questions);
    ask.metadata_json = std::move(input.metadata_json);
    ask.agent = client_name_;
    ask.profile = Profile::Strict;
    const std::string id = reply.id_json();
    open_[id] = {};
    auto stop_ticking = [this, id, alive = lifetime_.token()] {
        if (!alive) return;
        auto t = ticking_.find(id);
        if (t == ticking_.end()) return;
        t->second->cancel();
        ticking_.erase(t);
    };
    std::vector<Question> asked = ask.questions;  // copied first: ask is moved in the same call
    auto cancel = asker_.ask(
        std::move(ask), *this,
        [this, id, reply, stop_ticking, alive = lifetime_.token(), questions = std::move(asked)](const Outcome& o) {
            if (alive) open_.erase(id);
            stop_ticking();
            reply({tool_result_json(o, questions)});
        });
    auto it = open_.find(id);
    if (it == open_.end()) return;  // answered at once
    // A cancelled call is answered too: the client ignores a reply to what it cancelled.
    it->second = [cancel = std::move(cancel), reply, stop_ticking] {
        stop_ticking();
        if (cancel) cancel();
        reply.error(rpc_error::request_cancelled, "cancelled by the client");
    };
    // The person may take a while: say so where the client shows progress.
    if (io_ && progress_token) {
        ticking_[id] = std::make_shared<boost::asio::steady_timer>(*io_);
        tick(id, *progress_token, 1);
    }
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

std::function<void()> McpServer::elicit(const Ask& ask, OnOutcome reply) {
    auto done = std::make_shared<bool>(false);
    call<ElicitResult>(rpc_, "elicitation/create", json::RawJson{elicitation_params(ask)},
                       [ask, reply = std::move(reply), done, log = log_](CallResult<ElicitResult> result) {
                           if (*done) return;
                           *done = true;
                           if (!result) {
                               const std::string& why = result.error().message;
                               if (log) log("the client's elicitation failed: " + why);
                               reply(Outcome::cancelled("the client could not show the form: " + why));
                               return;
                           }
                           reply(outcome_from_elicitation(*result, ask));
                       });
    return [done] { *done = true; };
}

void McpServer::progress(const std::string& token_json, int step, std::string_view message) {
    if (token_json.empty()) return;
    rpc_.notify("notifications/progress", json::to_text(ProgressParams{token_json, step, std::string(message)}));
}

}  // namespace askhost::mcp
