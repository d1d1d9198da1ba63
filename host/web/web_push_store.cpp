#include "web/web_push_store.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <iterator>
#include <optional>

#include <sys/stat.h>

#include <boost/asio/ip/address.hpp>

#include "core/text/ascii.hpp"
#include "json/json_access.hpp"
#include "store/fs_util.hpp"
#include "store/journal.hpp"
#include "transport/jsonrpc.hpp"
#include "web/web_token.hpp"

namespace askhost::web::push {

namespace {

constexpr std::size_t kMaxEndpoint = 2048;
constexpr std::size_t kMaxFile = std::size_t{256} * 1024;

bool host_char(unsigned char c) { return std::isalnum(c) || c == '-' || c == '.' || c == '_'; }

bool in_v4(std::uint32_t a, std::uint32_t net, int bits) {
    const std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
    return (a & mask) == net;
}

bool public_v4(const boost::asio::ip::address_v4& address) {
    const std::uint32_t a = address.to_uint();
    // IANA's special-purpose registry: this network, private, shared (CGNAT), loopback, link-local,
    // IETF protocol assignments, documentation, benchmarking, multicast, reserved and broadcast.
    static constexpr struct {
        std::uint32_t net;
        int bits;
    } kNotPublic[] = {{0x00000000, 8},  {0x0A000000, 8},  {0x64400000, 10}, {0x7F000000, 8},  {0xA9FE0000, 16},
                      {0xAC100000, 12}, {0xC0000000, 24}, {0xC0000200, 24}, {0xC0A80000, 16}, {0xC6120000, 15},
                      {0xC6336400, 24}, {0xCB007100, 24}, {0xE0000000, 4},  {0xF0000000, 4}};
    return std::none_of(std::begin(kNotPublic), std::end(kNotPublic),
                        [&](const auto& n) { return in_v4(a, n.net, n.bits); });
}

// A name of a place that is not on the internet (RFC 6761, 6762, 8375, and the customary ones), or
// one that is a number in disguise: the name lookup takes `2130706433`, `127.1` or `0x7f.0.0.1` for
// 127.0.0.1, and no top-level domain is numeric.
std::optional<std::string> odd_name(const std::string& host) {
    const std::size_t last_dot = host.rfind('.');
    const std::string_view top =
        last_dot == std::string::npos ? std::string_view(host) : std::string_view(host).substr(last_dot + 1);
    if (host.front() == '.' || top.empty() || host.find("..") != std::string::npos) return "not a host name";
    const bool numeric = std::all_of(top.begin(), top.end(), [](unsigned char c) { return std::isdigit(c); }) ||
                         (top.starts_with("0x") &&
                          std::all_of(top.begin() + 2, top.end(), [](unsigned char c) { return std::isxdigit(c); }));
    if (numeric) return "an address written as a name";
    for (std::string_view local :
         {"localhost", "local", "internal", "lan", "home.arpa", "localdomain", "test", "invalid", "example", "onion"}) {
        if (host == local ||
            (host.size() > local.size() && host.ends_with(local) && host[host.size() - local.size() - 1] == '.'))
            return "a name of this machine or its network (." + std::string(local) + ")";
    }
    if (last_dot == std::string::npos) return "a name of one label, not a push service's";
    return std::nullopt;
}

}  // namespace

bool public_address(const boost::asio::ip::address& address) {
    if (address.is_v4()) return public_v4(address.to_v4());
    const auto v6 = address.to_v6();
    if (v6.is_v4_mapped()) return public_v4(boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6));
    const auto b = v6.to_bytes();
    // NAT64's well-known prefix (RFC 6052) carries an IPv4 address: that one says.
    static constexpr unsigned char kNat64[12] = {0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
    if (std::equal(std::begin(kNat64), std::end(kNat64), b.begin()))
        return public_v4(boost::asio::ip::address_v4({b[12], b[13], b[14], b[15]}));
    if (v6.is_unspecified() || v6.is_loopback() || v6.is_link_local() || v6.is_site_local() || v6.is_multicast())
        return false;
    if ((b[0] & 0xfe) == 0xfc) return false;                                         // unique local, fc00::/7
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return false;  // documentation
    if (std::all_of(b.begin(), b.begin() + 12, [](unsigned char c) { return c == 0; }))
        return false;  // IPv4-compatible, deprecated (::/96)
    if (b[0] == 0x01 && b[1] == 0x00 &&
        std::all_of(b.begin() + 2, b.begin() + 8, [](unsigned char c) { return c == 0; }))
        return false;  // discard-only, 100::/64
    // Only global unicast (2000::/3) is on the internet.
    return (b[0] & 0xe0) == 0x20;
}

std::string subscriptions_path() {
    auto sessions = store::sessions_dir();
    if (sessions.empty()) return {};
    return (sessions.parent_path() / "web-push-subscriptions").string();
}

Result<Endpoint> parse_endpoint(std::string_view url, bool allow_http) {
    if (url.size() > kMaxEndpoint) return Error::usage("longer than " + std::to_string(kMaxEndpoint) + " bytes");
    Endpoint e;
    std::string_view rest;
    if (url.starts_with("https://")) {
        rest = url.substr(8);
    } else if (url.starts_with("http://")) {
        e.https = false;
        e.port = 80;
        rest = url.substr(7);
    } else {
        return Error::usage("not an https:// URL");
    }
    const std::size_t slash = rest.find_first_of("/?#");
    std::string_view authority = rest.substr(0, slash);
    std::string_view target = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
    if (target.find('#') != std::string_view::npos) target = target.substr(0, target.find('#'));
    if (target.empty() || target.front() != '/') e.target = "/" + std::string(target);
    else e.target = std::string(target);
    for (unsigned char c : e.target)
        if (c <= 0x20 || c >= 0x7f) return Error::usage("a path with spaces or controls");
    if (authority.find('@') != std::string_view::npos) return Error::usage("a URL with a user name");
    std::string_view port_text;
    if (authority.starts_with("[")) {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos) return Error::usage("an IPv6 address without its ]");
        e.host = std::string(authority.substr(1, close - 1));
        std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') return Error::usage("not host:port");
            port_text = after.substr(1);
        }
        boost::system::error_code ec;
        (void)boost::asio::ip::make_address_v6(e.host, ec);
        if (ec) return Error::usage("not an IPv6 address in [ ]");
    } else {
        const std::size_t colon = authority.rfind(':');
        e.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
        if (e.host.empty() || e.host.size() > 253 || !std::all_of(e.host.begin(), e.host.end(), host_char))
            return Error::usage("not a host name");
        e.host = ascii::lowered(e.host);
    }
    if (!port_text.empty() || authority.ends_with(":")) {
        unsigned long port = 0;
        if (port_text.empty() || port_text.size() > 5 ||
            !std::all_of(port_text.begin(), port_text.end(), [](unsigned char c) { return std::isdigit(c); }))
            return Error::usage("not a port");
        port = std::stoul(std::string(port_text));
        if (port == 0 || port > 65535) return Error::usage("not a port");
        e.port = static_cast<std::uint16_t>(port);
    }
    boost::system::error_code not_address;
    const auto address = boost::asio::ip::make_address(e.host, not_address);
    // The tests' stand-in for a push service: a loopback address, http or https, any port.
    const bool stand_in = allow_http && !not_address && address.is_loopback();
    if (!stand_in) {
        if (!e.https) return Error::usage("not an https:// URL (plain http only to a test's stand-in on loopback)");
        if (e.port != 443)
            return Error::usage("port " + std::to_string(e.port) + ": a push service takes messages on 443");
        if (!not_address && !public_address(address))
            return Error::usage(
                e.host + " is a loopback, private or otherwise not public address: a push service is a public host");
        if (not_address) {
            if (auto odd = odd_name(e.host)) return Error::usage(e.host + ": " + *odd);
        }
    }
    const bool v6 = e.host.find(':') != std::string::npos;
    const bool default_port = e.port == (e.https ? 443 : 80);
    e.origin = std::string(e.https ? "https://" : "http://") + (v6 ? "[" + e.host + "]" : e.host) +
               (default_port ? "" : ":" + std::to_string(e.port));
    return e;
}

Result<Subscription> read_subscription(const rapidjson::Value& v, bool allow_http) {
    if (!v.IsObject()) return Error::usage("subscription: expected an object");
    const std::string endpoint = json::string_of(v, "endpoint");
    if (auto e = parse_endpoint(endpoint, allow_http); !e)
        return Error::usage("subscription.endpoint: " + e.error().message);
    const rapidjson::Value* keys = json::member(v, "keys");
    if (!keys || !keys->IsObject()) return Error::usage("subscription.keys: expected {p256dh, auth}");
    auto p256dh = from_base64url(json::string_of(*keys, "p256dh"));
    if (!p256dh || p256dh->size() != 65 || (*p256dh)[0] != '\x04')
        return Error::usage("subscription.keys.p256dh: not an uncompressed P-256 point in base64url");
    auto auth = from_base64url(json::string_of(*keys, "auth"));
    if (!auth || auth->size() != 16) return Error::usage("subscription.keys.auth: not 16 bytes in base64url");
    return Subscription{endpoint, *p256dh, *auth};
}

Status SubscriptionStore::load(bool allow_http) {
    subs_.clear();
    struct stat st {};
    if (::lstat(path_.c_str(), &st) != 0 && errno == ENOENT) return std::nullopt;
    auto text = read_private_file(path_, kMaxFile);
    if (!text) return Error::failed("the push subscriptions " + path_ + ": " + text.error().message, path_);
    rapidjson::Document doc;
    if (json::parse(doc, *text) || !doc.IsObject())
        return Error::failed("the push subscriptions " + path_ + " are not JSON: remove the file", path_);
    const rapidjson::Value* list = json::member(doc, "subscriptions");
    if (!list || !list->IsArray()) return std::nullopt;
    for (const auto& item : list->GetArray()) {
        auto s = read_subscription(item, allow_http);
        if (s && subs_.size() < kMax) subs_.push_back(std::move(*s));
    }
    return std::nullopt;
}

Result<bool> SubscriptionStore::add(const Subscription& s) {
    auto it = std::find_if(subs_.begin(), subs_.end(), [&](const Subscription& x) { return x.endpoint == s.endpoint; });
    const bool fresh = it == subs_.end();
    if (!fresh) subs_.erase(it);
    subs_.push_back(s);
    if (subs_.size() > kMax) subs_.erase(subs_.begin());
    if (auto err = save()) return *err;
    return fresh;
}

bool SubscriptionStore::remove(std::string_view endpoint) {
    auto it = std::find_if(subs_.begin(), subs_.end(), [&](const Subscription& x) { return x.endpoint == endpoint; });
    if (it == subs_.end()) return false;
    subs_.erase(it);
    (void)save();
    return true;
}

void SubscriptionStore::clear() {
    subs_.clear();
    (void)save();
}

Status SubscriptionStore::save() const {
    std::string text = "{\"version\":1,\"subscriptions\":[";
    for (std::size_t i = 0; i < subs_.size(); ++i) {
        if (i > 0) text += ',';
        text += "\n{\"endpoint\":" + json_quote(subs_[i].endpoint) +
                ",\"keys\":{\"p256dh\":" + json_quote(base64url(subs_[i].p256dh)) +
                ",\"auth\":" + json_quote(base64url(subs_[i].auth)) + "}}";
    }
    text += "]}\n";
    return store::atomic_write(path_, text, 0600);
}

}  // namespace askhost::web::push
