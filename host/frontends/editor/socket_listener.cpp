#include "frontends/editor/socket_listener.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace askhost {

namespace {

Status private_dir(const std::string& dir) {
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        return Error::failed(dir + ": " + std::strerror(errno), dir);
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return Error::failed(dir + ": not a directory", dir);
    if (st.st_uid != ::geteuid()) return Error::failed(dir + ": owned by another user", dir);
    if ((st.st_mode & 0777) != 0700 && ::chmod(dir.c_str(), 0700) != 0)
        return Error::failed(dir + ": cannot make it private: " + std::strerror(errno), dir);
    return std::nullopt;
}

}  // namespace

Result<std::string> socket_directory() {
    Status tried;
    auto in = [&](const std::string& runtime) -> std::optional<std::string> {
        std::string dir = runtime + "/askhost";
        if (dir.size() >= 80) return std::nullopt;
        tried = private_dir(dir);
        if (!tried) return dir;
        return std::nullopt;
    };
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    if (runtime && *runtime == '/') {
        if (auto dir = in(runtime)) return *dir;
    } else {
        // Agents that clean their MCP servers' environment (Codex keeps HOME, PATH and a few more)
        // must still find the registry an editor's host wrote under /run/user/UID: use that
        // folder when it is the user's own and private, as a login session makes it.
        std::string user_runtime = "/run/user/" + std::to_string(::geteuid());
        struct stat st {};
        if (::lstat(user_runtime.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() &&
            (st.st_mode & 077) == 0) {
            if (auto dir = in(user_runtime)) return *dir;
        }
    }
    std::string dir = "/tmp/askhost-" + std::to_string(::geteuid());
    Status last = private_dir(dir);
    if (!last) return dir;
    // Both places said no: the first one's reason, then the fallback's.
    if (tried) last->message = tried->message + "; " + last->message;
    return *std::move(last);
}

SocketListener::SocketListener(boost::asio::io_context& io, OnClient on_client)
    : io_(io), on_client_(std::move(on_client)), acceptor_(io) {}

SocketListener::~SocketListener() {
    lifetime_.end();
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    if (!path_.empty()) ::unlink(path_.c_str());
}

Status SocketListener::listen() {
    auto dir = socket_directory();
    if (!dir) return Error::failed("no private directory for the socket: " + dir.error().message, dir.error().path);
    std::string path = *dir + "/host-" + std::to_string(::getpid()) + ".sock";
    if (path.size() >= sizeof(sockaddr_un::sun_path)) return Error::failed("socket path too long: " + path, path);
    // Bound under a temporary name and renamed once it listens: whoever sees the socket can connect.
    const std::string temp = *dir + "/.host-" + std::to_string(::getpid()) + ".sock.tmp";
    ::unlink(temp.c_str());  // stale files of a dead host with our pid
    ::unlink(path.c_str());
    boost::system::error_code ec;
    boost::asio::local::stream_protocol::endpoint ep(temp);
    acceptor_.open(ep.protocol(), ec);
    if (!ec) {
        mode_t old = ::umask(0177);  // the socket is born owner-only
        acceptor_.bind(ep, ec);
        ::umask(old);
    }
    if (!ec) acceptor_.listen(16, ec);
    if (!ec && ::rename(temp.c_str(), path.c_str()) != 0)
        ec = boost::system::error_code(errno, boost::system::system_category());
    if (ec) {
        ::unlink(temp.c_str());
        return Error::failed("cannot listen on " + path + ": " + ec.message(), path);
    }
    path_ = path;
    accept();
    return std::nullopt;
}

void SocketListener::accept() {
    acceptor_.async_accept([this, alive = lifetime_.token()](const boost::system::error_code& ec,
                                                             boost::asio::local::stream_protocol::socket sock) {
        if (!alive) return;
        if (ec) {
            if (ec == boost::asio::error::operation_aborted) return;
            if (on_log) on_log("socket accept failed: " + ec.message());
        } else {
            ucred cred{};
            socklen_t len = sizeof cred;
            int fd = sock.native_handle();
            if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != ::geteuid()) {
                if (on_log) on_log("refused a socket client of another user (uid " + std::to_string(cred.uid) + ")");
            } else {
                int in = sock.release();
                int out = ::dup(in);
                if (out < 0) {
                    ::close(in);
                } else {
                    on_client_(std::make_shared<Connection>(io_, in, out));
                }
            }
        }
        accept();
    });
}

Result<int> connect_socket(const std::string& path) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) return Error::failed("socket path too long", path);
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return Error::failed(std::strerror(errno), path);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        Error e = Error::failed(path + ": " + std::strerror(errno), path);
        ::close(fd);
        return e;
    }
    // As a host checks its clients: a socket another user listens on (a record naming a path it
    // controls) is none of ours, and nothing is sent to it.
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != ::geteuid()) {
        const std::string who = len == sizeof cred ? "uid " + std::to_string(cred.uid) : "an unknown user";
        ::close(fd);
        return Error::failed(path + ": listened on by another user (" + who + "), not by askhost of yours", path);
    }
    return fd;
}

}  // namespace askhost
