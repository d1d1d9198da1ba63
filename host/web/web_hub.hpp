// What `askhost web` shows: every question every live host of this user waits on. The hub reads
// the registry (and notices hosts that start later), is a passive viewer of each host through its
// socket (HostClient, as askhost attach, mcp and hook are its clients), and keeps each ask/show it is
// shown waiting until the page answers it (the reply to that ask/show), the host withdraws it, or
// the host goes away. It knows no HTTP: the server turns its events into WebSocket messages.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>
#include <array>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "core/lifetime.hpp"
#include "core/model/outcome.hpp"
#include "frontends/editor/editor_protocol.hpp"
#include "frontends/editor/registry.hpp"
#include "web/page_protocol.hpp"

namespace askhost::web {

// One question waiting.
struct WaitingAsk {
    std::string key;  // "<host pid>.<connection>:<ask id>", never used twice in this run of the server
    WebAsk page;      // as the page sees it (page_protocol.hpp, docs/web.md)
    Ask ask;          // its questions and agent, read back (an answer is checked against them)
    std::int64_t since_ms = 0;
    std::uint64_t order = 0;  // arrival here, for ties
};

class WebHub {
public:
    WebHub(boost::asio::io_context& io, std::string registry_dir);
    ~WebHub();
    WebHub(const WebHub&) = delete;
    WebHub& operator=(const WebHub&) = delete;

    // Reads the registry now, again whenever its folder changes (inotify), and looks at it every
    // `every` while the loop runs.
    void start(std::chrono::milliseconds every = std::chrono::milliseconds(250));

    // Every waiting question, oldest first.
    std::vector<const WaitingAsk*> waiting() const;

    // The page's answer to `key`: an outcome in the native shape. It is checked against the
    // question as the host checks an editor's, then sent to the host as that ask/show's reply,
    // unchanged. nullopt when it went to the host; else why not (nothing is sent then).
    std::optional<std::string> answer(std::string_view key, const rapidjson::Value& outcome);

    std::function<void(const WaitingAsk&)> on_added;
    // After on_added (askhost web --on-question).
    std::function<void(const WaitingAsk&)> on_question;
    // reason: "answered" (here), "withdrawn" (the host took it back: answered elsewhere, cancelled,
    // timed out), "host-gone".
    std::function<void(const std::string& key, std::string_view reason)> on_removed;
    std::function<void(std::string_view)> on_log;
    // After each look at the registry (the server checks its token file on the same beat).
    std::function<void()> on_tick;

    std::size_t host_count() const { return hosts_.size(); }

private:
    struct Host;
    struct Pending;
    void tick();
    void watch_registry();
    void scan();
    void connect(const HostRecord& record);
    void host_closed(long pid);
    void ask_shown(Host& host, const AskShowParams& params, Reply<AskShowResult> reply);
    void remove(const std::string& key, std::string_view reason);
    void log(std::string_view m) const {
        if (on_log) on_log(m);
    }

    boost::asio::io_context& io_;
    std::string registry_;
    boost::asio::steady_timer timer_;
    // inotify on the registry's folder: a host that starts is seen at once, not on the next beat.
    std::unique_ptr<boost::asio::posix::stream_descriptor> inotify_;
    std::array<char, 4096> events_{};
    std::chrono::milliseconds every_{250};
    std::map<long, std::unique_ptr<Host>> hosts_;                   // by pid
    std::map<long, std::chrono::steady_clock::time_point> closed_;  // not reconnected at once
    std::set<long> unreachable_;                                    // said so in the log
    std::map<std::string, std::unique_ptr<Pending>> asks_;          // by key
    timespec registry_mtime_{};
    std::chrono::steady_clock::time_point last_scan_{};
    std::uint64_t next_order_ = 1;
    std::uint64_t next_host_ = 1;
    Lifetime lifetime_;
};

}  // namespace askhost::web
