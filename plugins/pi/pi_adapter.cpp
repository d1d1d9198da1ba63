// pi in RPC mode (`pi --mode rpc`): JSON lines on stdio. Extension dialogs (extension_ui_request:
// select, input, confirm, editor) become questions; notify messages and the conversation become
// readable output. pi never closes a dialog itself: askhost closes one on its timeout, when the
// tool that opened it ends, or when the turn ends; after an abort every open dialog is cancelled.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "common/first_line.hpp"
#include "common/pending_asks.hpp"
#include "core/adapter.hpp"
#include "json/json_access.hpp"
#include "transport/jsonrpc.hpp"

namespace askhost {
namespace {

constexpr const char* kKeep = "Keep it as it is";

const std::set<std::string> kValueFlags = {"--provider",
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
            if (kValueFlags.count(a) && i + 1 < argv.size()) out.push_back(argv[++i]);
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
    explicit PiAdapter(AdapterHost& host) : host_(host), dialogs_(host) {}

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
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        w.StartObject();
        w.Key("id");
        const std::string id = "askhost-" + std::to_string(++next_id_);
        w.String(id.c_str());
        w.Key("type");
        w.String("prompt");
        w.Key("message");
        w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
        if (streaming_) {
            w.Key("streamingBehavior");  // pi refuses a prompt during a turn without it
            w.String("followUp");
        }
        w.EndObject();
        host_.send(std::string_view(buf.GetString(), buf.GetSize()));
        return true;
    }

    void stopping() override {
        host_.send("{\"id\":\"askhost-abort\",\"type\":\"abort\"}");
        // pi may wait on a dialog it will never close: answer every one as cancelled.
        for (auto& [id, d] : dialogs_.take_all()) reply_cancelled(id);
    }

    void finished() override { dialogs_.take_all(); }

    void on_line(std::string_view line) override {
        rapidjson::Document doc;
        if (json::parse(doc, line, json::no_depth_limit) || !doc.IsObject()) return pass_on(line);
        const std::string type = json::string_of(doc, "type");
        if (type == "extension_ui_request") return ui_request(doc);
        if (type == "agent_start") {
            streaming_ = true;
            return;
        }
        if (type == "agent_end") {
            streaming_ = false;
            dialogs_.take_all();
            if (one_shot_) host_.close_input();
            return;
        }
        if (type == "tool_execution_start") {
            running_tools_.push_back(json::string_of(doc, "toolCallId"));
            auto args = doc.FindMember("args");
            // Serialising recurses as deep as the value nests.
            std::string shown;
            if (args != doc.MemberEnd())
                shown = json::deeper_than(args->value, json::max_depth)
                            ? "(...)"
                            : "(" + first_line(to_json(args->value), 120) + ")";
            say(Stream::Stdout, "* " + json::string_of(doc, "toolName") + shown);
            return;
        }
        if (type == "tool_execution_end") return tool_ended(doc);
        if (type == "message_end") return message_end(doc);
        if (type == "response") {
            auto ok = doc.FindMember("success");
            if (ok != doc.MemberEnd() && ok->value.IsBool() && !ok->value.GetBool())
                say(Stream::Stderr,
                    "pi: " + json::string_of(doc, "command") + " failed: " + json::string_of(doc, "error"));
            return;
        }
        // turn_*, message_start/update, tool_execution_update, queue and state events: nothing to show.
        if (type.empty()) pass_on(line);
    }

private:
    struct Dialog {
        std::string method;
        std::string prefill;  // editor
        std::string tool;     // the tool call that was running when it opened
    };

    void pass_on(std::string_view line) { host_.output_line(Stream::Stdout, line); }

    void say(Stream s, const std::string& text) { host_.output_line(s, text); }

    void send_response(const std::string& id, const std::string& members) {
        host_.send("{\"type\":\"extension_ui_response\",\"id\":" + json_quote(id) + "," + members + "}");
    }

    void reply_cancelled(const std::string& id) { send_response(id, "\"cancelled\":true"); }

    void ui_request(const rapidjson::Document& doc) {
        const std::string id = json::string_of(doc, "id");
        const std::string method = json::string_of(doc, "method");
        const std::string title = json::string_of(doc, "title");
        if (method == "notify") {
            const std::string kind = json::string_of(doc, "notifyType");
            say(kind == "error" || kind == "warning" ? Stream::Stderr : Stream::Stdout,
                "pi" + (kind.empty() || kind == "info" ? std::string() : " " + kind) + ": " +
                    json::string_of(doc, "message"));
            return;
        }
        if (method != "select" && method != "input" && method != "confirm" && method != "editor")
            return;  // fire and forget
        Question q;
        q.question = title.empty() ? "pi asks" : title;
        Dialog d;
        d.method = method;
        d.tool = running_tools_.empty() ? std::string() : running_tools_.back();
        if (method == "select") {
            auto opts = doc.FindMember("options");
            std::set<std::string> seen;
            if (opts != doc.MemberEnd() && opts->value.IsArray())
                for (const auto& o : opts->value.GetArray())
                    if (o.IsString() && seen.insert(o.GetString()).second) q.options.push_back({o.GetString(), "", {}});
        } else if (method == "input") {
            // A free-text question: pi's placeholder has no place in the question model.
        } else if (method == "confirm") {
            const std::string message = json::string_of(doc, "message");
            if (!message.empty()) q.question += "\n\n" + message;
            q.options = {{"Yes", "", {}}, {"No", "", {}}};
        } else {
            d.prefill = json::string_of(doc, "prefill");
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
        auto timeout = doc.FindMember("timeout");
        const auto ms = timeout != doc.MemberEnd() ? json::number_of(timeout->value) : std::nullopt;
        if (ms && *ms > 0 && *ms < 1e12)
            host_.after(std::chrono::milliseconds(static_cast<long long>(*ms)),
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
            return send_response(id, std::string("\"confirmed\":") + (yes ? "true" : "false"));
        }
        if (d.method == "editor" && a.selected_option && *a.selected_option == kKeep) value = d.prefill;
        send_response(id, "\"value\":" + json_quote(value));
    }

    void tool_ended(const rapidjson::Document& doc) {
        const std::string call = json::string_of(doc, "toolCallId");
        std::erase(running_tools_, call);
        if (!call.empty())
            for (const auto& id : dialogs_.ids_where([&](const Dialog& d) { return d.tool == call; }))
                dialogs_.take(id);
        auto err = doc.FindMember("isError");
        bool is_error = err != doc.MemberEnd() && err->value.IsBool() && err->value.GetBool();
        std::string text;
        auto result = doc.FindMember("result");
        if (result != doc.MemberEnd() && result->value.IsObject()) {
            auto content = result->value.FindMember("content");
            if (content != result->value.MemberEnd() && content->value.IsArray())
                for (const auto& c : content->value.GetArray()) text += json::string_of(c, "text");
        }
        say(Stream::Stdout, std::string("  -> ") + (is_error ? "error: " : "") + first_line(text));
    }

    void message_end(const rapidjson::Document& doc) {
        auto msg = doc.FindMember("message");
        if (msg == doc.MemberEnd() || json::string_of(msg->value, "role") != "assistant") return;
        auto content = msg->value.FindMember("content");
        if (content == msg->value.MemberEnd() || !content->value.IsArray()) return;
        for (const auto& c : content->value.GetArray())
            if (json::string_of(c, "type") == "text" && !json::string_of(c, "text").empty())
                say(Stream::Stdout, json::string_of(c, "text"));
        const std::string error = json::string_of(msg->value, "errorMessage");
        if (!error.empty()) say(Stream::Stderr, "pi: " + error);
    }

    AdapterHost& host_;
    std::string first_prompt_;
    bool one_shot_ = false;
    bool streaming_ = false;
    unsigned long next_id_ = 0;
    std::vector<std::string> running_tools_;
    PendingAsks<Dialog> dialogs_;  // by extension_ui_request id
};

}  // namespace

void register_pi_adapter(AdapterRegistry& registry) {
    registry.add(adapter_info<PiAdapter>("pi", "pi in RPC mode (extension dialogs: select, input, confirm, editor)",
                                         Profile::Lenient, detects_program("pi")));
}

}  // namespace askhost
