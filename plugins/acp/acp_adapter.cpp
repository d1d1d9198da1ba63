// The Agent Client Protocol, client side: askhost drives an ACP agent (claude-agent-acp, Gemini
// CLI --acp, ...) over newline-delimited JSON-RPC 2.0 on its stdio, and puts what the agent needs
// from the person (form elicitations, permission requests) in front of them as questions.
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <rapidjson/document.h>

#include "acp_errors.hpp"
#include "acp_protocol.hpp"
#include "askhost_config.h"
#include "common/permission_question.hpp"
#include "core/adapter.hpp"
#include "core/pending_asks.hpp"
#include "core/text/ascii.hpp"
#include "core/text/utf8.hpp"
#include "elicitation.hpp"
#include "json/json_access.hpp"
#include "transport/jsonrpc.hpp"
#include "transport/rpc_binder.hpp"
#include "transport/rpc_errors.hpp"
#include "workspace_files.hpp"

namespace askhost::acp {
namespace {

using Value = rapidjson::Value;

std::string_view ltrim(std::string_view s) { return ascii::trim_start(s, " \t\r"); }

// What a tool call looks like to the person, as the agent's updates arrive.
struct ToolCallView {
    std::string title;
    bool announced = false;
};

class AcpAdapter final : public AgentAdapter {
public:
    explicit AcpAdapter(AdapterHost& host) : host_(host), open_(host) {
        for (const auto& t : host_.settings().allow_tools) policy_.allow(t);
        rpc_.peer = "the agent";
        rpc_.max_depth = json::max_depth;
        rpc_.on_problem = [this](std::string_view problem) { host_.log("acp: " + std::string(problem)); };
        bind_protocol();
    }
    ~AcpAdapter() override {
        rpc_.abandon();  // the open requests go unanswered, as the agent goes
    }

    std::string_view name() const override { return "acp"; }

    void started() override {
        std::filesystem::path cwd = host_.working_directory();
        std::error_code ec;
        if (cwd.empty()) cwd = std::filesystem::current_path(ec);
        cwd = std::filesystem::absolute(cwd, ec).lexically_normal();
        if (cwd.has_relative_path() && cwd.filename().empty()) cwd = cwd.parent_path();  // no trailing '/'
        files_.emplace(cwd);
        cwd_ = cwd.string();

        InitializeParams hello;
        hello.client_info = {"askhost", ASKHOST_VERSION};
        call<InitializeResult>(rpc_, "initialize", hello,
                               [this](Result<InitializeResult> r) { initialized(std::move(r)); });
    }

    void on_line(std::string_view line) override {
        std::string_view t = ltrim(line);
        if (t.empty() || t.front() != '{') {
            pass_on(line);  // not protocol: the agent's own output
            return;
        }
        rapidjson::Document doc;
        // Any depth here (on the heap): the endpoint refuses a message too deep with an answer.
        if (json::parse(doc, line, json::no_depth_limit) || !doc.IsObject()) {
            host_.log("acp: the agent printed a line that is not JSON-RPC; shown as output");
            pass_on(line);
            return;
        }
        rpc_.receive(doc);
    }

    bool prompt(std::string_view text) override {
        queued_prompts_.emplace_back(text);
        if (failed_) host_.log("acp: the agent has no session (see above); the prompt is not sent");
        else send_next_prompt();
        return true;
    }

    void stopping() override {
        // ACP's way to end a turn; every open permission request must then be answered cancelled.
        if (!session_id_.empty() && turn_running_)
            rpc_.notify("session/cancel", json::to_text(CancelNotification{session_id_}));
        cancel_open_requests();
    }

    void finished() override {
        rpc_.abandon();    // nobody is left to answer, nor to wait for our calls
        open_.take_all();  // their asks are withdrawn
        queued_prompts_.clear();
    }

private:
    // ---- output ------------------------------------------------------------------------------

    void pass_on(std::string_view line) {
        std::string out(line);
        out.push_back('\n');
        show(out);
    }

    void show(std::string_view text) {
        if (text.empty()) return;
        host_.output(Stream::Stdout, text);
        line_start_ = text.back() == '\n';
    }

    // A line of its own, whatever the agent's streamed text left open.
    void show_line(const std::string& text) { show((line_start_ ? "" : "\n") + text + "\n"); }

    static std::string error_text(const Error& error) {
        std::string message = error.message;
        if (error.code != 0) message += " (code " + std::to_string(error.code) + ")";
        return message.empty() ? std::string("an error without a message") : message;
    }

    // ---- the session -------------------------------------------------------------------------

    void initialized(Result<InitializeResult> result) {
        if (!result) {
            fail("the agent refused initialize: " + error_text(result.error()));
            return;
        }
        if (result->protocol_version && *result->protocol_version != kProtocolVersion)
            host_.log("acp: the agent speaks protocol version " + std::to_string(*result->protocol_version) +
                      ", askhost version 1; going on");
        call<NewSessionResult>(rpc_, "session/new", NewSessionParams{cwd_}, [this](Result<NewSessionResult> result) {
            if (!result) return session_refused(result.error());
            session_id_ = result->session_id;
            if (queued_prompts_.empty() && host_.settings().one_shot) {
                host_.log(
                    "acp: nothing to ask the agent (askhost --prompt TEXT gives the "
                    "first message); ending it");
                host_.close_input();
                return;
            }
            send_next_prompt();
        });
    }

    void session_refused(const Error& error) {
        std::string hint = error.code == acp_error::auth_required
                               ? " (the agent wants you to log in first; run it once on its own)"
                               : "";
        fail("the agent could not start a session: " + error_text(error) + hint);
    }

    void fail(const std::string& why) {
        failed_ = true;
        host_.log("acp: " + why);
        show_line("[askhost] " + why);
        queued_prompts_.clear();
        if (host_.settings().one_shot) host_.close_input();
    }

    void send_next_prompt() {
        if (session_id_.empty() || turn_running_ || queued_prompts_.empty()) return;
        PromptParams params{session_id_, {{"text", std::move(queued_prompts_.front())}}};
        queued_prompts_.pop_front();
        turn_running_ = true;
        call<PromptResult>(rpc_, "session/prompt", params, [this](Result<PromptResult> result) {
            turn_running_ = false;
            if (!result) show_line("[askhost] the prompt failed: " + error_text(result.error()));
            else if (result->stop_reason.empty() || result->stop_reason == "end_turn") show(line_start_ ? "" : "\n");
            else show_line("[turn ended: " + result->stop_reason + "]");
            send_next_prompt();
            // Nobody can send another prompt: the conversation is over, the agent may exit.
            if (!turn_running_ && host_.settings().one_shot) host_.close_input();
        });
    }

    // ---- what the agent tells and asks -----------------------------------------------------

    void bind_protocol() {
        // An id may wait once: taking it again would orphan the open request's question.
        bind_.gate = [this](std::string_view, const Responder& r) -> std::optional<RpcError> {
            if (!open_.contains(r.id_json())) return std::nullopt;
            return RpcError{rpc_error::invalid_request, "id " + r.id_json() + " is already waiting for an answer"};
        };
        bind_.not_found = "askhost does not offer ";
        bind_.method("session/request_permission", &AcpAdapter::request_permission);
        bind_.method("elicitation/create", &AcpAdapter::elicit);
        bind_.method("fs/read_text_file", &AcpAdapter::read_text_file);
        bind_.method("fs/write_text_file", &AcpAdapter::write_text_file);
        bind_.notification("session/update", &AcpAdapter::session_update);
        bind_.notification("$/cancel_request", &AcpAdapter::cancel_request);
        // Other notifications (extensions, auth status) carry nothing for the person.
    }

    // The agent gave up on one of its requests: close the question, answer the request.
    void cancel_request(const CancelRequestParams& p) {
        if (auto req = open_.take(p.request_id.json))
            req->refuse(RpcError{rpc_error::request_cancelled, "cancelled by the agent"});
    }

    void session_update(const SessionNotification& n) {
        const SessionUpdate& u = n.update;
        if (u.kind == "agent_message_chunk") {
            if (u.message.type == "text") show(u.message.text);
        } else if (u.kind == "tool_call" || u.kind == "tool_call_update") {
            tool_call_update(u.tool);
        } else if (u.kind == "plan" && u.entries) {
            std::string text = "Plan:";
            for (const PlanEntry& e : *u.entries)
                text += std::string("\n  ") +
                        (e.status == "completed"     ? "[x] "
                         : e.status == "in_progress" ? "[>] "
                                                     : "[ ] ") +
                        e.content;
            show_line(text);
        }
        // Thoughts, the user's own message, commands, modes and usage are not shown.
    }

    void tool_call_update(const ToolCallUpdate& call) {
        ToolCallView& view = tools_[call.tool_call_id];
        if (!call.title.empty()) view.title = call.title;
        const Value* raw = call.raw_input.value;
        const bool has_input = raw && raw->IsObject() && raw->MemberCount() > 0;
        const std::string& status = call.status;
        // Announce once the call's real title is known (the first update often only says "Terminal").
        if (!view.announced && (has_input || status == "in_progress" || status == "completed" || status == "failed")) {
            view.announced = true;
            show_line("* " + (view.title.empty() ? std::string("(untitled)") : view.title));
        }
        if (status == "completed" || status == "failed") {
            const std::string first = first_text_line(call);
            if (status == "failed") show_line("  -> failed" + (first.empty() ? "" : ": " + first));
            else show_line("  -> " + (first.empty() ? std::string("done") : first));
            tools_.erase(call.tool_call_id);
        }
    }

    // The first line of a tool call's first text content (its result), cut short.
    static std::string first_text_line(const ToolCallUpdate& call) {
        for (const ToolCallContent& c : call.content) {
            if (c.content.type != "text") continue;
            std::string text = c.content.text;
            while (!text.empty() && (text.front() == '\n' || text.front() == '`')) text.erase(0, 1);
            text = text.substr(0, text.find('\n'));
            return utf8::cut(text, 200, "\xE2\x80\xA6");
        }
        return {};
    }

    // A request of the agent that waits for the person.
    struct OpenRequest {
        std::function<void()> cancel;                 // answers the agent "cancelled" (on session/cancel)
        std::function<void(const RpcError&)> refuse;  // answers it with an error ($/cancel_request)
    };

    // Asks the person; the agent gets answer(outcome), unless the request was withdrawn, and
    // `cancelled` on session/cancel.
    template <class Result>
    // NOLINTNEXTLINE(performance-unnecessary-value-param): `input` is moved; clang-tidy 14 misreads the template
    void ask(Reply<Result> reply, AskInput input, std::function<Result(const Outcome&)> answer, Result cancelled) {
        OpenRequest req{[reply, cancelled = std::move(cancelled)] { reply(cancelled); },
                        [reply](const RpcError& e) { reply.error(e); }};
        open_.ask(reply.id_json(), std::move(input), std::move(req),
                  [reply, answer = std::move(answer)](const Outcome& o, const OpenRequest&) { reply(answer(o)); });
    }

    void cancel_open_requests() {
        for (auto& [id, req] : open_.take_all()) req.cancel();
    }

    void request_permission(const RequestPermissionParams& p, Reply<PermissionOutcome> reply) {
        auto req = std::make_shared<PermissionRequest>();
        for (const PermissionOption& o : p.options)
            req->choices.push_back({o.option_id, o.name, parse_permission_kind(o.kind), ""});
        const ToolCallUpdate& call = p.tool_call;
        // The tool's name: claude-agent-acp says it twice; other agents only give a kind.
        req->tool = call.claude_tool_name.empty() ? call.name : call.claude_tool_name;
        req->title = call.title;
        if (auto known = tools_.find(call.tool_call_id); req->title.empty() && known != tools_.end())
            req->title = known->second.title;
        req->detail = permission_detail(call, req->title);
        if (const Value* raw = call.raw_input.value; raw && raw->IsObject()) fill_permission_fields(*req, *raw);
        // An edit without rawInput (Gemini CLI): its file and what it writes from the call's diff.
        for (const ToolCallContent& c : call.content)
            if (c.type == "diff" && req->content.empty() && !c.path.empty() &&
                (req->path.empty() || req->path == c.path)) {
                req->path = c.path;
                req->content = c.new_text;
            }
        for (const ToolCallLocation& l : call.locations)
            if (req->path.empty()) req->path = l.path;
        // A command without rawInput (Gemini CLI): the call's title is the command itself, whole,
        // and a text block beside it says where it runs and why ("[in src] (Build the docs)").
        // As a command it is shown whole in the faces' command box, not cut as a title line.
        if (req->command.empty() && call.kind == "execute" && !call.raw_input.value && !req->title.empty()) {
            req->command = req->title;
            for (const ToolCallContent& c : call.content)
                if (req->reason.empty() && c.type == "content" && c.content.type == "text")
                    req->reason = c.content.text;
        }
        // The agent's title is its own words for the call: the reason, unless it is the command.
        if (req->reason.empty() && req->title != req->command) req->reason = req->title;

        if (std::string choice = automatic_choice(*req, call.kind); !choice.empty()) {
            const std::string& tool = req->tool.empty() ? call.kind : req->tool;
            const std::string_view why = policy_.reason(tool);
            show_line("[askhost] allowed " + tool + " (" + std::string(why.empty() ? "--allow-tools" : why) +
                      "): " + req->title);
            return reply({std::move(choice)});
        }
        ask<PermissionOutcome>(std::move(reply), permission_ask(*req),
                               [this, req](const Outcome& o) -> PermissionOutcome {
                                   PermissionDecision d = decide_permission(*req, o);
                                   if (d.cancelled()) return {};
                                   if (!d.message.empty())
                                       host_.log("acp: an ACP agent takes no message with a refusal; answered \"" +
                                                 d.choice->label + "\" (your text: " + d.message + ")");
                                   return {d.choice->id};
                               },
                               {});
    }

    std::string automatic_choice(const PermissionRequest& req, const std::string& kind) const {
        if (const PermissionChoice* c = policy_.automatic_choice(req)) return c->id;
        if (kind.empty() || !req.tool.empty()) return {};
        PermissionRequest by_kind = req;  // agents without tool names: --allow-tools edit,execute
        by_kind.tool = kind;
        const PermissionChoice* c = policy_.automatic_choice(by_kind);
        return c ? c->id : std::string();
    }

    static std::string permission_detail(const ToolCallUpdate& call, const std::string& title) {
        std::string detail;
        if (const Value* raw = call.raw_input.value; raw && raw->IsObject()) {
            detail = describe_tool_input(*raw);
            if (detail == title) detail.clear();
            if (std::string why = json::string_of(*raw, "description"); !why.empty())
                detail += (detail.empty() ? "" : "; ") + why;
        }
        if (detail.empty())
            for (const ToolCallLocation& l : call.locations)
                if (!l.path.empty() && title.find(l.path) == std::string::npos)
                    detail += (detail.empty() ? "" : ", ") + l.path;
        return detail;
    }

    void elicit(const json::Borrowed& params, Reply<json::RawJson> reply) {
        auto parsed = parse_elicitation_form(*params.value, host_.profile());
        if (!parsed) {
            host_.log("acp: elicitation refused: " + parsed.error().message);
            return reply.error(rpc_error::invalid_params, parsed.error().message);
        }
        auto form = std::make_shared<ElicitationForm>(*std::move(parsed));
        AskInput input = form->input;
        ask<json::RawJson>(
            std::move(reply), std::move(input),
            [form](const Outcome& o) { return json::RawJson{elicitation_result_json(*form, o)}; },
            json::RawJson{R"({"action":"cancel"})"});
    }

    // ---- the agent's files -------------------------------------------------------------------

    static std::optional<std::size_t> count_of(const std::optional<Count>& c) {
        return c ? std::optional<std::size_t>(c->value) : std::nullopt;
    }

    void read_text_file(const ReadTextFileParams& p, Reply<ReadTextFileResult> reply) {
        auto got = files_->read(p.path, count_of(p.line), count_of(p.limit));
        if (!got) return refuse_file("fs/read_text_file", got.error(), reply);
        reply({*std::move(got)});
    }

    void write_text_file(const WriteTextFileParams& p, Reply<json::EmptyObject> reply) {
        if (auto e = files_->write(p.path, p.content)) return refuse_file("fs/write_text_file", *e, reply);
        reply({});
    }

    template <class Value>
    void refuse_file(std::string_view method, const Error& e, const Reply<Value>& reply) {
        host_.log("acp: " + std::string(method) + " refused: " + e.message);
        reply.error(e.code, e.message);
    }

    AdapterHost& host_;
    ToolPolicy policy_;
    std::optional<WorkspaceFiles> files_;
    std::string cwd_;
    // The agent's stdio: newline-delimited JSON-RPC (AdapterHost::send ends each line).
    RpcEndpoint rpc_{[this](const std::string& message) { host_.send(message); }};
    std::string session_id_;
    bool failed_ = false;
    bool turn_running_ = false;
    std::deque<std::string> queued_prompts_;
    PendingAsks<OpenRequest> open_;              // by the agent's request id (as JSON)
    std::map<std::string, ToolCallView> tools_;  // toolCallId -> how it was shown
    bool line_start_ = true;
    RpcBinder<AcpAdapter> bind_{rpc_, *this};  // the agent's requests and notifications, typed
};

// ACP agents askhost knows by their command line.
bool detects_acp(const std::vector<std::string>& argv) {
    if (argv.empty()) return false;
    const std::string prog = program_name(argv[0]);
    if (prog == "claude-agent-acp" || prog == "claude-code-acp" || prog == "codex-acp") return true;
    for (std::size_t i = 1; i < argv.size(); ++i) {
        if (prog == "gemini" && (argv[i] == "--acp" || argv[i] == "--experimental-acp")) return true;
        // node .../claude-agent-acp/dist/index.js, npx @agentclientprotocol/claude-agent-acp
        if ((prog == "node" || prog == "npx") && argv[i].find("claude-agent-acp") != std::string::npos) return true;
    }
    return false;
}

}  // namespace
}  // namespace askhost::acp

namespace askhost {

void register_acp_adapter(AdapterRegistry& registry) {
    registry.add(adapter_info<acp::AcpAdapter>("acp",
                                               "Agent Client Protocol (claude-agent-acp, gemini --acp, ...): "
                                               "elicitations and permission requests as questions",
                                               Profile::Lenient, acp::detects_acp));
}

}  // namespace askhost
