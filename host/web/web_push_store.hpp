// The devices askhost web sends Web Push to (issue 44): each browser's subscription, as its page
// sent it over the WebSocket, kept in a file of the state directory (mode 0600) so that a phone
// stays subscribed across restarts of askhost web. One per endpoint; the oldest goes past kMax.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>
#include <boost/asio/ip/address.hpp>

#include "core/error.hpp"
#include "web/web_push.hpp"

namespace askhost::web::push {

// $XDG_STATE_HOME/askhost/web-push-subscriptions, beside the token; "" without a home.
std::string subscriptions_path();

// Where a push service takes a subscription's messages, read from its endpoint URL.
struct Endpoint {
    bool https = true;
    std::string host;  // a name or an address, IPv6 without its brackets
    std::uint16_t port = 443;
    std::string target;  // the path and query, "/" at least
    std::string origin;  // scheme://host[:port], the VAPID JWT's audience
};
// `url` read; else why not. A push service is a public host: https:// on port 443, its host a
// name of the internet (not localhost, *.local, *.internal, one label, or an address written as
// a name) or a public address (public_address). Only when `allow_http` (a test's stand-in for a
// push service) a loopback address (127.0.0.0/8 or [::1], no name to resolve) too, http or https,
// any port.
Result<Endpoint> parse_endpoint(std::string_view url, bool allow_http);

// Whether `address` is on the internet: not loopback, private, link-local, shared (CGNAT),
// documentation, multicast or reserved (IANA's special-purpose registries), in IPv4 and IPv6 alike
// (an IPv4-mapped or NAT64 address by its IPv4 address).
bool public_address(const boost::asio::ip::address& address);

// A subscription as the page sends it (PushSubscription.toJSON(): {endpoint, keys: {p256dh,
// auth}}), checked: an endpoint parse_endpoint takes (at most 2048 bytes) and keys of the right
// kind. Else why not, naming the field.
Result<Subscription> read_subscription(const rapidjson::Value& v, bool allow_http);

class SubscriptionStore {
public:
    static constexpr std::size_t kMax = 32;
    explicit SubscriptionStore(std::string path) : path_(std::move(path)) {}

    // Reads the file (none: no devices); a file others can read, or not ours, is refused.
    Status load(bool allow_http);
    // Adds or replaces (by endpoint), and writes the file. true when it was not there before.
    Result<bool> add(const Subscription& s);
    // Removes by endpoint, and writes the file; false when there was none.
    bool remove(std::string_view endpoint);
    // No devices: the key changed (askhost web --new-token), so no subscription is valid.
    void clear();

    const std::vector<Subscription>& all() const { return subs_; }
    const std::string& path() const { return path_; }

private:
    Status save() const;
    std::string path_;
    std::vector<Subscription> subs_;
};

}  // namespace askhost::web::push
