// The secrets of `askhost web`: a token of 192 random bits, kept mode 0600 in askhost's state
// directory, shown in the first URL only (and never sent anywhere else); the sessions a token or a
// one-time sign-in code opens, whose cookies are signed with a key of this run of the server only
// (a new one on every start and on --new-token), expire unless renewed, and so do not outlive it.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>

#include <sys/types.h>

#include "core/error.hpp"

namespace askhost::web {

// $XDG_STATE_HOME/askhost/web-token (default ~/.local/state/askhost/web-token); "" without a home.
std::string token_path();

class TokenFile {
public:
    explicit TokenFile(std::string path) : path_(std::move(path)) {}

    // Reads the token, making one when there is none; `replace` makes a new one in any case (the
    // old one stops working, also in a server that is running). Else why not.
    Status load(bool replace);
    // Reads the file again when it changed (askhost web --new-token in another terminal). true
    // when the token is another now.
    bool refresh();

    const std::string& path() const { return path_; }
    const std::string& token() const { return token_; }

private:
    Status read();
    Status write_new();

    std::string path_, token_;
    ino_t inode_ = 0;
    timespec mtime_{};
};

// A file of ours only (not a link, owned by this user, private to it, at most `max` bytes): its
// text, else why not.
Result<std::string> read_private_file(const std::string& path, std::size_t max);

// `bytes` random bytes from the kernel as base64url (no padding); else why not.
Result<std::string> random_text(std::size_t bytes);
// HMAC-SHA256 of `message` keyed with `key`, in lowercase hex.
std::string hmac_hex(std::string_view key, std::string_view message);

// What proves a server holds the token without showing it (askhost web --url asks, GET /proof
// answers): the HMAC of a label and the asker's nonce, keyed with the token.
std::string token_proof(std::string_view token, std::string_view nonce);

// The sessions of one run of the server. A cookie is `<expiry>.<mac>`: the Unix time it ends and
// an HMAC of it keyed with this run's key, so it opens this run only, and until then only. The
// page renews it while it is open (GET /session); `server_id` is this run's name, which the page
// is told over its WebSocket once its cookie was accepted and checks on every reconnection.
class Sessions {
public:
    static constexpr std::int64_t kLifetimeSeconds = std::int64_t{24} * 60 * 60;

    Sessions();      // a new key and name
    void replace();  // --new-token: every cookie given so far stops opening anything

    std::string mint(std::int64_t now) const;
    bool valid(std::string_view cookie, std::int64_t now) const;
    const std::string& server_id() const { return id_; }

private:
    std::string key_, id_;
};

// One-time sign-in codes for a new device (askhost web --sign-in-link): the code's SHA-256 and its
// end, a line each, in a file beside the token (mode 0600). The server takes a code once.
class SignInCodes {
public:
    static constexpr std::int64_t kLifetimeSeconds = std::int64_t{10} * 60;
    explicit SignInCodes(std::string path) : path_(std::move(path)) {}
    // A new code, valid kLifetimeSeconds from `now`; else why not.
    Result<std::string> add(std::int64_t now) const;
    // Whether `code` is one not yet taken nor expired; it is taken (removed) if so.
    bool take(std::string_view code, std::int64_t now) const;
    // Every code given so far stops opening anything (--new-token); else why not.
    Status clear() const;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// $XDG_STATE_HOME/askhost/web-sign-in, beside the token; "" without a home.
std::string sign_in_path();

}  // namespace askhost::web
