#include "web/web_server.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <type_traits>

#include <openssl/ssl.h>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "json/json_access.hpp"
#include "transport/jsonrpc.hpp"
#include "web/forwarded.hpp"
#include "web/page_protocol.hpp"
#include "web/peer_owner.hpp"
#include "web/web_assets.hpp"
#include "web/web_hub.hpp"
#include "web/web_token.hpp"

namespace askhost::web {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio::ip::tcp;

namespace {

constexpr std::size_t kHeaderLimit = std::size_t{8} * 1024;
constexpr std::size_t kBodyLimit = std::size_t{16} * 1024;
constexpr std::size_t kMaxBacklog = std::size_t{8} << 20;  // bytes queued for a page that does not read
constexpr std::string_view kCookieName = "askhost_web";
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";
constexpr const char* kTls13Suites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256";
constexpr std::string_view kCsp =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
constexpr std::string_view kNeedsToken =
    "askhost web: open the link with the token that `askhost web` printed (`askhost web --url` shows it again, "
    "`askhost web --sign-in-link` makes a one-time one)\n";

std::int64_t unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A nonce of askhost web --url: base64url, long enough that answers cannot be collected ahead.
bool nonce_text(std::string_view s) {
    if (s.size() < 16 || s.size() > 128) return false;
    for (unsigned char c : s)
        if (!(std::isalnum(c) || c == '-' || c == '_')) return false;
    return true;
}

using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// The first few buffers of a sequence, as one type: a read or write may move fewer bytes than it
// is offered, and the composed operations above it go on from where it stopped.
template <class Buffer>
class FirstBuffers {
public:
    template <class Sequence>
    explicit FirstBuffers(const Sequence& sequence) {
        auto it = boost::asio::buffer_sequence_begin(sequence);
        const auto end = boost::asio::buffer_sequence_end(sequence);
        for (; it != end && count_ < items_.size(); ++it) items_[count_++] = Buffer(*it);
    }
    const Buffer* begin() const { return items_.data(); }
    const Buffer* end() const { return items_.data() + count_; }

private:
    std::array<Buffer, 16> items_{};
    std::size_t count_ = 0;
};

// A completion handler of a read or write, as one move-only type.
class IoDone {
public:
    template <class Handler>
    static IoDone of(Handler&& h) {
        return IoDone(std::make_unique<Held<std::decay_t<Handler>>>(std::forward<Handler>(h)));
    }
    void operator()(beast::error_code ec, std::size_t n) {
        auto held = std::move(held_);
        held->call(ec, n);
    }

private:
    struct Base {
        virtual ~Base() = default;
        virtual void call(beast::error_code ec, std::size_t n) = 0;
    };
    template <class Handler>
    struct Held final : Base {
        explicit Held(Handler&& h) : handler(std::move(h)) {}
        explicit Held(const Handler& h) : handler(h) {}
        void call(beast::error_code ec, std::size_t n) override { std::move(handler)(ec, n); }
        Handler handler;
    };
    explicit IoDone(std::unique_ptr<Base> held) : held_(std::move(held)) {}
    std::unique_ptr<Base> held_;
};

// A connection with or without TLS, as one stream type: the sessions, Beast's HTTP reads and
// writes and its WebSocket operations are each compiled once, not once per kind of connection
// (web_server.cpp was the build's costliest unit: docs/hacking.md). Only the reads and writes of
// the stream below are reached through a handler of one type (IoDone).
class PageStream {
public:
    using executor_type = beast::tcp_stream::executor_type;

    explicit PageStream(beast::tcp_stream&& plain) : plain_(std::move(plain)) {}
    PageStream(beast::tcp_stream&& plain, ssl::context& ctx) : tls_(std::in_place, std::move(plain), ctx) {}

    executor_type get_executor() { return tcp().get_executor(); }
    beast::tcp_stream& tcp() { return tls_ ? beast::get_lowest_layer(*tls_) : *plain_; }
    TlsStream* tls() { return tls_ ? &*tls_ : nullptr; }

    template <class MutableBuffers, class Handler>
    void async_read_some(const MutableBuffers& buffers, Handler&& handler) {
        FirstBuffers<boost::asio::mutable_buffer> first(buffers);
        auto done = IoDone::of(std::forward<Handler>(handler));
        if (tls_) tls_->async_read_some(first, std::move(done));
        else plain_->async_read_some(first, std::move(done));
    }
    template <class ConstBuffers, class Handler>
    void async_write_some(const ConstBuffers& buffers, Handler&& handler) {
        FirstBuffers<boost::asio::const_buffer> first(buffers);
        auto done = IoDone::of(std::forward<Handler>(handler));
        if (tls_) tls_->async_write_some(first, std::move(done));
        else plain_->async_write_some(first, std::move(done));
    }

private:
    std::optional<beast::tcp_stream> plain_;
    std::optional<TlsStream> tls_;
};

// A WebSocket's timeout closes the connection; its close ends with a teardown (TLS's close
// notify, or the TCP shutdown), as Beast does for each stream below. Found by argument lookup.
void beast_close_socket(PageStream& s) { s.tcp().close(); }
template <class Handler>
void async_teardown(beast::role_type role, PageStream& s, Handler&& handler) {
    using websocket::async_teardown;
    if (TlsStream* tls = s.tls()) async_teardown(role, *tls, std::forward<Handler>(handler));
    else async_teardown(role, s.tcp().socket(), std::forward<Handler>(handler));
}

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

std::string_view sv(beast::string_view v) { return {v.data(), v.size()}; }

// Every reply, the WebSocket's handshake too.
template <class Message>
void add_security_headers(Message& m) {
    m.set(http::field::cache_control, "no-store");
    m.set("Referrer-Policy", "no-referrer");
    m.set("X-Content-Type-Options", "nosniff");
    m.set("Content-Security-Policy", beast::string_view(kCsp.data(), kCsp.size()));
    m.set("X-Frame-Options", "DENY");
}

using Clock = std::chrono::steady_clock;

// Wrong tokens, codes or cookies, per peer (its address): the first few are answered at once (a
// typo, a page left open across --new-token); after that the peer's attempts take turns, each
// later than the one before (250 ms, doubling up to 5 s), until a minute passes without a wrong
// one. Turns are handed out one after another, so guesses sent in parallel wait in line like
// guesses sent one by one, and a peer with kMaxHeld attempts waiting has the next closed unheard.
class Backoff {
public:
    static constexpr int kFree = 3;
    static constexpr int kMaxHeld = 8;

    struct Turn {
        std::chrono::milliseconds wait{0};
        bool held = false;  // it counts among the peer's waiting ones until done_waiting()
    };
    // When an attempt from `peer` is checked; nullopt: too many wait already.
    std::optional<Turn> admit(const std::string& peer, Clock::time_point now) {
        Peer& p = at(peer, now);
        if (p.count < kFree) return Turn{};
        if (p.held >= kMaxHeld) return std::nullopt;
        const auto turn = std::max(now, p.next_free);
        p.next_free = turn + delay(p.count);
        ++p.held;
        return Turn{std::chrono::duration_cast<std::chrono::milliseconds>(turn - now), true};
    }
    void done_waiting(const std::string& peer) {
        if (auto it = peers_.find(peer); it != peers_.end() && it->second.held > 0) --it->second.held;
    }
    // A wrong one: the count goes up (the answer to it waits its turn, admit()).
    void failed(const std::string& peer, Clock::time_point now) {
        Peer& p = at(peer, now);
        ++p.count;
        p.last = now;
        if (p.count >= kFree) p.next_free = std::max(p.next_free, now + delay(p.count));
    }
    void succeeded(const std::string& peer) {
        if (auto it = peers_.find(peer); it != peers_.end() && it->second.held == 0) peers_.erase(it);
    }
    int count(const std::string& peer) const {
        auto it = peers_.find(peer);
        return it == peers_.end() ? 0 : it->second.count;
    }

private:
    struct Peer {
        int count = 0, held = 0;
        Clock::time_point last{}, next_free{};
    };
    static std::chrono::milliseconds delay(int count) {
        const int doublings = std::clamp(count - kFree, 0, 5);
        return std::min(std::chrono::milliseconds(250 << doublings), std::chrono::milliseconds(5000));
    }
    Peer& at(const std::string& peer, Clock::time_point now) {
        if (peers_.size() > 4096)  // forget the quiet ones
            std::erase_if(peers_, [&](const auto& e) { return e.second.held == 0 && now - e.second.last > kQuiet; });
        Peer& p = peers_[peer];
        if (p.held == 0 && p.count > 0 && now - p.last > kQuiet) p = Peer{};
        return p;
    }
    static constexpr auto kQuiet = std::chrono::minutes(1);
    std::map<std::string, Peer> peers_;
};

// The log lines a client's requests cause: ten at once, then one a second; the ones left out are
// counted, and said a second later.
class LogLimit {
public:
    bool allow(Clock::time_point now) {
        tokens_ = std::min(kBurst, tokens_ + std::chrono::duration<double>(now - last_).count());
        last_ = now;
        if (tokens_ >= 1) {
            tokens_ -= 1;
            return true;
        }
        ++left_out_;
        return false;
    }
    std::size_t take_left_out() { return std::exchange(left_out_, 0); }

private:
    static constexpr double kBurst = 10;
    double tokens_ = kBurst;
    Clock::time_point last_ = Clock::now();
    std::size_t left_out_ = 0;
};

// A connection that has not yet shown a session, as the server holds it: to close it when a newer
// one needs its slot.
class Unproven {
public:
    virtual ~Unproven() = default;
    virtual void evict() = 0;
};

// A page protocol message's JSON text, to queue for a page or several.
std::shared_ptr<const std::string> message_text(const ServerMessage& m) {
    return std::make_shared<const std::string>(json::to_text(m));
}

// An open WebSocket, as the server holds it (to broadcast to, to close).
class WsLink {
public:
    virtual ~WsLink() = default;
    virtual void send(const std::shared_ptr<const std::string>& text) = 0;
    virtual void close() = 0;
    // The push endpoint this page last subscribed its device with (push-subscribe), so that the
    // page alone hears when askhost web drops it; empty after its push-unsubscribe.
    std::string push_endpoint;
};

}  // namespace

struct WebServer::Impl : std::enable_shared_from_this<Impl> {
    Impl(boost::asio::io_context& io, WebHub& hub, TokenFile& token, ServerOptions opts)
        : io(io),
          hub(hub),
          token(token),
          opts(std::move(opts)),
          codes(this->opts.sign_in_file),
          acceptor(io),
          retry(io) {}

    boost::asio::io_context& io;
    WebHub& hub;
    TokenFile& token;
    ServerOptions opts;
    Sessions sessions;
    SignInCodes codes;
    tcp::acceptor acceptor;
    boost::asio::steady_timer retry;
    std::optional<ssl::context> tls;
    std::size_t connections = 0, evicting = 0;
    // Connections that showed no session yet, oldest first: at most kUnprovenSlots of them, the
    // oldest closed for a newer one, so that connections without credentials cannot fill the
    // server and a page with its cookie always gets in.
    std::list<Unproven*> unproven;
    std::set<WsLink*> sockets;
    Backoff backoff;
    LogLimit log_limit;
    boost::asio::steady_timer log_flush{io};
    bool flush_due = false;
    bool stopped = false;
    bool said_full = false;
    std::function<void(std::string_view)> log_fn;
    std::function<std::optional<std::string>(std::string_view, const rapidjson::Value&)> page_fn;
    std::function<std::string()> greet_fn;

    void log(std::string_view m) const {
        if (log_fn) log_fn(m);
    }
    // A line a client's request causes: rate-limited (what it quotes goes through printable()).
    void note(std::string_view m) {
        if (log_limit.allow(Clock::now())) return log(m);
        if (flush_due) return;
        flush_due = true;
        log_flush.expires_after(std::chrono::seconds(1));
        log_flush.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
            self->flush_due = false;
            if (ec || self->stopped) return;
            if (const std::size_t n = self->log_limit.take_left_out())
                self->log(std::to_string(n) + " more such lines left out (at most 10 at once, then one a second)");
        });
    }
    void accept();
    void serve(tcp::socket socket);
    void broadcast(const ServerMessage& m) {
        auto shared = message_text(m);
        const auto now = sockets;  // a send that fails may take its socket out of the set
        for (WsLink* s : now) s->send(shared);
    }
    // A new session's cookie, for a Set-Cookie header.
    std::string session_cookie() const {
        std::string c = std::string(kCookieName) + "=" + sessions.mint(unix_now()) +
                        "; HttpOnly; SameSite=Strict; Path=/; Max-Age=" + std::to_string(Sessions::kLifetimeSeconds);
        if (tls || opts.behind_proxy) c += "; Secure";
        return c;
    }
    Snapshot snapshot() const {
        Snapshot m{sessions.server_id(), {}};
        for (const WaitingAsk* a : hub.waiting()) m.asks.push_back(a->page);
        return m;
    }
};

namespace {

class WsSession final : public WsLink, public std::enable_shared_from_this<WsSession> {
public:
    WsSession(std::shared_ptr<WebServer::Impl> server, PageStream&& stream, std::string peer)
        : server_(std::move(server)), ws_(std::move(stream)), peer_(std::move(peer)) {
        ++server_->connections;
    }
    ~WsSession() override {
        --server_->connections;
        server_->sockets.erase(this);
    }

    void accept(Request req) {
        // Beast's own timeouts from here: a handshake must finish; a page that answers no ping
        // for a minute is gone (browsers answer pings by themselves).
        ws_.next_layer().tcp().expires_never();
        websocket::stream_base::timeout t{};
        t.handshake_timeout = server_->opts.request_timeout;
        t.idle_timeout = std::chrono::seconds(60);
        t.keep_alive_pings = true;
        ws_.set_option(t);
        ws_.read_message_max(server_->opts.max_frame);
        ws_.set_option(
            websocket::stream_base::decorator([](websocket::response_type& res) { add_security_headers(res); }));
        auto held = std::make_shared<Request>(std::move(req));
        ws_.async_accept(*held, [self = this->shared_from_this(), held](beast::error_code ec) { self->accepted(ec); });
    }

    void send(const std::shared_ptr<const std::string>& text) override {
        if (!open_ || closing_) return;
        if (queued_ + text->size() > kMaxBacklog) {
            server_->log("a page at " + peer_ + " does not read what it is sent: closed");
            return close();
        }
        queued_ += text->size();
        queue_.push_back(text);
        if (!writing_) write_next();
    }

    void close() override {
        if (!open_ || closing_) return;
        closing_ = true;
        queue_.clear();
        if (!writing_) close_now();
    }

private:
    void accepted(beast::error_code ec) {
        if (ec) return;
        open_ = true;
        server_->sockets.insert(this);
        send(message_text(server_->snapshot()));
        if (server_->greet_fn)
            if (std::string hello = server_->greet_fn(); !hello.empty())
                send(std::make_shared<const std::string>(hello));
        read();
    }

    void read() {
        ws_.async_read(buffer_,
                       [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->got(ec); });
    }

    void got(beast::error_code ec) {
        if (ec) {
            if (ec == websocket::error::message_too_big)
                server_->log("a page at " + peer_ + " sent a message over " + std::to_string(server_->opts.max_frame) +
                             " bytes: closed");
            open_ = false;
            server_->sockets.erase(this);
            return;
        }
        std::string text = beast::buffers_to_string(buffer_.data());
        buffer_.consume(buffer_.size());
        if (!server_->stopped) handle(text);
        read();
    }

    void handle(const std::string& text) {
        rapidjson::Document doc;
        if (json::parse(doc, text) || !json::is_object(doc)) {
            server_->log("a page at " + peer_ + " sent a message that is not a JSON object: ignored");
            return;
        }
        PageMessage m;
        const bool known = !from_json(doc, m, json::Path("message"));
        if (const auto* a = known ? std::get_if<Answer>(&m) : nullptr) {
            std::optional<std::string> why = a->outcome.value ? server_->hub.answer(a->key, *a->outcome.value)
                                                              : std::optional<std::string>("outcome: missing");
            return send(message_text(AnswerResult{a->key, std::move(why)}));
        }
        if (const auto* sub = known ? std::get_if<PushSubscribe>(&m) : nullptr)
            push_endpoint = sub->subscription.value ? json::string_of(*sub->subscription.value, "endpoint") : "";
        else if (known && std::holds_alternative<PushUnsubscribe>(m)) push_endpoint.clear();
        if (known && server_->page_fn)
            if (auto reply = server_->page_fn(json::string_of(doc, "type"), doc))
                return send(std::make_shared<const std::string>(*reply));
        server_->log("a page at " + peer_ + " sent a message of an unknown type: ignored");
    }

    void write_next() {
        if (queue_.empty()) {
            writing_ = false;
            if (closing_) close_now();
            return;
        }
        writing_ = true;
        ws_.text(true);
        auto text = queue_.front();
        ws_.async_write(boost::asio::buffer(*text),
                        [self = this->shared_from_this(), text](beast::error_code ec, std::size_t) {
                            if (ec) {
                                self->open_ = false;
                                self->writing_ = false;
                                self->queue_.clear();
                                self->server_->sockets.erase(self.get());
                                return;
                            }
                            self->queued_ -= text->size();
                            if (!self->queue_.empty()) self->queue_.pop_front();
                            self->write_next();
                        });
    }

    void close_now() {
        server_->sockets.erase(this);
        ws_.async_close(websocket::close_code::policy_error,
                        [self = this->shared_from_this()](beast::error_code) { self->open_ = false; });
    }

    std::shared_ptr<WebServer::Impl> server_;
    websocket::stream<PageStream> ws_;
    std::string peer_;
    beast::flat_buffer buffer_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    std::size_t queued_ = 0;
    bool open_ = false, writing_ = false, closing_ = false;
};

class HttpSession final : public Unproven, public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(std::shared_ptr<WebServer::Impl> server, PageStream&& stream, std::string peer, bool peer_loopback)
        : server_(std::move(server)),
          stream_(std::move(stream)),
          connection_peer_(std::move(peer)),
          peer_(connection_peer_),
          peer_loopback_(peer_loopback),
          buffer_(kHeaderLimit + kBodyLimit),
          delay_(server_->io) {
        ++server_->connections;
        slot_ = server_->unproven.insert(server_->unproven.end(), this);
    }
    ~HttpSession() override {
        --server_->connections;
        if (slot_) server_->unproven.erase(*slot_);
        if (evicted_) --server_->evicting;
        if (held_) server_->backoff.done_waiting(peer_);
    }

    // A newer connection needs the slot: this one, which showed no session yet, ends.
    void evict() override {
        if (slot_) server_->unproven.erase(*slot_);
        slot_.reset();
        evicted_ = true;
        ++server_->evicting;
        drop();
    }

    void start() {
        // Without a session, a connection has a short while from its start to send a request
        // (the TLS handshake included, and any request after it); with one, each request has the
        // whole request_timeout.
        deadline_ = std::chrono::steady_clock::now() + server_->opts.unproven_timeout;
        lowest().expires_at(deadline_);
        if (TlsStream* tls = stream_.tls()) {
            tls->async_handshake(ssl::stream_base::server, [self = this->shared_from_this()](beast::error_code ec) {
                if (!ec) self->read();
            });
        } else {
            read();
        }
    }

private:
    beast::tcp_stream& lowest() { return stream_.tcp(); }

    void read() {
        parser_.emplace();
        parser_->header_limit(kHeaderLimit);
        parser_->body_limit(kBodyLimit);
        // The whole request within the limit: a client that sends its headers a byte at a time
        // holds its own connection only, and only that long (without a session: see start()).
        if (slot_) lowest().expires_at(deadline_);
        else lowest().expires_after(server_->opts.request_timeout);
        http::async_read(stream_, buffer_, *parser_,
                         [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->got(ec); });
    }

    void got(beast::error_code ec) {
        if (ec == http::error::end_of_stream) return close();
        if (ec == beast::error::timeout) {
            server_->note("a client at " + peer_ + " did not send its request in time: closed");
            return;
        }
        if (ec) {
            if (ec.category() != http::make_error_code(http::error::end_of_stream).category()) return;
            // A malformed request: a 4xx, and this connection ends; the server goes on.
            const unsigned status = ec == http::error::header_limit ? 431 : ec == http::error::body_limit ? 413 : 400;
            return reply_text(http::status(status), "askhost web: " + ec.message() + "\n", false, 11);
        }
        handle(parser_->release());
    }

    void handle(Request req) {
        WebServer::Impl& s = *server_;
        if (s.stopped) return;
        version_ = req.version();
        peer_ = request_peer(req);
        const std::string host(sv(req[http::field::host]));
        // A loopback name from a peer elsewhere: a proxy passing its own Host on, or a client that
        // pretends; only this machine reaches the server as localhost.
        if (!host_allowed(host, s.opts.listen, s.opts.public_names) || (!peer_loopback_ && loopback_name(host))) {
            s.note("refused a request from " + peer_ + " for another Host (" + printable(host) +
                   "): give the name with --public-name");
            return reply_text(http::status::forbidden,
                              "askhost web: not served under this name (Host); see --public-name\n", false);
        }
        if (req.method() != http::verb::get)
            return reply_text(http::status::method_not_allowed, "askhost web: GET only\n", false);
        const std::string target(sv(req.target()));
        const std::string_view path = target_path(target);
        // askhost web --url asks whether this server holds the token, without sending it.
        if (path == "/proof") {
            auto nonce = query_param(target, "nonce");
            if (!nonce || !nonce_text(*nonce))
                return reply_text(http::status::bad_request, "askhost web: /proof?nonce=BASE64URL\n", false);
            return reply_text(http::status::ok, token_proof(s.token.token(), *nonce) + "\n", req.keep_alive());
        }
        // The first URL: the token (or a one-time sign-in code), answered with a cookie of this
        // run and the page without the secret.
        if (query_param(target, "token") || query_param(target, "signin")) {
            // Checked in this peer's turn (Backoff): guesses in parallel wait in line.
            auto turn = s.backoff.admit(peer_, Clock::now());
            if (!turn) return unheard();
            if (!turn->held) return sign_in(target, req.keep_alive());
            held_ = true;
            delay_.expires_after(turn->wait);
            delay_.async_wait([self = this->shared_from_this(), target,
                               keep = req.keep_alive()](const boost::system::error_code& ec) {
                self->held_ = false;
                self->server_->backoff.done_waiting(self->peer_);
                if (!ec && !self->server_->stopped) self->sign_in(target, keep);
            });
            return;
        }
        // The web app manifest and its icons: a browser fetches them without the cookie when it
        // installs the page (issue 44); they hold nothing of the person's.
        if (path == "/manifest.webmanifest" || (path.starts_with("/icon-") && path.ends_with(".png")))
            if (const WebAsset* asset = find_asset(path.substr(1))) return serve(*asset, req.keep_alive());
        const auto cookie = cookie_value(sv(req[http::field::cookie]), kCookieName);
        if (!cookie) return reply_text(http::status::unauthorized, std::string(kNeedsToken), req.keep_alive());
        if (!s.sessions.valid(*cookie, unix_now()))
            return refuse_credentials("a wrong, expired or earlier server's cookie", path);
        prove();
        // The page renews its session while it is open.
        if (path == "/session") {
            Response res{http::status::no_content, version_};
            res.set(http::field::set_cookie, s.session_cookie());
            return write(std::move(res), req.keep_alive());
        }
        if (path == "/ws") {
            if (!websocket::is_upgrade(req))
                return reply_text(http::status::bad_request, "askhost web: /ws is a WebSocket\n", false);
            if (!origin_allowed(sv(req[http::field::origin]), host, s.tls || s.opts.behind_proxy)) {
                s.note("refused a WebSocket from " + peer_ + " opened by another site (Origin " +
                       printable(sv(req[http::field::origin])) + ")");
                return reply_text(http::status::forbidden, "askhost web: not from this page (Origin)\n", false);
            }
            auto ws = std::make_shared<WsSession>(server_, std::move(stream_), peer_);
            return ws->accept(std::move(req));
        }
        const std::string_view name = path == "/" ? std::string_view("index.html") : path.substr(1);
        const WebAsset* asset = find_asset(name);
        if (!asset) return reply_text(http::status::not_found, "askhost web: no such file\n", req.keep_alive());
        serve(*asset, req.keep_alive());
    }

    void serve(const WebAsset& asset, bool keep_alive) {
        Response res{http::status::ok, version_};
        res.set(http::field::content_type, beast::string_view(asset.type.data(), asset.type.size()));
        res.body().assign(asset.bytes.data(), asset.bytes.size());
        write(std::move(res), keep_alive);
    }

    // The first URL, in this peer's turn: the token or a one-time code gets a session of this run.
    void sign_in(const std::string& target, bool keep_alive) {
        WebServer::Impl& s = *server_;
        const std::string path(target_path(target));
        const auto given = query_param(target, "token");
        const auto code = given ? std::nullopt : query_param(target, "signin");
        const bool ok = given ? same_secret(*given, s.token.token()) : s.codes.take(code.value_or(""), unix_now());
        if (!ok) {
            s.backoff.failed(peer_, Clock::now());
            s.note("refused GET " + printable(path) + " from " + peer_ + ": " +
                   (given ? "a wrong token" : "a wrong, used or expired sign-in link") + " (" +
                   std::to_string(s.backoff.count(peer_)) + " in a row from there)");
            return reply_text(http::status::unauthorized, std::string(kNeedsToken), false);
        }
        s.backoff.succeeded(peer_);
        if (code) s.log("a one-time sign-in link signed in a browser at " + peer_);
        prove();
        Response res{http::status::see_other, version_};
        res.set(http::field::location, "/");
        res.set(http::field::set_cookie, s.session_cookie());
        res.set(http::field::content_type, "text/plain; charset=utf-8");
        write(std::move(res), keep_alive);
    }

    // A wrong cookie: 401 in this peer's turn, later and later as they repeat.
    void refuse_credentials(const char* what, std::string_view path) {
        WebServer::Impl& s = *server_;
        s.backoff.failed(peer_, Clock::now());
        s.note("refused GET " + printable(path) + " from " + peer_ + ": " + what + " (" +
               std::to_string(s.backoff.count(peer_)) + " in a row from there)");
        auto turn = s.backoff.admit(peer_, Clock::now());
        if (!turn) return unheard();
        if (!turn->held) return reply_text(http::status::unauthorized, std::string(kNeedsToken), false);
        held_ = true;
        delay_.expires_after(turn->wait);
        delay_.async_wait([self = this->shared_from_this()](const boost::system::error_code& ec) {
            self->held_ = false;
            self->server_->backoff.done_waiting(self->peer_);
            if (!ec) self->reply_text(http::status::unauthorized, std::string(kNeedsToken), false);
        });
    }

    // Too many of this peer's attempts wait their turn already: this one ends unanswered.
    void unheard() {
        server_->note("closed a request from " + peer_ + " unanswered: " + std::to_string(Backoff::kMaxHeld) +
                      " of its sign-in attempts wait their turn already");
        drop();
    }

    // Who sent `req`: the connection's peer, and behind a proxy the client the proxy forwards it
    // for (a proxy may send several clients' requests on one connection), so that each client
    // has a Backoff of its own and the log names it.
    std::string request_peer(const Request& req) const {
        if (!server_->opts.behind_proxy) return connection_peer_;
        const auto joined = [&req](std::string_view name) {
            std::string out;
            for (auto [it, end] = req.equal_range(beast::string_view(name.data(), name.size())); it != end; ++it) {
                if (!out.empty()) out += ", ";
                out += sv(it->value());
            }
            return out;
        };
        auto client = forwarded_client(joined("X-Forwarded-For"), joined("Forwarded"));
        return client ? connection_peer_ + " for " + *client : connection_peer_;
    }

    // This connection showed a session: it holds a slot no newer connection takes.
    void prove() {
        if (slot_) server_->unproven.erase(*slot_);
        slot_.reset();
    }

    void drop() {
        beast::error_code ignored;
        delay_.cancel();
        lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
        lowest().close();
    }

    void reply_text(http::status status, std::string body, bool keep_alive, unsigned version = 0) {
        Response res{status, version ? version : version_};
        res.set(http::field::content_type, "text/plain; charset=utf-8");
        res.body() = std::move(body);
        write(std::move(res), keep_alive);
    }

    void write(Response res, bool keep_alive) {
        add_security_headers(res);
        res.keep_alive(keep_alive);
        res.prepare_payload();
        auto held = std::make_shared<Response>(std::move(res));
        lowest().expires_after(server_->opts.request_timeout);
        http::async_write(stream_, *held, [self = this->shared_from_this(), held](beast::error_code ec, std::size_t) {
            if (ec) return;
            if (held->need_eof()) return self->close();
            self->read();
        });
    }

    void close() {
        if (TlsStream* tls = stream_.tls()) {
            lowest().expires_after(std::chrono::seconds(2));
            tls->async_shutdown([self = this->shared_from_this()](beast::error_code) {});
        } else {
            beast::error_code ignored;
            lowest().socket().shutdown(tcp::socket::shutdown_send, ignored);
        }
    }

    std::shared_ptr<WebServer::Impl> server_;
    PageStream stream_;
    std::string connection_peer_;
    std::string peer_;  // of the request in hand (request_peer)
    bool peer_loopback_ = false;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    boost::asio::steady_timer delay_;
    unsigned version_ = 11;
    std::optional<std::list<Unproven*>::iterator> slot_;  // while it showed no session
    bool evicted_ = false, held_ = false;
    std::chrono::steady_clock::time_point deadline_{};  // of a connection without a session
};

}  // namespace

void WebServer::Impl::accept() {
    acceptor.async_accept([self = shared_from_this()](beast::error_code ec, tcp::socket socket) {
        if (ec == boost::asio::error::operation_aborted || self->stopped) return;
        if (!ec) {
            self->serve(std::move(socket));
            return self->accept();
        }
        // Out of descriptors, say: try again in a moment rather than spin.
        self->log("cannot accept a connection: " + ec.message());
        self->retry.expires_after(std::chrono::milliseconds(200));
        self->retry.async_wait([self](const boost::system::error_code& e) {
            if (!e && !self->stopped) self->accept();
        });
    });
}

void WebServer::Impl::serve(tcp::socket socket) {
    // A new connection takes the slot of the oldest one that showed no session yet, when those
    // have their share or the server is full: a page with its cookie always gets in.
    if (unproven.size() >= opts.unproven_slots || connections - evicting >= opts.max_connections) {
        if (!unproven.empty()) {
            note("too many connections without a session (" + std::to_string(opts.unproven_slots) +
                 " at most): closed the one that waited longest");
            unproven.front()->evict();
        } else {
            if (!said_full)
                log("too many connections (" + std::to_string(opts.max_connections) + "): new ones are closed");
            said_full = true;
            beast::error_code ignored;
            socket.close(ignored);
            return;
        }
    }
    said_full = false;
    beast::error_code ec;
    // Each message is one small write the page waits for: sent at once, not held back by Nagle
    // until the page acknowledges the one before (its delayed ACK: up to 40 ms on Linux).
    socket.set_option(tcp::no_delay(true), ec);
    auto remote = socket.remote_endpoint(ec);
    auto address = remote.address();
    if (address.is_v6() && address.to_v6().is_v4_mapped())  // a dual-stack socket's IPv4 peer
        address = boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6());
    std::string peer = ec ? std::string("?") : address.to_string();
    const bool loopback = !ec && address.is_loopback();
    // Every local user comes from loopback: each one's uid makes it a peer of its own (Backoff).
    if (loopback)
        if (auto uid = local_peer_uid(socket.native_handle())) peer += " (uid " + std::to_string(*uid) + ")";
    beast::tcp_stream stream(std::move(socket));
    auto page = tls ? PageStream(std::move(stream), *tls) : PageStream(std::move(stream));
    std::make_shared<HttpSession>(shared_from_this(), std::move(page), std::move(peer), loopback)->start();
}

WebServer::WebServer(boost::asio::io_context& io, WebHub& hub, TokenFile& token, ServerOptions options)
    : impl_(std::make_shared<Impl>(io, hub, token, std::move(options))) {}

WebServer::~WebServer() {
    impl_->stopped = true;
    impl_->hub.on_added = nullptr;
    impl_->hub.on_removed = nullptr;
    beast::error_code ignored;
    impl_->acceptor.close(ignored);
    impl_->retry.cancel(ignored);  // the throwing form must not run in a destructor
    impl_->log_flush.cancel(ignored);
}

Status WebServer::start() {
    Impl& s = *impl_;
    s.log_fn = [this](std::string_view m) {
        if (on_log) on_log(m);
    };
    s.page_fn = [this](std::string_view type, const rapidjson::Value& m) -> std::optional<std::string> {
        return on_page_message ? on_page_message(type, m) : std::nullopt;
    };
    s.greet_fn = [this] { return greeting ? greeting() : std::string(); };
    if (!s.opts.tls_cert.empty()) {
        s.tls.emplace(ssl::context::tls_server);
        s.tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                           ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::no_compression);
        // TLS 1.2 and 1.3 with forward secrecy and authenticated encryption only: ECDHE with
        // AES-GCM or ChaCha20-Poly1305 (TLS 1.3's suites are all of that kind). No static RSA key
        // exchange, no CBC, no SHA-1 MACs, no renegotiation.
        SSL_CTX* native = s.tls->native_handle();
        if (SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION) != 1 ||
            SSL_CTX_set_cipher_list(native, kTls12Ciphers) != 1 || SSL_CTX_set_ciphersuites(native, kTls13Suites) != 1)
            return Error::failed("this OpenSSL refuses the TLS settings askhost web needs");
        SSL_CTX_set_options(native, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
        beast::error_code ec;
        s.tls->use_certificate_chain_file(s.opts.tls_cert, ec);
        if (ec) return Error::usage("--tls-cert " + s.opts.tls_cert + ": " + ec.message());
        s.tls->use_private_key_file(s.opts.tls_key, ssl::context::pem, ec);
        if (ec) return Error::usage("--tls-key " + s.opts.tls_key + ": " + ec.message());
        if (SSL_CTX_check_private_key(s.tls->native_handle()) != 1)
            return Error::usage("--tls-key " + s.opts.tls_key + " is not the key of --tls-cert " + s.opts.tls_cert);
    }
    beast::error_code ec;
    const tcp::endpoint at(boost::asio::ip::make_address(s.opts.listen.host, ec), s.opts.listen.port);
    if (ec) return Error::usage("cannot listen on " + s.opts.listen.host + ": " + ec.message());
    const std::string where = s.opts.listen.host + ":" + std::to_string(s.opts.listen.port);
    if (s.acceptor.open(at.protocol(), ec); ec) return Error::failed("cannot listen on " + where + ": " + ec.message());
    s.acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
    if (s.acceptor.bind(at, ec); ec) return Error::failed("cannot listen on " + where + ": " + ec.message());
    if (s.acceptor.listen(boost::asio::socket_base::max_listen_connections, ec); ec)
        return Error::failed("cannot listen on " + where + ": " + ec.message());
    std::weak_ptr<Impl> weak = impl_;
    s.hub.on_added = [weak](const WaitingAsk& a) {
        if (auto impl = weak.lock()) impl->broadcast(Added{a.page});
    };
    s.hub.on_removed = [weak](const std::string& key, std::string_view reason) {
        if (auto impl = weak.lock()) impl->broadcast(Removed{key, std::string(reason)});
    };
    s.accept();
    return std::nullopt;
}

std::uint16_t WebServer::port() const {
    beast::error_code ec;
    auto at = impl_->acceptor.local_endpoint(ec);
    return ec ? 0 : at.port();
}

bool WebServer::tls() const { return impl_->tls.has_value(); }

const std::string& WebServer::server_id() const { return impl_->sessions.server_id(); }

void WebServer::push_dropped(const std::string& endpoint, std::string_view reason) {
    if (endpoint.empty()) return;
    auto text = message_text(PushDropped{std::string(reason)});
    const auto now = impl_->sockets;
    for (WsLink* s : now)
        if (s->push_endpoint == endpoint) {
            s->push_endpoint.clear();
            s->send(text);
        }
}

void WebServer::token_changed() {
    impl_->sessions.replace();
    const auto now = impl_->sockets;
    for (WsLink* s : now) s->close();
}

}  // namespace askhost::web

namespace askhost::web {

namespace {

// One GET of askhost web --url, on an io_context of its own, within a few seconds.
Result<std::string> get_once(boost::asio::io_context& io, PageStream& stream, const tcp::endpoint& at,
                             const Request& req) {
    beast::error_code result;
    Response res;
    beast::flat_buffer buffer;
    auto& low = stream.tcp();
    low.expires_after(std::chrono::seconds(5));
    low.async_connect(at, [&](beast::error_code ec) {
        if (ec) {
            result = ec;
            return;
        }
        auto send = [&] {
            http::async_write(stream, req, [&](beast::error_code ec2, std::size_t) {
                if (ec2) {
                    result = ec2;
                    return;
                }
                http::async_read(stream, buffer, res, [&](beast::error_code ec3, std::size_t) { result = ec3; });
            });
        };
        if (TlsStream* tls = stream.tls()) {
            tls->async_handshake(ssl::stream_base::client, [&, send](beast::error_code ec2) {
                if (ec2) result = ec2;
                else send();
            });
        } else {
            send();
        }
    });
    io.run();
    if (result) return Error::failed(result.message());
    if (res.result() != http::status::ok) return Error::failed("it answered " + std::to_string(res.result_int()));
    return res.body();
}

}  // namespace

Status WebServer::check_proof(const std::string& host, std::uint16_t port, bool tls, const std::string& host_header,
                              const std::string& token) {
    auto nonce = random_text(24);
    if (!nonce) return nonce.error();
    beast::error_code ec;
    const tcp::endpoint at(boost::asio::ip::make_address(host, ec), port);
    if (ec) return Error::failed(host + ": " + ec.message());
    Request req{http::verb::get, "/proof?nonce=" + *nonce, 11};
    req.set(http::field::host, host_header);
    req.set(http::field::connection, "close");
    boost::asio::io_context io;
    Result<std::string> body = Error::failed("no answer");
    if (tls) {
        ssl::context ctx(ssl::context::tls_client);
        ctx.set_verify_mode(ssl::verify_none);  // what is checked is the proof, not the certificate
        PageStream stream(beast::tcp_stream(io), ctx);
        body = get_once(io, stream, at, req);
    } else {
        PageStream stream{beast::tcp_stream(io)};
        body = get_once(io, stream, at, req);
    }
    if (!body) return body.error();
    std::string text = *body;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    if (!same_secret(text, token_proof(token, *nonce))) return Error::failed("it does not prove it holds the token");
    return std::nullopt;
}

}  // namespace askhost::web
