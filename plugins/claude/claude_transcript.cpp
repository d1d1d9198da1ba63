#include "claude_transcript.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

#include "claude_tools.hpp"
#include "common/question_record.hpp"
#include "json/json_access.hpp"
#include "store/fs_util.hpp"

namespace askhost::claude {

namespace fs = std::filesystem;

namespace {

// Appended lines past this are not looked at: a tool's result comes within them.
constexpr std::size_t kMaxSince = 4u << 20;
// A tool_use line is the newest or nearly so: the end of a transcript is enough.
constexpr std::size_t kToolUseTail = 4u << 20;

// Calls `each(entry, block)` for each content block (message.content[i]) of each line of `jsonl`
// that holds one of `cheap` (the others are not parsed), until it returns true; says whether it did.
template <class Each>
bool find_block(std::string_view jsonl, std::initializer_list<std::string_view> cheap, Each each) {
    std::size_t pos = 0;
    while (pos < jsonl.size()) {
        const std::string_view line = store::next_line(jsonl, pos);
        if (std::none_of(cheap.begin(), cheap.end(),
                         [&](std::string_view c) { return line.find(c) != std::string_view::npos; }))
            continue;
        rapidjson::Document entry;
        if (json::parse(entry, line) || !entry.IsObject()) continue;
        const auto* message = json::member(entry, "message");
        const auto* content = message ? json::member(*message, "content") : nullptr;
        if (!content || !content->IsArray()) continue;
        for (const auto& block : content->GetArray())
            if (each(entry, block)) return true;
    }
    return false;
}

bool sidechain(const rapidjson::Value& entry) {
    const auto* side = json::member(entry, "isSidechain");
    return side && side->IsBool() && side->GetBool();
}

std::string text_of(const rapidjson::Value& content) {
    if (content.IsString()) return std::string(json::str(content));
    std::string out;
    if (content.IsArray())
        for (const auto& c : content.GetArray()) out += json::string_of(c, "text");
    return out;
}

bool id_chars(std::string_view s, std::size_t max) {
    return !s.empty() && s.size() <= max && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

// The end of a transcript found by walking a folder: a regular file of its own, not a link.
std::string found_tail(const fs::path& file) {
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(file, ec))) return {};
    return store::read_last_lines(file, kToolUseTail).value_or("");
}

}  // namespace

std::string transcript_since(const fs::path& file, off_t from) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {};
    std::string out;
    char buf[65536];
    if (::lseek(fd, from, SEEK_SET) == from) {
        while (out.size() < kMaxSince) {
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            out.append(buf, static_cast<std::size_t>(n));
        }
    }
    ::close(fd);
    return out;
}

bool holds_tool_result(std::string_view jsonl) {
    return find_block(jsonl, {"tool_result"}, [](const rapidjson::Value&, const rapidjson::Value& block) {
        return json::string_of(block, "type") == "tool_result";
    });
}

ToolUse tool_use_in(std::string_view jsonl, std::string_view id) {
    const std::string needle = "\"id\":\"" + std::string(id) + "\"";
    ToolUse found = ToolUse::None;
    find_block(jsonl, {needle}, [&](const rapidjson::Value& entry, const rapidjson::Value& block) {
        if (json::string_of(block, "type") != "tool_use" || json::string_of(block, "id") != id) return false;
        found = sidechain(entry) ? ToolUse::Sidechain : ToolUse::Main;
        return true;
    });
    return found;
}

std::vector<store::Exchange> exchanges_in_transcript(std::string_view jsonl) {
    std::vector<store::Exchange> out;
    std::map<std::string, std::vector<Question>> asked;  // tool_use id -> its questions
    find_block(jsonl, {"ask_user_question", "AskUserQuestion", "tool_result"},
               [&](const rapidjson::Value& entry, const rapidjson::Value& block) {
                   if (sidechain(entry)) return false;
                   const std::string type = json::string_of(block, "type");
                   if (type == "tool_use" && is_question_tool(json::string_of(block, "name"))) {
                       if (const auto* input = json::member(block, "input"))
                           asked[json::string_of(block, "id")] = questions_of_call(*input);
                       return false;
                   }
                   if (type != "tool_result") return false;
                   auto it = asked.find(json::string_of(block, "tool_use_id"));
                   if (it == asked.end() || it->second.empty()) return false;
                   store::Exchange e;
                   e.agent = "claude";
                   e.questions = std::move(it->second);
                   asked.erase(it);
                   const auto* result_content = json::member(block, "content");
                   const std::string text = result_content ? text_of(*result_content) : std::string();
                   const auto* is_error = json::member(block, "is_error");
                   auto r = read_result(e.questions, json::member(entry, "toolUseResult"), text,
                                        is_error && is_error->IsBool() && is_error->GetBool());
                   const std::string_view outcome = summary_outcome(r.kind);
                   if (outcome.empty()) return false;  // not asked, or nothing to tell
                   e.outcome = outcome;
                   e.answers = std::move(r.answers);
                   e.pending_file = std::move(r.pending_file);
                   out.push_back(std::move(e));
                   return false;
               });
    return out;
}

std::optional<ClaudeTranscripts> ClaudeTranscripts::from_environment() {
    const char* session = std::getenv("CLAUDE_CODE_SESSION_ID");
    if (!session || !id_chars(session, 128)) return std::nullopt;
    fs::path base;
    if (const char* dir = std::getenv("CLAUDE_CONFIG_DIR"); dir && *dir == '/') base = dir;
    else if (const char* home = std::getenv("HOME"); home && *home == '/') base = fs::path(home) / ".claude";
    else return std::nullopt;
    return ClaudeTranscripts{base / "projects", session};
}

bool ClaudeTranscripts::session_written() const {
    std::error_code ec;
    for (fs::directory_iterator it(projects, ec), end; !ec && it != end; it.increment(ec)) {
        // A sub-agent's transcript can come first: Claude Code may not have flushed the
        // session's own file when the sub-agent calls.
        std::error_code probe;
        if (fs::is_regular_file(it->path() / (session_id + ".jsonl"), probe) ||
            fs::is_directory(it->path() / session_id / "subagents", probe))
            return true;
    }
    return false;
}

ClaudeTranscripts::Caller ClaudeTranscripts::caller_of(std::string_view tool_use_id) const {
    if (!id_chars(tool_use_id, 256)) return Caller::Unknown;
    std::error_code ec;
    for (fs::directory_iterator it(projects, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path folder = it->path();
        // A sub-agent's own transcript (Claude Code 2.1): every line of it is the sub-agent's.
        std::error_code sub_ec;
        for (fs::directory_iterator s(folder / session_id / "subagents", sub_ec), send; !sub_ec && s != send;
             s.increment(sub_ec)) {
            if (s->path().extension() != ".jsonl") continue;
            if (tool_use_in(found_tail(s->path()), tool_use_id) != ToolUse::None) return Caller::Subagent;
        }
        // The session's transcript: older versions wrote a sub-agent's lines there, marked.
        switch (tool_use_in(found_tail(folder / (session_id + ".jsonl")), tool_use_id)) {
            case ToolUse::Main: return Caller::Main;
            case ToolUse::Sidechain: return Caller::Subagent;
            case ToolUse::None: break;
        }
    }
    return Caller::Unknown;
}

}  // namespace askhost::claude
