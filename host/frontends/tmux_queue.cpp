#include "frontends/tmux_queue.hpp"

#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fd_io.hpp"
#include "core/proc_stat.hpp"

namespace askhost::tmux {

namespace {

constexpr std::chrono::milliseconds kTick{200};  // how soon the next popup follows a closed one
constexpr std::chrono::seconds kStale{5};        // a ticket untouched this long is passed over
constexpr std::chrono::seconds kRetry{1};        // after a popup that never reached the screen

long long steady_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

unsigned long long own_start_ticks() {
    auto stat = read_proc_stat(::getpid());
    return stat ? stat->start_ticks : 0;
}

// Whether `pid` runs and is the process that wrote a ticket holding `ticks`: not gone, not a
// zombie its parent has yet to reap (its lock is dropped already), not a reused pid.
bool lives(pid_t pid, unsigned long long ticks) {
    auto stat = read_proc_stat(pid);
    return stat && stat->start_ticks == ticks && stat->state != 'Z' && stat->state != 'X';
}

bool make_dir(const std::string& dir) { return ::mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST; }

}  // namespace

std::string line_key(const std::string& server, const std::string& client) {
    std::uint64_t h = 14695981039346656037ULL;  // FNV-1a: the same in every askhost build
    for (unsigned char c : server + '\n' + client) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
    return buf;
}

std::optional<Ticket> first_in_line(const std::string& client_dir, std::chrono::seconds stale) {
    std::optional<Ticket> first;
    DIR* d = ::opendir(client_dir.c_str());
    if (!d) return first;
    while (dirent* e = ::readdir(d)) {
        Ticket t;
        int pid = 0;
        char rest = 0;
        if (std::sscanf(e->d_name, "wait-%lld-%d%c", &t.since, &pid, &rest) != 2 || pid <= 0) continue;
        t.pid = static_cast<pid_t>(pid);
        t.path = client_dir + "/" + e->d_name;
        if (t.pid != ::getpid()) {
            unsigned long long ticks = 0;
            std::ifstream(t.path) >> ticks;
            if (!lives(t.pid, ticks)) {
                ::unlink(t.path.c_str());  // its process is gone (or the pid is another's now)
                continue;
            }
            struct stat st {};
            if (::stat(t.path.c_str(), &st) != 0) continue;
            if (::time(nullptr) - st.st_mtim.tv_sec > stale.count()) continue;  // stopped or stuck: the others go first
        }
        if (!first || t.since < first->since || (t.since == first->since && t.pid < first->pid)) first = t;
    }
    ::closedir(d);
    return first;
}

PopupQueue::PopupQueue(boost::asio::io_context& io, std::string dir, Log log,
                       std::function<bool(const std::string&)> wanted)
    : dir_(std::move(dir)), log_(std::move(log)), wanted_(std::move(wanted)), timer_(io) {}

PopupQueue::~PopupQueue() {
    lifetime_.end();
    withdraw();
    if (!marker_.empty()) ::unlink(marker_.c_str());
    release();
}

void PopupQueue::asked(const std::string& ask_id) { asked_.emplace(ask_id, steady_ns()); }

void PopupQueue::offer(const Pane& pane, const std::string& ask_id, std::vector<std::string> command, int width,
                       int height) {
    if (popup_open()) return;
    offer_ = Offer{pane, ask_id, std::move(command), width, height};
    if (!join(line_key(pane.server, pane.client))) return;
    try_open();
    arm();
}

void PopupQueue::withdraw() {
    if (!ticket_.empty()) ::unlink(ticket_.c_str());
    ticket_.clear();
    key_.clear();
    said_waiting_ = false;
}

bool PopupQueue::join(const std::string& key) {
    auto since = asked_.emplace(offer_.ask_id, steady_ns()).first->second;
    const std::string line = dir_ + "/" + key;
    char name[64];
    std::snprintf(name, sizeof name, "/wait-%020lld-%d", since, static_cast<int>(::getpid()));
    const std::string ticket = line + name;
    if (ticket == ticket_) return true;
    withdraw();  // another client or another question: a new place in line
    if (!make_dir(dir_) || !make_dir(line)) {
        log_(dir_ + ": " + std::strerror(errno));
        return false;
    }
    // Written whole, then named: a reader never takes a half-written ticket for a dead process's.
    const std::string temp = line + "/.wait-" + std::to_string(::getpid());
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        log_(temp + ": " + std::strerror(errno));
        return false;
    }
    write_all(fd, std::to_string(own_start_ticks()) + "\n");
    ::close(fd);
    if (::rename(temp.c_str(), ticket.c_str()) != 0) {
        log_(ticket + ": " + std::strerror(errno));
        ::unlink(temp.c_str());
        return false;
    }
    key_ = key;
    ticket_ = ticket;
    return true;
}

void PopupQueue::try_open() {
    if (popup_open() || ticket_.empty()) return;
    if (!wanted_(offer_.ask_id)) {
        withdraw();  // answered elsewhere while it waited its turn
        return;
    }
    if (::utimensat(AT_FDCWD, ticket_.c_str(), nullptr, 0) != 0) {  // touched: still waiting
        const std::string key = key_;  // deleted by another (it took us for dead): back in line
        ticket_.clear();
        if (!join(key)) return;
    }
    if (std::chrono::steady_clock::now() < next_try_) return;
    const std::string line = dir_ + "/" + key_;
    auto first = first_in_line(line, kStale);
    if (!first || first->path != ticket_) {
        if (!said_waiting_) log_("a tmux popup of another question is first on that client: this one waits its turn");
        said_waiting_ = true;
        return;
    }
    int fd = ::open((line + "/lock").c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {  // the popup before ours is still on the client
        ::close(fd);
        return;
    }
    lock_fd_ = fd;
    // The popup's command marks that it ran: display-popup on a client that shows a popup already
    // does nothing and still succeeds.
    marker_ = line + "/shown-" + std::to_string(::getpid());
    ::unlink(marker_.c_str());
    std::vector<std::string> command = {"sh", "-c", ": > \"$1\"; shift; exec \"$@\"", "sh", marker_};
    command.insert(command.end(), offer_.command.begin(), offer_.command.end());
    auto popup = open_popup(offer_.pane, command, offer_.width, offer_.height);
    if (!popup) {
        log_("no tmux popup: " + popup.error().message);
        release();
        withdraw();
        auto id = offer_.ask_id;
        if (on_closed) on_closed(id, false);
        return;
    }
    popup_pid_ = *popup;
    if (popup_ask_ != offer_.ask_id)  // said once, not at each try while another popup is there
        log_("the question opened in a tmux popup over pane " + offer_.pane.pane_id);
    popup_ask_ = offer_.ask_id;
}

void PopupQueue::reap() {
    if (popup_pid_ <= 0) return;
    pid_t r = ::waitpid(popup_pid_, nullptr, WNOHANG);
    if (r == 0 || (r < 0 && errno == EINTR)) return;
    popup_pid_ = -1;
    const bool shown = ::access(marker_.c_str(), F_OK) == 0;
    ::unlink(marker_.c_str());
    marker_.clear();
    release();
    auto id = popup_ask_;
    if (shown) {
        withdraw();  // the next in line goes
    } else {
        next_try_ = std::chrono::steady_clock::now() + kRetry;
        if (!said_waiting_)
            log_("the tmux popup never reached the screen (another popup is on that client): it waits its turn");
        said_waiting_ = true;
    }
    if (on_closed) on_closed(id, !shown);
}

void PopupQueue::release() {
    if (lock_fd_ >= 0) ::close(lock_fd_);  // drops the flock
    lock_fd_ = -1;
}

void PopupQueue::tick() {
    reap();
    try_open();
}

void PopupQueue::arm() {
    if (armed_ || (!popup_open() && ticket_.empty())) return;
    armed_ = true;
    timer_.expires_after(kTick);
    timer_.async_wait([this, token = lifetime_.token()](const boost::system::error_code& ec) {
        if (ec || !token) return;
        armed_ = false;
        tick();
        arm();
    });
}

}  // namespace askhost::tmux
