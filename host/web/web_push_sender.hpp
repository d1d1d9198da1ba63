// Posting Web Push messages (RFC 8030) to push services: each one encrypted for its browser (RFC
// 8291), signed with askhost web's VAPID key (RFC 8292), with a TTL, `Urgency: high` and a Topic,
// over HTTPS with the push service's certificate checked (Boost.Beast; OpenSSL). On a thread and a
// loop of its own, so that a slow or dead push service never holds up the page or a host: each
// attempt has a timeout, a failure that may pass (no answer, 429, 5xx) is tried again later and
// later, and the outcome comes back on the server's loop. Messages of one topic to one
// subscription go in order: a newer one waits for the older one's attempt in progress, and
// replaces it rather than let it be tried again after it (a question's after its closing message
// would show a notification of a question that no longer waits). A name is looked up on a thread that
// nobody waits for (name_lookup.hpp), and only its public addresses are used.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>

#include "core/lifetime.hpp"
#include "web/name_lookup.hpp"
#include "web/web_push.hpp"

namespace askhost::web::push {

struct SendResult {
    // Replaced: a newer message of the same topic to the same subscription came before this one
    // was delivered, and goes in its place (a closing message after its question's).
    enum class Kind { Delivered, Gone, Failed, Replaced } kind = Kind::Failed;
    int status = 0;      // the push service's HTTP status, 0 when none came
    std::string detail;  // why it failed, for the log
};

struct SenderOptions {
    std::string subject;      // the JWT's sub: a mailto: or https: contact (docs/web.md)
    bool allow_http = false;  // plain http to a loopback address: tests' stand-ins only
    std::chrono::milliseconds timeout{10000};
    int attempts = 4;  // in all; the waits between them 1 s, 4 s, 16 s
    std::chrono::milliseconds first_retry{1000};
    Resolve resolve{};  // how a name is looked up, off the worker's thread (empty: getaddrinfo)
};

class PushSender {
public:
    PushSender(boost::asio::io_context& main, VapidKey key, SenderOptions options);
    ~PushSender();  // what is still being sent is dropped; a name lookup in progress is not waited for
    PushSender(const PushSender&) = delete;
    PushSender& operator=(const PushSender&) = delete;

    // Sends `plaintext` to `to`; `done` runs on the main loop once it was delivered, refused,
    // given up on or replaced. `topic` (at most 32 base64url characters) lets the push service
    // replace an undelivered message of the same topic, and the sender one it has not delivered.
    void send(const Subscription& to, std::string plaintext, std::string topic, std::chrono::seconds ttl,
              std::function<void(SendResult)> done);
    // A new key (askhost web --new-token): the messages sent from now on are signed with it.
    void set_key(VapidKey key);

    struct Worker;

private:
    // Ended first when the sender goes: an outcome the worker posts after that is not handed on.
    Lifetime lifetime_;
    std::unique_ptr<boost::asio::io_context> io_;  // the worker's loop, on thread_
    std::shared_ptr<Worker> worker_;
    std::thread thread_;
};

}  // namespace askhost::web::push
