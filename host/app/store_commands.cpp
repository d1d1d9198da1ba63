#include "app/store_commands.hpp"

#include <filesystem>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <set>
#include <variant>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rapidjson/document.h>

#include "core/error.hpp"
#include "core/fd_io.hpp"
#include "core/text/sanitize.hpp"
#include "json/json_access.hpp"
#include "store/fs_util.hpp"
#include "store/pending_file.hpp"

namespace askhost::store {

namespace fs = std::filesystem;

namespace {

// A usage error the command finds itself, in the reader's words (exit 2).
int usage(std::ostream& err, const cli::Command& command, std::string message) {
    err << cli::usage_error(command, std::move(message)).text;
    return 2;
}

// The command line read; or its --help on `out`, or its usage error on `err`, and the exit status.
std::variant<cli::Args, int> read_args(const std::vector<std::string>& args, const cli::Command& command,
                                       std::ostream& out, std::ostream& err) {
    auto read = cli::read(args, command);
    if (auto* done = std::get_if<cli::Exit>(&read)) {
        (done->status == 0 ? out : err) << done->text;
        return done->status;
    }
    return std::get<cli::Args>(std::move(read));
}

int failure(std::ostream& err, const std::string& cmd, const std::string& message) {
    err << "askhost " << cmd << ": " << message << "\n";
    return 1;
}

// Agent text on the person's terminal: shown, never interpreted.
std::string shown(std::string_view s) { return sanitize_for_terminal(s); }

// A tool permission as the person must see it before answering: who wants what, every line of
// the command (or the edit) after `indent` and a bar, then the agent's reason as its own claim.
// Never the question's wording, which cuts a long command short.
void show_permission(std::ostream& out, const Permission& p, const std::string& indent) {
    const std::string who = p.tool.empty() ? std::string("The agent") : shown(p.tool);
    // An edit writes, even one that only deletes (replaces without content); without either, the
    // tool may only read the file (Read, Grep).
    const bool writes = !p.content.empty() || !p.replaces.empty();
    if (!p.command.empty()) out << who << " wants to run:\n";
    else if (!p.path.empty())
        out << who << (writes ? " wants to write " : " wants to access ") << shown(p.path) << (writes ? ":\n" : "\n");
    else out << who << " wants to use a tool\n";
    auto block = [&](std::string_view text) {
        const std::string lines = sanitize_for_terminal(text, true);
        std::size_t at = 0;
        for (;;) {
            const std::size_t end = lines.find('\n', at);
            out << indent << "│ " << lines.substr(at, end - at) << "\n";
            if (end == std::string::npos) break;
            at = end + 1;
        }
    };
    if (!p.command.empty()) {
        block(p.command);
        if (!p.path.empty()) out << indent << (writes ? "to " : "in ") << shown(p.path) << (writes ? ":\n" : "\n");
    }
    if (!p.replaces.empty()) {
        out << indent << "replacing:\n";
        block(p.replaces);
        out << indent << (p.content.empty() ? "with nothing (deleting it)\n" : "with:\n");
    }
    if (!p.content.empty()) block(p.content);
    if (!p.reason.empty()) out << indent << "The agent says: " << shown(p.reason) << "\n";
}

std::string join_values(const std::vector<std::string>& values) {
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i];
    return out;
}

std::string spec_text(const AnswerSpec& spec) {
    std::string out;
    for (std::size_t i = 0; i < spec.items.size(); ++i) {
        const auto& it = spec.items[i];
        out += (i ? ", " : "");
        out += it.number ? "option " + it.text : it.text;
    }
    return out;
}

fs::path dir_of(const fs::path& file) { return file.has_parent_path() ? file.parent_path() : fs::path("."); }

// As lenient as the pending file (comments, trailing commas), and as bounded: no answer nests deep.
Status parse_json(std::string_view text, rapidjson::Document& doc) {
    auto e = json::parse<rapidjson::kParseCommentsFlag | rapidjson::kParseTrailingCommasFlag>(doc, text);
    if (!e) return std::nullopt;
    return Error::failed((e->too_deep ? "refused JSON (" : "not JSON (") + line_column(text, e->offset) + ": " +
                         e->message + ")");
}

void print_answered(std::ostream& out, const std::string& path, const PendingFile& f, const AnswerResult& r) {
    out << "Answered in " << path << ":\n";
    const auto open = f.open();
    for (std::size_t k = 0; k < r.changed.size(); ++k) {
        const std::size_t i = r.changed[k];
        const auto pos = static_cast<std::size_t>(std::find(open.begin(), open.end(), i) - open.begin());
        out << "  " << (pos + 1) << ". ";
        if (const auto& p = f.questions[i].permission) {
            show_permission(out, *p, "       ");
            out << "     ->  ";
        } else {
            out << shown(f.questions[i].question.question) << "  ->  ";
        }
        out << shown(spec_text(*f.questions[i].answer));
        // --text: how the person's words were read for this question.
        if (k < r.understood.size() && !r.understood[k].empty()) out << "   (" << shown(r.understood[k]) << ")";
        out << "\n";
    }
    std::vector<std::size_t> left;
    for (std::size_t i : open)
        if (!f.questions[i].answer) left.push_back(i);
    if (!left.empty()) {
        out << "Still without an answer:\n";
        for (std::size_t i : left) {
            const auto pos = static_cast<std::size_t>(std::find(open.begin(), open.end(), i) - open.begin());
            out << "  " << (pos + 1) << ". ";
            if (const auto& p = f.questions[i].permission) show_permission(out, *p, "       ");
            else out << shown(f.questions[i].question.question) << "\n";
        }
        out << "Answer " << (left.size() == 1 ? "it" : "them")
            << " with askhost answer too, then run the agent again.\n";
    } else {
        out << "Run the agent again: askhost hands these answers over when it asks the same questions.\n";
    }
}

int report_errors(std::ostream& err, const std::string& path, const std::vector<std::string>& errors,
                  const std::string& after = {}) {
    err << "askhost answer: " << path << " is unchanged:\n";
    for (const auto& e : errors) err << "  " << shown(e) << "\n";
    if (!after.empty()) err << after;
    return 1;
}

// $VISUAL, else $EDITOR, else vi, run through the shell like git does (so "code --wait" works).
int run_editor(const std::string& file, std::string& why) {
    const char* ed = std::getenv("VISUAL");
    if (!ed || !*ed) ed = std::getenv("EDITOR");
    if (!ed || !*ed) ed = "vi";
    const std::string cmd = std::string(ed) + " \"$1\"";
    // Ctrl-C (or Ctrl-\) in the editor ends the editor; askhost waits, removes the copy, and says so
    // (as git does).
    struct sigaction ignore = {};
    struct sigaction old_int = {};
    struct sigaction old_quit = {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGINT, &ignore, &old_int);
    ::sigaction(SIGQUIT, &ignore, &old_quit);
    const auto restore = [&] {
        ::sigaction(SIGINT, &old_int, nullptr);
        ::sigaction(SIGQUIT, &old_quit, nullptr);
    };
    pid_t pid = ::fork();
    if (pid < 0) {
        why = "cannot start the editor: " + errno_text(errno);
        restore();
        return -1;
    }
    if (pid == 0) {
        ::sigaction(SIGINT, &old_int, nullptr);
        ::sigaction(SIGQUIT, &old_quit, nullptr);
        ::execl("/bin/sh", "sh", "-c", cmd.c_str(), "sh", file.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            why = "cannot wait for the editor: " + errno_text(errno);
            restore();
            return -1;
        }
    }
    restore();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    why = std::string("the editor (") + ed + ") " +
          (WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                             : "was ended by signal " + std::to_string(WTERMSIG(status)));
    return -1;
}

int answer_by_editing(const std::string& path, std::ostream& out, std::ostream& err) {
    const fs::path p(path);
    auto original = read_whole(p);
    if (original.status == FileText::Status::Missing)
        return failure(err, "answer", "no pending questions (" + path + " does not exist)");
    if (original.status == FileText::Status::Error) return failure(err, "answer", original.error);
    if (auto parsed = parse_pending(original.data); !parsed)
        return failure(
            err, "answer",
            path + ": " + parsed.error().message + "\n(fix it by hand, or start over with: askhost questions clear)");
    // The person edits a copy beside the file: the file changes only once the edit checks out.
    std::string copy = (dir_of(p) / (p.stem().string() + ".edit-XXXXXX.json")).string();
    int fd = ::mkstemps(copy.data(), 5);
    if (fd < 0) return failure(err, "answer", "cannot create a copy to edit: " + errno_text(errno));
    ::fchmod(fd, 0600);
    ::close(fd);
    if (auto e = atomic_write(copy, original.data, 0600)) {
        ::unlink(copy.c_str());
        return failure(err, "answer", e->message);
    }
    std::string why;
    if (run_editor(copy, why) != 0) {
        ::unlink(copy.c_str());
        return failure(err, "answer", why + "; " + path + " is unchanged");
    }
    auto edited = read_whole(copy);
    if (edited.status != FileText::Status::Ok) {
        ::unlink(copy.c_str());
        return failure(err, "answer", "cannot read the edited copy: " + edited.error);
    }
    if (edited.data == original.data) {
        ::unlink(copy.c_str());
        out << "No changes; " << path << " is as it was.\n";
        return 0;
    }
    const std::string keep = "Your edit is kept in " + copy + "; fix it and run: askhost answer --file " + copy + "\n";
    if (auto parsed = parse_pending(edited.data); !parsed)
        return report_errors(err, path, {"your edit: " + parsed.error().message}, keep);
    rapidjson::Document doc;
    parse_json(edited.data, doc);
    DirLock lock(dir_of(p));
    auto current = load_pending(p);
    if (current.status != PendingLoad::Status::Ok)
        return report_errors(
            err, path,
            {current.status == PendingLoad::Status::Missing ? path + " was removed while you edited" : current.error},
            keep);
    auto res = apply_answers(current.file, doc);
    if (!res.errors.empty()) return report_errors(err, path, res.errors, keep);
    current.file.timestamp = iso8601_utc(now_ms());
    if (auto e = save_pending(p, current.file)) return failure(err, "answer", e->message + "\n" + keep);
    ::unlink(copy.c_str());
    print_answered(out, path, current.file, res);
    return 0;
}

}  // namespace

// The pending-questions file of this directory's project: .askhost/pending-questions.json here
// or in the nearest parent folder that has one, as git finds .git; else the default, here.
static std::string nearest_pending_file() {
    std::error_code ec;
    auto dir = std::filesystem::current_path(ec);
    for (int depth = 0; !ec && depth < 64; ++depth) {
        auto candidate = dir / default_pending_file;
        if (std::filesystem::exists(candidate, ec)) {
            // Shown as the person would type it: relative when it is here.
            return depth == 0 ? std::string(default_pending_file) : candidate.string();
        }
        if (!dir.has_parent_path() || dir.parent_path() == dir) break;
        dir = dir.parent_path();
    }
    return default_pending_file;
}

namespace {

constexpr cli::Option kAnswerOptions[] = {
    {.name = "file", .short_name = 'f', .value = "F", .help = "the JSON from a file; - reads standard input"},
    {.name = "text",
     .short_name = 't',
     .value = "T",
     .help = "your own words: each question gets the part that answers it, else the whole text"},
    {.name = "edit",
     .short_name = 'e',
     .help = "edit a copy in $VISUAL or $EDITOR; only its \"answer\" fields are taken"},
    {.name = "pending-file", .value = "PATH", .help = "another pending-questions file"},
};

constexpr cli::Option kQuestionsOptions[] = {
    {.name = "json", .help = "the file as askhost reads it"},
    {.name = "pending-file", .value = "PATH", .help = "another pending-questions file"},
};
constexpr std::string_view kQuestionsWords[] = {"show", "clear"};

constexpr cli::Option kHistoryOptions[] = {
    {.name = "session", .value = "ID", .help = "that session (default: the latest)"},
    {.name = "json", .help = "{\"session\", \"file\", \"exchanges\": [...], \"warnings\": [...]}"},
    {.name = "summary", .help = "one sentence per question, as at compaction"},
    {.name = "list", .help = "every session: id, number of asks, last activity"},
};

}  // namespace

const cli::Command kAnswerCommand{
    .name = "answer",
    .synopsis = "[JSON | --file F | --text T | --edit | -] [--pending-file PATH] | @FILE TEXT",
    .summary = "answer the pending-questions file",
    .about =
        "Answers the questions waiting in the pending-questions file (the nearest .askhost/ upwards, as git\n"
        "finds .git); the agent gets them when it asks again.",
    .options = kAnswerOptions,
    .operand = "JSON",
    .operand_help =
        "an array, one answer per question in order (a label, an option number, your\n"
        "own text, a list for multi-select, null to skip), or an object by question text;\n"
        "- reads it from standard input. @FILE TEXT: that pending file, answered in your own\n"
        "words (as --text)",
    // More than one is said below: the answers as one JSON argument, quoted.
    .max_operands = SIZE_MAX,
    .epilog = "Exit status: 0 answered, 1 not (the message says why; the file is unchanged), 2 usage.",
};

const cli::Command kQuestionsCommand{
    .name = "questions",
    .synopsis = "[show|clear] [--json] [--pending-file PATH]",
    .summary = "the pending questions",
    .options = kQuestionsOptions,
    .operand = "show|clear",
    .operand_help =
        "show: the questions waiting in the pending-questions file, with their options (the\n"
        "default); clear: remove the file (and temporary files a killed writer left)",
    .max_operands = 1,
    .words = kQuestionsWords,
    .epilog = "Exit status: 0 done, 1 not (the message says why), 2 usage.",
};

const cli::Command kHistoryCommand{
    .name = "history",
    .synopsis = "[--session ID] [--json | --summary] | --list",
    .summary = "what was asked and answered",
    .about = "What was asked and answered, from the session journal (docs/files.md).",
    .options = kHistoryOptions,
};

namespace {

// Where `askhost answer`'s answers come from: one of JSON, a file, the person's own words, an
// editor, stdin; and which pending-questions file they answer.
struct AnswerSource {
    std::string path;
    std::optional<std::string> json, file, text;
    bool edit = false, from_stdin = false;
};

// The command line read into an AnswerSource, or the usage error in it.
Result<AnswerSource> answer_source(const cli::Args& a) {
    AnswerSource src;
    src.path = a.value("pending-file").value_or(nearest_pending_file());
    if (src.path.empty()) return Error::usage("--pending-file: an empty path");
    src.file = a.value("file");
    src.text = a.value("text");
    src.edit = a.has("edit");
    const bool at_file = !a.operands.empty() && a.operands[0].size() > 1 && a.operands[0][0] == '@';
    if (at_file) {
        // The ask_user spec's form: askhost answer @FILE "your answers" (your own words, or JSON).
        if (a.value("pending-file")) return Error::usage("name the file once: @FILE or --pending-file PATH");
        if (src.file || src.text || src.edit)
            return Error::usage("@FILE takes your answers after it, not " + std::string(src.file   ? "--file"
                                                                                        : src.text ? "--text"
                                                                                                   : "--edit"));
        src.path = a.operands[0].substr(1);
        std::string words;
        for (std::size_t i = 1; i < a.operands.size(); ++i) words += (i > 1 ? " " : "") + a.operands[i];
        const auto first = words.find_first_not_of(" \t\n\r");
        if (first == std::string::npos)
            return Error::usage("what are the answers? askhost answer @" + src.path + " \"your own words\"");
        if (words[first] == '[' || words[first] == '{') src.json = std::move(words);
        else src.text = std::move(words);
    } else if (a.operands.size() > 1) {
        return Error::usage("give the answers as one JSON argument (quote it): '[\"a\", \"b\"]'");
    } else if (!a.operands.empty()) {
        if (a.operands[0] == "-") src.from_stdin = true;
        else src.json = a.operands[0];
    }
    const int sources =
        (src.json ? 1 : 0) + (src.file ? 1 : 0) + (src.text ? 1 : 0) + (src.edit ? 1 : 0) + (src.from_stdin ? 1 : 0);
    if (sources > 1) return Error::usage("give one of: JSON, --file F, --text T, --edit");
    if (sources == 0) {
        if (::isatty(0))
            return Error::usage("what are the answers? askhost answer '[\"...\", ...]' | --file F | --text T | --edit");
        src.from_stdin = true;
    }
    return src;
}

// The JSON text of the answers (JSON, a file, stdin), or why it cannot be read.
Result<std::string> answer_json_text(const AnswerSource& src) {
    if (src.json) return *src.json;
    if (src.file && *src.file != "-") {
        auto t = read_whole(*src.file);
        if (t.status == FileText::Status::Missing) return Error::failed(*src.file + ": no such file", *src.file);
        if (t.status == FileText::Status::Error) return Error::failed(t.error, *src.file);
        return std::move(t.data);
    }
    return read_all(0);  // --file -, or stdin
}

// A step's failure as the command says it: a usage error in the reader's shape, anything else as
// "askhost NAME: why"; its exit status.
int said(std::ostream& err, const cli::Command& command, const Error& e) {
    if (e.kind == Error::Kind::Usage) err << cli::usage_error_text(command, e);
    else err << "askhost " << command.name << ": " << e.message << "\n";
    return e.exit_status();
}

}  // namespace

int run_answer(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    auto read = read_args(args, kAnswerCommand, out, err);
    if (auto* status = std::get_if<int>(&read)) return *status;
    const auto source = answer_source(std::get<cli::Args>(read));
    if (!source) return said(err, kAnswerCommand, source.error());
    const AnswerSource& src = *source;
    const std::string& path = src.path;
    if (src.edit) return answer_by_editing(path, out, err);

    // Nothing to answer is said first: before waiting for answers on stdin, or finding fault with them.
    if (std::error_code ec; !fs::exists(path, ec) && !ec)
        return failure(err, "answer", "no pending questions (" + path + " does not exist)");
    rapidjson::Document doc;
    if (!src.text) {
        const auto input = answer_json_text(src);
        if (!input) return said(err, kAnswerCommand, input.error());
        if (auto e = parse_json(*input, doc)) {
            std::string what = src.file ? *src.file + ": " : std::string();
            return report_errors(err, path, {what + e->message},
                                 "To answer in your own words: askhost answer --text \"...\"\n");
        }
    }
    const fs::path p(path);
    DirLock lock(dir_of(p));
    auto loaded = load_pending(p);
    if (loaded.status == PendingLoad::Status::Missing)
        return failure(err, "answer", "no pending questions (" + path + " does not exist)");
    if (loaded.status == PendingLoad::Status::Error)
        return failure(err, "answer", loaded.error + "\n(fix it by hand, or start over with: askhost questions clear)");
    auto res = src.text ? apply_text(loaded.file, *src.text) : apply_answers(loaded.file, doc);
    if (!res.errors.empty()) return report_errors(err, path, res.errors);
    loaded.file.timestamp = iso8601_utc(now_ms());
    if (auto e = save_pending(p, loaded.file)) return failure(err, "answer", e->message);
    print_answered(out, path, loaded.file, res);
    return 0;
}

// ---- askhost questions ----

namespace {

void show_questions(std::ostream& out, const std::string& path, const PendingFile& f) {
    const auto open = f.open();
    const std::size_t used = f.questions.size() - open.size();
    if (open.empty()) {
        out << "No pending questions";
        if (used)
            out << " (" << used << " answered " << (used == 1 ? "question was" : "questions were")
                << " already handed to the agent; askhost questions clear removes them)";
        out << ".\n";
        return;
    }
    out << "Pending questions in " << path << "\n";
    out << "(session " << shown(f.session_id.empty() ? "?" : f.session_id);
    if (!f.agent.empty()) out << ", asked by " << shown(f.agent);
    if (!f.timestamp.empty()) out << ", " << shown(f.timestamp);
    out << ")\n";
    std::string example;
    bool all_answered = true;
    bool in_face = false;  // a permission is open: answered in a face only
    for (std::size_t pos = 0; pos < open.size(); ++pos) {
        const PendingQuestion& pq = f.questions[open[pos]];
        const Question& q = pq.question;
        out << "\n" << (pos + 1) << ". ";
        if (!q.header.empty()) out << shown(q.header) << ": ";
        if (pq.permission) {
            show_permission(out, *pq.permission, "     ");
        } else {
            out << shown(q.question);
            if (q.multi_select) out << "  (choose one or more)";
            out << "\n";
        }
        if (q.options.empty()) {
            out << "     (your own text)\n";
        } else {
            for (std::size_t o = 0; o < q.options.size(); ++o) {
                out << "     " << (o + 1) << ") " << shown(q.options[o].label);
                if (!q.options[o].description.empty()) out << " - " << shown(q.options[o].description);
                out << "\n";
            }
            out << "     or your own text\n";
        }
        if (pq.permission) {
            // The agent can write this file: a permission's answer here is not taken (issue 45).
            out << "   answer it in a face (the editor, askhost tui, askhost web): not through this file\n";
            in_face = true;
            example += (pos ? ", " : "");
            example += "null";
            continue;
        }
        out << "   answer: ";
        if (!pq.answer) {
            out << "(none yet)\n";
            all_answered = false;
        } else {
            out << shown(spec_text(*pq.answer));
            auto r = resolve_answer(q, *pq.answer);
            const std::string wrong =
                r ? answer_disagreement(q, *r, pq.selected_option) : std::string(r.error().message);
            if (!wrong.empty()) {
                out << "  (does not fit: " << shown(wrong) << ")";
                all_answered = false;
            }
            out << "\n";
        }
        example += (pos ? ", " : "");
        example += q.options.empty() ? "\"your answer\"" : q.multi_select ? "[1, 2]" : "1";
    }
    if (used)
        out << "\n(" << used << " earlier " << (used == 1 ? "answer was" : "answers were")
            << " already handed to the agent.)\n";
    out << "\n";
    if (in_face && all_answered) {
        out << "A tool permission waits: answer it in a face (the editor, askhost tui, askhost web).\n";
        return;
    }
    if (all_answered) {
        out << "All answered. Run the agent again to hand the answers over.\n";
        return;
    }
    out << "Answer in order (option numbers or labels, a list for several, any other text as is):\n"
        << "  askhost answer '[" << example << "]'\n"
        << "or edit the answers: askhost answer --edit\n"
        << "or in your own words: askhost answer --text \"...\"\n"
        << "Then run the agent again.\n";
}

}  // namespace

int run_questions(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    auto read = read_args(args, kQuestionsCommand, out, err);
    if (auto* status = std::get_if<int>(&read)) return *status;
    const cli::Args& a = std::get<cli::Args>(read);
    const std::string path = a.value("pending-file").value_or(nearest_pending_file());
    if (path.empty()) return usage(err, kQuestionsCommand, "--pending-file: an empty path");
    const std::string action = a.operands.empty() ? "show" : a.operands[0];
    const bool json = a.has("json");
    const fs::path p(path);
    if (action == "clear") {
        DirLock lock(dir_of(p));
        auto loaded = load_pending(p);
        if (loaded.status == PendingLoad::Status::Missing) {
            out << "No pending questions.\n";
            return 0;
        }
        if (::unlink(p.c_str()) != 0)
            return failure(err, "questions", "cannot remove " + path + ": " + errno_text(errno));
        // Temporary files a killed writer left behind.
        std::error_code ec;
        const std::string prefix = "." + p.filename().string() + ".tmp-";
        for (const auto& e : fs::directory_iterator(dir_of(p), ec))
            if (e.path().filename().string().rfind(prefix, 0) == 0) fs::remove(e.path(), ec);
        if (loaded.status == PendingLoad::Status::Error) out << "Removed " << path << " (it was not readable).\n";
        else out << "Removed " << path << " (" << loaded.file.open().size() << " open questions).\n";
        return 0;
    }
    auto loaded = load_pending(p);
    if (loaded.status == PendingLoad::Status::Missing) {
        if (json) out << "null\n";
        else out << "No pending questions.\n";
        return 0;
    }
    if (loaded.status == PendingLoad::Status::Error) return failure(err, "questions", loaded.error);
    if (json) out << serialize_pending(loaded.file);
    else show_questions(out, path, loaded.file);
    return 0;
}

// ---- askhost history ----

namespace {

struct HistoryArgs {
    std::string session;
    bool json = false, summary = false, list = false;
};

std::string describe_outcome(const Exchange& e) {
    if (e.interrupted()) return "interrupted (no outcome recorded: askhost stopped while asking)";
    if (e.outcome == "answered") {
        if (e.source == "pending-file") return "answered from the pending-questions file";
        if (e.source == "answers-flag") return "answered by --answers";
        return "answered";
    }
    if (e.outcome == "pending") return "pending in " + e.pending_file;
    if (e.outcome == "cancelled") return e.detail.empty() ? "cancelled" : "cancelled: " + e.detail;
    if (e.outcome == "timedOut") return "timed out";
    if (e.outcome == "connectionLost") return "connection lost";
    if (e.outcome == "refused") return "refused: " + e.detail;
    if (e.outcome == "withdrawn") return "withdrawn (the agent stopped asking)";
    return e.outcome;
}

void write_exchange_json(JsonWriter& w, const Exchange& e) {
    auto s = [&](const char* k, const std::string& v) {
        w.Key(k);
        w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
    };
    w.StartObject();
    s("run", e.run);
    s("askId", e.ask_id);
    w.Key("askedAt");
    w.Int64(e.asked_at);
    s("mode", e.mode);
    s("agent", e.agent);
    w.Key("outcome");
    if (e.interrupted()) w.Null();
    else w.String(e.outcome.data(), static_cast<rapidjson::SizeType>(e.outcome.size()));
    if (!e.source.empty()) s("source", e.source);
    if (!e.replay_of.empty()) s("replayOf", e.replay_of);
    write_questions_json(w, e.questions);
    if (e.outcome == "answered") {
        write_answers_json(w, e.answers);
        w.Key("answeredAt");
        w.Int64(e.finished_at);
    }
    if (!e.pending_file.empty()) s("pendingFile", e.pending_file);
    if (!e.detail.empty()) s("detail", e.detail);
    if (!e.metadata_json.empty()) {
        w.Key("metadata");
        w.RawValue(e.metadata_json.data(), e.metadata_json.size(), rapidjson::kObjectType);
    }
    w.EndObject();
}

}  // namespace

int run_history(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    auto read = read_args(args, kHistoryCommand, out, err);
    if (auto* status = std::get_if<int>(&read)) return *status;
    const cli::Args& a = std::get<cli::Args>(read);
    HistoryArgs h;
    h.session = a.value("session").value_or("");
    if (a.has("session") && !valid_session_id(h.session))
        return usage(err, kHistoryCommand, "--session: '" + h.session + "' is not a session id");
    h.json = a.has("json");
    h.summary = a.has("summary");
    h.list = a.has("list");
    if (h.json + h.summary + h.list > 1) return usage(err, kHistoryCommand, "choose one of --json, --summary, --list");
    const fs::path dir = sessions_dir();
    if (dir.empty()) return failure(err, "history", "no state directory: set XDG_STATE_HOME or HOME");

    std::vector<std::pair<fs::file_time_type, fs::path>> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".jsonl") files.emplace_back(e.last_write_time(ec), e.path());
    std::sort(files.begin(), files.end());

    if (h.list) {
        if (files.empty()) out << "No sessions yet (journals are kept in " << dir.string() << ").\n";
        for (const auto& [t, f] : files) {
            auto c = read_journal(f);
            std::int64_t last = 0;
            for (const auto& e : c.exchanges) last = std::max({last, e.asked_at, e.finished_at});
            out << f.stem().string() << "  " << c.exchanges.size() << (c.exchanges.size() == 1 ? " ask" : " asks");
            if (last) out << "  last " << iso8601_utc(last);
            out << "\n";
        }
        return 0;
    }
    fs::path file;
    if (!h.session.empty()) {
        file = journal_path(dir, h.session);
        if (!fs::exists(file, ec))
            return failure(err, "history",
                           "no session '" + h.session + "' (journals are in " + dir.string() +
                               "; askhost history --list shows them)");
    } else if (files.empty()) {
        if (h.json) out << "{\"session\":null,\"exchanges\":[]}\n";
        else if (!h.summary) out << "No sessions yet (journals are kept in " << dir.string() << ").\n";
        return 0;
    } else {
        file = files.back().second;  // the latest session
    }
    const std::string session = file.stem().string();
    auto contents = read_journal(file);
    for (const auto& w : contents.warnings) err << "askhost history: warning: " << file.string() << ": " << w << "\n";

    if (h.summary) {
        std::string s = summary_text(contents.exchanges);
        if (!s.empty()) out << s << "\n";
        return 0;
    }
    if (h.json) {
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        w.StartObject();
        w.Key("session");
        w.String(session.c_str());
        w.Key("file");
        w.String(file.c_str());
        w.Key("exchanges");
        w.StartArray();
        for (const auto& e : contents.exchanges) write_exchange_json(w, e);
        w.EndArray();
        w.Key("warnings");
        w.StartArray();
        for (const auto& x : contents.warnings) w.String(x.c_str());
        w.EndArray();
        w.EndObject();
        out << buf.GetString() << "\n";
        return 0;
    }
    out << "Session " << session << "  (" << file.string() << ")\n";
    if (contents.exchanges.empty()) out << "\nNo questions were asked.\n";
    for (const auto& e : contents.exchanges) {
        out << "\n"
            << iso8601_utc(e.asked_at) << "  " << shown(e.agent.empty() ? "agent" : e.agent) << " (" << e.mode
            << "): " << shown(describe_outcome(e)) << "\n";
        if (!e.replay_of.empty()) out << "    asked again after an interruption (" << e.replay_of << ")\n";
        for (const auto& q : e.questions) {
            out << "    " << shown(q.question);
            for (const auto& a : e.answers) {
                if (a.question != q.question) continue;
                out << "  ->  " << shown(join_values(a.values));
                if (a.was_custom) out << "  (typed)";
            }
            out << "\n";
        }
    }
    return 0;
}

}  // namespace askhost::store
