#include "web/web_hub.hpp"

#include <algorithm>

#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <boost/asio/post.hpp>

#include "core/text/who_asks.hpp"
#include "frontends/editor/ask_json.hpp"
#include "frontends/editor/host_client.hpp"
#include "json/json_access.hpp"
#include "store/fs_util.hpp"

namespace askhost::web {

namespace {

// Without a change to the registry's folder, it is read again this often anyway (a host that
// died without a word leaves its record; its socket closing tells us sooner).
constexpr auto kRescanEvery = std::chrono::seconds(5);
// A host that refused or closed our connection is not tried again at once.
constexpr auto kRetryAfter = std::chrono::milliseconds(500);

// A host's instance in its questions' keys: its start time (milliseconds, base 36), the same in
// every run of askhost web; `serial` ("n" and this connection's number) when the record has none.
std::string host_instance(const HostRecord& record, std::uint64_t serial) {
    if (record.start_ms <= 0) return "n" + std::to_string(serial);
    std::string out;
    for (auto v = static_cast<std::uint64_t>(record.start_ms); v > 0; v /= 36)
        out.insert(out.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36]);
    return out;
}

}  // namespace

struct WebHub::Host {
    HostRecord record;
    // Names this host among every host of that pid, and again to a later run of askhost web (its
    // questions' keys stay those a phone's notifications and a page's address hold): its record's
    // start time. For a record without one, this connection's number in this run.
    std::string instance;
    std::unique_ptr<HostClient> client;
    std::map<std::string, std::string> asks;  // ask id -> key
    bool shown_any = false;
};

struct WebHub::Pending {
    WaitingAsk view;
    long pid = 0;
    std::string ask_id;
    std::optional<Reply<AskShowResult>> reply;
};

WebHub::WebHub(boost::asio::io_context& io, std::string registry_dir)
    : io_(io), registry_(std::move(registry_dir)), timer_(io) {}

WebHub::~WebHub() {
    lifetime_.end();
    if (inotify_) {
        boost::system::error_code ignored;
        inotify_->close(ignored);
    }
    asks_.clear();
    hosts_.clear();
}

void WebHub::start(std::chrono::milliseconds every) {
    every_ = every;
    watch_registry();
    tick();
}

void WebHub::watch_registry() {
    if (!inotify_) {
        const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (fd < 0) return;  // the beat alone, then
        if (::inotify_add_watch(fd, registry_.c_str(),
                                IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM) < 0) {
            ::close(fd);
            return;
        }
        inotify_ = std::make_unique<boost::asio::posix::stream_descriptor>(io_, fd);
    }
    inotify_->async_read_some(boost::asio::buffer(events_),
                              [this, token = lifetime_.token()](const boost::system::error_code& ec, std::size_t) {
                                  if (ec || !token) return;
                                  registry_mtime_ = {};  // what changed is read from the folder itself
                                  scan();
                                  watch_registry();
                              });
}

void WebHub::tick() {
    scan();
    if (on_tick) on_tick();
    timer_.expires_after(every_);
    timer_.async_wait([this, token = lifetime_.token()](const boost::system::error_code& ec) {
        if (!ec && token) tick();
    });
}

void WebHub::scan() {
    // Hosts come and go by writing, renaming and removing files there: its mtime says when.
    struct stat st {};
    const auto now = std::chrono::steady_clock::now();
    const bool changed = ::stat(registry_.c_str(), &st) == 0 &&
                         (st.st_mtim.tv_sec != registry_mtime_.tv_sec || st.st_mtim.tv_nsec != registry_mtime_.tv_nsec);
    if (!changed && now - last_scan_ < kRescanEvery) return;
    registry_mtime_ = st.st_mtim;
    last_scan_ = now;
    std::erase_if(closed_, [&](const auto& c) { return now - c.second > kRescanEvery; });
    for (const HostRecord& r : list_hosts(registry_)) {
        auto it = hosts_.find(r.pid);
        if (it != hosts_.end()) {
            it->second->record.folders = r.folders;  // the workspace shown with its next question
            continue;
        }
        if (auto c = closed_.find(r.pid); c != closed_.end() && now - c->second < kRetryAfter) {
            registry_mtime_ = {};  // look again on the next beat
            continue;
        }
        connect(r);
    }
}

void WebHub::connect(const HostRecord& record) {
    const long pid = record.pid;
    auto host = std::make_unique<Host>();
    host->record = record;
    host->instance = host_instance(record, next_host_++);
    host->client = std::make_unique<HostClient>(io_, record.socket, "askhost web");
    Host* raw = host.get();
    HostFace face;
    face.show = [this, raw, token = lifetime_.token()](const AskShowParams& p, Reply<AskShowResult> r) {
        if (token) ask_shown(*raw, p, std::move(r));
    };
    face.withdrawn = [this, pid, token = lifetime_.token()](const CancelRequestParams& p) {
        if (!token) return;
        auto h = hosts_.find(pid);
        if (h == hosts_.end()) return;
        auto a = h->second->asks.find(p.ask_id);
        if (a != h->second->asks.end()) remove(std::string(a->second), "withdrawn");
    };
    host->client->show_to(ClientRole::Viewer, std::move(face));
    host->client->on_log = [this, pid, token = lifetime_.token()](std::string_view m) {
        if (token) log("host " + std::to_string(pid) + ": " + std::string(m));
    };
    host->client->on_closed = [this, pid, token = lifetime_.token()] {
        // Not from inside the connection's own callback: the client is destroyed there.
        boost::asio::post(io_, [this, pid, token] {
            if (token) host_closed(pid);
        });
    };
    if (Status unreachable = host->client->connect()) {
        // Said once per host (it is tried again on the beat): a socket of another user, say.
        if (unreachable_.insert(pid).second)
            log("cannot watch host " + std::to_string(pid) + ": " + unreachable->message);
        closed_[pid] = std::chrono::steady_clock::now();
        return;
    }
    log("watching host " + std::to_string(pid) + " (" + record.kind + ") at " + record.socket);
    hosts_[pid] = std::move(host);
}

void WebHub::host_closed(long pid) {
    auto it = hosts_.find(pid);
    if (it == hosts_.end()) return;
    std::vector<std::string> keys;
    for (const auto& [id, key] : it->second->asks) keys.push_back(key);
    for (const auto& key : keys) remove(key, "host-gone");
    hosts_.erase(it);
    closed_[pid] = std::chrono::steady_clock::now();
    registry_mtime_ = {};  // it may still be there (closed on us, not gone): look again soon
}

void WebHub::ask_shown(Host& host, const AskShowParams& params, Reply<AskShowResult> reply) {
    const std::string& id = params.ask.id;
    auto pending = std::make_unique<Pending>();
    pending->pid = host.record.pid;
    pending->ask_id = id;
    pending->reply = std::move(reply);
    WaitingAsk& view = pending->view;
    // What an answer is checked against, and what --on-question and a push tell of it.
    view.ask.id = id;
    view.ask.questions = params.ask.questions;
    view.ask.permission = params.ask.permission;
    view.ask.agent = params.ask.agent;
    // Nothing said of one question (a notification's action, an answer sent late) reaches another:
    // a host whose pid was another's before has another instance. The same host's question keeps
    // its key when we watch it again, and in a later run of askhost web.
    view.key = std::to_string(host.record.pid) + "." + host.instance + ":" + id;
    // The first question a host shows us may have waited before we came: the record says since when.
    const std::int64_t now = store::now_ms();
    view.since_ms =
        !host.shown_any && host.record.waiting_since_ms > 0 ? std::min(now, host.record.waiting_since_ms) : now;
    host.shown_any = true;
    view.order = next_order_++;

    const std::string& agent = params.ask.agent;
    std::string workspace = params.ask.cwd;
    if (workspace.empty() && !host.record.folders.empty()) workspace = host.record.folders.front().path;
    WebAsk& page = view.page;
    page.key = view.key;
    page.questions.json = json::to_text(*params.questions.value);
    if (view.ask.permission) {
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        write_permission(w, *view.ask.permission);
        page.permission = AsGiven{std::string(buf.GetString(), buf.GetSize())};
    }
    if (params.metadata.value) page.metadata = AsGiven{json::to_text(*params.metadata.value)};
    page.agent = agent;
    page.host = {host.record.pid, host.record.kind, host.record.socket};
    page.workspace = std::move(workspace);
    page.who = who_asks(agent, params.ask.route);
    page.since = view.since_ms;

    const std::string key = view.key;
    const bool again = asks_.count(key) > 0;  // shown again (it went back to the host's queue)
    host.asks[id] = key;
    asks_[key] = std::move(pending);
    if (again) return;
    if (on_added) on_added(asks_[key]->view);
    if (on_question) on_question(asks_[key]->view);
}

std::vector<const WaitingAsk*> WebHub::waiting() const {
    std::vector<const WaitingAsk*> out;
    for (const auto& [key, p] : asks_) out.push_back(&p->view);
    std::sort(out.begin(), out.end(), [](const WaitingAsk* a, const WaitingAsk* b) {
        return a->since_ms != b->since_ms ? a->since_ms < b->since_ms : a->order < b->order;
    });
    return out;
}

std::optional<std::string> WebHub::answer(std::string_view key, const rapidjson::Value& outcome) {
    auto it = asks_.find(std::string(key));
    if (it == asks_.end()) return std::string("no such question waits (answered elsewhere, or its host is gone)");
    if (!json::is_object(outcome)) return std::string("outcome: expected an object");
    Pending& p = *it->second;
    Outcome checked;
    if (auto wrong = read_client_outcome(outcome, p.view.ask, checked, json::Path("outcome"))) return wrong->message;
    (*p.reply)(json::RawJson{json::to_text(outcome)});
    remove(std::string(key), "answered");
    return std::nullopt;
}

void WebHub::remove(const std::string& key, std::string_view reason) {
    auto it = asks_.find(key);
    if (it == asks_.end()) return;
    auto pending = std::move(it->second);
    asks_.erase(it);
    if (auto h = hosts_.find(pending->pid); h != hosts_.end()) h->second->asks.erase(pending->ask_id);
    if (on_removed) on_removed(key, reason);
}

}  // namespace askhost::web
