#include "web/web_push_service.hpp"

#include <algorithm>

#include "json/json_access.hpp"
#include "transport/jsonrpc.hpp"
#include "web/page_protocol.hpp"
#include "web/web_hub.hpp"

namespace askhost::web::push {

namespace {

using Clock = std::chrono::steady_clock;

// A burst's notification names at most this many (the page lists them all).
constexpr std::size_t kBurstKeys = 20;

// Apple's push service revokes a subscription whose messages show no notification, which a
// closing message does not: its devices keep the notification, and the page says it was answered.
bool closes_silently_refused(const std::string& endpoint) {
    auto at = parse_endpoint(endpoint, true);
    return at && (at->host == "push.apple.com" || at->host.ends_with(".push.apple.com"));
}

// push-subscribed's or push-unsubscribed's text (page_protocol.hpp).
template <class Reply>
std::string reply(const std::optional<std::string>& error) {
    return json::to_text(ServerMessage{Reply{error}});
}

}  // namespace

struct PushService::Device {
    Subscription sub;
    std::set<std::string> told;        // keys whose own notification it shows
    std::vector<std::string> pending;  // keys not told yet: the next burst's
    std::set<std::string> in_burst;    // keys its burst notification stands for
    Clock::time_point last_sent{};
    std::unique_ptr<boost::asio::steady_timer> timer;
    bool armed = false;
};

PushService::PushService(boost::asio::io_context& io, SubscriptionStore& store, std::string public_key,
                         ServiceOptions options, Send send)
    : io_(io), store_(store), public_key_(std::move(public_key)), opts_(options), send_(std::move(send)) {
    for (const Subscription& s : store_.all()) device_for(s);
}

PushService::~PushService() { lifetime_.end(); }

std::string PushService::hello() const {
    return json::to_text(ServerMessage{PushKey{public_key_, std::string(content_name(opts_.content))}});
}

PushService::Device& PushService::device_for(const Subscription& s) {
    auto& slot = devices_[s.endpoint];
    if (!slot) {
        slot = std::make_unique<Device>();
        slot->timer = std::make_unique<boost::asio::steady_timer>(io_);
    }
    slot->sub = s;
    return *slot;
}

std::optional<std::string> PushService::page_message(std::string_view type, const rapidjson::Value& m) {
    if (type == "push-subscribe") {
        const rapidjson::Value* sub = json::member(m, "subscription");
        if (!sub) return reply<PushSubscribed>(std::string("subscription: missing"));
        auto s = read_subscription(*sub, opts_.allow_http);
        if (!s) return reply<PushSubscribed>(s.error().message);
        auto added = store_.add(*s);
        if (!added) return reply<PushSubscribed>("cannot keep it: " + added.error().message);
        device_for(*s);
        // Past SubscriptionStore::kMax the store let its oldest go: it is told nothing more either.
        if (devices_.size() > store_.all().size()) {
            std::set<std::string> kept;
            for (const Subscription& k : store_.all()) kept.insert(k.endpoint);
            std::erase_if(devices_, [&](const auto& d) { return kept.count(d.first) == 0; });
        }
        // Kept out of the log: a push endpoint is a capability to post to that browser.
        if (*added) log("a device subscribed to push notifications (" + std::to_string(devices_.size()) + " in all)");
        return reply<PushSubscribed>(std::nullopt);
    }
    if (type == "push-unsubscribe") {
        const std::string endpoint = json::string_of(m, "endpoint");
        if (store_.remove(endpoint) || devices_.count(endpoint)) {
            devices_.erase(endpoint);
            log("a device unsubscribed from push notifications (" + std::to_string(devices_.size()) + " left)");
        }
        return reply<PushUnsubscribed>(std::nullopt);
    }
    return std::nullopt;
}

void PushService::question_waiting(const WaitingAsk& ask) {
    const std::string id = server_id ? server_id() : std::string();
    Line line = line_of(ask);  // who asks, read from the record once
    std::string single = ask_message(ask, line.who, opts_.content, id);
    waiting_[ask.key] = Known{std::move(single), std::move(line)};
    for (auto& [endpoint, d] : devices_) tell(*d, ask.key);
}

void PushService::tell(Device& d, const std::string& key) {
    const auto now = Clock::now();
    if (d.pending.empty() && !d.armed && now - d.last_sent >= opts_.burst_window) {
        d.told.insert(key);
        d.last_sent = now;
        return post(d, waiting_[key].single, key);
    }
    // Soon after another: it waits for the end of the window, with whatever else comes.
    d.pending.push_back(key);
    if (d.armed) return;
    d.armed = true;
    d.timer->expires_at(d.last_sent + opts_.burst_window);
    d.timer->async_wait(
        [this, endpoint = d.sub.endpoint, token = lifetime_.token()](const boost::system::error_code& ec) {
            if (!ec && token) flush(endpoint);
        });
}

void PushService::flush(const std::string& endpoint) {
    auto it = devices_.find(endpoint);
    if (it == devices_.end()) return;
    Device& d = *it->second;
    d.armed = false;
    std::vector<std::string> keys;
    for (const auto& k : d.pending)
        if (waiting_.count(k)) keys.push_back(k);
    d.pending.clear();
    if (keys.empty()) return;
    d.last_sent = Clock::now();
    if (keys.size() == 1 && d.in_burst.empty()) {
        d.told.insert(keys.front());
        return post(d, waiting_[keys.front()].single, keys.front());
    }
    // Its burst notification, new or replacing the last one (the same tag), names them all.
    for (const auto& k : keys) d.in_burst.insert(k);
    std::vector<Line> lines;
    for (const auto& k : d.in_burst)
        if (lines.size() < kBurstKeys) lines.push_back(waiting_[k].line);
    std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.key < b.key; });
    const std::string id = server_id ? server_id() : std::string();
    post(d, burst_message(lines, d.in_burst.size(), opts_.content, id), std::string(kBurstTag));
}

void PushService::question_gone(const std::string& key) {
    if (!waiting_.erase(key)) return;
    for (auto& [endpoint, dp] : devices_) {
        Device& d = *dp;
        std::erase(d.pending, key);
        const bool own = d.told.erase(key) > 0;
        const bool burst = d.in_burst.erase(key) > 0;
        if (closes_silently_refused(endpoint)) continue;
        if (own) post(d, close_message(key), key);
        else if (burst && d.in_burst.empty()) post(d, close_message(kBurstTag), std::string(kBurstTag));
    }
}

void PushService::post(Device& d, const std::string& plaintext, const std::string& tag) {
    const std::string endpoint = d.sub.endpoint;
    send_(d.sub, plaintext, topic_for(tag), opts_.ttl,
          [this, endpoint, token = lifetime_.token()](const SendResult& r) {
              if (!token) return;
              if (r.kind == SendResult::Kind::Gone) return drop(endpoint, r.detail);
              if (r.kind == SendResult::Kind::Failed) log("a push notification was not delivered: " + r.detail);
          });
}

void PushService::drop(const std::string& endpoint, std::string_view why) {
    if (!devices_.erase(endpoint)) return;
    store_.remove(endpoint);
    log("dropped a device's push subscription: " + std::string(why) + " (" + std::to_string(devices_.size()) +
        " left)");
    if (on_dropped) on_dropped(endpoint, why);
}

void PushService::key_changed(std::string public_key) {
    public_key_ = std::move(public_key);
    devices_.clear();
    store_.clear();
}

}  // namespace askhost::web::push
