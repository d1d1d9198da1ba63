// The secret of `askhost web`: a token of 192 random bits, kept mode 0600 in askhost's state
// directory, shown in the first URL only; and the session cookie derived from it, so that the
// cookie a browser keeps is not the token itself and outlives a restart of the server.
#pragma once

#include <ctime>
#include <string>

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
    // The session cookie's value: HMAC-SHA256 of a fixed label keyed with the token, in hex.
    const std::string& cookie() const { return cookie_; }

private:
    Status read();
    Status write_new();

    std::string path_, token_, cookie_;
    ino_t inode_ = 0;
    timespec mtime_{};
};

}  // namespace askhost::web
