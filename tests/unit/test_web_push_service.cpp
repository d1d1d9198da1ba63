#define BOOST_TEST_MODULE web_push_service
#include <boost/test/unit_test.hpp>

#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <rapidjson/document.h>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "scratch.hpp"
#include "web/name_lookup.hpp"
#include "web/web_hub.hpp"
#include "web/web_push.hpp"
#include "web/web_push_message.hpp"
#include "web/web_push_sender.hpp"
#include "web/web_push_service.hpp"
#include "web/web_push_store.hpp"

// Web Push in askhost web (issue 44) above its cryptography (test_web_push.cpp): what a message
// says for each setting, which endpoints and subscriptions are taken, the file they are kept in,
// and which device is sent what, when.

using namespace askhost::web::push;

namespace {

struct UserAgent {
    std::string pub, auth, priv;  // priv: the scalar, to read what was sent as the browser would
};

UserAgent new_user_agent(std::mt19937& rng) {
    EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    BOOST_REQUIRE(key);
    UserAgent ua;
    ua.pub.assign(65, '\0');
    std::size_t len = 0;
    BOOST_REQUIRE(EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY,
                                                  reinterpret_cast<unsigned char*>(ua.pub.data()), 65, &len) == 1);
    BIGNUM* d = nullptr;
    BOOST_REQUIRE(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &d) == 1);
    ua.priv.assign(32, '\0');
    BOOST_REQUIRE(BN_bn2binpad(d, reinterpret_cast<unsigned char*>(ua.priv.data()), 32) == 32);
    BN_free(d);
    EVP_PKEY_free(key);
    for (int i = 0; i < 16; ++i) ua.auth.push_back(static_cast<char>(rng() & 0xff));
    return ua;
}

struct TempDir : askhost::test::ScratchDir {
    TempDir() : ScratchDir("askhost-push") {}
};

askhost::web::WaitingAsk waiting(const std::string& key, const std::string& question, std::vector<std::string> labels,
                                 bool multi = false) {
    askhost::web::WaitingAsk a;
    a.key = key;
    a.page.key = key;
    a.page.who = "codex · MCP";
    a.ask.agent = "codex";
    askhost::Question q;
    q.question = question;
    q.header = "Pick";
    q.multi_select = multi;
    for (auto& l : labels) q.options.push_back({l, "", std::nullopt});
    a.ask.questions.push_back(q);
    return a;
}

rapidjson::Document parsed(const std::string& text) {
    rapidjson::Document doc;
    doc.Parse(text.c_str());
    BOOST_REQUIRE(doc.IsObject());
    return doc;
}

}  // namespace

BOOST_AUTO_TEST_CASE(messages_carry_what_the_setting_says) {
    auto a = waiting("42:ask-1", "Which database?", {"PostgreSQL", "SQLite"});
    auto full = parsed(ask_message(a, Content::Full, "srv"));
    BOOST_TEST(std::string(full["type"].GetString()) == "ask");
    BOOST_TEST(std::string(full["tag"].GetString()) == "42:ask-1");
    BOOST_TEST(std::string(full["server"].GetString()) == "srv");
    BOOST_TEST(std::string(full["title"].GetString()) == "codex · MCP asks");
    BOOST_TEST(std::string(full["body"].GetString()) == "Which database?");
    BOOST_REQUIRE(full["actions"].IsArray());
    BOOST_TEST(full["actions"].Size() == 2u);
    BOOST_TEST(std::string(full["actions"][1]["title"].GetString()) == "SQLite");
    BOOST_TEST(!full["actions"][1].HasMember("open"));

    const std::string who = ask_message(a, Content::Who, "srv");
    BOOST_TEST(who.find("codex") != std::string::npos);
    const std::string none = ask_message(a, Content::None, "srv");
    for (const std::string& m : {who, none}) {
        BOOST_TEST(m.find("database") == std::string::npos);
        BOOST_TEST(m.find("SQLite") == std::string::npos);
        BOOST_TEST(m.find("actions") == std::string::npos);
    }
    BOOST_TEST(none.find("codex") == std::string::npos);

    // An action for each of up to three options; none for a multi-select, or past three options.
    BOOST_TEST(parsed(ask_message(waiting("1:a", "Q?", {"a", "b", "c"}), Content::Full, "s"))["actions"].Size() == 3u);
    BOOST_TEST(ask_message(waiting("1:a", "Q?", {"a", "b"}, true), Content::Full, "s").find("actions") ==
               std::string::npos);
    BOOST_TEST(ask_message(waiting("1:a", "Q?", {"a", "b", "c", "d"}), Content::Full, "s").find("actions") ==
               std::string::npos);
    // A permission's allow opens the page: it is asked once more there.
    auto p = waiting("7:ask-2", "Allow Bash: rm -rf build?", {"Allow", "Deny"});
    p.ask.permission = askhost::Permission{"Bash", "rm -rf build", "", "", "", "", {}};
    p.ask.permission->options = {{"Allow", askhost::PermissionKind::AllowOnce},
                                 {"Deny", askhost::PermissionKind::RejectOnce}};
    auto perm = parsed(ask_message(p, Content::Full, "s"));
    BOOST_TEST(std::string(perm["body"].GetString()) == "Bash: rm -rf build");
    BOOST_TEST(perm["actions"][0]["open"].GetBool());
    BOOST_TEST(!perm["actions"][1].HasMember("open"));
    // Agent text is shown as every face shows it, and cut to fit a notification.
    auto odd = waiting("1:b", std::string(2000, 'x') + "\u202e", {"a", "b"});
    auto cut = parsed(ask_message(odd, Content::Full, "s"));
    BOOST_TEST(std::string(cut["body"].GetString()).size() < 500u);
    auto bidi = parsed(ask_message(waiting("1:c", "evil\u202etxt", {"a", "b"}), Content::Full, "s"));
    BOOST_TEST(std::string(bidi["body"].GetString()) == "evil<U+202E>txt");
    BOOST_TEST(parsed(close_message("42:ask-1"))["tag"].GetString() == std::string("42:ask-1"));
}

BOOST_AUTO_TEST_CASE(endpoints_are_a_public_push_service_or_a_tests_loopback) {
    auto e = parse_endpoint("https://fcm.googleapis.com/fcm/send/abc:def", false);
    BOOST_REQUIRE(e);
    BOOST_TEST(e->https);
    BOOST_TEST(e->host == "fcm.googleapis.com");
    BOOST_TEST(e->port == 443);
    BOOST_TEST(e->target == "/fcm/send/abc:def");
    BOOST_TEST(e->origin == "https://fcm.googleapis.com");
    auto port = parse_endpoint("https://Push.Example.net:443/x?y=1", false);
    BOOST_REQUIRE(port);
    BOOST_TEST(port->origin == "https://push.example.net");
    BOOST_TEST(port->target == "/x?y=1");
    for (const char* url : {"https://updates.push.services.mozilla.com/wpush/v2/x", "https://web.push.apple.com/x",
                            "https://wns2-bl2p.notify.windows.com/w/?token=x", "https://93.184.215.14/x",
                            "https://[2606:4700:4700::1111]/x", "https://1.2.3.4.nip.io/x"})
        BOOST_TEST(static_cast<bool>(parse_endpoint(url, false)), url);
    // Not a push service: another port, plain http, this machine, its network, a reserved address,
    // the names of such places, and numbers the name lookup would take for 127.0.0.1.
    for (const char* url : {"https://push.example.net:8443/x",
                            "http://push.example.net/x",
                            "https://127.0.0.1/x",
                            "https://127.0.0.1:9/x",
                            "https://10.1.2.3/x",
                            "https://172.16.0.1/x",
                            "https://172.31.255.254/x",
                            "https://192.168.1.5/x",
                            "https://169.254.169.254/latest",
                            "https://100.64.0.1/x",
                            "https://0.0.0.0/x",
                            "https://192.0.2.1/x",
                            "https://198.18.0.1/x",
                            "https://224.0.0.1/x",
                            "https://240.0.0.1/x",
                            "https://255.255.255.255/x",
                            "https://[::1]/x",
                            "https://[::]/x",
                            "https://[fe80::1]/x",
                            "https://[fd00::1]/x",
                            "https://[fc00::1]/x",
                            "https://[fec0::1]/x",
                            "https://[ff02::1]/x",
                            "https://[2001:db8::1]/x",
                            "https://[::ffff:127.0.0.1]/x",
                            "https://[::ffff:10.0.0.1]/x",
                            "https://[64:ff9b::a01:203]/x",
                            "https://[::7f00:1]/x",
                            "https://localhost/x",
                            "https://LOCALHOST/x",
                            "https://push.localhost/x",
                            "https://printer.local/x",
                            "https://db.internal/x",
                            "https://router.lan/x",
                            "https://nas.home.arpa/x",
                            "https://intranet/x",
                            "https://2130706433/x",
                            "https://127.1/x",
                            "https://0x7f.0.0.1/x",
                            "https://017700000001/x",
                            "https://push..example.net/x",
                            "https://.example.net/x"}) {
        auto r = parse_endpoint(url, false);
        BOOST_TEST(!r, url);
    }
    BOOST_TEST(parse_endpoint("https://push.example.net:8443/x", false).error().message.find("443") !=
               std::string::npos);
    BOOST_TEST(parse_endpoint("https://192.168.1.5/x", false).error().message.find("not public") != std::string::npos);
    BOOST_TEST(parse_endpoint("https://localhost/x", false).error().message.find("this machine") != std::string::npos);
    // The tests' stand-in: a loopback address (no name to resolve), http or https, any port; the
    // option lets nothing else through.
    BOOST_TEST(!parse_endpoint("http://127.0.0.1:9/push", false));
    BOOST_TEST(static_cast<bool>(parse_endpoint("http://127.0.0.1:9/push", true)));
    BOOST_TEST(static_cast<bool>(parse_endpoint("https://127.0.0.1:9/push", true)));
    BOOST_TEST(static_cast<bool>(parse_endpoint("http://[::1]:9/push", true)));
    BOOST_TEST(!parse_endpoint("http://localhost:9/push", true));
    BOOST_TEST(!parse_endpoint("https://localhost:9/push", true));
    BOOST_TEST(!parse_endpoint("https://10.1.2.3/push", true));
    BOOST_TEST(!parse_endpoint("http://push.example.net/", true));
    BOOST_TEST(!parse_endpoint("https://push.example.net:8443/", true));
    BOOST_TEST(!parse_endpoint("https://user@push.example.net/", false));
    BOOST_TEST(!parse_endpoint("ftp://push.example.net/", false));
    BOOST_TEST(!parse_endpoint("https://push.example.net:99999/", false));
    BOOST_TEST(!parse_endpoint("https://push example.net/", false));
    BOOST_TEST(!parse_endpoint("https://push.example.net/" + std::string(3000, 'a'), false));
}

BOOST_AUTO_TEST_CASE(public_addresses_are_those_of_the_internet) {
    auto is_public = [](const char* text) { return public_address(boost::asio::ip::make_address(text)); };
    for (const char* a : {"8.8.8.8", "93.184.215.14", "172.32.0.1", "100.128.0.1", "2001:4860:4860::8888",
                          "2a00:1450:4001::200e", "64:ff9b::808:808", "::ffff:8.8.8.8"})
        BOOST_TEST(is_public(a), a);
    for (const char* a : {"127.0.0.1",
                          "127.255.0.9",
                          "10.0.0.1",
                          "172.16.5.4",
                          "192.168.0.1",
                          "169.254.1.1",
                          "100.64.0.1",
                          "100.127.255.255",
                          "0.1.2.3",
                          "192.0.0.8",
                          "192.0.2.9",
                          "198.51.100.1",
                          "203.0.113.1",
                          "198.19.0.1",
                          "224.0.0.251",
                          "239.1.1.1",
                          "250.0.0.1",
                          "255.255.255.255",
                          "::",
                          "::1",
                          "fe80::1",
                          "fd12:3456::1",
                          "fec0::1",
                          "ff02::fb",
                          "2001:db8::1",
                          "::ffff:192.168.0.1",
                          "64:ff9b::7f00:1",
                          "::10.0.0.1",
                          "100::1",
                          "4000::1"})
        BOOST_TEST(!is_public(a), a);
}

BOOST_AUTO_TEST_CASE(subscriptions_are_checked_and_kept_privately) {
    std::mt19937 rng(3);
    UserAgent ua = new_user_agent(rng);
    const std::string good = R"({"endpoint":"https://push.example.net/a","expirationTime":null,"keys":{"p256dh":")" +
                             base64url(ua.pub) + R"(","auth":")" + base64url(ua.auth) + R"("}})";
    auto s = read_subscription(parsed(good), false);
    BOOST_REQUIRE(s);
    BOOST_TEST(s->p256dh == ua.pub);
    auto short_auth = read_subscription(parsed(R"({"endpoint":"https://push.example.net/a","keys":{"p256dh":")" +
                                               base64url(ua.pub) + R"(","auth":"AAAA"}})"),
                                        false);
    BOOST_REQUIRE(!short_auth);
    BOOST_TEST(short_auth.error().message.find("keys.auth") != std::string::npos);
    BOOST_TEST(!read_subscription(parsed(R"({"endpoint":"https://push.example.net/a"})"), false));

    TempDir dir;
    const std::string path = (dir.path / "subs").string();
    SubscriptionStore store(path);
    BOOST_TEST(!store.load(false));
    BOOST_TEST(*store.add(*s));
    BOOST_TEST(!*store.add(*s));  // the same endpoint again replaces it
    struct stat st {};
    BOOST_REQUIRE(::stat(path.c_str(), &st) == 0);
    BOOST_TEST((st.st_mode & 0777) == 0600u);
    SubscriptionStore again(path);
    BOOST_TEST(!again.load(false));
    BOOST_REQUIRE(again.all().size() == 1u);
    BOOST_TEST(again.all()[0].auth == ua.auth);
    BOOST_TEST(again.remove("https://push.example.net/a"));
    SubscriptionStore after(path);
    BOOST_TEST(!after.load(false));
    BOOST_TEST(after.all().empty());
}

namespace {

// The service with a push service that answers at once, as `answer` says.
struct Bench {
    boost::asio::io_context io;
    TempDir dir;
    SubscriptionStore store{(dir.path / "subs").string()};
    struct Sent {
        std::string endpoint, plaintext, topic;
    };
    std::vector<Sent> sent;
    SendResult::Kind answer = SendResult::Kind::Delivered;
    std::unique_ptr<PushService> service;
    std::vector<UserAgent> devices;

    explicit Bench(std::chrono::milliseconds window = std::chrono::milliseconds(200)) {
        service = std::make_unique<PushService>(io, store, "KEY",
                                                ServiceOptions{.content = Content::Full, .burst_window = window},
                                                [this](const Subscription& to, std::string text, std::string topic,
                                                       std::chrono::seconds, std::function<void(SendResult)> done) {
                                                    sent.push_back({to.endpoint, text, topic});
                                                    boost::asio::post(io, [done, k = answer] {
                                                        done({k, k == SendResult::Kind::Gone ? 410 : 201, "test"});
                                                    });
                                                });
        service->server_id = [] { return std::string("srv"); };
    }
    std::string subscribe(int n, const std::string& service_url = "https://push.example.net/") {
        std::mt19937 rng(static_cast<unsigned>(n));
        devices.push_back(new_user_agent(rng));
        const std::string endpoint = service_url + std::to_string(n);
        auto reply = service->page_message(
            "push-subscribe",
            parsed(R"({"type":"push-subscribe","subscription":{"endpoint":")" + endpoint + R"(","keys":{"p256dh":")" +
                   base64url(devices.back().pub) + R"(","auth":")" + base64url(devices.back().auth) + R"("}}})"));
        BOOST_REQUIRE(reply);
        BOOST_TEST(reply->find("\"ok\":true") != std::string::npos);
        return endpoint;
    }
    // Runs the loop until nothing is left to do: the push service's answers, and a burst's window
    // (its own timer) when one is open.
    void settle() {
        io.restart();
        io.run();
    }
};

}  // namespace

BOOST_AUTO_TEST_CASE(one_message_per_question_per_device_then_a_closing_one) {
    Bench b;
    const std::string phone = b.subscribe(1);
    const std::string laptop = b.subscribe(2);
    BOOST_TEST(b.service->devices() == 2u);
    auto q1 = waiting("9:ask-1", "Which database?", {"A", "B"});
    b.service->question_waiting(q1);
    b.settle();
    BOOST_REQUIRE(b.sent.size() == 2u);
    BOOST_TEST(parsed(b.sent[0].plaintext)["tag"].GetString() == std::string("9:ask-1"));
    BOOST_TEST(b.sent[0].topic == topic_for("9:ask-1"));
    b.service->question_gone("9:ask-1");
    b.service->question_gone("9:ask-1");  // once only
    b.settle();
    BOOST_REQUIRE(b.sent.size() == 4u);
    BOOST_TEST(parsed(b.sent[2].plaintext)["type"].GetString() == std::string("close"));
    BOOST_TEST(b.sent[2].topic == b.sent[0].topic);  // it replaces the question where it still waits
    // A question that ends before it was told is never told, and so never closed.
    b.service->question_waiting(waiting("9:ask-2", "Q2?", {"A", "B"}));  // within the window: held
    b.service->question_gone("9:ask-2");
    b.settle();
    BOOST_TEST(b.sent.size() == 4u);
}

// Apple's push service revokes a subscription whose message shows nothing: its devices get no
// closing message (the notification stays until tapped; the page says the question was answered).
BOOST_AUTO_TEST_CASE(no_closing_message_to_apples_push_service) {
    Bench b;
    const std::string iphone = b.subscribe(1, "https://web.push.apple.com/QF8w7V0");
    const std::string android = b.subscribe(2, "https://fcm.googleapis.com/fcm/send/");
    b.service->question_waiting(waiting("5:ask-1", "Which?", {"A", "B"}));
    b.settle();
    BOOST_REQUIRE(b.sent.size() == 2u);
    b.service->question_gone("5:ask-1");
    b.settle();
    BOOST_REQUIRE(b.sent.size() == 3u);
    BOOST_TEST(b.sent[2].endpoint == android);
    BOOST_TEST(parsed(b.sent[2].plaintext)["type"].GetString() == std::string("close"));
}

BOOST_AUTO_TEST_CASE(a_burst_is_told_in_one_message) {
    Bench b;
    b.subscribe(1);
    b.service->question_waiting(waiting("1:ask-1", "First?", {"A", "B"}));
    b.service->question_waiting(waiting("2:ask-1", "Second?", {"A", "B"}));
    b.service->question_waiting(waiting("3:ask-1", "Third?", {"A", "B"}));
    b.settle();
    BOOST_REQUIRE(b.sent.size() == 2u);
    auto burst = parsed(b.sent[1].plaintext);
    BOOST_TEST(burst["tag"].GetString() == std::string(kBurstTag));
    BOOST_TEST(burst["title"].GetString() == std::string("2 questions waiting"));
    BOOST_TEST(burst["keys"].Size() == 2u);
    BOOST_TEST(std::string(burst["body"].GetString()).find("Third?") != std::string::npos);
    // Its notification closes when the last it stands for ends.
    b.service->question_gone("2:ask-1");
    b.settle();
    BOOST_TEST(b.sent.size() == 2u);
    b.service->question_gone("3:ask-1");
    b.settle();
    BOOST_REQUIRE(b.sent.size() == 3u);
    auto close = parsed(b.sent[2].plaintext);
    BOOST_TEST(close["type"].GetString() == std::string("close"));
    BOOST_TEST(close["tag"].GetString() == std::string(kBurstTag));
}

// A burst names at most 20 questions, and counts them all.
BOOST_AUTO_TEST_CASE(a_burst_past_twenty_questions_counts_them_all) {
    Bench b;
    b.subscribe(1);
    for (int i = 0; i < 25; ++i)
        b.service->question_waiting(
            waiting(std::to_string(100 + i) + ":ask-1", "Question " + std::to_string(i) + "?", {"A", "B"}));
    b.settle();
    BOOST_REQUIRE(b.sent.size() == 2u);  // the first one's own, then the burst of the other 24
    auto burst = parsed(b.sent[1].plaintext);
    BOOST_TEST(burst["title"].GetString() == std::string("24 questions waiting"));
    BOOST_TEST(burst["keys"].Size() == 20u);
    const std::string body = burst["body"].GetString();
    BOOST_TEST(body.ends_with("; and 4 more"), body);
    BOOST_TEST(body.size() <= 400u);
}

// The file keeps SubscriptionStore::kMax devices, the oldest going first; the service tells no more
// than it keeps (it told the one the file let go until askhost web restarted).
BOOST_AUTO_TEST_CASE(a_device_past_the_most_kept_is_told_nothing) {
    Bench b;
    const std::string oldest = b.subscribe(0);
    for (int n = 1; n <= static_cast<int>(SubscriptionStore::kMax); ++n) b.subscribe(n);
    BOOST_TEST(b.store.all().size() == SubscriptionStore::kMax);
    BOOST_TEST(b.service->devices() == SubscriptionStore::kMax);
    b.service->question_waiting(waiting("1:ask-1", "First?", {"A", "B"}));
    b.settle();
    BOOST_TEST(b.sent.size() == SubscriptionStore::kMax);
    for (const auto& m : b.sent) BOOST_TEST(m.endpoint != oldest);
}

BOOST_AUTO_TEST_CASE(a_device_the_push_service_says_is_gone_is_dropped) {
    Bench b;
    const std::string phone = b.subscribe(1);
    b.answer = SendResult::Kind::Gone;
    b.service->question_waiting(waiting("1:ask-1", "First?", {"A", "B"}));
    b.settle();
    BOOST_TEST(b.service->devices() == 0u);
    SubscriptionStore kept(b.store.path());
    BOOST_TEST(!kept.load(false));
    BOOST_TEST(kept.all().empty());
    b.service->question_gone("1:ask-1");
    b.settle();
    BOOST_TEST(b.sent.size() == 1u);
    // A page can unsubscribe too.
    const std::string laptop = b.subscribe(2);
    BOOST_TEST(b.service->devices() == 1u);
    auto reply = b.service->page_message("push-unsubscribe", parsed(R"({"endpoint":")" + laptop + R"("})"));
    BOOST_REQUIRE(reply);
    BOOST_TEST(b.service->devices() == 0u);
    // And a subscription that is not one is refused, saying why.
    auto bad = b.service->page_message("push-subscribe", parsed(R"({"subscription":{"endpoint":"http://x/"}})"));
    BOOST_REQUIRE(bad);
    BOOST_TEST(bad->find("\"ok\":false") != std::string::npos);
    BOOST_TEST(bad->find("subscription.endpoint") != std::string::npos);
    BOOST_TEST(!b.service->page_message("answer", parsed("{}")));
}

// ------------------------------------------------------------------ the sender, over real sockets

namespace {

// A push service stand-in on loopback, on a thread of its own: it answers the requests in turn
// with `statuses` (0: reads the request and answers nothing, holding the connection), and keeps
// what each request was.
struct StandIn {
    struct Got {
        std::string head, body;
        std::chrono::steady_clock::time_point at;
    };
    std::vector<int> statuses;
    std::vector<Got> got;
    std::mutex mutex;
    int listener = -1;
    std::uint16_t port = 0;
    std::thread thread;
    std::vector<int> held;

    explicit StandIn(std::vector<int> answers) : statuses(std::move(answers)) {
        listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        BOOST_REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        BOOST_REQUIRE(::listen(listener, 8) == 0);
        socklen_t len = sizeof a;
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
        thread = std::thread([this] { serve(); });
    }
    ~StandIn() {
        ::shutdown(listener, SHUT_RDWR);
        ::close(listener);
        thread.join();
        for (int fd : held) ::close(fd);
    }
    std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port) + "/push/x"; }
    void serve() {
        for (std::size_t n = 0;; ++n) {
            const int fd = ::accept(listener, nullptr, nullptr);
            if (fd < 0) return;
            std::string data;
            char buf[4096];
            std::size_t need = std::string::npos;
            while (need == std::string::npos || data.size() < need) {
                const ssize_t r = ::read(fd, buf, sizeof buf);
                if (r <= 0) break;
                data.append(buf, static_cast<std::size_t>(r));
                const auto end = data.find("\r\n\r\n");
                if (end != std::string::npos && need == std::string::npos) {
                    const auto cl = data.find("Content-Length: ");
                    need = end + 4 + (cl == std::string::npos ? 0 : std::stoul(data.substr(cl + 16)));
                }
            }
            const auto end = data.find("\r\n\r\n");
            {
                std::lock_guard<std::mutex> lock(mutex);
                got.push_back({data.substr(0, end), end == std::string::npos ? "" : data.substr(end + 4),
                               std::chrono::steady_clock::now()});
            }
            const int status = n < statuses.size() ? statuses[n] : 201;
            if (status == 0) {
                held.push_back(fd);
                continue;
            }
            const std::string reply =
                "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
            (void)!::write(fd, reply.data(), reply.size());
            ::close(fd);
        }
    }
    std::size_t count() {
        std::lock_guard<std::mutex> lock(mutex);
        return got.size();
    }
};

// A name lookup that does not come back until the test lets it (a DNS server that never
// answers): says how many started and ended. Let go after 60 s whatever happens, so a sender that
// waited for it fails the test rather than hanging it.
struct HeldLookup {
    struct State {
        std::mutex mutex;
        std::condition_variable changed;
        bool released = false;
        int started = 0, ended = 0;
    };
    std::shared_ptr<State> state = std::make_shared<State>();
    std::thread watchdog;

    HeldLookup() {
        watchdog = std::thread([s = state] {
            std::unique_lock<std::mutex> lock(s->mutex);
            s->changed.wait_for(lock, std::chrono::seconds(60), [&] { return s->released; });
            s->released = true;
            s->changed.notify_all();
        });
    }
    ~HeldLookup() {
        release();
        if (watchdog.joinable()) watchdog.join();
    }
    Resolve resolve(std::string address = "93.184.215.14") const {
        return [s = state, address](const std::string&, std::uint16_t port) -> askhost::Result<Addresses> {
            std::unique_lock<std::mutex> lock(s->mutex);
            ++s->started;
            s->changed.notify_all();
            s->changed.wait(lock, [&] { return s->released; });
            ++s->ended;
            return Addresses{{boost::asio::ip::make_address(address), port}};
        };
    }
    bool wait_started(int n) {
        std::unique_lock<std::mutex> lock(state->mutex);
        return state->changed.wait_for(lock, std::chrono::seconds(30), [&] { return state->started >= n; });
    }
    int ended() {
        std::lock_guard<std::mutex> lock(state->mutex);
        return state->ended;
    }
    void release() {
        std::lock_guard<std::mutex> lock(state->mutex);
        state->released = true;
        state->changed.notify_all();
    }
    // Released, and every thread that ran the lookup has let go of it (each holds a copy until it
    // ends): only this one is left.
    bool all_gone() {
        release();
        if (watchdog.joinable()) watchdog.join();
        for (int i = 0; i < 3000 && state.use_count() > 1; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return state.use_count() == 1;  // this one alone
    }
};

struct SendOnce {
    SendResult result;
    bool done = false;
};

// One message through a real PushSender to `at`, waited for on the main loop.
SendOnce send_once(const std::string& endpoint, const UserAgent& ua, std::string_view text, Resolve resolve = {}) {
    boost::asio::io_context main;
    auto guard = boost::asio::make_work_guard(main);
    auto key = VapidKey::generate();
    BOOST_REQUIRE(key);
    SendOnce out;
    PushSender sender(main, *key,
                      SenderOptions{.subject = "mailto:test@example.org",
                                    .allow_http = true,
                                    .timeout = std::chrono::milliseconds(300),
                                    .attempts = 3,
                                    .first_retry = std::chrono::milliseconds(50),
                                    .resolve = std::move(resolve)});
    sender.send({endpoint, ua.pub, ua.auth}, std::string(text), topic_for("1:ask-1"), std::chrono::seconds(600),
                [&](SendResult r) {
                    out.result = std::move(r);
                    out.done = true;
                    guard.reset();
                });
    boost::asio::steady_timer limit(main, std::chrono::seconds(30));  // a hang is a failure, not a stuck test
    limit.async_wait([&](const boost::system::error_code& ec) {
        if (!ec) main.stop();
    });
    main.run_one();  // the outcome, or the limit
    return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_sender_posts_an_encrypted_message_and_tries_again_after_a_5xx) {
    std::mt19937 rng(9);
    UserAgent ua = new_user_agent(rng);
    StandIn push({503, 201});
    const std::string text = R"({"type":"ask"})";
    SendOnce r = send_once(push.endpoint(), ua, text);
    BOOST_REQUIRE(r.done);
    BOOST_TEST(static_cast<int>(r.result.kind) == static_cast<int>(SendResult::Kind::Delivered));
    BOOST_REQUIRE(push.count() == 2u);
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(push.got[1].at - push.got[0].at);
    BOOST_TEST(waited.count() >= 50);  // after its back-off
    const std::string& head = push.got[1].head;
    BOOST_TEST(head.rfind("POST /push/x HTTP/1.1\r\n", 0) == 0u);
    for (const char* h : {"TTL: 600\r\n", "Urgency: high\r\n", "Content-Encoding: aes128gcm\r\n",
                          "Content-Type: application/octet-stream\r\n", "Authorization: vapid t="})
        BOOST_TEST(head.find(h) != std::string::npos, h);
    BOOST_TEST(head.find("Topic: " + topic_for("1:ask-1") + "\r\n") != std::string::npos);
    // The body is the message, encrypted for the subscription (decrypted with a private key only
    // the browser has: test_web_push.cpp); here its header names a record size of 4096.
    BOOST_TEST(push.got[1].body.size() == 86u + text.size() + 1u + 16u);
    BOOST_TEST(push.got[1].body.substr(16, 4) == std::string("\x00\x00\x10\x00", 4));
}

BOOST_AUTO_TEST_CASE(the_sender_says_gone_at_once_and_gives_up_on_a_4xx) {
    std::mt19937 rng(10);
    UserAgent ua = new_user_agent(rng);
    {
        StandIn push({410});
        SendOnce r = send_once(push.endpoint(), ua, "x");
        BOOST_REQUIRE(r.done);
        BOOST_TEST(static_cast<int>(r.result.kind) == static_cast<int>(SendResult::Kind::Gone));
        BOOST_TEST(r.result.status == 410);
        BOOST_TEST(push.count() == 1u);
    }
    {
        StandIn push({404});  // a push service that never knew it, or forgot it
        SendOnce r = send_once(push.endpoint(), ua, "x");
        BOOST_REQUIRE(r.done);
        BOOST_TEST(static_cast<int>(r.result.kind) == static_cast<int>(SendResult::Kind::Gone));
        BOOST_TEST(r.result.status == 404);
        BOOST_TEST(push.count() == 1u);
    }
    {
        StandIn push({400});
        SendOnce r = send_once(push.endpoint(), ua, "x");
        BOOST_REQUIRE(r.done);
        BOOST_TEST(static_cast<int>(r.result.kind) == static_cast<int>(SendResult::Kind::Failed));
        BOOST_TEST(r.result.detail.find("400") != std::string::npos);
        BOOST_TEST(push.count() == 1u);
    }
}

BOOST_AUTO_TEST_CASE(a_push_service_that_never_answers_is_given_up_on) {
    std::mt19937 rng(11);
    UserAgent ua = new_user_agent(rng);
    StandIn push({0, 0, 0});
    SendOnce r = send_once(push.endpoint(), ua, "x");
    BOOST_REQUIRE(r.done);
    BOOST_TEST(static_cast<int>(r.result.kind) == static_cast<int>(SendResult::Kind::Failed));
    BOOST_TEST(push.count() == 3u);  // each attempt timed out, then the next one came
    // Nothing but a test's loopback in plain http.
    SendOnce refused = send_once("http://192.0.2.1/push", ua, "x");
    BOOST_REQUIRE(refused.done);
    BOOST_TEST(refused.result.detail.find("endpoint") != std::string::npos);
}

namespace {

// A PushSender to a test's loopback stand-in, whose outcomes are heard on `main` in order.
struct Lanes {
    boost::asio::io_context main;
    std::unique_ptr<PushSender> sender;
    std::vector<std::pair<std::string, SendResult>> heard;

    explicit Lanes(std::chrono::milliseconds first_retry) {
        auto key = VapidKey::generate();
        BOOST_REQUIRE(key);
        sender = std::make_unique<PushSender>(main, *key,
                                              SenderOptions{.subject = "mailto:test@example.org",
                                                            .allow_http = true,
                                                            .timeout = std::chrono::milliseconds(300),
                                                            .attempts = 3,
                                                            .first_retry = first_retry});
    }
    void send(const Subscription& to, const std::string& text, const std::string& tag) {
        sender->send(to, text, topic_for(tag), std::chrono::seconds(600),
                     [this, text](SendResult r) { heard.emplace_back(text, std::move(r)); });
    }
    // Runs the main loop until `done` holds, for at most 30 s (a hang is a failure, not a stuck test).
    template <class Done>
    bool run_until(Done done) {
        auto busy = boost::asio::make_work_guard(main);
        for (int i = 0; i < 3000 && !done(); ++i) {
            main.restart();
            main.run_for(std::chrono::milliseconds(10));
        }
        return done();
    }
};

bool is(const SendResult& r, SendResult::Kind k) { return r.kind == k; }

}  // namespace

// A question's message not delivered yet (its attempt held by the push service, then waiting to
// be tried again) is replaced by its closing message, which has the same topic: the closing
// message goes, and the question's is never tried again after it (its notification would show a
// question that no longer waits).
BOOST_AUTO_TEST_CASE(a_closing_message_replaces_its_questions_not_delivered_yet) {
    std::mt19937 rng(14);
    UserAgent ua = new_user_agent(rng);
    StandIn push({0, 201, 201});  // the first request held, unanswered
    Lanes lanes(std::chrono::seconds(60));
    const Subscription to{push.endpoint(), ua.pub, ua.auth};
    const std::string ask = R"({"type":"ask","tag":"1:ask-1"})", close = R"({"type":"close","tag":"1:ask-1"})";
    lanes.send(to, ask, "1:ask-1");
    BOOST_REQUIRE(lanes.run_until([&] { return push.count() == 1; }));
    lanes.send(to, close, "1:ask-1");
    BOOST_REQUIRE(lanes.run_until([&] { return lanes.heard.size() == 2; }));
    BOOST_TEST(lanes.heard[0].first == ask);
    BOOST_TEST(is(lanes.heard[0].second, SendResult::Kind::Replaced), lanes.heard[0].second.detail);
    BOOST_TEST(lanes.heard[1].first == close);
    BOOST_TEST(is(lanes.heard[1].second, SendResult::Kind::Delivered), lanes.heard[1].second.detail);
    BOOST_REQUIRE(push.count() == 2u);
    auto plain = decrypt(push.got[1].body, ua.priv, ua.pub, ua.auth);
    BOOST_REQUIRE(plain);
    BOOST_TEST(*plain == close);
}

// Messages of other topics do not wait for each other, nor replace one another: the first
// question's is tried again after the second's went.
BOOST_AUTO_TEST_CASE(messages_of_other_topics_go_each_their_way) {
    std::mt19937 rng(15);
    UserAgent ua = new_user_agent(rng);
    StandIn push({503, 201, 201});
    Lanes lanes(std::chrono::milliseconds(50));
    const Subscription to{push.endpoint(), ua.pub, ua.auth};
    lanes.send(to, "first", "1:ask-1");
    BOOST_REQUIRE(lanes.run_until([&] { return push.count() == 1; }));
    lanes.send(to, "second", "2:ask-1");
    BOOST_REQUIRE(lanes.run_until([&] { return lanes.heard.size() == 2; }));
    for (const auto& [text, r] : lanes.heard) BOOST_TEST(is(r, SendResult::Kind::Delivered), text + ": " + r.detail);
    BOOST_TEST(push.count() == 3u);
}

BOOST_AUTO_TEST_CASE(a_name_is_looked_up_off_the_loop_and_its_addresses_come_back_on_it) {
    boost::asio::io_context io;
    HeldLookup held;
    std::vector<std::string> heard;
    auto note = [&](askhost::Result<Addresses> r) {
        heard.push_back(r ? r->front().address().to_string() + ":" + std::to_string(r->front().port())
                          : r.error().message);
    };
    {
        NameLookups lookups(io, held.resolve(), 1);
        lookups.lookup("push.example.net", 443, note);
        BOOST_REQUIRE(held.wait_started(1));
        lookups.lookup("2001:db8::1", 443, note);        // an address: not looked up
        lookups.lookup("other.example.net", 443, note);  // one runs already, and one is the most
        io.poll();
        BOOST_TEST(heard == (std::vector<std::string>{"2001:db8::1:443", "1 name lookups are running already"}));
        held.release();
        auto busy = boost::asio::make_work_guard(io);  // run_for waits for the thread's post
        for (int i = 0; i < 3000 && heard.size() < 3; ++i) {
            io.restart();
            io.run_for(std::chrono::milliseconds(10));
        }
        BOOST_REQUIRE(heard.size() == 3u);
        BOOST_TEST(heard[2] == "93.184.215.14:443");
    }
    BOOST_TEST(held.all_gone());
}

BOOST_AUTO_TEST_CASE(stopping_the_sender_never_waits_for_a_name_lookup) {
    std::mt19937 rng(12);
    UserAgent ua = new_user_agent(rng);
    HeldLookup held;
    boost::asio::io_context main;
    auto key = VapidKey::generate();
    BOOST_REQUIRE(key);
    bool done = false;
    auto sender = std::make_unique<PushSender>(
        main, *key, SenderOptions{.subject = "mailto:test@example.org", .resolve = held.resolve()});
    sender->send({"https://push.example.net/x", ua.pub, ua.auth}, "x", topic_for("1:ask-1"), std::chrono::seconds(600),
                 [&](SendResult) { done = true; });
    BOOST_REQUIRE(held.wait_started(1));  // the name is being looked up, and its DNS server is silent
    sender.reset();                       // askhost web stops
    BOOST_TEST(held.ended() == 0);        // it did not wait for the lookup to end
    held.release();
    BOOST_TEST(held.all_gone());  // the lookup's thread ended, touching nothing of the sender
    main.poll();
    BOOST_TEST(!done);  // and nobody heard of the message
}

BOOST_AUTO_TEST_CASE(a_name_with_no_public_address_is_not_sent_to) {
    std::mt19937 rng(13);
    UserAgent ua = new_user_agent(rng);
    auto looked_up = std::make_shared<int>(0);
    Resolve private_only = [looked_up](const std::string&, std::uint16_t port) -> askhost::Result<Addresses> {
        ++*looked_up;
        return Addresses{{boost::asio::ip::make_address("10.1.2.3"), port},
                         {boost::asio::ip::make_address("fd00::1"), port}};
    };
    SendOnce r = send_once("https://push.example.net/x", ua, "x", private_only);
    BOOST_REQUIRE(r.done);
    BOOST_TEST(static_cast<int>(r.result.kind) == static_cast<int>(SendResult::Kind::Failed));
    BOOST_TEST(r.result.detail.find("no public address") != std::string::npos, r.result.detail);
    BOOST_TEST(*looked_up == 1);  // not tried again
}
