// Extra clients reach a running host through a Unix socket in a private directory.
#pragma once

#include "core/error.hpp"
#include "core/lifetime.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>

#include "transport/connection.hpp"

namespace askhost {

// The private directory for askhost's sockets and host registry: $XDG_RUNTIME_DIR/askhost; with
// XDG_RUNTIME_DIR unset, /run/user/UID/askhost when that folder is the user's and private; else /tmp/askhost-UID,
// created with mode 0700 and checked to be ours. Else why not (the message names the folders tried).
Result<std::string> socket_directory();

class SocketListener {
public:
    using OnClient = std::function<void(std::shared_ptr<Connection>)>;

    SocketListener(boost::asio::io_context& io, OnClient on_client);
    ~SocketListener();

    // Binds <dir>/host-<pid>.sock (mode 0600). nullopt on success, else why not.
    Status listen();
    const std::string& path() const { return path_; }

    std::function<void(std::string_view)> on_log;

private:
    void accept();

    boost::asio::io_context& io_;
    OnClient on_client_;
    boost::asio::local::stream_protocol::acceptor acceptor_;
    std::string path_;
    Lifetime lifetime_;
};

// Connects to a host's socket: the connected fd, or why not (also when another user listens there).
Result<int> connect_socket(const std::string& path);

}  // namespace askhost
