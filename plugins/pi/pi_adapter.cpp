// pi in RPC mode (`pi --mode rpc`): JSON lines on stdio. Extension dialogs (extension_ui_request:
// select, input, confirm, editor) become questions; notify messages and the conversation become
// readable output. pi never closes a dialog itself: askhost closes one on its timeout, when the
// tool that opened it ends, or when the turn ends; after an abort every open dialog is cancelled.
#include <algorithm>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "common/first_line.hpp"
#include "common/message_table.hpp"
#include "core/adapter.hpp"
#include "core/pending_asks.hpp"
#include "json/json_access.hpp"
#include "json/json_codec.hpp"
#include "pi_protocol.hpp"

namespace askhost {
namespace {

// Whether `word` is in `list` (the option tables below: a few dozen words, looked at once per argv
// word; constant arrays, so nothing is built when askhost starts).
template <std::size_t N>
bool listed(const std::string_view (&list)[N], std::string_view word) {
    return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

constexpr const char* kKeep = "Keep it as it is";

constexpr std::string_view kValueFlags[] = {"--provider",
                                            "--model",
                                            "--api-key",
                                            "--system-prompt",
                                            "--append-system-prompt",
                                            "--mode",
                                            "--session",
                                            "--fork",
                                            "--session-dir",
                                            "--models",
                                            "--tools",
                                            "-t",
                                            "--thinking",
                                            "--extension",
                                            "-e",
                                            "--skill",
                                            "--prompt-template",
                                            "--theme",
                                            "--export"};

}  // namespace

// pi's argv in RPC mode; words that are not options are taken out as the first prompt.
std::vector<std::string> pi_rpc_argv(const std::vector<std::string>& argv, std::string& prompt) {
    std::vector<std::string> out;
    if (argv.empty()) return out;
    out.push_back(argv[0]);
    bool mode = false;
    prompt.clear();
    for (std::size_t i = 1; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a == "--print" || a == "-p") continue;  // RPC mode is not print mode
        if (a == "--mode") {
            mode = true;
            out.push_back(a);
            out.push_back("rpc");
            ++i;
            continue;
        }
        if (!a.empty() && a[0] == '-') {
            out.push_back(a);
            if (listed(kValueFlags, a) && i + 1 < argv.size()) out.push_back(argv[++i]);
            continue;
        }
        if (!a.empty() && a[0] == '@') {
            out.push_back(a);  // a file pi reads itself
            continue;
        }
        prompt += (prompt.empty() ? "" : " ") + a;
    }
    if (!mode) {
        out.push_back("--mode");
        out.push_back("rpc");
    }
    return out;
}

namespace {

class PiAdapter final : public AgentAdapter {
public:
    explicit PiAdapter(AdapterHost& host) : host_(host), dialogs_(host) {
        messages_.on<pi::UiRequest>("extension_ui_request", [this](const auto& r) { ui_request(r); })
            .on<json::Ignored>("agent_start", [this](const auto&) { streaming_ = true; })
            .on<json::Ignored>("agent_end", [this](const auto&) { agent_end(); })
            .on<pi::ToolExecution>("tool_execution_start", [this](const auto& t) { tool_started(t); })
            .on<pi::ToolExecution>("tool_execution_end", [this](const auto& t) { tool_ended(t); })
            .on<pi::MessageEnd>("message_end", [this](const auto& m) { message_end(m.message); })
            .on<pi::Response>("response", [this](const auto& r) {
                if (!r.success) say(Stream::Stderr, "pi: " + r.command + " failed: " + r.error);
            });
    }

    std::string_view name() const override { return "pi"; }

    void launching(std::vector<std::string>& argv) override { argv = pi_rpc_argv(argv, first_prompt_); }

    void started() override {
        // One turn when no editor can send another prompt (not --stdio); under --stdio a prompt on
        // the command line is the first of many, as --prompt is.
        one_shot_ = host_.settings().one_shot;
        if (!first_prompt_.empty()) return (void)prompt(first_prompt_);
        if (!host_.settings().one_shot) return;
        // askhost --prompt arrives right after the start; with none, nobody could ever prompt pi.
        host_.after(std::chrono::milliseconds(0), [this] {
            if (next_id_ > 0) return;
            host_.log("pi: no prompt: give one on the command line or with --prompt");
            host_.close_input();
        });
    }

    bool prompt(std::string_view text) override {
        send(pi::Prompt{"askhost-" + std::to_string(++next_id_), text, streaming_});
        return true;
    }

    void stopping() override {
        send(pi::Abort{"askhost-abort"});
        // pi may wait on a dialog it will never close: answer every one as cancelled.
        for (auto& [id, d] : dialogs_.take_all()) reply_cancelled(id);
    }

    void finished() override { dialogs_.take_all(); }

    void on_line(std::string_view line) override {
        rapidjson::Document doc;
        if (json::parse(doc, line, json::no_depth_limit) || !doc.IsObject()) return pass_on(line);
        // turn_*, message_start/update, tool_execution_update, queue and state events: nothing to show.
        if (messages_.dispatch(doc) == Dispatch::Untyped) pass_on(line);
    }

private:
    struct Dialog {
        std::string method;
        std::string prefill;  // editor
        std::string tool;     // the tool call that was running when it opened
    };

    void pass_on(std::string_view line) { host_.output_line(Stream::Stdout, line); }

    void say(Stream s, const std::string& text) { host_.output_line(s, text); }

    template <class Message>
    void send(const Message& m) {
        host_.send(json::to_text(m));
    }

    void reply_cancelled(const std::string& id) { send(pi::UiResponse::of_cancel(id)); }

    void ui_request(const pi::UiRequest& r) {
        const std::string& id = r.id;
        const std::string& method = r.method;
        if (method == "notify") {
            const std::string& kind = r.notify_type;
            say(kind == "error" || kind == "warning" ? Stream::Stderr : Stream::Stdout,
                "pi" + (kind.empty() || kind == "info" ? std::string() : " " + kind) + ": " + r.message);
            return;
        }
        if (method != "select" && method != "input" && method != "confirm" && method != "editor")
            return;  // fire and forget
        Question q;
        q.question = r.title.empty() ? "pi asks" : r.title;
        Dialog d;
        d.method = method;
        d.tool = running_tools_.empty() ? std::string() : running_tools_.back();
        if (method == "select") {
            std::set<std::string> seen;
            for (const auto& o : r.options.items)
                if (seen.insert(o).second) q.options.push_back({o, "", {}});
        } else if (method == "input") {
            // A free-text question: pi's placeholder has no place in the question model.
        } else if (method == "confirm") {
            if (!r.message.empty()) q.question += "\n\n" + r.message;
            q.options = {{"Yes", "", {}}, {"No", "", {}}};
        } else {
            d.prefill = r.prefill;
            if (!d.prefill.empty()) q.options.push_back({kKeep, first_line(d.prefill, 80), d.prefill});
        }
        AskInput input;
        input.questions.push_back(std::move(q));
        if (auto refusal = validate_questions(input.questions, Profile::Lenient)) {
            host_.log("pi: cannot show a " + method + " dialog: " + refusal->message);
            return reply_cancelled(id);
        }
        if (!dialogs_.ask(id, std::move(input), std::move(d),
                          [this, id](const Outcome& o, const Dialog& dialog) { answer(id, dialog, o); }))
            return;
        if (r.timeout && r.timeout->value > 0 && r.timeout->value < 1e12)
            host_.after(std::chrono::milliseconds(static_cast<long long>(r.timeout->value)),
                        [this, id] { dialogs_.take(id); });  // pi has given up on it by now
    }

    void answer(const std::string& id, const Dialog& d, const Outcome& o) {
        if (o.kind != OutcomeKind::Answered || o.answers.empty()) return reply_cancelled(id);
        const Answer& a = o.answers.front();
        std::string value;
        for (const auto& v : a.values) value += (value.empty() ? "" : ", ") + v;
        if (d.method == "confirm") {
            bool yes = a.selected_option ? *a.selected_option == "Yes"
                                         : (value == "yes" || value == "Yes" || value == "y" || value == "true");
            return send(pi::UiResponse::of_confirm(id, yes));
        }
        if (d.method == "editor" && a.selected_option && *a.selected_option == kKeep) value = d.prefill;
        send(pi::UiResponse::of_value(id, std::move(value)));
    }

    void agent_end() {
        streaming_ = false;
        dialogs_.take_all();
        if (one_shot_) host_.close_input();
    }

    void tool_started(const pi::ToolExecution& t) {
        running_tools_.push_back(t.tool_call_id);
        // Serialising recurses as deep as the value nests.
        std::string shown;
        if (const rapidjson::Value* args = t.args.value)
            shown =
                json::deeper_than(*args, json::max_depth) ? "(...)" : "(" + first_line(json::to_text(*args), 120) + ")";
        say(Stream::Stdout, "* " + t.tool_name + shown);
    }

    void tool_ended(const pi::ToolExecution& t) {
        std::erase(running_tools_, t.tool_call_id);
        if (!t.tool_call_id.empty())
            for (const auto& id : dialogs_.ids_where([&](const Dialog& d) { return d.tool == t.tool_call_id; }))
                dialogs_.take(id);
        std::string text;
        for (const auto& c : t.result.content) text += c.text;
        say(Stream::Stdout, std::string("  -> ") + (t.is_error ? "error: " : "") + first_line(text));
    }

    void message_end(const pi::AgentMessage& m) {
        if (m.role != "assistant" || !m.content) return;
        for (const auto& c : *m.content)
            if (c.type == "text" && !c.text.empty()) say(Stream::Stdout, c.text);
        if (!m.error_message.empty()) say(Stream::Stderr, "pi: " + m.error_message);
    }

    AdapterHost& host_;
    std::string first_prompt_;
    bool one_shot_ = false;
    bool streaming_ = false;
    unsigned long next_id_ = 0;
    std::vector<std::string> running_tools_;
    PendingAsks<Dialog> dialogs_;  // by extension_ui_request id
    MessageTable messages_;
};

}  // namespace

void register_pi_adapter(AdapterRegistry& registry) {
    registry.add(adapter_info<PiAdapter>("pi", "pi in RPC mode (extension dialogs: select, input, confirm, editor)",
                                         Profile::Lenient, detects_program("pi")));
}

}  // namespace askhost
