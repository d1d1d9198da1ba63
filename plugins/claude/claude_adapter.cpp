// Claude Code on its stream-json control channel (`claude -p --input-format stream-json
// --output-format stream-json --verbose --permission-prompt-tool stdio`): its own AskUserQuestion
// arrives as a can_use_tool request and is answered with updatedInput.answers; other tools'
// permission requests become Allow / Deny / Always questions unless --allow-tools decides.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "claude_tools.hpp"
#include "common/first_line.hpp"
#include "common/pending_asks.hpp"
#include "common/permission_question.hpp"
#include "common/tool_input.hpp"
#include "core/adapter.hpp"
#include "json/json_access.hpp"
#include "transport/jsonrpc.hpp"

namespace askhost {
namespace {

using claude::kAskTool;
constexpr const char* kDeclined = "User declined to answer";

std::string text_of(const rapidjson::Value& content) {
    if (content.IsString()) return content.GetString();
    std::string out;
    if (content.IsArray())
        for (const auto& c : content.GetArray()) out += json::string_of(c, "text");
    return out;
}

// Claude Code's options, as its command line parser reads them: which take a value, which take
// every following word. What is left is the prompt.
const std::set<std::string> kValueFlags = {"--agent",
                                           "--agents",
                                           "--append-system-prompt",
                                           "--append-system-prompt-file",
                                           "--debug-file",
                                           "--effort",
                                           "--fallback-model",
                                           "--input-format",
                                           "--json-schema",
                                           "--max-budget-usd",
                                           "--max-turns",
                                           "--model",
                                           "-n",
                                           "--name",
                                           "--output-format",
                                           "--permission-mode",
                                           "--permission-prompt-tool",
                                           "--plugin-dir",
                                           "--plugin-url",
                                           "--remote-control-session-name-prefix",
                                           "--session-id",
                                           "--setting-sources",
                                           "--settings",
                                           "--system-prompt",
                                           "--system-prompt-file"};
const std::set<std::string> kOptionalValueFlags = {
    "-d", "--debug", "--from-pr", "--prompt-suggestions", "--remote-control", "-r", "--resume", "-w", "--worktree"};
const std::set<std::string> kListFlags = {"--add-dir", "--allowedTools",    "--allowed-tools",
                                          "--betas",   "--disallowedTools", "--disallowed-tools",
                                          "--file",    "--mcp-config",      "--tools"};
// Ours to set: the control channel.
const std::set<std::string> kReplacedFlags = {"--input-format", "--output-format", "--permission-prompt-tool"};

}  // namespace

// The argv that puts Claude Code on its control channel; a prompt given on the command line is
// taken out and returned in `prompt` (it is sent as the first user message).
std::vector<std::string> claude_control_argv(const std::vector<std::string>& argv, std::string& prompt) {
    std::vector<std::string> out;
    if (argv.empty()) return out;
    out.push_back(argv[0]);
    bool print = false, verbose = false;
    std::vector<std::string> words;
    for (std::size_t i = 1; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        std::string name = a.substr(0, a.find('='));
        bool inline_value = name.size() != a.size();
        if (a == "--") {
            for (++i; i < argv.size(); ++i) words.push_back(argv[i]);
            break;
        }
        if (kReplacedFlags.count(name)) {
            if (!inline_value) ++i;
            continue;
        }
        if (a == "-p" || a == "--print") print = true;
        if (a == "--verbose") verbose = true;
        out.push_back(a);
        if (a.empty() || a[0] != '-' || inline_value) {
            if (a.empty() || a[0] != '-') {
                out.pop_back();
                words.push_back(a);
            }
            continue;
        }
        if (kValueFlags.count(a)) {
            if (i + 1 < argv.size()) out.push_back(argv[++i]);
        } else if (kOptionalValueFlags.count(a)) {
            if (i + 1 < argv.size() && !argv[i + 1].empty() && argv[i + 1][0] != '-') out.push_back(argv[++i]);
        } else if (kListFlags.count(a)) {
            while (i + 1 < argv.size() && !argv[i + 1].empty() && argv[i + 1][0] != '-') out.push_back(argv[++i]);
        }
    }
    if (!print) out.push_back("-p");
    for (const char* f : {"--input-format", "stream-json", "--output-format", "stream-json"}) out.push_back(f);
    if (!verbose) out.push_back("--verbose");
    out.push_back("--permission-prompt-tool");
    out.push_back("stdio");
    prompt.clear();
    for (const auto& w : words) prompt += (prompt.empty() ? "" : " ") + w;
    return out;
}

namespace {

class ClaudeAdapter final : public AgentAdapter {
public:
    explicit ClaudeAdapter(AdapterHost& host) : host_(host), open_(host) {
        for (const auto& t : host_.settings().allow_tools) policy_.allow(t);
    }

    std::string_view name() const override { return "claude"; }

    void launching(std::vector<std::string>& argv) override { argv = claude_control_argv(argv, first_prompt_); }

    void started() override {
        send_control("askhost_init", R"({"subtype":"initialize","hooks":null})");
        // One turn when no editor can send another prompt (not --stdio); under --stdio a prompt on
        // the command line is the first of many, as --prompt is.
        one_shot_ = host_.settings().one_shot;
        if (!first_prompt_.empty()) prompt(first_prompt_);
        if (!first_prompt_.empty() || !host_.settings().one_shot) return;
        // askhost --prompt arrives right after the start; with none, nobody could ever prompt Claude.
        host_.after(std::chrono::milliseconds(0), [this] {
            if (prompted_) return;
            host_.log("claude: no prompt: give one on the command line or with --prompt");
            host_.close_input();
        });
    }

    bool prompt(std::string_view text) override {
        prompted_ = true;
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        w.StartObject();
        w.Key("type");
        w.String("user");
        w.Key("session_id");
        w.String("");
        w.Key("message");
        w.StartObject();
        w.Key("role");
        w.String("user");
        w.Key("content");
        w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
        w.EndObject();
        w.Key("parent_tool_use_id");
        w.Null();
        w.EndObject();
        host_.send(std::string_view(buf.GetString(), buf.GetSize()));
        return true;
    }

    void stopping() override {
        if (!open_.empty() || busy_)
            send_control("askhost_interrupt_" + std::to_string(++next_id_), R"({"subtype":"interrupt"})");
    }

    void finished() override { open_.take_all(); }

    void on_line(std::string_view line) override {
        rapidjson::Document doc;
        // Any depth here (on the heap), so that a request too deep is still answered below.
        if (json::parse(doc, line, json::no_depth_limit) || !doc.IsObject()) return pass_on(line);
        const std::string type = json::string_of(doc, "type");
        if (json::deeper_than(doc, json::max_depth)) return too_deep(doc, type);
        if (type == "control_request") return control_request(doc);
        if (type == "control_cancel_request") return (void)open_.take(json::string_of(doc, "request_id"));
        if (type == "assistant") return assistant(doc);
        if (type == "user") return tool_results(doc);
        if (type == "result") return result(doc);
        if (type == "system") return system(doc);
        if (type == "control_response") {
            auto r = doc.FindMember("response");
            if (r != doc.MemberEnd() && json::string_of(r->value, "subtype") == "error")
                host_.log("claude: " + json::string_of(r->value, "error"));
            return;
        }
        // stream_event, keep_alive and later additions carry nothing a person needs to read.
        if (type.empty()) pass_on(line);
    }

private:
    void pass_on(std::string_view line) { host_.output_line(Stream::Stdout, line); }

    void say(Stream s, const std::string& text) { host_.output_line(s, text); }

    // Copying or serialising its input (as every tool request does) would recurse as deep as it
    // nests: a request is denied, anything else noted and dropped.
    void too_deep(const rapidjson::Document& doc, const std::string& type) {
        const std::string why = "nested deeper than " + std::to_string(json::max_depth) + " levels";
        const std::string id = json::string_of(doc, "request_id");
        if (type == "control_request" && !id.empty()) {
            host_.log("claude: refused a control request " + why);
            return deny(id, "askhost: the request is " + why);
        }
        host_.log("claude: a " + (type.empty() ? std::string("message") : type + " message") + " " + why + "; ignored");
    }

    void send_control(const std::string& id, const std::string& request_json) {
        host_.send("{\"type\":\"control_request\",\"request_id\":" + json_quote(id) + ",\"request\":" + request_json +
                   "}");
    }

    void respond(const std::string& request_id, const std::string& response_json) {
        host_.send("{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":" +
                   json_quote(request_id) + ",\"response\":" + response_json + "}}");
    }

    void allow(const std::string& request_id, const std::string& updated_input_json) {
        respond(request_id, "{\"behavior\":\"allow\",\"updatedInput\":" + updated_input_json + "}");
    }

    void deny(const std::string& request_id, const std::string& message) {
        respond(request_id, "{\"behavior\":\"deny\",\"message\":" + json_quote(message) + "}");
    }

    void control_request(const rapidjson::Document& doc) {
        const std::string id = json::string_of(doc, "request_id");
        auto req = doc.FindMember("request");
        if (req == doc.MemberEnd() || !req->value.IsObject()) return;
        const std::string subtype = json::string_of(req->value, "subtype");
        if (subtype != "can_use_tool") {
            // Hooks and MCP messages are not ours to answer: say so, so Claude does not wait.
            host_.send("{\"type\":\"control_response\",\"response\":{\"subtype\":\"error\",\"request_id\":" +
                       json_quote(id) + ",\"error\":" + json_quote("askhost does not handle " + subtype) + "}}");
            return;
        }
        static const rapidjson::Value empty(rapidjson::kObjectType);
        auto in = req->value.FindMember("input");
        const rapidjson::Value& input = in != req->value.MemberEnd() ? in->value : empty;
        const std::string tool = json::string_of(req->value, "tool_name");
        if (tool.empty()) return deny(id, "askhost: a can_use_tool request without a tool_name");
        // A sub-agent's call carries its agent_id (Claude Code 2.1): REQ-AUQ-005, it may not ask.
        if (claude::is_question_tool(tool) && !json::string_of(req->value, "agent_id").empty()) {
            host_.log("claude: refused a question from sub-agent " + json::string_of(req->value, "agent_id"));
            return deny(id, kSubagentRefusal);
        }
        if (tool == kAskTool) ask_user_question(id, input);
        else permission(id, tool, input);
    }

    void ask_user_question(const std::string& id, const rapidjson::Value& input) {
        auto parsed = tool_ask_input(input, host_.profile());
        const std::string original = to_json(input);
        // Every answer given already: Claude's own input goes back as it came.
        if (auto* given = std::get_if<AskInput>(&parsed); given && !given->preset_answers.empty())
            return allow(id, original);
        ask_tool_input(open_, id, std::move(parsed), {}, [this, id, original](const Outcome& o, std::monostate) {
            switch (o.kind) {
                case OutcomeKind::Answered: return allow(id, claude::input_with_answers(original, o.answers));
                case OutcomeKind::Cancelled: return deny(id, kDeclined);
                case OutcomeKind::TimedOut:
                    return deny(id, std::string(kDeclined) + " (no answer within the time limit)");
                case OutcomeKind::ConnectionLost:
                    return deny(id, std::string(kDeclined) + " (the connection to the user was lost)");
                case OutcomeKind::Pending: return deny(id, pending_text(o.pending_file));
                case OutcomeKind::Refused:
                    host_.log("claude: refused AskUserQuestion: " + o.error.message);
                    return deny(id, "Invalid AskUserQuestion input: " + o.error.message);
            }
        });
    }

    void permission(const std::string& id, const std::string& tool, const rapidjson::Value& input) {
        PermissionRequest req = claude::tool_permission_request(tool, input);
        const std::string original = to_json(input);
        if (policy_.automatic_choice(req)) {
            say(Stream::Stderr, "[askhost] allowed " + tool + " (" + std::string(policy_.reason(tool)) + ")");
            return allow(id, original);
        }
        open_.ask(id, permission_ask(req), {}, [this, id, req, original](const Outcome& o, std::monostate) {
            PermissionDecision d = decide_permission(req, o);
            if (d.cancelled()) return deny(id, "The user did not allow " + req.tool);
            if (d.choice->kind == PermissionKind::AllowAlways) policy_.remember(req, *d.choice);
            if (d.choice->kind == PermissionKind::AllowOnce || d.choice->kind == PermissionKind::AllowAlways)
                return allow(id, original);
            deny(id,
                 d.message.empty() ? "The user denied " + req.tool : "The user denied " + req.tool + ": " + d.message);
        });
    }

    void assistant(const rapidjson::Document& doc) {
        busy_ = true;
        auto msg = doc.FindMember("message");
        if (msg == doc.MemberEnd() || !msg->value.IsObject()) return;
        auto content = msg->value.FindMember("content");
        if (content == msg->value.MemberEnd() || !content->value.IsArray()) return;
        for (const auto& block : content->value.GetArray()) {
            const std::string t = json::string_of(block, "type");
            if (t == "text") {
                say(Stream::Stdout, json::string_of(block, "text"));
            } else if (t == "tool_use") {
                const std::string name = json::string_of(block, "name");
                if (name == kAskTool) continue;  // shown as the question itself
                auto in = block.FindMember("input");
                std::string what = in != block.MemberEnd() ? describe_tool_input(in->value) : std::string();
                say(Stream::Stdout, "* " + name + (what.empty() ? "" : "(" + first_line(what, 120) + ")"));
            }
        }
    }

    void tool_results(const rapidjson::Document& doc) {
        auto msg = doc.FindMember("message");
        if (msg == doc.MemberEnd() || !msg->value.IsObject()) return;
        auto content = msg->value.FindMember("content");
        if (content == msg->value.MemberEnd() || !content->value.IsArray()) return;
        for (const auto& block : content->value.GetArray()) {
            if (json::string_of(block, "type") != "tool_result") continue;
            auto c = block.FindMember("content");
            std::string text = c != block.MemberEnd() ? text_of(c->value) : std::string();
            auto err = block.FindMember("is_error");
            bool is_error = err != block.MemberEnd() && err->value.IsBool() && err->value.GetBool();
            say(Stream::Stdout, std::string("  -> ") + (is_error ? "error: " : "") + first_line(text));
        }
    }

    void result(const rapidjson::Document& doc) {
        busy_ = false;
        auto err = doc.FindMember("is_error");
        if (err != doc.MemberEnd() && err->value.IsBool() && err->value.GetBool())
            say(Stream::Stderr,
                "claude: " + json::string_of(doc, "subtype") + ": " + first_line(json::string_of(doc, "result")));
        // One turn (see started): then Claude may exit.
        if (one_shot_) host_.close_input();
    }

    void system(const rapidjson::Document& doc) {
        const std::string subtype = json::string_of(doc, "subtype");
        if (subtype == "init") {
            say(Stream::Stderr,
                "claude: session " + json::string_of(doc, "session_id") + ", model " + json::string_of(doc, "model"));
        } else if (subtype == "api_retry") {
            auto n = doc.FindMember("attempt");
            say(Stream::Stderr,
                "claude: model API retry " +
                    (n != doc.MemberEnd() && n->value.IsInt() ? std::to_string(n->value.GetInt()) : "?") + " (" +
                    json::string_of(doc, "error") + ")");
        }
    }

    AdapterHost& host_;
    ToolPolicy policy_;
    std::string first_prompt_;
    bool one_shot_ = false;
    bool prompted_ = false;
    bool busy_ = false;
    unsigned long next_id_ = 0;
    PendingAsks<> open_;  // by can_use_tool request_id
};

}  // namespace

void register_claude_adapter(AdapterRegistry& registry) {
    registry.add(adapter_info<ClaudeAdapter>(
        "claude", "Claude Code on its stream-json control channel (AskUserQuestion, tool permissions)", Profile::Strict,
        detects_program("claude"), {{"hook", claude::run_hook}}));
}

}  // namespace askhost
