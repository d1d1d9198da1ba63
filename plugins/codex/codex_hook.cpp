#include "codex_hook.hpp"

#include <map>
#include <set>
#include <variant>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "common/agent_watch.hpp"
#include "common/question_record.hpp"
#include "core/command_line.hpp"
#include "core/fd_io.hpp"
#include "core/model/outcome.hpp"
#include "json/json_access.hpp"
#include "mcp/agent_hooks.hpp"
#include "mcp/own_question_hook.hpp"
#include "service/ask_and_wait.hpp"
#include "store/fs_util.hpp"
#include "store/session_summary.hpp"

namespace askhost::mcp {

namespace {

constexpr std::size_t kMaxRollout = 256u << 20;  // read at most the last 256 MiB

// askhost's tool as Codex names it: `ask_user_question` in the namespace `mcp__SERVER`, or (older
// rollouts) the whole `mcp__SERVER__ask_user_question`.
bool is_question_call(const rapidjson::Value& payload) {
    constexpr std::string_view tool = "ask_user_question";
    const std::string name = json::string_of(payload, "name");
    const std::string ns = json::string_of(payload, "namespace");
    if (name == tool) return ns.rfind("mcp__", 0) == 0;
    const std::string suffix = "__" + std::string(tool);
    return name.rfind("mcp__", 0) == 0 && name.size() > suffix.size() &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Codex's own question tool (answered in its dialog, or through askhost codex-hook).
bool is_own_call(const rapidjson::Value& payload) {
    return json::string_of(payload, "name") == "request_user_input" && json::string_of(payload, "namespace").empty();
}

// The text the model read from a function_call_output: a string, or content items with text, one
// a line (Codex 0.169 writes an error result as [{"Wall time: N seconds\nOutput:"}, {the text}]).
std::string output_text(const rapidjson::Value& output) {
    if (output.IsString()) return std::string(json::str(output));
    std::string out;
    const rapidjson::Value* items = &output;
    if (output.IsObject())
        if (const auto* c = json::member(output, "content")) items = c;
    if (items->IsString()) return std::string(json::str(*items));
    if (items->IsArray())
        for (const auto& c : items->GetArray()) {
            if (!out.empty()) out += '\n';
            out += json::string_of(c, "text");
        }
    return out;
}

// Codex puts `Wall time: N seconds` and `Output:` lines before an MCP tool's result.
std::string_view without_wall_time(std::string_view text) {
    constexpr std::string_view marker = "\nOutput:\n";
    if (text.rfind("Wall time:", 0) != 0) return text;
    const auto at = text.find(marker);
    return at == std::string_view::npos ? text : text.substr(at + marker.size());
}

// A result the model read as an error: askhost's decline, or Codex's own (a timeout, a failed call).
bool is_error_result(const rapidjson::Value& output, std::string_view text) {
    if (output.IsObject())
        if (const auto* ok = json::member(output, "success"); ok && ok->IsBool() && !ok->GetBool()) return true;
    const std::string declined = declined_text();
    return text.rfind(declined, 0) == 0 || text.rfind("tool call error:", 0) == 0;
}

}  // namespace

std::vector<store::Exchange> exchanges_in_rollout(std::string_view jsonl) {
    std::vector<store::Exchange> out;
    std::map<std::string, std::vector<Question>> asked;  // call_id -> its questions (askhost mcp's tool)
    std::map<std::string, OwnCall> own;                  // call_id -> Codex's own request_user_input
    std::set<std::string> done;                          // call_ids with a result already counted
    std::size_t pos = 0;
    while (pos < jsonl.size()) {
        const std::string_view line = store::next_line(jsonl, pos);
        // Cheap first: only the history's function calls and their outputs are parsed.
        if (line.find("\"response_item\"") == std::string_view::npos ||
            (line.find("ask_user_question") == std::string_view::npos &&
             line.find("request_user_input") == std::string_view::npos &&
             line.find("function_call_output") == std::string_view::npos))
            continue;
        rapidjson::Document entry;
        if (json::parse(entry, line) || !entry.IsObject() || json::string_of(entry, "type") != "response_item")
            continue;
        const auto* payload = json::member(entry, "payload");
        if (!payload || !payload->IsObject()) continue;
        const std::string type = json::string_of(*payload, "type");
        const std::string call_id = json::string_of(*payload, "call_id");
        if (call_id.empty() || done.count(call_id)) continue;
        if (type == "function_call" && (is_question_call(*payload) || is_own_call(*payload))) {
            rapidjson::Document args;
            const std::string arguments = json::string_of(*payload, "arguments");
            if (json::parse(args, arguments) || !args.IsObject()) continue;
            if (is_own_call(*payload)) own[call_id] = own_call_of(OwnTool::CodexRequestUserInput, args);
            else asked[call_id] = questions_of_call(args);
            continue;
        }
        if (type != "function_call_output") continue;
        auto it = asked.find(call_id);
        auto own_it = own.find(call_id);
        const bool is_own = own_it != own.end();
        if (it == asked.end() && !is_own) continue;
        std::vector<Question> questions = is_own ? own_it->second.questions : std::move(it->second);
        if (questions.empty()) continue;
        const auto* output = json::member(*payload, "output");
        const std::string whole = output ? output_text(*output) : std::string();
        const std::string_view text = without_wall_time(whole);
        const bool error = output && is_error_result(*output, text);
        auto r = is_own ? read_own_result(own_it->second, text, error) : read_result(questions, nullptr, text, error);
        if (is_own) own.erase(own_it);
        else asked.erase(it);
        done.insert(call_id);
        const std::string_view outcome = summary_outcome(r.kind);
        if (outcome.empty()) continue;  // not asked, or nothing to tell
        store::Exchange e;
        e.agent = "codex";
        e.questions = std::move(questions);
        e.outcome = outcome;
        e.answers = std::move(r.answers);
        e.pending_file = std::move(r.pending_file);
        out.push_back(std::move(e));
    }
    return out;
}

std::string compaction_context(const std::vector<store::Exchange>& exchanges) {
    const std::string prose = store::summary_text(exchanges);
    if (prose.empty()) return {};
    return "What the user decided when asked earlier in this session, before the conversation was compacted "
           "(the user's own answers; later work should follow them): " +
           prose;
}

std::string additional_context_output(std::string_view event, std::string_view context) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    w.Key("hookSpecificOutput");
    w.StartObject();
    w.Key("hookEventName");
    w.String(event.data(), static_cast<rapidjson::SizeType>(event.size()));
    w.Key("additionalContext");
    w.String(context.data(), static_cast<rapidjson::SizeType>(context.size()));
    w.EndObject();
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

int run_session_start(const rapidjson::Value& input) {
    const std::string source = json::string_of(input, "source");
    if (!source.empty() && source != "compact") return 0;  // the history still holds the answers
    const std::string path = json::string_of(input, "transcript_path");
    if (path.empty()) return 0;
    const auto tail = store::read_last_lines(path, kMaxRollout);
    if (!tail) return 0;
    const std::string_view jsonl = *tail;
    const std::string context = compaction_context(exchanges_in_rollout(jsonl));
    if (context.empty()) return 0;
    write_all(1, additional_context_output("SessionStart", context));
    return 0;
}

CodexPermission read_codex_permission(const rapidjson::Value& hook) {
    static const rapidjson::Value empty(rapidjson::kObjectType);
    const rapidjson::Value* in = json::member(hook, "tool_input");
    const rapidjson::Value& input = in && json::is_object(*in) ? *in : empty;
    CodexPermission p;
    // As askhost hook reads Claude Code's (the same shape); the typed fields whole.
    PermissionRequest& r = p.request;
    r.tool = json::string_of(hook, "tool_name");
    describe_permission(r, input);
    fill_permission_fields(r, input);
    p.request.choices = {
        {"allow", "Allow", PermissionKind::AllowOnce, "Run it this time"},
        {"deny", "Deny", PermissionKind::RejectOnce, "Do not run it; Codex is told you refused"},
    };
    p.ask.take_asked(permission_ask(p.request));
    p.ask.agent = "codex";
    p.ask.route = "hook";
    p.ask.profile = Profile::Strict;
    p.ask.cwd = json::string_of(hook, "cwd");
    return p;
}

std::string codex_permission_reply(const PermissionRequest& request, const Outcome& outcome) {
    const PermissionDecision d = decide_permission(request, outcome);
    if (d.cancelled()) return {};
    const bool allow = d.choice->kind == PermissionKind::AllowOnce || d.choice->kind == PermissionKind::AllowAlways;
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    w.Key("hookSpecificOutput");
    w.StartObject();
    w.Key("hookEventName");
    w.String("PermissionRequest");
    w.Key("decision");
    w.StartObject();
    w.Key("behavior");
    w.String(allow ? "allow" : "deny");
    if (!allow) {
        const std::string message = d.message.empty() ? std::string("The user refused it in askhost.") : d.message;
        w.Key("message");
        w.String(message.data(), static_cast<rapidjson::SizeType>(message.size()));
    }
    w.EndObject();
    w.EndObject();
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

namespace {

void note(std::string_view m) { write_all(2, "askhost codex-hook: " + std::string(m) + "\n"); }

}  // namespace

int run_permission_request(const rapidjson::Value& input) {
    const OwnQuestions setting = own_questions_setting(note);
    if (setting == OwnQuestions::Never) return 0;  // the person chose Codex's own prompt
    CodexPermission p = read_codex_permission(input);
    // Codex draws its own prompt only once the hook ends: with nowhere to show it, nothing is
    // printed at once. The hook's time limit or Codex ending it: nothing printed, Codex asks.
    const auto outcome = ask_and_wait(
        std::move(p.ask), {.service = {.who = "askhost codex-hook",
                                       .kind = "hook",
                                       .socket_hint = socket_hint_from_env(true),
                                       .alone = setting == OwnQuestions::Always ? Alone::Seek : Alone::SeekIfShown,
                                       .log = note},
                           .watch = [](boost::asio::io_context& io, EndWait end) {
                               return std::make_shared<AgentWatch>(io, "Codex is gone", std::move(end));
                           }});
    if (outcome) write_all(1, codex_permission_reply(p.request, *outcome));
    return 0;
}

namespace {

constexpr cli::Option kCodexHookOptions[] = {
    {.name = "project", .help = "install into ./.codex/hooks.json"},
    {.name = "hooks", .value = "PATH", .help = "install into that hooks file"},
    {.name = "remove", .help = "take askhost's hooks out of that file instead"},
};
constexpr std::string_view kCodexHookWords[] = {"install"};

int install_codex_hooks(const cli::Args& args) {
    return install_agent_hooks(
        args, {.subcommand = "codex-hook",
               .file_option = "hooks",
               .project_file = ".codex/hooks.json",
               .home_variable = "CODEX_HOME",
               .home_name = "hooks.json",
               .home_file = ".codex/hooks.json",
               .hooks = {{.event = "SessionStart",
                          .matcher = "compact",
                          .command = {},
                          .timeout_seconds = 30,
                          .status_message = "askhost: the answers you gave"},
                         // As long as the person takes (a day); Codex's own dialog when askhost has nowhere to show it.
                         {.event = "PreToolUse",
                          .matcher = "request_user_input",
                          .command = {},
                          .timeout_seconds = 86400,
                          .status_message = "askhost: asking where you are"},
                         // Codex's approvals, asked in askhost with the whole command; Codex's own
                         // prompt when askhost has nowhere to show it.
                         {.event = "PermissionRequest",
                          .matcher = "*",
                          .command = {},
                          .timeout_seconds = 86400,
                          .status_message = "askhost: asking where you are"}},
               .what = "\n(SessionStart after a compaction: the model reads the answers given earlier in the session;\n"
                       "PreToolUse: request_user_input, Codex's own questions in Plan mode, asked in askhost;\n"
                       "PermissionRequest: Codex's approvals of a command, asked in askhost with the whole command).\n"
                       "Codex runs a new hook only once you trust it: open codex, type /hooks and trust askhost's.\n"});
}

}  // namespace

extern const cli::Command kCodexHookCommand;
const cli::Command kCodexHookCommand{
    .name = "codex-hook",
    .synopsis = "[install [--project] [--hooks PATH] [--remove]]",
    .summary = "Codex hooks: its own questions asked in askhost,\nthe session's answers kept through compaction",
    .about =
        "Run by Codex with the hook's JSON on stdin. PreToolUse (request_user_input, Codex's own\n"
        "questions): asked in the askhost of the session's folder, or where askhost can show it; with\n"
        "nowhere to show it, it prints nothing at once and Codex asks in its own dialog.\n"
        "PermissionRequest (Codex's approval of a command): asked the same way, with the whole command.\n"
        "SessionStart (matcher compact): after Codex compacts a session, the questions askhost mcp\n"
        "asked in it and the answers given are added to what the model reads next.",
    .options = kCodexHookOptions,
    .operand = "install",
    .operand_help =
        "merge the hooks into ~/.codex/hooks.json (--project: ./.codex/hooks.json),\nkeeping everything else in it",
    .max_operands = 1,
    .words = kCodexHookWords,
};

int run_codex_hook(const std::vector<std::string>& args) {
    return run_context_hook(args, kCodexHookCommand, install_codex_hooks,
                            {{"SessionStart", run_session_start},
                             {"PreToolUse", run_codex_pre_tool_use},
                             {"PermissionRequest", run_permission_request}});
}

}  // namespace askhost::mcp
