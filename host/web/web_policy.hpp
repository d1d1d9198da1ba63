// What `askhost web` lets in, as plain functions of text (no sockets, no Beast): where it may
// listen, which Host and Origin headers are its own, the token in the first URL and the cookie
// after it. The server asks these; the unit tests and the fuzz target call them directly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace askhost::web {

struct ListenAddress {
    std::string host;  // as written: "127.0.0.1", "::1", "0.0.0.0" ("localhost" reads as 127.0.0.1)
    std::uint16_t port = 0;
    bool loopback = false;  // 127.0.0.0/8 or ::1
};

// "ADDR:PORT" or "[V6]:PORT" (ADDR an IP address, or localhost); PORT 0 is any free port.
Result<ListenAddress> parse_listen(std::string_view text);

// The name part of a Host header (lowercase, IPv6 brackets kept), or nullopt when it is malformed.
std::optional<std::string> host_name(std::string_view host_header);

// Whether a Host header names this server: localhost, 127.0.0.1, [::1], the address it listens on,
// or one of `public_names` (the name a proxy or ssh tunnel is reached by). Any port: ssh -L maps
// the port, and a rebinding attack changes the name, never just the port. Guards DNS rebinding.
bool host_allowed(std::string_view host_header, const ListenAddress& listen,
                  const std::vector<std::string>& public_names);

// Whether a Host header names this machine's loopback (localhost, 127.0.0.1, [::1]): a name only
// a client on this machine reaches the server by. A peer from elsewhere that gives it (through a
// proxy that passes it on, or rebinding) is refused.
bool loopback_name(std::string_view host_header);

// Whether a WebSocket's Origin is the page's own: the scheme the page is served with (https://
// under TLS or behind a proxy that does TLS, else http://) followed by the request's Host header
// (which host_allowed checked), compared without case.
bool origin_allowed(std::string_view origin, std::string_view host_header, bool https);

// The target's path without its query ("/" for "/?token=x").
std::string_view target_path(std::string_view target);
// The value of one query parameter (percent-decoded), or nullopt when the target has none.
std::optional<std::string> query_param(std::string_view target, std::string_view name);
// The value of one cookie in a Cookie header, or nullopt.
std::optional<std::string> cookie_value(std::string_view cookie_header, std::string_view name);

// Text a client sent, fit to quote in a log line: printable ASCII as it is, a backslash doubled,
// every other byte as \xHH (no escape sequence, no bidi control, no line break reaches the log),
// at most `max` bytes of it, then "...".
std::string printable(std::string_view text, std::size_t max = 80);

// Whether two secrets are equal, in time that does not depend on where they differ.
bool same_secret(std::string_view a, std::string_view b);

}  // namespace askhost::web
