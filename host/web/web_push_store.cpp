#include "web/web_push_store.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>

#include <sys/stat.h>

#include <boost/asio/ip/address.hpp>

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

}  // namespace

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
        std::transform(e.host.begin(), e.host.end(), e.host.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
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
    if (!e.https) {
        boost::system::error_code ec;
        auto a = boost::asio::ip::make_address(e.host, ec);
        if (!allow_http || ec || !a.is_loopback())
            return Error::usage("not an https:// URL (plain http only to a test's stand-in on loopback)");
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
