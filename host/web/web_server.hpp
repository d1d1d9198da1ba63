// `askhost web`'s HTTP and WebSocket server (Boost.Beast, on the one io_context; TLS with OpenSSL
// when given a certificate). Beast stays in web_server.cpp: its templates compile slowly.
//
// The edge: every request's Host must be this server's (web_policy); the page and the WebSocket
// need a session cookie of this run, which only the token in the first URL (or a one-time sign-in
// code) gets; the WebSocket's Origin must be the page's own. Requests are bounded (headers 8 KiB,
// bodies 16 KiB, 10 s to send one, 5 s for the first without a session), frames too (1 MiB), and
// so are connections (64, of which at most 16 without a session: the oldest of those makes room
// for a newer connection). Wrong credentials wait their turn per peer (its address).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>
#include <boost/asio/io_context.hpp>

#include "core/error.hpp"
#include "web/web_policy.hpp"

namespace askhost::web {

class WebHub;
class TokenFile;

struct ServerOptions {
    ListenAddress listen;
    std::vector<std::string> public_names;  // Host names besides localhost and the listen address
    bool behind_proxy = false;              // a proxy terminates TLS: the cookie is Secure
    std::string tls_cert, tls_key;          // both or neither
    std::string sign_in_file;               // one-time sign-in codes (SignInCodes)
    std::size_t max_connections = 64;
    std::size_t unproven_slots = 16;                   // of those, at most this many without a session
    std::chrono::milliseconds request_timeout{10000};  // to send one request's headers and body
    std::chrono::milliseconds unproven_timeout{5000};  // without a session: to send the first one
    std::size_t max_frame = std::size_t{1} << 20;
};

class WebServer {
public:
    WebServer(boost::asio::io_context& io, WebHub& hub, TokenFile& token, ServerOptions options);
    ~WebServer();
    WebServer(const WebServer&) = delete;
    WebServer& operator=(const WebServer&) = delete;

    // Loads the certificate (with TLS), binds and starts accepting; else why not.
    Status start();
    std::uint16_t port() const;
    bool tls() const;
    // The token file changed (askhost web --new-token): a new session key; the pages open with a
    // cookie of the old one lose their WebSocket, and then get 401.
    void token_changed();
    // askhost web dropped the push subscription `endpoint` (its push service says it is gone): the
    // pages that subscribed with it are told (push-dropped), so they stop saying alerts are on.
    void push_dropped(const std::string& endpoint, std::string_view reason);

    std::function<void(std::string_view)> on_log;
    // A page's messages besides its answers (Web Push's push-subscribe and push-unsubscribe,
    // web_push_service): the reply to send it, or nullopt when the type is not theirs.
    std::function<std::optional<std::string>(std::string_view type, const rapidjson::Value& message)> on_page_message;
    // Sent to each page after its snapshot when not empty (the push key).
    std::function<std::string()> greeting;
    // This run's name, as the snapshot gives it.
    const std::string& server_id() const;

    struct Impl;  // in web_server.cpp, with the connections

    // askhost web --url: whether the server listening at host:port (TLS or not) proves it holds
    // `token` (GET /proof with a fresh nonce); else why not. `host_header` names it as it is served.
    static Status check_proof(const std::string& host, std::uint16_t port, bool tls, const std::string& host_header,
                              const std::string& token);
    // in web_server.cpp, with the connections

private:
    std::shared_ptr<Impl> impl_;  // shared with the connections, which may outlive this object
};

}  // namespace askhost::web
