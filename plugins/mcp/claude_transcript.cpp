#include "claude_transcript.hpp"

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace askhost::mcp {

namespace fs = std::filesystem;

namespace {

// A tool_use line is the newest or nearly so: the end of a transcript is enough.
constexpr off_t kTail = 4 << 20;

bool id_chars(std::string_view s, std::size_t max) {
    return !s.empty() && s.size() <= max && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

std::string tail_of(const fs::path& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return {};
    struct stat st {};
    std::string out;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        const off_t from = st.st_size > kTail ? st.st_size - kTail : 0;
        out.resize(static_cast<std::size_t>(st.st_size - from));
        std::size_t got = 0;
        while (got < out.size()) {
            const ssize_t n = ::pread(fd, out.data() + got, out.size() - got, from + static_cast<off_t>(got));
            if (n <= 0) break;
            got += static_cast<std::size_t>(n);
        }
        out.resize(got);
    }
    ::close(fd);
    return out;
}

enum class Found { No, Main, Sidechain };

// The line of `text` holding the tool_use `needle`, and whether it is a sidechain's.
Found find_tool_use(const std::string& text, const std::string& needle) {
    const auto at = text.rfind(needle);
    if (at == std::string::npos) return Found::No;
    const auto begin = text.rfind('\n', at);
    const auto end = text.find('\n', at);
    const std::string_view line = std::string_view(text).substr(
        begin == std::string::npos ? 0 : begin + 1, (end == std::string::npos ? text.size() : end) - (begin + 1));
    return line.find("\"isSidechain\":true") != std::string_view::npos ? Found::Sidechain : Found::Main;
}

}  // namespace

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
    const std::string needle = "\"id\":\"" + std::string(tool_use_id) + "\"";
    std::error_code ec;
    for (fs::directory_iterator it(projects, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path folder = it->path();
        // A sub-agent's own transcript (Claude Code 2.1): every line of it is the sub-agent's.
        std::error_code sub_ec;
        for (fs::directory_iterator s(folder / session_id / "subagents", sub_ec), send; !sub_ec && s != send;
             s.increment(sub_ec)) {
            if (s->path().extension() != ".jsonl") continue;
            if (find_tool_use(tail_of(s->path()), needle) != Found::No) return Caller::Subagent;
        }
        // The session's transcript: older versions wrote a sub-agent's lines there, marked.
        switch (find_tool_use(tail_of(folder / (session_id + ".jsonl")), needle)) {
            case Found::Main: return Caller::Main;
            case Found::Sidechain: return Caller::Subagent;
            case Found::No: break;
        }
    }
    return Caller::Unknown;
}

}  // namespace askhost::mcp
