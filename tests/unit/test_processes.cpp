// Processes as core finds them: a program on PATH (search_path), what /proc says of one
// (read_proc_stat), the walk up a process's ancestors (nearest_ancestor) and what their environment
// started as (start_environment_value), the one of each that running an agent, --on-question, the
// hook's install, the tmux popup and the ask service use.
#define BOOST_TEST_MODULE processes
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <cerrno>
#include <csignal>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/proc_stat.hpp"
#include "core/search_path.hpp"
#include "scratch.hpp"

using namespace askhost;
namespace fs = std::filesystem;

namespace {

struct TempDir : test::ScratchDir {
    TempDir() : ScratchDir("askhost-processes") {}
    std::string file(const std::string& rel, mode_t mode) const {
        const fs::path p = path / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << "#!/bin/sh\n";
        ::chmod(p.c_str(), mode);
        return p.string();
    }
};

// PATH set for one test, and put back after it.
struct PathIs : test::EnvVar {
    explicit PathIs(const char* path) : EnvVar("PATH", path) {}
};

// `sleep` started with `env` as its whole environment, as user `uid` when one is given (root only);
// killed and reaped at the end of the scope.
struct Sleeper {
    pid_t pid = -1;
    Sleeper(std::vector<std::string> env, std::optional<uid_t> uid = std::nullopt) {
        const std::string sleep = search_path("sleep");
        int ready[2];
        BOOST_TEST_REQUIRE(::pipe2(ready, O_CLOEXEC) == 0);
        std::vector<char*> envp;
        for (auto& v : env) envp.push_back(v.data());
        envp.push_back(nullptr);
        pid = ::fork();
        BOOST_TEST_REQUIRE(pid >= 0);
        if (pid == 0) {
            if (uid && (::setgid(*uid) != 0 || ::setuid(*uid) != 0)) ::_exit(127);
            char* argv[] = {const_cast<char*>("sleep"), const_cast<char*>("60"), nullptr};
            ::execve(sleep.c_str(), argv, envp.data());
            ::_exit(127);
        }
        ::close(ready[1]);
        char c = 0;
        while (::read(ready[0], &c, 1) < 0 && errno == EINTR) {
        }  // end of file: exec closed it, the new environment is in place
        ::close(ready[0]);
    }
    ~Sleeper() {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
};

}  // namespace

BOOST_AUTO_TEST_CASE(search_path_finds_the_first_executable_file_as_execvp_does) {
    TempDir t;
    const std::string a = (t.path / "a").string(), b = (t.path / "b").string(), c = (t.path / "c").string();
    t.file("a/tool", 0644);                         // not executable: passed over
    fs::create_directories(t.path / "b" / "tool");  // a folder: passed over
    const std::string found = t.file("c/tool", 0755);
    t.file("c/other", 0755);
    const PathIs path((a + ":" + b + "::" + c).c_str());
    BOOST_TEST(search_path("tool") == found);
    BOOST_TEST(search_path("missing") == "");
    BOOST_TEST(search_path("c/tool") == "");  // a path is no name to search
    BOOST_TEST(search_path("") == "");
    // An empty entry is the working directory, in its place.
    const fs::path cwd = fs::current_path();
    fs::current_path(t.path / "c");
    BOOST_TEST(search_path("other") == "./other");
    fs::current_path(cwd);
}

BOOST_AUTO_TEST_CASE(search_path_without_path_looks_where_execvp_would) {
    const PathIs none(nullptr);
    BOOST_TEST(search_path("sh").rfind("/", 0) == 0);  // /usr/bin/sh or /bin/sh
}

// /proc/PID/stat is read in core alone: the tmux line's "is its holder alive" and askhost mcp's
// task owner use it too.
BOOST_AUTO_TEST_CASE(read_proc_stat_gives_the_parent_the_start_and_the_state) {
    const auto self = read_proc_stat(::getpid());
    BOOST_REQUIRE(self.has_value());
    BOOST_TEST(self->ppid == ::getppid());
    BOOST_TEST(self->state == 'R');  // it runs while it reads its own
    BOOST_TEST(self->start_ticks > 0U);
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    // Ended and not reaped yet: a zombie, with the start time it had.
    std::optional<ProcStat> zombie;
    for (int i = 0; i < 500; ++i) {
        zombie = read_proc_stat(child);
        if (zombie && zombie->state == 'Z') break;
        ::usleep(10000);
    }
    BOOST_TEST_REQUIRE(zombie.has_value());
    BOOST_TEST(zombie->state == 'Z');
    BOOST_TEST(zombie->ppid == ::getpid());
    BOOST_TEST(zombie->start_ticks >= self->start_ticks);
    ::waitpid(child, nullptr, 0);
    BOOST_TEST(!read_proc_stat(child).has_value());  // reaped: gone
}

BOOST_AUTO_TEST_CASE(nearest_ancestor_asks_this_process_then_its_parents) {
    std::vector<pid_t> asked;
    const std::string none = nearest_ancestor(::getpid(), [&](pid_t pid) {
        asked.push_back(pid);
        return std::string();
    });
    BOOST_TEST(none == "");
    BOOST_TEST_REQUIRE(asked.size() >= 2U);
    BOOST_TEST(asked[0] == ::getpid());
    BOOST_TEST(asked[1] == ::getppid());
    BOOST_TEST(asked.size() <= 32U);
    for (pid_t pid : asked) BOOST_TEST(pid > 1);  // init is never asked

    asked.clear();
    const std::string found = nearest_ancestor(::getpid(), [&](pid_t pid) {
        asked.push_back(pid);
        return pid == ::getppid() ? std::string("the parent") : std::string();
    });
    BOOST_TEST(found == "the parent");
    BOOST_TEST(asked.size() == 2U);  // no further once one answers
}

BOOST_AUTO_TEST_CASE(start_environment_value_reads_a_variable_a_process_of_this_user_started_with) {
    const Sleeper s({"ASKHOST_TWO=two=2", "ASKHOST_T=one", "ASKHOST_EMPTY=", "TMUX=/tmp/elsewhere/default,42,0"});
    BOOST_TEST(start_environment_value(s.pid, "ASKHOST_T") == "one");  // not ASKHOST_TWO, whose name it begins
    BOOST_TEST(start_environment_value(s.pid, "ASKHOST_TWO") == "two=2");
    BOOST_TEST(start_environment_value(s.pid, "TMUX") == "/tmp/elsewhere/default,42,0");
    BOOST_TEST(start_environment_value(s.pid, "ASKHOST_EMPTY") == "");
    BOOST_TEST(start_environment_value(s.pid, "ASKHOST_") == "");
    BOOST_TEST(start_environment_value(s.pid, "PATH") == "");  // not this process's own
    // The environment it started with, not what this process has now.
    ::setenv("ASKHOST_LATER", "now", 1);
    BOOST_TEST(start_environment_value(::getpid(), "ASKHOST_LATER") == "");
    ::unsetenv("ASKHOST_LATER");
}

BOOST_AUTO_TEST_CASE(start_environment_value_of_another_users_process_or_a_gone_one_is_empty) {
    pid_t gone = -1;
    {
        const Sleeper s({"TMUX=/tmp/x/default,1,0"});
        gone = s.pid;
    }
    BOOST_TEST(start_environment_value(gone, "TMUX") == "");
    if (::geteuid() != 0) return;  // only root can start a process as another user (and read its environ)
    const Sleeper other({"TMUX=/tmp/theirs/default,1,0"}, 65534);  // nobody
    struct stat st {};
    BOOST_TEST_REQUIRE(::stat(("/proc/" + std::to_string(other.pid)).c_str(), &st) == 0);
    BOOST_TEST_REQUIRE(st.st_uid == 65534U);
    BOOST_TEST(start_environment_value(other.pid, "TMUX") == "");
}
