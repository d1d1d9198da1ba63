// Claude Code on its stream-json control channel (`claude -p --input-format stream-json
// --output-format stream-json --verbose --permission-prompt-tool stdio`): its own AskUserQuestion
// arrives as a can_use_tool request and is answered with updatedInput.answers; other tools'
// permission requests become Allow / Deny / Always questions unless --allow-tools decides.
#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "claude_protocol.hpp"
#include "claude_tools.hpp"
#include "common/first_line.hpp"
#include "common/message_table.hpp"
#include "common/permission_question.hpp"
#include "common/tool_input.hpp"
#include "core/adapter.hpp"
#include "core/pending_asks.hpp"
#include "json/json_access.hpp"
#include "json/json_codec.hpp"

namespace askhost {
namespace {

// Whether `word` is in `list` (the option tables below: a few dozen words, looked at once per argv
// word; constant arrays, so nothing is built when askhost starts).
template <std::size_t N>
bool listed(const std::string_view (&list)[N], std::string_view word) {
    return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

using claude::kAskTool;

// Claude Code's options, as its command line parser reads them: which take a value, which take
// every following word. What is left is the prompt.
constexpr std::string_view kValueFlags[] = {"--agent",
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
constexpr std::string_view kOptionalValueFlags[] = {
    "-d", "--debug", "--from-pr", "--prompt-suggestions", "--remote-control", "-r", "--resume", "-w", "--worktree"};
constexpr std::string_view kListFlags[] = {"--add-dir", "--allowedTools",    "--allowed-tools",
                                           "--betas",   "--disallowedTools", "--disallowed-tools",
                                           "--file",    "--mcp-config",      "--tools"};
// Ours to set: the control channel.
constexpr std::string_view kReplacedFlags[] = {"--input-format", "--output-format", "--permission-prompt-tool"};

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
        if (listed(kReplacedFlags, name)) {
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
        if (listed(kValueFlags, a)) {
            if (i + 1 < argv.size()) out.push_back(argv[++i]);
        } else if (listed(kOptionalValueFlags, a)) {
            if (i + 1 < argv.size() && !argv[i + 1].empty() && argv[i + 1][0] != '-') out.push_back(argv[++i]);
        } else if (listed(kListFlags, a)) {
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
        messages_.on<claude::ControlRequest>(claude::kControlRequest, [this](const auto& r) { control_request(r); })
            .on<claude::Envelope>("control_cancel_request", [this](const auto& c) { open_.take(c.request_id); })
            .on<claude::ConversationMessage>("assistant", [this](const auto& m) { assistant(m.message); })
            .on<claude::ConversationMessage>("user", [this](const auto& m) { tool_results(m.message); })
            .on<claude::Result>("result", [this](const auto& r) { result(r); })
            .on<claude::System>("system", [this](const auto& s) { system(s); })
            .on<claude::ControlResponse>(claude::kControlResponse, [this](const auto& r) {
                if (r.response.subtype == "error") host_.log("claude: " + r.response.error);
            });
    }

    std::string_view name() const override { return "claude"; }

    void launching(std::vector<std::string>& argv) override { argv = claude_control_argv(argv, first_prompt_); }

    void started() override {
        send(claude::Initialize{"askhost_init"});
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
        send(claude::UserMessage{text});
        return true;
    }

    void stopping() override {
        if (!open_.empty() || busy_) send(claude::Interrupt{"askhost_interrupt_" + std::to_string(++next_id_)});
    }

    void finished() override { open_.take_all(); }

    void on_line(std::string_view line) override {
        rapidjson::Document doc;
        // Any depth here (on the heap), so that a request too deep is still answered below.
        if (json::parse(doc, line, json::no_depth_limit) || !doc.IsObject()) return pass_on(line);
        if (json::deeper_than(doc, json::max_depth)) return too_deep(doc);
        // stream_event, keep_alive and later additions carry nothing a person needs to read.
        if (messages_.dispatch(doc) == Dispatch::Untyped) pass_on(line);
    }

private:
    void pass_on(std::string_view line) { host_.output_line(Stream::Stdout, line); }

    void say(Stream s, const std::string& text) { host_.output_line(s, text); }

    template <class Message>
    void send(const Message& m) {
        host_.send(json::to_text(m));
    }

    void allow(const std::string& id, const std::string& updated_input) { send(claude::Allow{id, updated_input}); }

    void deny(const std::string& id, const std::string& message) { send(claude::Deny{id, message}); }

    // Copying or serialising its input (as every tool request does) would recurse as deep as it
    // nests: a request is denied, anything else noted and dropped.
    void too_deep(const rapidjson::Document& doc) {
        const std::string why = "nested deeper than " + std::to_string(json::max_depth) + " levels";
        claude::Envelope e;
        from_json(doc, e, json::Path(""));
        if (e.type == claude::kControlRequest && !e.request_id.empty()) {
            host_.log("claude: refused a control request " + why);
            return deny(e.request_id, "askhost: the request is " + why);
        }
        host_.log("claude: a " + (e.type.empty() ? std::string("message") : e.type + " message") + " " + why +
                  "; ignored");
    }

    void control_request(const claude::ControlRequest& r) {
        if (!r.request) return;
        const claude::ToolRequest& req = *r.request;
        const std::string& id = r.request_id;
        // Hooks and MCP messages are not ours to answer: say so, so Claude does not wait.
        if (req.subtype != "can_use_tool")
            return send(claude::ControlError{id, "askhost does not handle " + req.subtype});
        if (req.tool_name.empty()) return deny(id, "askhost: a can_use_tool request without a tool_name");
        // A sub-agent's call carries its agent_id (Claude Code 2.1): REQ-AUQ-005, it may not ask.
        if (claude::is_question_tool(req.tool_name) && !req.agent_id.empty()) {
            host_.log("claude: refused a question from sub-agent " + req.agent_id);
            return deny(id, kSubagentRefusal);
        }
        if (req.tool_name == kAskTool) ask_user_question(id, req.input_or_empty());
        else permission(id, req.tool_name, req.input_or_empty());
    }

    void ask_user_question(const std::string& id, const rapidjson::Value& input) {
        auto parsed = tool_ask_input(input, host_.profile());
        const std::string original = json::to_text(input);
        // Every answer given already: Claude's own input goes back as it came.
        if (auto* given = std::get_if<AskInput>(&parsed); given && !given->preset_answers.empty())
            return allow(id, original);
        ask_tool_input(open_, id, std::move(parsed), {}, [this, id, original](const Outcome& o, std::monostate) {
            switch (o.kind) {
                case OutcomeKind::Answered: return allow(id, claude::input_with_answers(original, o.answers));
                case OutcomeKind::Cancelled: return deny(id, declined_text(o.reason));
                case OutcomeKind::TimedOut: return deny(id, declined_text("no answer within the time limit"));
                case OutcomeKind::ConnectionLost: return deny(id, declined_text("the connection to the user was lost"));
                case OutcomeKind::Pending: return deny(id, pending_text(o.pending_file, o.open_questions));
                case OutcomeKind::Refused:
                    host_.log("claude: refused AskUserQuestion: " + o.error.message);
                    return deny(id, "Invalid AskUserQuestion input: " + o.error.message);
            }
        });
    }

    void permission(const std::string& id, const std::string& tool, const rapidjson::Value& input) {
        PermissionRequest req = claude::tool_permission_request(tool, input);
        const std::string original = json::to_text(input);
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

    void assistant(const claude::MessageBody& message) {
        busy_ = true;
        for (const auto& block : message.content) {
            if (block.type == "text") {
                say(Stream::Stdout, block.text);
            } else if (block.type == "tool_use" && block.name != kAskTool) {  // AskUserQuestion: shown as the question
                std::string what = block.input.value ? describe_tool_input(*block.input.value) : std::string();
                say(Stream::Stdout, "* " + block.name + (what.empty() ? "" : "(" + first_line(what, 120) + ")"));
            }
        }
    }

    void tool_results(const claude::MessageBody& message) {
        for (const auto& block : message.content)
            if (block.type == "tool_result")
                say(Stream::Stdout,
                    std::string("  -> ") + (block.is_error ? "error: " : "") + first_line(block.content.text));
    }

    void result(const claude::Result& r) {
        busy_ = false;
        if (r.is_error) say(Stream::Stderr, "claude: " + r.subtype + ": " + first_line(r.result));
        // One turn (see started): then Claude may exit.
        if (one_shot_) host_.close_input();
    }

    void system(const claude::System& s) {
        if (s.subtype == "init") {
            say(Stream::Stderr, "claude: session " + s.session_id + ", model " + s.model);
        } else if (s.subtype == "api_retry") {
            say(Stream::Stderr,
                "claude: model API retry " + (s.attempt ? std::to_string(*s.attempt) : "?") + " (" + s.error + ")");
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
    MessageTable messages_;
};

}  // namespace

void register_claude_adapter(AdapterRegistry& registry) {
    registry.add(adapter_info<ClaudeAdapter>(
        "claude", "Claude Code on its stream-json control channel (AskUserQuestion, tool permissions)", Profile::Strict,
        detects_program("claude"), {{&claude::kHookCommand, claude::run_hook}}));
}

}  // namespace askhost
