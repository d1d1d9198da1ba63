#define BOOST_TEST_MODULE web_policy
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <iterator>

#include <sys/stat.h>
#include <unistd.h>

#include "web/forwarded.hpp"
#include "web/web_policy.hpp"
#include "web/web_token.hpp"

using namespace askhost::web;

BOOST_AUTO_TEST_CASE(listen_addresses) {
    auto a = parse_listen("127.0.0.1:8765");
    BOOST_REQUIRE(a);
    BOOST_TEST(a->host == "127.0.0.1");
    BOOST_TEST(a->port == 8765);
    BOOST_TEST(a->loopback);
    auto l = parse_listen("localhost:0");
    BOOST_REQUIRE(l);
    BOOST_TEST(l->host == "127.0.0.1");
    auto v6 = parse_listen("[::1]:9000");
    BOOST_REQUIRE(v6);
    BOOST_TEST(v6->loopback);
    auto any = parse_listen("0.0.0.0:80");
    BOOST_REQUIRE(any);
    BOOST_TEST(!any->loopback);
    BOOST_TEST(!parse_listen("127.0.0.1"));
    BOOST_TEST(!parse_listen("127.0.0.1:70000"));
    BOOST_TEST(!parse_listen("example.com:80"));
    BOOST_TEST(!parse_listen("::1:80"));
    BOOST_TEST(parse_listen("127.0.0.1:x").error().message.find("port") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(host_headers) {
    const auto listen = *parse_listen("127.0.0.1:8765");
    const std::vector<std::string> names = {"box.tail1234.ts.net"};
    BOOST_TEST(host_allowed("127.0.0.1:8765", listen, {}));
    BOOST_TEST(host_allowed("localhost:9999", listen, {}));  // ssh -L maps the port
    BOOST_TEST(host_allowed("LOCALHOST", listen, {}));
    BOOST_TEST(host_allowed("[::1]:8765", listen, {}));
    BOOST_TEST(host_allowed("box.tail1234.ts.net", listen, names));
    BOOST_TEST(!host_allowed("box.tail1234.ts.net", listen, {}));
    BOOST_TEST(!host_allowed("attacker.example:8765", listen, names));
    BOOST_TEST(!host_allowed("127.0.0.1.attacker.example", listen, names));
    BOOST_TEST(!host_allowed("", listen, names));
    BOOST_TEST(!host_allowed("127.0.0.1:80x", listen, names));
    BOOST_TEST(!host_allowed("a b", listen, names));
    const auto any = *parse_listen("0.0.0.0:8765");
    BOOST_TEST(!host_allowed("0.0.0.0:8765", any, {}));
    const auto lan = *parse_listen("192.168.1.5:8765");
    BOOST_TEST(host_allowed("192.168.1.5:8765", lan, {}));
}

BOOST_AUTO_TEST_CASE(origins) {
    BOOST_TEST(origin_allowed("http://127.0.0.1:8765", "127.0.0.1:8765", false));
    BOOST_TEST(origin_allowed("https://box.ts.net", "box.ts.net", true));
    // The scheme the server speaks, and that one only.
    BOOST_TEST(!origin_allowed("https://127.0.0.1:8765", "127.0.0.1:8765", false));
    BOOST_TEST(!origin_allowed("http://box.ts.net", "box.ts.net", true));
    BOOST_TEST(!origin_allowed("http://attacker.example", "127.0.0.1:8765", false));
    BOOST_TEST(!origin_allowed("null", "127.0.0.1:8765", false));
    BOOST_TEST(!origin_allowed("", "127.0.0.1:8765", false));
    BOOST_TEST(!origin_allowed("http://127.0.0.1:8765", "", false));
    BOOST_TEST(!origin_allowed("http://127.0.0.1:87650", "127.0.0.1:8765", false));
}

BOOST_AUTO_TEST_CASE(loopback_names) {
    BOOST_TEST(loopback_name("127.0.0.1:8765"));
    BOOST_TEST(loopback_name("LOCALHOST"));
    BOOST_TEST(loopback_name("[::1]:80"));
    BOOST_TEST(!loopback_name("box.ts.net"));
    BOOST_TEST(!loopback_name("127.0.0.2"));
    BOOST_TEST(!loopback_name(""));
}

BOOST_AUTO_TEST_CASE(targets_queries_and_cookies) {
    BOOST_TEST(target_path("/?token=x") == "/");
    BOOST_TEST(target_path("/app.js") == "/app.js");
    BOOST_TEST(query_param("/?token=abc&x=1", "token").value_or("-") == "abc");
    BOOST_TEST(query_param("/?x=1&token=a%2Db", "token").value_or("-") == "a-b");
    BOOST_TEST(!query_param("/?tokens=abc", "token"));
    BOOST_TEST(!query_param("/", "token"));
    BOOST_TEST(cookie_value("a=1; askhost_web=xyz; b=2", "askhost_web").value_or("-") == "xyz");
    BOOST_TEST(!cookie_value("askhost_webx=1", "askhost_web"));
    BOOST_TEST(same_secret("abc", "abc"));
    BOOST_TEST(!same_secret("abc", "abd"));
    BOOST_TEST(!same_secret("abc", "abcd"));
    BOOST_TEST(!same_secret("", ""));
}

BOOST_AUTO_TEST_CASE(sessions_are_of_one_run_and_expire) {
    const std::int64_t now = 1'800'000'000;
    Sessions run;
    const std::string cookie = run.mint(now);
    BOOST_TEST(run.valid(cookie, now));
    BOOST_TEST(run.valid(cookie, now + Sessions::kLifetimeSeconds - 1));
    BOOST_TEST(!run.valid(cookie, now + Sessions::kLifetimeSeconds));                                     // expired
    BOOST_TEST(run.valid(run.mint(now + Sessions::kLifetimeSeconds), now + Sessions::kLifetimeSeconds));  // renewed
    Sessions next;  // a restart: a new key
    BOOST_TEST(!next.valid(cookie, now));
    BOOST_TEST(next.server_id() != run.server_id());
    // A later expiry written over the cookie breaks its MAC.
    const std::string forged = std::to_string(now + 10 * Sessions::kLifetimeSeconds) + cookie.substr(cookie.find('.'));
    BOOST_TEST(!run.valid(forged, now));
    for (const char* bad : {"", ".", "1.", ".abc", "x.y", "99999999999999999999.00"}) BOOST_TEST(!run.valid(bad, now));
    const std::string id = run.server_id();
    run.replace();  // --new-token
    BOOST_TEST(!run.valid(cookie, now));
    BOOST_TEST(run.server_id() != id);
}

BOOST_AUTO_TEST_CASE(proofs_and_sign_in_codes) {
    BOOST_TEST(token_proof("token-a", "nonce-1") == token_proof("token-a", "nonce-1"));
    BOOST_TEST(token_proof("token-a", "nonce-1") != token_proof("token-b", "nonce-1"));
    BOOST_TEST(token_proof("token-a", "nonce-1") != token_proof("token-a", "nonce-2"));
    BOOST_TEST(token_proof("token-a", "nonce-1").find("token-a") == std::string::npos);

    char dir[] = "/tmp/askhost-web-codes-XXXXXX";
    BOOST_REQUIRE(::mkdtemp(dir));
    const std::string file = std::string(dir) + "/web-sign-in";
    const SignInCodes codes(file);
    const std::int64_t now = 1'800'000'000;
    auto first = codes.add(now);
    auto second = codes.add(now);
    BOOST_REQUIRE(first);
    BOOST_REQUIRE(second);
    BOOST_TEST(*first != *second);
    BOOST_TEST(!codes.take("not-a-code", now));
    BOOST_TEST(codes.take(*first, now + 1));
    BOOST_TEST(!codes.take(*first, now + 1));                               // once
    BOOST_TEST(!codes.take(*second, now + SignInCodes::kLifetimeSeconds));  // expired
    struct stat st {};
    BOOST_REQUIRE(::stat(file.c_str(), &st) == 0);
    BOOST_TEST((st.st_mode & 077) == 0u);
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    BOOST_TEST(text.find(*second) == std::string::npos);  // its hash only
    // --new-token: the codes not used yet open nothing.
    auto third = codes.add(now);
    BOOST_REQUIRE(third);
    BOOST_TEST(!codes.clear());
    BOOST_TEST(!codes.take(*third, now + 1));
    ::unlink(file.c_str());
    BOOST_TEST(!codes.clear());  // no file: nothing to do
    BOOST_TEST(::access(file.c_str(), F_OK) != 0);
    ::rmdir(dir);
}

BOOST_AUTO_TEST_CASE(quoted_in_the_log) {
    BOOST_TEST(printable("evil.example:80") == "evil.example:80");
    BOOST_TEST(printable("a\x1b[31m\\\xe2\x80\xae\n") == "a\\x1b[31m\\\\\\xe2\\x80\\xae\\x0a");
    BOOST_TEST(printable(std::string(100, 'x'), 80) == std::string(80, 'x') + "...");
    BOOST_TEST(printable(std::string("\0\x7f", 2)) == "\\x00\\x7f");
}

// Behind a proxy (host/web/forwarded.hpp): the client the proxy says it saw, never one the client
// wrote itself.
BOOST_AUTO_TEST_CASE(the_client_a_proxy_forwards_for) {
    BOOST_TEST(forwarded_client("203.0.113.9", "").value_or("none") == "203.0.113.9");
    // The proxy appends the address it saw: what the client sent before it is not believed.
    BOOST_TEST(forwarded_client("198.51.100.7, 203.0.113.9", "").value_or("none") == "203.0.113.9");
    BOOST_TEST(forwarded_client("1.2.3.4,203.0.113.9 ", "").value_or("none") == "203.0.113.9");
    // A port, brackets, an IPv4-mapped IPv6 address.
    BOOST_TEST(forwarded_client("203.0.113.9:4711", "").value_or("none") == "203.0.113.9");
    BOOST_TEST(forwarded_client("::ffff:203.0.113.9", "").value_or("none") == "203.0.113.9");
    // IPv6 by its /64: a network hands its machines any address in it.
    BOOST_TEST(forwarded_client("2001:db8:1:2::1", "").value_or("none") == "2001:db8:1:2::/64");
    BOOST_TEST(forwarded_client("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "").value_or("none") == "2001:db8:1:2::/64");
    BOOST_TEST(forwarded_client("[2001:db8:1:3::5]:443", "").value_or("none") == "2001:db8:1:3::/64");
    // RFC 7239's Forwarded, when there is no X-Forwarded-For: the last element's for=.
    BOOST_TEST(forwarded_client("", "for=192.0.2.60;proto=https;by=203.0.113.43").value_or("none") == "192.0.2.60");
    BOOST_TEST(forwarded_client("", "for=198.51.100.7, For=\"[2001:db8:cafe::17]:4711\"").value_or("none") ==
               "2001:db8:cafe::/64");
    BOOST_TEST(forwarded_client("", "proto=https; for=192.0.2.61").value_or("none") == "192.0.2.61");
    BOOST_TEST(forwarded_client("203.0.113.9", "for=192.0.2.60").value_or("none") == "203.0.113.9");
    // Nothing that is an address: the proxy's own peer stands alone.
    for (std::string_view bad :
         {"", " ", "unknown", "203.0.113.9, unknown", "ask.example", "999.1.1.1", "203.0.113.9 evil", "[2001:db8::1",
          "[2001:db8::1]x", "1.2.3.4:5:6:x", "\x1b[31m", "203.0.113.9,"})
        BOOST_TEST(!forwarded_client(bad, "").has_value(), bad);
    for (std::string_view bad : {"", "for=unknown", "for=_hidden", "proto=https", "for=\"_x\";by=1.2.3.4"})
        BOOST_TEST(!forwarded_client("", bad).has_value(), bad);
}
