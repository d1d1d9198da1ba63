// A request as askhost web's edge reads it (any bytes from the network): Beast's parser with the
// server's limits, then the policy's Host, Origin, target, token, sign-in code, nonce and cookie
// readings, the session cookie's check and the log's quoting, and the same bytes as a push
// subscription's endpoint. Never a crash; what the policy lets through is what it says it does.
// The first byte picks the public names, whether the server speaks https and whether the tests'
// push stand-in is allowed.
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include "fuzz.hpp"
#include "web/web_policy.hpp"
#include "web/web_push_store.hpp"
#include "web/web_token.hpp"

using namespace askhost::web;
namespace http = boost::beast::http;

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool ends_with_nocase(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && lower(s.substr(s.size() - tail.size())) == lower(tail);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    static const std::vector<std::string> name_sets[] = {{}, {"box.tail1234.ts.net"}, {"[::1]", "example.org:443"}};
    const auto& names = name_sets[data[0] % 3];
    const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
    http::request_parser<http::string_body> parser;
    parser.header_limit(8 * 1024);
    parser.body_limit(16 * 1024);
    parser.eager(true);
    boost::beast::error_code ec;
    parser.put(boost::asio::buffer(bytes.data(), bytes.size()), ec);
    if (ec || !parser.is_done()) return 0;
    const auto& req = parser.get();
    const auto field = [&](http::field f) {
        auto v = req[f];
        return std::string(v.data(), v.size());
    };
    const std::string host = field(http::field::host);
    const std::string origin = field(http::field::origin);
    const std::string target(req.target().data(), req.target().size());
    static const ListenAddress listen = *parse_listen("127.0.0.1:8765");
    if (host_allowed(host, listen, names)) {
        auto name = host_name(host);
        FUZZ_CHECK(name.has_value());
        bool known = *name == "localhost" || *name == "127.0.0.1" || *name == "[::1]";
        for (const auto& n : names) known = known || host_name(n) == name;
        FUZZ_CHECK(known);
    }
    const bool https = data[0] & 4;
    if (origin_allowed(origin, host, https)) {
        FUZZ_CHECK(!host.empty() && ends_with_nocase(origin, host));
        FUZZ_CHECK(lower(origin).rfind(https ? "https://" : "http://", 0) == 0);
    }
    if (loopback_name(host)) FUZZ_CHECK(host_allowed(host, listen, names));
    for (const char* name : {"token", "signin", "nonce"})
        if (auto value = query_param(target, name)) FUZZ_CHECK(value->size() <= target.size());
    const std::string quoted = printable(target);
    for (unsigned char c : quoted) FUZZ_CHECK(c >= 0x20 && c < 0x7f);
    const std::string_view path = target_path(target);
    FUZZ_CHECK(std::string_view(target).substr(0, path.size()) == path);
    if (auto token = query_param(target, "token")) FUZZ_CHECK(token->size() <= target.size());
    // The same bytes as a push subscription's endpoint (a page sends it): a push service is a
    // public host on 443, and the tests' option lets only a loopback address through besides.
    const bool stand_in = data[0] & 8;
    for (const std::string& url : {target, "https://" + host + target, "http://" + host + target}) {
        auto e = push::parse_endpoint(url, stand_in);
        if (!e) continue;
        boost::system::error_code not_address;
        const auto address = boost::asio::ip::make_address(e->host, not_address);
        if (!not_address && address.is_loopback()) {
            FUZZ_CHECK(stand_in);
        } else {
            FUZZ_CHECK(e->https && e->port == 443);
            FUZZ_CHECK(not_address || push::public_address(address));
            if (not_address) FUZZ_CHECK(e->host != "localhost" && e->host.find('.') != std::string::npos);
        }
        FUZZ_CHECK(!e->target.empty() && e->target.front() == '/');
    }
    // The session cookie as the server reads it: one this run did not mint opens nothing,
    // whatever expiry it names (a forgery would need the run's key); one it minted opens it until
    // its expiry and not after. `now` from the request's bytes, within 32 bits.
    static const Sessions run;
    std::int64_t now = 0;
    for (std::size_t i = 1; i < size && i < 5; ++i) now = now * 256 + data[i];
    if (auto cookie = cookie_value(field(http::field::cookie), "askhost_web")) {
        FUZZ_CHECK(cookie->find(';') == std::string::npos);
        FUZZ_CHECK(!same_secret(*cookie, *cookie + "x"));
        FUZZ_CHECK(!run.valid(*cookie, now));
        FUZZ_CHECK(!run.valid(*cookie, 0));
    }
    const std::string minted = run.mint(now);
    FUZZ_CHECK(run.valid(minted, now) && run.valid(minted, now + Sessions::kLifetimeSeconds - 1));
    FUZZ_CHECK(!run.valid(minted, now + Sessions::kLifetimeSeconds));
    return 0;
}
