// The client a proxy in front of askhost web (--behind-proxy) forwards a request for. Every
// request through the proxy comes from the proxy's own address: without the address the proxy
// says it saw, one client's wrong guesses would make every other client, the person too, wait
// their turn (the server's Backoff) or be closed unheard.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace askhost::web {

// The client's address as a proxy gives it: the last entry of `x_forwarded_for` (the one the proxy
// appended; those before it are what the client sent, and anyone can send one), or else the
// `for=` of the last element of `forwarded` (RFC 7239). Each header's lines joined with ", ".
// IPv4 whole; IPv6 as its /64 ("2001:db8:1:2::/64": one subscriber's network, which hands its
// machines any address in it). nullopt when the header is absent or its entry is no address
// ("unknown", an obfuscated "_name", a name, text).
std::optional<std::string> forwarded_client(std::string_view x_forwarded_for, std::string_view forwarded);

}  // namespace askhost::web
