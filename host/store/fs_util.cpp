#include "store/fs_util.hpp"

#include "core/fd_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace askhost::store {

namespace fs = std::filesystem;

std::string errno_text(int err) { return std::strerror(err); }

Status make_dirs(const fs::path& dir, unsigned mode) {
    if (dir.empty()) return std::nullopt;
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return std::nullopt;
        return Error::failed(dir.string() + ": exists and is not a directory", dir.string());
    }
    if (dir.has_parent_path() && dir.parent_path() != dir) {
        if (auto err = make_dirs(dir.parent_path(), mode)) return err;
    }
    if (::mkdir(dir.c_str(), static_cast<mode_t>(mode)) != 0 && errno != EEXIST)
        return Error::failed("cannot create " + dir.string() + ": " + errno_text(errno), dir.string());
    return std::nullopt;
}

void mark_askhost_folder(const fs::path& dir) {
    if (dir.filename() != ".askhost") return;
    const auto ignore = dir / ".gitignore";
    std::error_code ec;
    if (!fs::exists(ignore, ec) && !ec)
        atomic_write(ignore, "# Written by askhost: nothing in this folder belongs in version control.\n*\n", 0644);
}

Status atomic_write(const fs::path& file, std::string_view data, unsigned mode) {
    const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
    if (auto err = make_dirs(dir, 0700)) return err;
    std::string tmpl = (dir / ("." + file.filename().string() + ".tmp-XXXXXX")).string();
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
        return Error::failed("cannot create a temporary file in " + dir.string() + ": " + errno_text(errno),
                             file.string());
    auto fail = [&](const std::string& what) -> Status {
        int err = errno;
        ::close(fd);
        ::unlink(tmpl.c_str());
        return Error::failed(what + " " + tmpl + ": " + errno_text(err), file.string());
    };
    if (::fchmod(fd, static_cast<mode_t>(mode)) != 0) return fail("cannot chmod");
    if (!write_all(fd, data)) return fail("cannot write");
    if (::fsync(fd) != 0) return fail("cannot fsync");
    if (::close(fd) != 0) {
        int err = errno;
        ::unlink(tmpl.c_str());
        return Error::failed("cannot close " + tmpl + ": " + errno_text(err), file.string());
    }
    if (::rename(tmpl.c_str(), file.c_str()) != 0) {
        int err = errno;
        ::unlink(tmpl.c_str());
        return Error::failed("cannot rename " + tmpl + " to " + file.string() + ": " + errno_text(err), file.string());
    }
    // The rename itself is durable only once the directory is synced.
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return std::nullopt;
}

std::optional<std::string> read_last_lines(const fs::path& file, std::size_t max_bytes) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat st {};
    std::optional<std::string> out;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        const auto size = static_cast<std::size_t>(st.st_size);
        const std::size_t from = size > max_bytes ? size - max_bytes : 0;
        std::string text(size - from, '\0');
        std::size_t got = 0;
        while (got < text.size()) {
            const ssize_t n = ::pread(fd, text.data() + got, text.size() - got, static_cast<off_t>(from + got));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            got += static_cast<std::size_t>(n);
        }
        text.resize(got);
        // Cut inside a line: that line's end is not a record of its own.
        if (from > 0) text.erase(0, std::min(text.size(), text.find('\n') + 1));
        out = std::move(text);
    }
    ::close(fd);
    return out;
}

FileText read_whole(const fs::path& file) {
    FileText out;
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            out.status = FileText::Status::Missing;
        } else {
            out.status = FileText::Status::Error;
            out.error = "cannot read " + file.string() + ": " + errno_text(errno);
        }
        return out;
    }
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            out.status = FileText::Status::Error;
            out.error = "cannot read " + file.string() + ": " + errno_text(errno);
            out.data.clear();
            break;
        }
        if (n == 0) break;
        out.data.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return out;
}

DirLock::DirLock(const fs::path& dir) {
    fd_ = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) return;
    while (::flock(fd_, LOCK_EX) != 0) {
        if (errno == EINTR) continue;
        ::close(fd_);
        fd_ = -1;
        return;
    }
}

DirLock::~DirLock() {
    if (fd_ < 0) return;
    // Unlocked first: a close releases the lock only when no copy of the descriptor is left, and a
    // process forked meanwhile (a child between fork and exec, a test's forked editor) holds one.
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
}

std::int64_t now_ms() {
    struct timespec ts {};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

std::string iso8601_utc(std::int64_t ms) {
    std::time_t t = static_cast<std::time_t>(ms / 1000);
    struct tm tm {};
    char buf[64];
    // A time from a hand-edited file may be out of any calendar's range.
    if (!::gmtime_r(&t, &tm) || std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        return "(no valid time)";
    return buf;
}

std::string line_column(std::string_view text, std::size_t offset) {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++col;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

}  // namespace askhost::store
