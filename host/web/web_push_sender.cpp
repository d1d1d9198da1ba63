#include "web/web_push_sender.hpp"

#include <atomic>
#include <map>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

#include <openssl/ssl.h>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "web/web_policy.hpp"
#include "web/web_push_store.hpp"

namespace askhost::web::push {

namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio::ip::tcp;

namespace {

constexpr std::size_t kMaxInFlight = 256;
constexpr std::size_t kMaxAnswer = std::size_t{64} * 1024;
// A JWT of at most a day (RFC 8292; Apple refuses more): half of one, made for each attempt.
constexpr std::chrono::hours kJwtLife{12};

using TlsStream = beast::ssl_stream<beast::tcp_stream>;

std::int64_t unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

struct PushSender::Worker : std::enable_shared_from_this<Worker> {
    Worker(boost::asio::io_context& main, boost::asio::io_context& io, Lifetime::Token sender, VapidKey key,
           SenderOptions opts)
        : main(main),
          io(io),
          sender(std::move(sender)),
          key(std::move(key)),
          opts(std::move(opts)),
          tls(ssl::context::tls_client),
          lookups(io, this->opts.resolve ? this->opts.resolve : Resolve(resolve_blocking)) {
        boost::system::error_code ignored;  // without the system's CAs every https push fails, and says so
        tls.set_default_verify_paths(ignored);
        tls.set_verify_mode(ssl::verify_peer);
        SSL_CTX_set_min_proto_version(tls.native_handle(), TLS1_2_VERSION);
    }

    boost::asio::io_context& main;
    boost::asio::io_context& io;   // PushSender's: its handlers hold the worker, it must not hold them
    const Lifetime::Token sender;  // copied on the worker's thread, looked at on the main one only
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard{io.get_executor()};
    VapidKey key;  // the worker's thread only
    SenderOptions opts;
    ssl::context tls;
    // Names looked up off this thread, never waited for: the sender lets go of them when it goes.
    NameLookups lookups;
    std::atomic<std::size_t> in_flight{0};

    struct Job {
        Subscription to;
        Endpoint at;
        std::string body, topic;
        std::chrono::seconds ttl{0};
        std::function<void(SendResult)> done;
        int attempt = 0;
        std::optional<boost::asio::steady_timer> wait;
        bool waiting = false;  // for its next attempt, on `wait`
    };

    // The messages of one topic to one subscription not finished yet: the one being sent (or
    // waiting to be tried again), and the newest that came meanwhile, which goes next.
    struct Lane {
        std::shared_ptr<Job> current, queued;
    };
    using LaneKey = std::pair<std::string, std::string>;  // endpoint, topic
    std::map<LaneKey, Lane> lanes;

    static LaneKey lane_key(const Job& job) { return {job.to.endpoint, job.topic}; }

    // The outcome, on the main loop unless the sender is gone by then; and the next message of
    // its lane goes.
    void finish(const std::shared_ptr<Job>& job, SendResult r) {
        --in_flight;
        boost::asio::post(main, [sender = sender, done = std::move(job->done), r = std::move(r)]() mutable {
            if (sender && done) done(std::move(r));
        });
        if (job->topic.empty()) return;
        auto it = lanes.find(lane_key(*job));
        if (it == lanes.end() || it->second.current != job) return;
        if (auto next = std::exchange(it->second.queued, nullptr)) {
            it->second.current = next;
            return attempt(next);
        }
        lanes.erase(it);
    }

    static SendResult replaced() {
        return {SendResult::Kind::Replaced, 0, "a newer message of the same topic went in its place"};
    }

    // A message encrypted and ready: it goes now, after the attempt of an older one of its topic
    // in progress, or in place of one waiting to be tried again.
    void begin(const std::shared_ptr<Job>& job) {
        if (job->topic.empty()) return attempt(job);
        Lane& lane = lanes[lane_key(*job)];
        if (!lane.current) {
            lane.current = job;
            return attempt(job);
        }
        if (lane.current->waiting) {
            auto older = std::exchange(lane.current, job);
            older->waiting = false;
            older->wait->cancel();
            finish(older, replaced());
            return attempt(job);
        }
        if (auto older = std::exchange(lane.queued, job)) finish(older, replaced());
    }

    void attempt(const std::shared_ptr<Job>& job);
    void outcome(const std::shared_ptr<Job>& job, beast::error_code ec, int status, const std::string& text);
    void again_or_fail(const std::shared_ptr<Job>& job, bool passing, int status, std::string why);
    void connect(const std::shared_ptr<Job>& job, const std::shared_ptr<http::request<http::string_body>>& req,
                 const Addresses& addresses);
    template <class Stream>
    void exchange(const std::shared_ptr<Job>& job, std::shared_ptr<Stream> stream,
                  const std::shared_ptr<http::request<http::string_body>>& req);
};

void PushSender::Worker::attempt(const std::shared_ptr<Job>& job) {
    ++job->attempt;
    auto auth = key.authorization(job->at.origin, unix_now() + std::chrono::seconds(kJwtLife).count(), opts.subject);
    if (!auth) return finish(job, {SendResult::Kind::Failed, 0, auth.error().message});
    auto req = std::make_shared<http::request<http::string_body>>(http::verb::post, job->at.target, 11);
    const bool default_port = job->at.port == (job->at.https ? 443 : 80);
    const std::string host = job->at.host.find(':') != std::string::npos ? "[" + job->at.host + "]" : job->at.host;
    req->set(http::field::host, default_port ? host : host + ":" + std::to_string(job->at.port));
    req->set(http::field::authorization, *auth);
    req->set(http::field::content_type, "application/octet-stream");
    req->set(http::field::content_encoding, "aes128gcm");
    req->set("TTL", std::to_string(job->ttl.count()));
    req->set("Urgency", "high");
    if (!job->topic.empty()) req->set("Topic", job->topic);
    req->set(http::field::user_agent, "askhost-web");
    req->body() = job->body;
    req->prepare_payload();

    // Names are looked up (the push services'), addresses are not.
    lookups.lookup(job->at.host, job->at.port, [self = shared_from_this(), job, req](Result<Addresses> found) {
        if (!found) return self->again_or_fail(job, true, 0, found.error().message);
        // Only the internet: a name that points at this machine or its network is not sent to.
        Addresses usable;
        for (const auto& at : *found)
            if (public_address(at.address()) || (self->opts.allow_http && at.address().is_loopback()))
                usable.push_back(at);
        if (usable.empty())
            return self->finish(job, {SendResult::Kind::Failed, 0,
                                      job->at.host + " has no public address (" + found->front().address().to_string() +
                                          "): not a push service"});
        self->connect(job, req, usable);
    });
}

void PushSender::Worker::connect(const std::shared_ptr<Job>& job,
                                 const std::shared_ptr<http::request<http::string_body>>& req,
                                 const Addresses& addresses) {
    auto self = shared_from_this();
    auto begin = [&](auto stream) {
        auto& low = beast::get_lowest_layer(*stream);
        low.expires_after(opts.timeout);
        low.async_connect(addresses, [self, job, req, stream](beast::error_code ec, const tcp::endpoint&) {
            if (ec) return self->outcome(job, ec, 0, {});
            self->exchange(job, stream, req);
        });
    };
    if (job->at.https) {
        auto stream = std::make_shared<TlsStream>(io, tls);
        // SNI, and the certificate must name the push service.
        if (SSL_set_tlsext_host_name(stream->native_handle(), job->at.host.c_str()) != 1)
            return outcome(job, boost::asio::error::invalid_argument, 0, {});
        stream->set_verify_callback(ssl::host_name_verification(job->at.host));
        begin(stream);
    } else {
        begin(std::make_shared<beast::tcp_stream>(io));
    }
}

template <class Stream>
void PushSender::Worker::exchange(const std::shared_ptr<Job>& job, std::shared_ptr<Stream> stream,
                                  const std::shared_ptr<http::request<http::string_body>>& req) {
    auto self = shared_from_this();
    auto send = [self, job, stream, req] {
        http::async_write(*stream, *req, [self, job, stream, req](beast::error_code ec, std::size_t) {
            if (ec) return self->outcome(job, ec, 0, {});
            auto buffer = std::make_shared<beast::flat_buffer>();
            auto parser = std::make_shared<http::response_parser<http::string_body>>();
            parser->body_limit(kMaxAnswer);
            http::async_read(
                *stream, *buffer, *parser, [self, job, stream, buffer, parser](beast::error_code ec2, std::size_t) {
                    if (ec2) return self->outcome(job, ec2, 0, {});
                    const auto& res = parser->get();
                    self->outcome(job, {}, static_cast<int>(res.result_int()), res.body());
                    beast::error_code ignored;
                    beast::get_lowest_layer(*stream).socket().shutdown(tcp::socket::shutdown_both, ignored);
                });
        });
    };
    if constexpr (std::is_same_v<Stream, TlsStream>) {
        stream->async_handshake(ssl::stream_base::client, [self, job, send](beast::error_code ec) {
            if (ec) return self->outcome(job, ec, 0, {});
            send();
        });
    } else {
        send();
    }
}

void PushSender::Worker::outcome(const std::shared_ptr<Job>& job, beast::error_code ec, int status,
                                 const std::string& text) {
    if (!ec && status >= 200 && status < 300) return finish(job, {SendResult::Kind::Delivered, status, {}});
    // The push service no longer knows the subscription (the browser dropped it, or it expired).
    if (!ec && (status == 404 || status == 410))
        return finish(job, {SendResult::Kind::Gone, status, "the push service says the subscription is gone"});
    std::string why = ec ? ec.message() : "the push service answered " + std::to_string(status);
    if (!ec && !text.empty()) why += ": " + printable(text);
    again_or_fail(job, ec || status == 429 || status >= 500, status, std::move(why));
}

void PushSender::Worker::again_or_fail(const std::shared_ptr<Job>& job, bool passing, int status, std::string why) {
    if (!passing || job->attempt >= opts.attempts)
        return finish(job, {SendResult::Kind::Failed, status, std::move(why)});
    // A newer message of its topic waits: it goes instead of this one being tried again.
    if (!job->topic.empty())
        if (auto it = lanes.find(lane_key(*job)); it != lanes.end() && it->second.queued)
            return finish(job, replaced());
    auto delay = opts.first_retry;
    for (int i = 1; i < job->attempt; ++i) delay *= 4;
    job->wait.emplace(io);
    job->wait->expires_after(delay);
    job->waiting = true;
    job->wait->async_wait([self = shared_from_this(), job](const boost::system::error_code& e) {
        if (e || !job->waiting) return;  // replaced meanwhile
        job->waiting = false;
        self->attempt(job);
    });
}

PushSender::PushSender(boost::asio::io_context& main, VapidKey key, SenderOptions options)
    : io_(std::make_unique<boost::asio::io_context>()),
      worker_(std::make_shared<Worker>(main, *io_, lifetime_.token(), std::move(key), std::move(options))) {
    thread_ = std::thread([io = io_.get()] { io->run(); });
}

PushSender::~PushSender() {
    lifetime_.end();
    worker_->guard.reset();
    io_->stop();
    if (thread_.joinable()) thread_.join();
    // A name lookup still running is let go, not waited for (a DNS server that does not answer).
    worker_->lookups.abandon();
    worker_->lanes.clear();  // their messages' timers go while the loop they belong to is there
    io_.reset();             // destroys the handlers left, and with them what they held of the worker
}

void PushSender::send(const Subscription& to, std::string plaintext, std::string topic, std::chrono::seconds ttl,
                      std::function<void(SendResult)> done) {
    auto job = std::make_shared<Worker::Job>();
    job->to = to;
    job->topic = std::move(topic);
    job->ttl = ttl;
    job->done = std::move(done);
    auto at = parse_endpoint(to.endpoint, worker_->opts.allow_http);
    if (!at) {
        boost::asio::post(worker_->main, [d = std::move(job->done), why = at.error().message] {
            d({SendResult::Kind::Failed, 0, "the endpoint: " + why});
        });
        return;
    }
    job->at = std::move(*at);
    if (worker_->in_flight >= kMaxInFlight) {
        boost::asio::post(worker_->main, [d = std::move(job->done)] {
            d({SendResult::Kind::Failed, 0, std::to_string(kMaxInFlight) + " messages wait to be sent already"});
        });
        return;
    }
    ++worker_->in_flight;
    // Encrypted on the worker's thread too: ECDH and a key pair per message are the costly part.
    boost::asio::post(worker_->io, [w = worker_, job, text = std::move(plaintext)] {
        auto body = encrypt(job->to, text);
        if (!body) return w->finish(job, {SendResult::Kind::Failed, 0, body.error().message});
        job->body = std::move(*body);
        w->begin(job);
    });
}

void PushSender::set_key(VapidKey key) {
    boost::asio::post(worker_->io, [w = worker_, k = std::move(key)]() mutable { w->key = std::move(k); });
}

}  // namespace askhost::web::push
