// Small POSIX file helpers for state that must survive a crash: atomic replace, private dirs, locks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace askhost::store {

// Creates `dir` and any missing parents with `mode` (existing ones are left as they are).
Status make_dirs(const std::filesystem::path& dir, unsigned mode = 0700);

// Replaces `file` so that a reader sees the old content or the new, never a mix: a temporary file
// in the same directory, written, fsynced, chmod `mode`, renamed over `file`, directory fsynced.
// Missing parent directories are created with mode 0700.
Status atomic_write(const std::filesystem::path& file, std::string_view data, unsigned mode = 0600);

// askhost's own folder in a project stays out of its git history (as .venv or node_modules tools
// do): when `dir` is named .askhost, a .gitignore holding `*`, written once, never over the
// person's own.
void mark_askhost_folder(const std::filesystem::path& dir);

struct FileText {
    enum class Status { Ok, Missing, Error } status = Status::Ok;
    std::string data;   // Ok
    std::string error;  // Error: e.g. "cannot read x: Permission denied"
};
FileText read_whole(const std::filesystem::path& file);

// The end of an agent's record of its session (JSON lines), at most `max_bytes` of it and only
// whole lines: reads the tail alone, however large the file. Nothing when it cannot be read.
std::optional<std::string> read_last_lines(const std::filesystem::path& file, std::size_t max_bytes);

// The line of `text` that starts at `pos`, without its '\n', with `pos` moved past it: how the
// hooks walk the JSON lines read_last_lines gives them (`while (pos < text.size())`).
inline std::string_view next_line(std::string_view text, std::size_t& pos) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    return line;
}

// An exclusive flock(2) on a directory, held for the object's lifetime (askhost processes that
// read-modify-write one file in it take turns; editors by hand are not covered, and need not be).
class DirLock {
public:
    explicit DirLock(const std::filesystem::path& dir);
    ~DirLock();
    DirLock(const DirLock&) = delete;
    DirLock& operator=(const DirLock&) = delete;
    bool locked() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

// Milliseconds since the Unix epoch, and the ISO 8601 UTC form ("2026-02-04T22:16:32Z").
std::int64_t now_ms();
std::string iso8601_utc(std::int64_t ms);

// "line 3, column 7" for a byte offset in text.
std::string line_column(std::string_view text, std::size_t offset);

// The "why" of errno, e.g. "Permission denied".
std::string errno_text(int err);

}  // namespace askhost::store
