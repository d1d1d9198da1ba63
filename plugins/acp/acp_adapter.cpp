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
#include "askhost_config.h"
#include "common/pending_asks.hpp"
#include "common/permission_question.hpp"
#include "core/adapter.hpp"
#include "elicitation.hpp"
#include "json/json_access.hpp"
#include "transport/jsonrpc.hpp"
#include "transport/rpc_errors.hpp"
#include "workspace_files.hpp"

namespace askhost {
namespace {

using Value = rapidjson::Value;

constexpr int kProtocolVersion = 1;
constexpr std::string_view kPermissionCancelled = R"({"outcome":{"outcome":"cancelled"}})";

using json::member;
using json::str;
using json::string_of;

void write_string(JsonWriter& w, std::string_view s) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }

std::string_view ltrim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    return s;
}

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
        rpc_.on_request = [this](std::string_view method, const Value& params, Responder r) {
            handle_request(method, params, std::move(r));
        };
        rpc_.on_notify = [this](std::string_view method, const Value& params) { handle_notification(method, params); };
        rpc_.on_problem = [this](std::string_view problem) { host_.log("acp: " + std::string(problem)); };
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

        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        w.StartObject();
        w.Key("protocolVersion");
        w.Int(kProtocolVersion);
        w.Key("clientCapabilities");
        w.StartObject();
        w.Key("fs");
        w.StartObject();
        w.Key("readTextFile");
        w.Bool(true);
        w.Key("writeTextFile");
        w.Bool(true);
        w.EndObject();
        w.Key("terminal");
        w.Bool(false);
        // Form elicitation: claude-agent-acp offers its AskUserQuestion tool only with it.
        w.Key("elicitation");
        w.StartObject();
        w.Key("form");
        w.StartObject();
        w.EndObject();
        w.EndObject();
        w.EndObject();
        w.Key("clientInfo");
        w.StartObject();
        w.Key("name");
        w.String("askhost");
        w.Key("version");
        w.String(ASKHOST_VERSION);
        w.EndObject();
        w.EndObject();
        rpc_.call("initialize", {buf.GetString(), buf.GetSize()},
                  [this](const Value* result, const RpcError* error) { initialized(result, error); });
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
        if (!session_id_.empty() && turn_running_) {
            rapidjson::StringBuffer buf;
            JsonWriter w(buf);
            w.StartObject();
            w.Key("sessionId");
            write_string(w, session_id_);
            w.EndObject();
            rpc_.notify("session/cancel", {buf.GetString(), buf.GetSize()});
        }
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

    static std::string error_text(const RpcError& error) {
        std::string message = error.message;
        if (error.code != 0) message += " (code " + std::to_string(error.code) + ")";
        return message.empty() ? std::string("an error without a message") : message;
    }

    // ---- the session -------------------------------------------------------------------------

    void initialized(const Value* result, const RpcError* error) {
        if (error) {
            fail("the agent refused initialize: " + error_text(*error));
            return;
        }
        if (const Value* v = member(*result, "protocolVersion"); v && v->IsInt() && v->GetInt() != kProtocolVersion)
            host_.log("acp: the agent speaks protocol version " + std::to_string(v->GetInt()) +
                      ", askhost version 1; going on");
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        w.StartObject();
        w.Key("cwd");
        write_string(w, cwd_);
        w.Key("mcpServers");
        w.StartArray();
        w.EndArray();
        w.EndObject();
        rpc_.call("session/new", {buf.GetString(), buf.GetSize()}, [this](const Value* result, const RpcError* error) {
            if (error) {
                std::string hint = error->code == acp_error::auth_required
                                       ? " (the agent wants you to log in first; run it once on its own)"
                                       : "";
                fail("the agent could not start a session: " + error_text(*error) + hint);
                return;
            }
            session_id_ = string_of(*result, "sessionId");
            if (session_id_.empty()) {
                fail("session/new: the agent's result has no sessionId");
                return;
            }
            if (queued_prompts_.empty() && host_.settings().one_shot) {
                host_.log("acp: nothing to ask the agent (askhost --prompt TEXT gives the first message); ending it");
                host_.close_input();
                return;
            }
            send_next_prompt();
        });
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
        const std::string text = std::move(queued_prompts_.front());
        queued_prompts_.pop_front();
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        w.StartObject();
        w.Key("sessionId");
        write_string(w, session_id_);
        w.Key("prompt");
        w.StartArray();
        w.StartObject();
        w.Key("type");
        w.String("text");
        w.Key("text");
        write_string(w, text);
        w.EndObject();
        w.EndArray();
        w.EndObject();
        turn_running_ = true;
        rpc_.call("session/prompt", {buf.GetString(), buf.GetSize()},
                  [this](const Value* result, const RpcError* error) {
                      turn_running_ = false;
                      if (error) {
                          show_line("[askhost] the prompt failed: " + error_text(*error));
                      } else {
                          const std::string reason = string_of(*result, "stopReason");
                          if (reason.empty() || reason == "end_turn") {
                              if (!line_start_) show("\n");
                          } else {
                              show_line("[turn ended: " + reason + "]");
                          }
                      }
                      send_next_prompt();
                      // Nobody can send another prompt: the conversation is over, the agent may exit.
                      if (!turn_running_ && host_.settings().one_shot) host_.close_input();
                  });
    }

    // ---- what the agent tells --------------------------------------------------------------

    void handle_notification(std::string_view method, const Value& params) {
        if (method == "session/update") {
            if (const Value* u = member(params, "update"); u && u->IsObject()) render_update(*u);
        } else if (method == "$/cancel_request") {
            // The agent gave up on one of its requests: close the question, answer the request.
            const Value* rid = member(params, "requestId");
            if (!rid) return;
            if (auto req = open_.take(to_json(*rid)))
                req->reply.error(rpc_error::request_cancelled, "cancelled by the agent");
        }
        // Other notifications (extensions, auth status) carry nothing for the person.
    }

    void render_update(const Value& u) {
        const std::string kind = string_of(u, "sessionUpdate");
        if (kind == "agent_message_chunk") {
            if (const Value* c = member(u, "content"); c && string_of(*c, "type") == "text")
                show(string_of(*c, "text"));
        } else if (kind == "tool_call" || kind == "tool_call_update") {
            const std::string id = string_of(u, "toolCallId");
            ToolCallView& view = tools_[id];
            if (std::string title = string_of(u, "title"); !title.empty()) view.title = title;
            const Value* raw = member(u, "rawInput");
            const bool has_input = raw && raw->IsObject() && raw->MemberCount() > 0;
            const std::string status = string_of(u, "status");
            // Announce once the call's real title is known (the first update often only says "Terminal").
            if (!view.announced &&
                (has_input || status == "in_progress" || status == "completed" || status == "failed")) {
                view.announced = true;
                show_line("* " + (view.title.empty() ? std::string("(untitled)") : view.title));
            }
            if (status == "completed" || status == "failed") {
                const std::string first = first_text_line(u);
                if (status == "failed") show_line("  -> failed" + (first.empty() ? "" : ": " + first));
                else show_line("  -> " + (first.empty() ? std::string("done") : first));
                tools_.erase(id);
            }
        } else if (kind == "plan") {
            const Value* entries = member(u, "entries");
            if (!entries || !entries->IsArray()) return;
            std::string text = "Plan:";
            for (const auto& e : entries->GetArray()) {
                const std::string st = string_of(e, "status");
                text += std::string("\n  ") +
                        (st == "completed"     ? "[x] "
                         : st == "in_progress" ? "[>] "
                                               : "[ ] ") +
                        string_of(e, "content");
            }
            show_line(text);
        }
        // Thoughts, the user's own message, commands, modes and usage are not shown.
    }

    // The first line of a tool call's first text content (its result), cut short.
    static std::string first_text_line(const Value& update) {
        const Value* content = member(update, "content");
        if (!content || !content->IsArray()) return {};
        for (const auto& c : content->GetArray()) {
            const Value* inner = member(c, "content");
            if (!inner || string_of(*inner, "type") != "text") continue;
            std::string text = string_of(*inner, "text");
            while (!text.empty() && (text.front() == '\n' || text.front() == '`')) text.erase(0, 1);
            text = text.substr(0, text.find('\n'));
            if (text.size() > 200) {
                std::size_t cut = 200;
                while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
                text = text.substr(0, cut) + "\xE2\x80\xA6";
            }
            return text;
        }
        return {};
    }

    // ---- what the agent asks -----------------------------------------------------------------

    struct OpenRequest {
        Responder reply;
        std::function<void(Responder&)> cancel;  // answers the agent "cancelled" (on session/cancel)
    };

    void handle_request(std::string_view method, const Value& params, Responder r) {
        if (open_.contains(r.id_json()))
            return r.error(rpc_error::invalid_request, "id " + r.id_json() + " is already waiting for an answer");
        if (method == "session/request_permission") request_permission(params, std::move(r));
        else if (method == "elicitation/create") elicit(params, std::move(r));
        else if (method == "fs/read_text_file") read_file(params, std::move(r));
        else if (method == "fs/write_text_file") write_file(params, std::move(r));
        else r.error(rpc_error::method_not_found, "askhost does not offer " + std::string(method));
    }

    // Asks the person; `answer` runs once with the outcome unless the request was withdrawn.
    void ask(Responder reply, AskInput input, std::function<void(const Outcome&, Responder&)> answer,
             std::function<void(Responder&)> cancel) {
        const std::string id_json = reply.id_json();
        open_.ask(id_json, std::move(input), {std::move(reply), std::move(cancel)},
                  [answer = std::move(answer)](const Outcome& o, OpenRequest req) { answer(o, req.reply); });
    }

    void cancel_open_requests() {
        for (auto& [id, req] : open_.take_all())
            if (req.cancel) req.cancel(req.reply);
    }

    void request_permission(const Value& params, Responder r) {
        const Value* call_v = member(params, "toolCall");
        const Value* options = member(params, "options");
        if (!call_v || !call_v->IsObject()) return r.error(rpc_error::invalid_params, "toolCall: expected an object");
        if (!options || !options->IsArray() || options->Empty())
            return r.error(rpc_error::invalid_params, "options: expected a non-empty array");
        auto req = std::make_shared<PermissionRequest>();
        std::size_t i = 0;
        for (const auto& o : options->GetArray()) {
            const std::string oid = string_of(o, "optionId");
            if (oid.empty())
                return r.error(rpc_error::invalid_params,
                               "options[" + std::to_string(i) + "].optionId: expected a non-empty string");
            req->choices.push_back({oid, string_of(o, "name"), parse_permission_kind(string_of(o, "kind")), ""});
            ++i;
        }
        // The tool's name: claude-agent-acp says it twice; other agents only give a kind.
        std::string tool;
        if (const Value* meta = member(*call_v, "_meta"))
            if (const Value* cc = member(*meta, "claudeCode")) tool = string_of(*cc, "toolName");
        if (tool.empty()) tool = string_of(*call_v, "name");
        const std::string kind = string_of(*call_v, "kind");
        req->tool = tool;
        const std::string id = string_of(*call_v, "toolCallId");
        req->title = string_of(*call_v, "title");
        if (req->title.empty() && tools_.count(id)) req->title = tools_[id].title;
        req->detail = permission_detail(*call_v, req->title);

        if (const std::string choice = automatic_choice(*req, kind); !choice.empty()) {
            const std::string_view why = policy_.reason(tool.empty() ? kind : tool);
            show_line("[askhost] allowed " + (tool.empty() ? kind : tool) + " (" +
                      std::string(why.empty() ? "--allow-tools" : why) + "): " + req->title);
            return r.result(selected(choice));
        }
        ask(
            std::move(r), permission_ask(*req),
            [this, req](const Outcome& o, Responder& reply) {
                PermissionDecision d = decide_permission(*req, o);
                if (d.cancelled()) return reply.result(kPermissionCancelled);
                if (!d.message.empty())
                    host_.log("acp: an ACP agent takes no message with a refusal; answered \"" + d.choice->label +
                              "\" (your text: " + d.message + ")");
                reply.result(selected(d.choice->id));
            },
            [](Responder& reply) { reply.result(kPermissionCancelled); });
    }

    std::string automatic_choice(const PermissionRequest& req, const std::string& kind) const {
        if (const PermissionChoice* c = policy_.automatic_choice(req)) return c->id;
        if (kind.empty() || !req.tool.empty()) return {};
        PermissionRequest by_kind = req;  // agents without tool names: --allow-tools edit,execute
        by_kind.tool = kind;
        const PermissionChoice* c = policy_.automatic_choice(by_kind);
        return c ? c->id : std::string();
    }

    static std::string permission_detail(const Value& call, const std::string& title) {
        std::string detail;
        if (const Value* raw = member(call, "rawInput"); raw && raw->IsObject()) {
            detail = describe_tool_input(*raw);
            if (detail == title) detail.clear();
            if (std::string why = string_of(*raw, "description"); !why.empty())
                detail += (detail.empty() ? "" : "; ") + why;
        }
        if (detail.empty())
            if (const Value* locs = member(call, "locations"); locs && locs->IsArray())
                for (const auto& l : locs->GetArray())
                    if (std::string p = string_of(l, "path"); !p.empty() && title.find(p) == std::string::npos)
                        detail += (detail.empty() ? "" : ", ") + p;
        return detail;
    }

    static std::string selected(const std::string& option_id) {
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        w.StartObject();
        w.Key("outcome");
        w.StartObject();
        w.Key("outcome");
        w.String("selected");
        w.Key("optionId");
        write_string(w, option_id);
        w.EndObject();
        w.EndObject();
        return {buf.GetString(), buf.GetSize()};
    }

    void elicit(const Value& params, Responder r) {
        auto parsed = acp::parse_elicitation_form(params, host_.profile());
        if (auto* refusal = std::get_if<Refusal>(&parsed)) {
            host_.log("acp: elicitation refused: " + refusal->message);
            return r.error(rpc_error::invalid_params, refusal->message);
        }
        auto form = std::make_shared<acp::ElicitationForm>(std::get<acp::ElicitationForm>(std::move(parsed)));
        AskInput input = form->input;
        ask(
            std::move(r), std::move(input),
            [form](const Outcome& o, Responder& reply) { reply.result(acp::elicitation_result_json(*form, o)); },
            [](Responder& reply) { reply.result(R"({"action":"cancel"})"); });
    }

    // ---- the agent's files -------------------------------------------------------------------

    static std::optional<std::size_t> count_of(const Value& params, const char* key) {
        const Value* v = member(params, key);
        if (!v || !v->IsUint64()) return std::nullopt;
        return static_cast<std::size_t>(v->GetUint64());
    }

    void read_file(const Value& params, Responder r) {
        const Value* path = member(params, "path");
        if (!path || !path->IsString()) return r.error(rpc_error::invalid_params, "path: expected a string");
        auto got = files_->read(str(*path), count_of(params, "line"), count_of(params, "limit"));
        if (auto* e = std::get_if<acp::FsError>(&got)) {
            host_.log("acp: fs/read_text_file refused: " + e->message);
            return r.error(e->code, e->message);
        }
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        w.StartObject();
        w.Key("content");
        write_string(w, std::get<std::string>(got));
        w.EndObject();
        r.result({buf.GetString(), buf.GetSize()});
    }

    void write_file(const Value& params, Responder r) {
        const Value* path = member(params, "path");
        const Value* content = member(params, "content");
        if (!path || !path->IsString()) return r.error(rpc_error::invalid_params, "path: expected a string");
        if (!content || !content->IsString()) return r.error(rpc_error::invalid_params, "content: expected a string");
        if (auto e = files_->write(str(*path), str(*content))) {
            host_.log("acp: fs/write_text_file refused: " + e->message);
            return r.error(e->code, e->message);
        }
        r.result("{}");
    }

    AdapterHost& host_;
    ToolPolicy policy_;
    std::optional<acp::WorkspaceFiles> files_;
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

void register_acp_adapter(AdapterRegistry& registry) {
    registry.add(adapter_info<AcpAdapter>("acp",
                                          "Agent Client Protocol (claude-agent-acp, gemini --acp, ...): elicitations "
                                          "and permission requests as questions",
                                          Profile::Lenient, detects_acp));
}

}  // namespace askhost
