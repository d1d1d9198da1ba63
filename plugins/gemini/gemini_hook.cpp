#include "gemini_hook.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <variant>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "codex/codex_hook.hpp"
#include "common/question_record.hpp"
#include "core/command_line.hpp"
#include "core/fd_io.hpp"
#include "json/json_access.hpp"
#include "mcp/agent_hooks.hpp"
#include "mcp/own_question_hook.hpp"
#include "store/fs_util.hpp"

namespace askhost::mcp {

namespace {

constexpr std::size_t kMaxRecord = 256u << 20;  // read at most the last 256 MiB
// How the context this hook gives begins (compaction_context's words): the history holds it once given.
constexpr std::string_view kToldMarker = "What the user decided when asked earlier in this session";

std::string serialized(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    v.Accept(w);
    return {buf.GetString(), buf.GetSize()};
}

// askhost's tool as Gemini CLI names an MCP server's tool: `mcp_SERVER_ask_user_question`.
bool is_question_tool(std::string_view name) {
    constexpr std::string_view tool = "_ask_user_question";
    return name == tool.substr(1) || (name.rfind("mcp_", 0) == 0 && name.size() > tool.size() + 4 &&
                                      name.compare(name.size() - tool.size(), tool.size(), tool) == 0);
}

// Gemini wraps an MCP tool's text in <untrusted_context> lines before the model reads it.
std::string_view unwrapped(std::string_view text) {
    constexpr std::string_view open = "<untrusted_context>\n";
    constexpr std::string_view close = "\n</untrusted_context>";
    if (text.rfind(open, 0) != 0) return text;
    text.remove_prefix(open.size());
    if (text.size() >= close.size() && text.substr(text.size() - close.size()) == close)
        text.remove_suffix(close.size());
    return text;
}

struct Call {
    std::optional<OwnCall> own;  // Gemini's own ask_user (its dialog or askhost gemini-hook answered it)
    std::vector<Question> questions;
    bool finished = false;  // a result, or a status that ends the call
    bool is_error = false;
    std::string text;
};

// One entry of a gemini message's toolCalls: {id, name, args, result: [{functionResponse: {response:
// {output | error}}}], status: success | error | cancelled | ...}.
void read_tool_call(const rapidjson::Value& tc, std::map<std::string, Call>& calls, std::vector<std::string>& order) {
    const std::string id = json::string_of(tc, "id");
    const std::string name = json::string_of(tc, "name");
    const bool own = name == "ask_user";
    if (id.empty() || !(own || is_question_tool(name))) return;
    Call c;
    if (const auto* args = json::member(tc, "args"); args && args->IsObject()) {
        if (own) {
            c.own = own_call_of(OwnTool::GeminiAskUser, *args);
            c.questions = c.own->questions;
        } else {
            c.questions = questions_of_call(*args);
        }
    }
    const std::string status = json::string_of(tc, "status");
    c.is_error = status == "error" || status == "cancelled";
    if (const auto* result = json::member(tc, "result"); result && result->IsArray())
        for (const auto& part : result->GetArray()) {
            const auto* fr = json::member(part, "functionResponse");
            const auto* response = fr ? json::member(*fr, "response") : nullptr;
            if (!response || !response->IsObject()) continue;
            c.finished = true;
            if (const auto* err = json::member(*response, "error")) {
                c.is_error = true;
                c.text = err->IsString() ? std::string(json::str(*err)) : serialized(*err);
            } else if (const auto* out = json::member(*response, "output")) {
                c.text = out->IsString() ? std::string(json::str(*out)) : serialized(*out);
            }
        }
    c.finished = c.finished || c.is_error;
    if (!calls.count(id)) order.push_back(id);
    calls[id] = std::move(c);  // a later record of the same message is the call's newer state
}

}  // namespace

GeminiRecord read_gemini_record(std::string_view jsonl) {
    GeminiRecord rec;
    std::vector<std::string> history;       // the messages the model reads, as JSON
    std::map<std::string, std::size_t> at;  // a message's id -> its place in history
    std::map<std::string, Call> calls;
    std::vector<std::string> order;
    auto put = [&](const rapidjson::Value& msg) {
        const std::string id = json::string_of(msg, "id");
        std::string text = serialized(msg);
        if (auto it = at.find(id); !id.empty() && it != at.end()) {
            history[it->second] = std::move(text);
            return;
        }
        if (!id.empty()) at[id] = history.size();
        history.push_back(std::move(text));
    };
    std::size_t pos = 0;
    while (pos < jsonl.size()) {
        const std::string_view line = store::next_line(jsonl, pos);
        rapidjson::Document entry;
        if (line.empty() || json::parse(entry, line) || !entry.IsObject()) continue;
        if (const auto* set = json::member(entry, "$set")) {
            // A whole new message list: the session loaded, resumed, or compressed.
            if (const auto* msgs = json::member(*set, "messages"); msgs && msgs->IsArray()) {
                history.clear();
                at.clear();
                for (const auto& m : msgs->GetArray()) put(m);
            }
            continue;
        }
        const std::string type = json::string_of(entry, "type");
        if (type.empty()) {  // the header a run of the session starts with
            if (const auto* kind = json::member(entry, "kind"); kind && kind->IsString())
                rec.main = json::str(*kind) == "main";
            continue;
        }
        put(entry);
        if (type != "gemini") continue;
        if (const auto* tcs = json::member(entry, "toolCalls"); tcs && tcs->IsArray())
            for (const auto& tc : tcs->GetArray()) read_tool_call(tc, calls, order);
    }
    for (const auto& id : order) {
        Call& c = calls[id];
        if (!c.finished || c.questions.empty()) continue;
        const std::string_view text = unwrapped(c.text);
        auto r =
            c.own ? read_own_result(*c.own, text, c.is_error) : read_result(c.questions, nullptr, text, c.is_error);
        const std::string_view outcome = summary_outcome(r.kind);
        if (outcome.empty()) continue;  // not asked, or nothing to tell
        store::Exchange e;
        e.agent = "gemini";
        e.questions = std::move(c.questions);
        e.outcome = outcome;
        e.answers = std::move(r.answers);
        e.pending_file = std::move(r.pending_file);
        rec.exchanges.push_back(std::move(e));
        const bool held = std::any_of(history.begin(), history.end(),
                                      [&](const std::string& m) { return m.find(id) != std::string::npos; });
        rec.dropped = rec.dropped || !held;
    }
    rec.told = std::any_of(history.begin(), history.end(),
                           [](const std::string& m) { return m.find(kToldMarker) != std::string::npos; });
    return rec;
}

int run_before_agent(const rapidjson::Value& input) {
    const std::string path = json::string_of(input, "transcript_path");
    if (path.empty()) return 0;
    const auto tail = store::read_last_lines(path, kMaxRecord);
    if (!tail) return 0;
    const std::string_view jsonl = *tail;
    const GeminiRecord rec = read_gemini_record(jsonl);
    if (!rec.main || !rec.dropped || rec.told) return 0;  // the history still holds the answers, or was told them
    const std::string context = compaction_context(rec.exchanges);
    if (context.empty()) return 0;
    write_all(1, additional_context_output("BeforeAgent", context));
    return 0;
}

namespace {

constexpr cli::Option kGeminiHookOptions[] = {
    {.name = "project", .help = "install into ./.gemini/settings.json"},
    {.name = "settings", .value = "PATH", .help = "install into that settings file"},
    {.name = "remove", .help = "take askhost's hooks out of that file instead"},
};
constexpr std::string_view kGeminiHookWords[] = {"install"};

int install_gemini_hooks(const cli::Args& args) {
    return install_agent_hooks(
        args, {.subcommand = "gemini-hook",
               .file_option = "settings",
               .project_file = ".gemini/settings.json",
               .home_variable = "GEMINI_CLI_HOME",
               .home_name = ".gemini/settings.json",
               .home_file = ".gemini/settings.json",
               .hooks = {{.event = "BeforeAgent", .matcher = "*", .command = {}},
                         // As long as the person takes (a day, in Gemini's milliseconds; its default is 60 s).
                         {.event = "BeforeTool", .matcher = "ask_user", .command = {}, .timeout_ms = 86400000}},
               .what = "\n(BeforeTool: ask_user, Gemini's own questions, asked in askhost; BeforeAgent: after Gemini\n"
                       "compresses a session, the next prompt carries the answers given earlier in it).\n"});
}

}  // namespace

extern const cli::Command kGeminiHookCommand;
const cli::Command kGeminiHookCommand{
    .name = "gemini-hook",
    .synopsis = "[install [--project] [--settings PATH] [--remove]]",
    .summary = "Gemini CLI hooks: its own questions asked in askhost,\nthe session's answers kept through compression",
    .about =
        "Run by Gemini CLI with the hook's JSON on stdin. BeforeTool (ask_user, Gemini's own\n"
        "questions): asked in the askhost of the session's folder, or where askhost can show it; with\n"
        "nowhere to show it, it prints nothing at once and Gemini asks in its own dialog. BeforeAgent:\n"
        "once Gemini has compressed a session, the questions askhost mcp asked in it and the answers\n"
        "given are added to the next prompt.",
    .options = kGeminiHookOptions,
    .operand = "install",
    .operand_help =
        "merge the hooks into ~/.gemini/settings.json (--project:\n./.gemini/settings.json), keeping everything "
        "else in it",
    .max_operands = 1,
    .words = kGeminiHookWords,
};

int run_gemini_hook(const std::vector<std::string>& args) {
    return run_context_hook(args, kGeminiHookCommand, install_gemini_hooks,
                            {{"BeforeAgent", run_before_agent}, {"BeforeTool", run_gemini_before_tool}});
}

}  // namespace askhost::mcp
