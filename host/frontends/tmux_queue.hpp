// One popup at a time on a tmux client, over every askhost process of the user, in the order their
// questions were asked (docs/tmux.md, "Several agents at once"). tmux opens no popup on a client
// that shows one already (display-popup then does nothing and says nothing), so each client has a
// line in askhost's private directory: tmux-popups/KEY/ holds a ticket per waiting process
// (wait-SINCE-PID, its start ticks inside, touched while it waits) and a lock file that the
// process whose popup is on the client holds (flock). A process that dies lets go of both: the
// kernel drops its lock, and the others skip and delete its ticket.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "core/lifetime.hpp"
#include "frontends/tmux_popup.hpp"

namespace askhost::tmux {

// A ticket in a client's line, as read from its name and content.
struct Ticket {
    long long since = 0;  // steady-clock nanoseconds at the ask
    pid_t pid = 0;
    std::string path;
};

// The ticket of the line in `client_dir` whose turn it is: the oldest one whose process lives and
// has touched it in the last `stale` (a stopped process is passed over, a dead one's ticket is
// deleted). nullopt when the line is empty.
std::optional<Ticket> first_in_line(const std::string& client_dir, std::chrono::seconds stale);

// The folder name of a client's line: a digest of its server socket and client name.
std::string line_key(const std::string& server, const std::string& client);

class PopupQueue {
public:
    using Log = std::function<void(std::string_view)>;
    // `dir`: where the lines are (created 0700 on first use). `wanted(ask_id)` is asked again right
    // before a popup opens: a question answered elsewhere while it waited must not pop up.
    PopupQueue(boost::asio::io_context& io, std::string dir, Log log, std::function<bool(const std::string&)> wanted);
    ~PopupQueue();
    PopupQueue(const PopupQueue&) = delete;
    PopupQueue& operator=(const PopupQueue&) = delete;

    // A question was asked now: its place in any line it joins.
    void asked(const std::string& ask_id);
    // `ask_id` wants `command` in a popup over `pane` (a client looks at it): opens it now when no
    // other askhost's popup is on that client and no earlier question waits for it, else waits in
    // the client's line and opens it when its turn comes. Called again, it refreshes the pane.
    void offer(const Pane& pane, const std::string& ask_id, std::vector<std::string> command, int width, int height);
    // Nothing here wants a popup any more: out of the line. A popup on screen stays.
    void withdraw();
    bool popup_open() const { return popup_pid_ > 0; }
    bool in_line() const { return !ticket_.empty(); }

    // Our popup closed. `again`: it never reached the screen (another popup was there, the client
    // went), so the question may be offered again; else it was seen, answered or not.
    std::function<void(const std::string& ask_id, bool again)> on_closed;

private:
    void tick();
    void arm();
    void try_open();
    void reap();
    bool join(const std::string& key);
    void release();

    std::string dir_;
    Log log_;
    std::function<bool(const std::string&)> wanted_;
    boost::asio::steady_timer timer_;
    bool armed_ = false;

    std::map<std::string, long long> asked_;  // ask id -> steady-clock ns
    struct Offer {
        Pane pane;
        std::string ask_id;
        std::vector<std::string> command;
        int width = 0, height = 0;
    } offer_;
    std::string key_, ticket_;  // the line we are in and our ticket there
    bool said_waiting_ = false;
    std::chrono::steady_clock::time_point next_try_{};

    pid_t popup_pid_ = -1;  // the tmux client that waits for our popup to close
    std::string popup_ask_, marker_;
    int lock_fd_ = -1;
    Lifetime lifetime_;  // last: ends before the timer's callbacks could touch the rest
};

}  // namespace askhost::tmux
