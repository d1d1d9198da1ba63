#define BOOST_TEST_MODULE tmux_queue
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/proc_stat.hpp"
#include "core/text/sanitize.hpp"
#include "frontends/tmux_popup.hpp"
#include "frontends/tmux_queue.hpp"
#include "scratch.hpp"

using namespace askhost;
namespace fs = std::filesystem;

namespace {

struct TempDir : test::ScratchDir {
    TempDir() : ScratchDir("askhost-tmux-queue") {}
};

// A ticket as a waiting askhost writes it; `age` seconds since it was last touched.
std::string ticket(const fs::path& dir, long long since, pid_t pid, unsigned long long ticks, int age = 0) {
    std::string path = (dir / ("wait-" + std::to_string(since) + "-" + std::to_string(pid))).string();
    std::ofstream(path) << ticks << "\n";
    if (age > 0) {
        timespec times[2];
        ::clock_gettime(CLOCK_REALTIME, &times[0]);
        times[0].tv_sec -= age;
        times[1] = times[0];
        ::utimensat(AT_FDCWD, path.c_str(), times, 0);
    }
    return path;
}

unsigned long long ticks_of(pid_t pid) { return read_proc_stat(pid)->start_ticks; }

// The pid of a process that ran and was reaped: gone.
pid_t gone_pid() {
    pid_t pid = ::fork();
    if (pid == 0) ::_exit(0);
    ::waitpid(pid, nullptr, 0);
    return pid;
}

}  // namespace

BOOST_AUTO_TEST_CASE(an_empty_or_missing_line_has_nobody_first) {
    TempDir dir;
    BOOST_TEST(!tmux::first_in_line(dir.path.string(), std::chrono::seconds(5)));
    BOOST_TEST(!tmux::first_in_line((dir.path / "none").string(), std::chrono::seconds(5)));
}

BOOST_AUTO_TEST_CASE(the_question_asked_first_goes_first) {
    TempDir dir;
    const pid_t parent = ::getppid();
    ticket(dir.path, 300, ::getpid(), ticks_of(::getpid()));
    auto earlier = ticket(dir.path, 200, parent, ticks_of(parent));
    std::ofstream(dir.path / "lock");
    std::ofstream(dir.path / "shown-12");
    auto first = tmux::first_in_line(dir.path.string(), std::chrono::seconds(5));
    BOOST_TEST_REQUIRE(first.has_value());
    BOOST_TEST(first->path == earlier);
    BOOST_TEST(first->since == 200);
    BOOST_TEST(first->pid == parent);
}

BOOST_AUTO_TEST_CASE(a_dead_process_ticket_is_deleted_and_passed_over) {
    TempDir dir;
    auto dead = ticket(dir.path, 100, gone_pid(), 12345);
    auto mine = ticket(dir.path, 300, ::getpid(), ticks_of(::getpid()));
    auto first = tmux::first_in_line(dir.path.string(), std::chrono::seconds(5));
    BOOST_TEST_REQUIRE(first.has_value());
    BOOST_TEST(first->path == mine);
    BOOST_TEST(!fs::exists(dead));
}

BOOST_AUTO_TEST_CASE(a_reused_pid_is_not_the_process_that_waited) {
    TempDir dir;
    const pid_t parent = ::getppid();
    auto other = ticket(dir.path, 100, parent, ticks_of(parent) + 1);  // another start time
    auto mine = ticket(dir.path, 300, ::getpid(), ticks_of(::getpid()));
    BOOST_TEST(tmux::first_in_line(dir.path.string(), std::chrono::seconds(5))->path == mine);
    BOOST_TEST(!fs::exists(other));
}

BOOST_AUTO_TEST_CASE(a_ticket_nobody_touched_lately_is_passed_over_but_kept) {
    TempDir dir;
    const pid_t parent = ::getppid();
    auto stopped = ticket(dir.path, 100, parent, ticks_of(parent), 30);
    auto mine = ticket(dir.path, 300, ::getpid(), ticks_of(::getpid()), 30);  // our own is never stale
    BOOST_TEST(tmux::first_in_line(dir.path.string(), std::chrono::seconds(5))->path == mine);
    BOOST_TEST(fs::exists(stopped));
    ticket(dir.path, 100, parent, ticks_of(parent));  // it woke up and touched its ticket
    BOOST_TEST(tmux::first_in_line(dir.path.string(), std::chrono::seconds(5))->path == stopped);
}

BOOST_AUTO_TEST_CASE(a_zombie_is_gone_for_the_line) {
    TempDir dir;
    pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    // Not reaped yet: /proc still has it, in state Z, with its start time.
    for (int i = 0; i < 200; ++i) {
        std::ifstream in("/proc/" + std::to_string(child) + "/stat");
        std::string line;
        std::getline(in, line);
        if (line.find(") Z") != std::string::npos) break;
        ::usleep(10000);
    }
    auto zombie = ticket(dir.path, 100, child, ticks_of(child));
    auto mine = ticket(dir.path, 300, ::getpid(), ticks_of(::getpid()));
    BOOST_TEST(tmux::first_in_line(dir.path.string(), std::chrono::seconds(5))->path == mine);
    BOOST_TEST(!fs::exists(zombie));
    ::waitpid(child, nullptr, 0);
}

BOOST_AUTO_TEST_CASE(a_client_line_key_is_stable_and_apart) {
    auto a = tmux::line_key("/tmp/tmux-0/default", "/dev/pts/3");
    BOOST_TEST(a == tmux::line_key("/tmp/tmux-0/default", "/dev/pts/3"));
    BOOST_TEST(a != tmux::line_key("/tmp/tmux-0/default", "/dev/pts/4"));
    BOOST_TEST(a != tmux::line_key("/tmp/tmux-0/other", "/dev/pts/3"));
    BOOST_TEST(a.size() == 16u);
    BOOST_TEST(a.find('/') == std::string::npos);
}

// A tmux message (a pane told that its agent asks) names the agent: tmux expands formats in it, so
// "#(...)" in a name would run a command. A real tmux server shows the text word for word, made
// visible as every face shows agent text.
BOOST_AUTO_TEST_CASE(a_message_in_tmux_shows_agent_text_and_runs_nothing) {
    if (std::system("command -v tmux >/dev/null 2>&1") != 0) return;  // no tmux here
    TempDir dir;
    const std::string socket = (dir.path / "tmux.sock").string();
    const std::string marker = (dir.path / "ran").string();
    const std::string server = "tmux -f /dev/null -S " + shell_quote(socket);
    BOOST_TEST_REQUIRE(std::system((server + " new-session -d -s t 'sleep 60'").c_str()) == 0);
    const std::string agent = "ev#(touch " + marker + ")il\xE2\x80\xAE #{pane_id} ##";
    const std::string command =
        server + " display-message -p " + shell_quote(tmux::message_text("askhost: " + agent + " asks"));
    std::string shown;
    if (FILE* out = ::popen(command.c_str(), "r")) {
        char buf[512];
        while (std::fgets(buf, sizeof buf, out)) shown += buf;
        ::pclose(out);
    }
    std::system((server + " kill-server").c_str());
    // Shown word for word (a format would have been expanded), and nothing ran.
    BOOST_TEST(shown == "askhost: ev#(touch " + marker + ")il<U+202E> #{pane_id} ## asks\n");
    BOOST_TEST(!fs::exists(marker));
}
