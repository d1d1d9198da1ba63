#include "workspace_files.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acp_errors.hpp"
#include "core/fd_io.hpp"
#include "core/text/utf8.hpp"
#include "transport/rpc_errors.hpp"

namespace askhost::acp {
namespace fs = std::filesystem;
namespace {

std::string valid_utf8(std::string s) {
    bool ok = true;
    for (std::size_t i = 0; i < s.size() && ok;) {
        const auto step = utf8::decode(s, i);
        ok = step.ok;
        i += step.len;
    }
    if (ok) return s;
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        const auto step = utf8::decode(s, i);
        utf8::append(out, step.cp);
        i += step.len;
    }
    return out;
}

Error sys_error(const std::string& what, const fs::path& p, int err) {
    return Error::rpc(err == ENOENT ? acp_error::resource_not_found : rpc_error::internal_error,
                      what + " " + p.string() + ": " + std::strerror(err));
}

}  // namespace

WorkspaceFiles::WorkspaceFiles(const fs::path& root) {
    std::error_code ec;
    root_ = fs::weakly_canonical(root, ec);
    if (ec) root_ = root.lexically_normal();
}

Result<fs::path> WorkspaceFiles::resolve(std::string_view path) const {
    if (path.empty()) return Error::rpc(rpc_error::invalid_params, "path: required");
    if (path.find('\0') != std::string_view::npos)
        return Error::rpc(rpc_error::invalid_params, "path: contains a NUL byte");
    fs::path p(path);
    if (!p.is_absolute()) return Error::rpc(rpc_error::invalid_params, std::string(path) + ": not an absolute path");
    std::error_code ec;
    fs::path real = fs::weakly_canonical(p, ec);
    if (ec) return Error::rpc(rpc_error::internal_error, std::string(path) + ": " + ec.message());
    fs::path rel = real.lexically_relative(root_);
    if (rel.empty() || *rel.begin() == "..")
        return Error::rpc(rpc_error::invalid_params,
                          std::string(path) + ": outside the working directory " + root_.string());
    return real;
}

Result<std::string> WorkspaceFiles::read(std::string_view path, std::optional<std::size_t> line,
                                         std::optional<std::size_t> limit) const {
    auto resolved = resolve(path);
    if (!resolved) return resolved.error();
    const fs::path& p = *resolved;
    int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return sys_error("cannot read", p, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Error::rpc(rpc_error::invalid_params, "cannot read " + p.string() + ": not a regular file");
    }
    if (static_cast<std::size_t>(st.st_size) > max_read_bytes) {
        ::close(fd);
        return Error::rpc(rpc_error::invalid_params, "cannot read " + p.string() + ": " + std::to_string(st.st_size) +
                                                         " bytes, at most " + std::to_string(max_read_bytes));
    }
    std::string data;
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int err = errno;
            ::close(fd);
            return sys_error("cannot read", p, err);
        }
        if (n == 0) break;
        data.append(buf, static_cast<std::size_t>(n));
        if (data.size() > max_read_bytes) {
            ::close(fd);
            return Error::rpc(rpc_error::invalid_params,
                              "cannot read " + p.string() + ": more than " + std::to_string(max_read_bytes) + " bytes");
        }
    }
    ::close(fd);
    const std::size_t first = line && *line > 0 ? *line : 1;
    if (first > 1 || limit) {
        std::size_t start = 0;
        for (std::size_t l = 1; l < first && start < data.size(); ++l) {
            std::size_t nl = data.find('\n', start);
            start = nl == std::string::npos ? data.size() : nl + 1;
        }
        std::size_t end = data.size();
        if (limit) {
            end = start;
            for (std::size_t l = 0; l < *limit && end < data.size(); ++l) {
                std::size_t nl = data.find('\n', end);
                end = nl == std::string::npos ? data.size() : nl + 1;
            }
        }
        data = data.substr(start, end - start);
    }
    return valid_utf8(std::move(data));
}

Status WorkspaceFiles::write(std::string_view path, std::string_view content) const {
    auto resolved = resolve(path);
    if (!resolved) return resolved.error();
    const fs::path& p = *resolved;
    if (p == root_)
        return Error::rpc(rpc_error::invalid_params, "cannot write " + p.string() + ": it is the working directory");
    std::error_code ec;
    fs::create_directories(p.parent_path(), ec);
    if (ec)
        return Error::rpc(rpc_error::internal_error, "cannot create " + p.parent_path().string() + ": " + ec.message());
    struct stat st {};
    const bool exists = ::stat(p.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode))
        return Error::rpc(rpc_error::invalid_params, "cannot write " + p.string() + ": not a regular file");

    fs::path tmp = p.parent_path() / ("." + p.filename().string() + ".askhost-" + std::to_string(::getpid()) + "-" +
                                      std::to_string(++tmp_counter_));
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0) return sys_error("cannot write", tmp, errno);
    bool ok = write_all(fd, content);
    int err = errno;
    if (ok && exists) ::fchmod(fd, st.st_mode & 07777);
    if (::close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok && ::rename(tmp.c_str(), p.c_str()) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        ::unlink(tmp.c_str());
        return sys_error("cannot write", p, err);
    }
    return std::nullopt;
}

}  // namespace askhost::acp
