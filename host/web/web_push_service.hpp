// Web Push in askhost web (issue 44): which device is told what, and when. Pages subscribe and
// unsubscribe their browser over their WebSocket; when a question starts waiting each device gets
// one message for it, and when it is answered or withdrawn a second that closes that
// notification. Questions that come in a burst (within `burst_window` of the last message to a
// device) are told together in one notification that says how many wait. A device whose push
// service says it is gone (404, 410) is dropped. It knows no HTTP: `send` posts (PushSender).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "core/lifetime.hpp"
#include "web/web_push_message.hpp"
#include "web/web_push_sender.hpp"
#include "web/web_push_store.hpp"

namespace askhost::web {
struct WaitingAsk;
}

namespace askhost::web::push {

struct ServiceOptions {
    Content content = Content::Full;
    bool allow_http = false;  // subscriptions to a test's plain-http stand-in on loopback
    std::chrono::milliseconds burst_window{3000};
    std::chrono::seconds ttl{std::chrono::hours(24)};  // a question may wait that long for a phone that is off
};

class PushService {
public:
    using Send = std::function<void(const Subscription& to, std::string plaintext, std::string topic,
                                    std::chrono::seconds ttl, std::function<void(SendResult)> done)>;

    PushService(boost::asio::io_context& io, SubscriptionStore& store, std::string public_key, ServiceOptions options,
                Send send);
    ~PushService();
    PushService(const PushService&) = delete;
    PushService& operator=(const PushService&) = delete;

    // What each page is told after its snapshot: {type:"push-key", key, content}.
    std::string hello() const;
    // A page's push-subscribe or push-unsubscribe: the reply to it; nullopt for another type.
    std::optional<std::string> page_message(std::string_view type, const rapidjson::Value& message);

    void question_waiting(const WaitingAsk& ask);
    void question_gone(const std::string& key);
    // A new VAPID key (askhost web --new-token): every subscription was made for the old one.
    void key_changed(std::string public_key);

    std::size_t devices() const { return devices_.size(); }

    std::function<std::string()> server_id;  // this run's name, checked by the service worker
    std::function<void(std::string_view)> on_log;
    // A device was dropped because its push service says it is gone: its endpoint, and why.
    std::function<void(const std::string& endpoint, std::string_view why)> on_dropped;

private:
    struct Device;
    struct Known {
        std::string single;  // its own message
        Line line;           // its line in a burst's
    };
    Device& device_for(const Subscription& s);
    void tell(Device& d, const std::string& key);
    void flush(const std::string& endpoint);
    void post(Device& d, const std::string& plaintext, const std::string& tag);
    void drop(const std::string& endpoint, std::string_view why);
    void log(std::string_view m) const {
        if (on_log) on_log(m);
    }

    boost::asio::io_context& io_;
    SubscriptionStore& store_;
    std::string public_key_;
    ServiceOptions opts_;
    Send send_;
    std::map<std::string, std::unique_ptr<Device>> devices_;  // by endpoint
    std::map<std::string, Known> waiting_;                    // by key
    Lifetime lifetime_;
};

}  // namespace askhost::web::push
