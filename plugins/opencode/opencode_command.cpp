// `askhost opencode`: OpenCode's own `question` tool, asked where askhost shows questions.
// `install` writes askhost's OpenCode plugin (plugin/askhost.ts, embedded in the binary) into an
// OpenCode config folder; OpenCode loads it at its next start. On each question the plugin runs
// `askhost opencode ask` in the background with the request on stdin: it is asked in the askhost
// whose workspace holds OpenCode's folder, and the answer comes back on stdout for the plugin to
// give to OpenCode's own API. With no host and nowhere to show it (own-questions, as for the other
// agents' own tools) it prints nothing, and OpenCode's own dialog, shown beside askhost's all
// along, is the one that answers. When the person answers there first, the
// plugin ends this process (SIGTERM) and the question is withdrawn from every face.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <unistd.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "common/agent_watch.hpp"
#include "core/command_line.hpp"
#include "core/fd_io.hpp"
#include "core/self_path.hpp"
#include "json/json_access.hpp"
#include "opencode_compaction.hpp"
#include "opencode_permission.hpp"
#include "opencode_question.hpp"
#include "service/ask_and_wait.hpp"
#include "store/fs_util.hpp"

namespace askhost::opencode {

extern const std::string_view kPluginSource;  // plugin/askhost.ts (opencode_plugin_source.cpp, generated)

namespace {

constexpr cli::Option kOptions[] = {
    {.name = "project", .help = "install into ./.opencode/plugin/ (this project only)"},
    {.name = "dir", .value = "DIR", .help = "install into DIR/plugin/ (an OpenCode config folder)"},
    {.name = "remove", .help = "take askhost's plugin out again (only askhost's)"},
};
constexpr std::string_view kWords[] = {"install", "ask", "permission", "summary"};

constexpr std::size_t kMaxInput = 8u << 20;
constexpr std::string_view kMarker = "// askhost's OpenCode plugin";
constexpr std::string_view kPathLine = "const ASKHOST: string = \"askhost\";";
constexpr std::string_view kFileName = "askhost.ts";

void note_view(std::string_view m) { write_all(2, "askhost opencode: " + std::string(m) + "\n"); }
void note(const std::string& m) { note_view(m); }

int ask(const rapidjson::Value& input) {
    const QuestionRequest request = read_question_request(input);
    if (!request.ours) {
        note("left to OpenCode: " + request.why);
        return 0;
    }
    // `own-questions` in askhost's settings, as for Gemini CLI's and Codex's own tools: never (OpenCode's
    // dialog alone), when-shown (no host in the workspace: a tmux popup over OpenCode's pane or a
    // running askhost web, else nothing), always (else a host of our own that waits beside
    // OpenCode's dialog). OpenCode's terminal is in raw mode: the terminal dialog never opens on it.
    const OwnQuestions setting = own_questions_setting(note_view);
    if (setting == OwnQuestions::Never) return 0;
    const auto outcome = ask_and_wait(
        request.ask, {.service = {.who = "askhost opencode",
                                  .kind = "opencode",
                                  .socket_hint = socket_hint_from_env(true),
                                  .alone = setting == OwnQuestions::Always ? Alone::Seek : Alone::SeekIfShown,
                                  .log = note_view},
                      // The plugin's SIGTERM: the person answered in OpenCode's own dialog. OpenCode gone (killed
                      // without a word to its plugin): withdrawn too.
                      .watch = [](boost::asio::io_context& io, EndWait end) {
                          return std::make_shared<AgentWatch>(io, "OpenCode is gone", std::move(end));
                      }});
    if (outcome) write_all(1, question_reply(request, *outcome));
    return 0;
}

// One of OpenCode's permission prompts, beside OpenCode's own prompt as askhost hook's permission
// requests wait beside Claude Code's: in the workspace's host, else in a host of our own that
// waits quietly (askhost status counts it, askhost web and askhost attach --next show it). The
// first answer wins: one given in OpenCode's prompt ends this process (the plugin's SIGTERM).
int ask_permission(const rapidjson::Value& input) {
    const PermissionAsk asked = read_permission_request(input);
    if (!asked.ours) {
        note("left to OpenCode: " + asked.why);
        return 0;
    }
    const auto outcome =
        ask_and_wait(asked.ask, {.service = {.who = "askhost opencode",
                                             .kind = "opencode",
                                             .socket_hint = socket_hint_from_env(true),
                                             .alone = Alone::Beside,
                                             .log = note_view},
                                 .watch = [](boost::asio::io_context& io, EndWait end) {
                                     return std::make_shared<AgentWatch>(io, "OpenCode is gone", std::move(end));
                                 }});
    if (outcome) write_all(1, permission_reply(asked, *outcome));
    return 0;
}

// At a compaction: the words for the compaction's prompt, from the session's question calls.
int summary(const rapidjson::Value& input) {
    const std::string context = compaction_context(exchanges_of_calls(input));
    if (!context.empty()) write_all(1, context + "\n");
    return 0;
}

// The OpenCode config folder an install edits, or "" when there is none to find (no HOME).
std::string config_dir(const cli::Args& a) {
    if (auto d = a.value("dir")) return *d;
    if (a.has("project")) return ".opencode";
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/opencode";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.config/opencode";
    return {};
}

// The plugin as written for this askhost: its full path in the one line that names it.
std::string plugin_text() {
    std::string self = self_path();
    if (self.empty()) self = "askhost";
    rapidjson::StringBuffer quoted;
    rapidjson::Writer<rapidjson::StringBuffer> w(quoted);
    w.String(self.c_str(), static_cast<rapidjson::SizeType>(self.size()));
    std::string text(kPluginSource);
    if (auto at = text.find(kPathLine); at != std::string::npos)
        text.replace(at, kPathLine.size(), "const ASKHOST: string = " + std::string(quoted.GetString()) + ";");
    return text;
}

bool is_ours(const store::FileText& f) {
    return f.status == store::FileText::Status::Ok && std::string_view(f.data).starts_with(kMarker);
}

int install(const cli::Args& a) {
    const std::string dir = config_dir(a);
    if (dir.empty()) {
        write_all(2, "askhost opencode install: no HOME: name the folder with --dir DIR\n");
        return 2;
    }
    // OpenCode loads plugin/*.ts and plugins/*.ts: ours is where it was put before, else in
    // whichever of the two is there (plugin/ first), else in a new plugin/.
    namespace fs = std::filesystem;
    std::error_code ec;
    std::string path;
    for (const char* sub : {"plugin", "plugins"})
        if (path.empty() && is_ours(store::read_whole(dir + "/" + sub + "/" + std::string(kFileName))))
            path = dir + "/" + sub + "/" + std::string(kFileName);
    if (path.empty()) {
        const char* sub =
            !fs::is_directory(dir + "/plugin", ec) && fs::is_directory(dir + "/plugins", ec) ? "plugins" : "plugin";
        path = dir + "/" + sub + "/" + std::string(kFileName);
    }
    const store::FileText now = store::read_whole(path);
    if (now.status == store::FileText::Status::Error) {
        write_all(2, "askhost opencode install: " + now.error + "\n");
        return 1;
    }
    const bool there = now.status == store::FileText::Status::Ok;
    if (there && !is_ours(now)) {
        write_all(2, "askhost opencode install: " + path + " is not askhost's plugin; left as it is\n");
        return 1;
    }
    if (a.has("remove")) {
        if (!there) {
            write_all(1, "askhost's OpenCode plugin is not in " + dir + "\n");
            return 0;
        }
        if (!fs::remove(path, ec) || ec) {
            write_all(2, "askhost opencode install: cannot remove " + path + ": " + ec.message() + "\n");
            return 1;
        }
        write_all(1, "askhost's OpenCode plugin removed from " + path + "\n");
        return 0;
    }
    const std::string text = plugin_text();
    if (there && now.data == text) {
        write_all(1, "askhost's OpenCode plugin is already in " + path + "\n");
        return 0;
    }
    if (auto err = store::make_dirs(fs::path(path).parent_path(), 0755)) {
        write_all(2, "askhost opencode install: " + err->message + "\n");
        return 1;
    }
    if (auto err = store::atomic_write(path, text, 0644)) {
        write_all(2, "askhost opencode install: " + err->message + "\n");
        return 1;
    }
    write_all(1, std::string(there ? "askhost's OpenCode plugin updated in " : "askhost's OpenCode plugin added to ") +
                     path +
                     "\nOpenCode's own questions are asked in the askhost of its workspace from its next start "
                     "(`askhost hosts`).\n");
    return 0;
}

}  // namespace

extern const cli::Command kOpencodeCommand;  // opencode_adapter.cpp registers it
const cli::Command kOpencodeCommand{
    .name = "opencode",
    .synopsis = "install [--project | --dir DIR] [--remove] | ask | permission | summary",
    .summary = "OpenCode's own questions asked in the host of its workspace\n(askhost's OpenCode plugin)",
    .about =
        "`install` writes askhost's plugin for OpenCode into ~/.config/opencode/plugin/askhost.ts\n"
        "(--project: ./.opencode/plugin/), next to any others; OpenCode loads it at its next start.\n"
        "On each question of OpenCode's `question` tool the plugin runs `askhost opencode ask` with the\n"
        "question on stdin: it is asked in the askhost whose workspace holds OpenCode's folder (an\n"
        "editor's standing host; see `askhost hosts`), beside OpenCode's own dialog, and the first\n"
        "answer wins. With no host and nowhere to show it (no tmux client, no askhost web) it prints\n"
        "nothing and OpenCode's dialog is the only one (own-questions in askhost's config chooses).\n"
        "`permission` does the same for OpenCode's permission prompts, beside OpenCode's own prompt;\n"
        "`summary` gives OpenCode's compaction the session's questions and answers.",
    .options = kOptions,
    .operand = "install|ask|permission|summary",
    .operand_help =
        "install: the plugin into OpenCode's config (--remove: out again);\n"
        "ask, permission, summary: run by the plugin, the request's JSON on stdin",
    .max_operands = 1,
    .words = kWords,
};

int run_opencode(const std::vector<std::string>& args) {
    auto read = cli::read(args, kOpencodeCommand);
    if (auto* done = std::get_if<cli::Exit>(&read)) return done->print();
    const cli::Args& a = std::get<cli::Args>(read);
    if (a.operands.empty())
        return cli::usage_error(kOpencodeCommand, "say install, ask, permission or summary").print();
    if (a.operands[0] == "install") {
        if (a.has("project") && a.has("dir"))
            return cli::usage_error(kOpencodeCommand, "--project and --dir name two places: give one").print();
        return install(a);
    }
    if (!a.given.empty())
        return cli::usage_error(kOpencodeCommand, "--" + std::string(a.given[0].first) + " goes with install").print();
    // Typed at a terminal, it would wait for JSON nobody sends.
    if (::isatty(0))
        return cli::usage_error(kOpencodeCommand,
                                "askhost's OpenCode plugin runs this with the question's JSON on stdin, not a "
                                "terminal (askhost opencode install sets it up)")
            .print();
    bool too_big = false;
    const std::string in = read_all(0, kMaxInput, &too_big);
    if (too_big) {
        note("the request is over " + std::to_string(kMaxInput) + " bytes; left to OpenCode");
        return 0;
    }
    rapidjson::Document doc;
    if (auto err = json::parse(doc, in); err || !doc.IsObject()) {
        note("the request is not a JSON object" + (err ? ": " + err->message : std::string()) + "; left to OpenCode");
        return 0;
    }
    if (a.operands[0] == "permission") return ask_permission(doc);
    if (a.operands[0] == "summary") return summary(doc);
    return ask(doc);
}

}  // namespace askhost::opencode
