#define BOOST_TEST_MODULE web_policy
#include <boost/test/unit_test.hpp>

#include "web/web_policy.hpp"

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
    BOOST_TEST(origin_allowed("http://127.0.0.1:8765", "127.0.0.1:8765"));
    BOOST_TEST(origin_allowed("https://box.ts.net", "box.ts.net"));
    BOOST_TEST(!origin_allowed("http://attacker.example", "127.0.0.1:8765"));
    BOOST_TEST(!origin_allowed("null", "127.0.0.1:8765"));
    BOOST_TEST(!origin_allowed("", "127.0.0.1:8765"));
    BOOST_TEST(!origin_allowed("http://127.0.0.1:8765", ""));
    BOOST_TEST(!origin_allowed("http://127.0.0.1:87650", "127.0.0.1:8765"));
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
