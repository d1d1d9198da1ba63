// Processes as core finds them: a program on PATH (search_path), what /proc says of one
// (read_proc_stat) and the walk up a process's ancestors (nearest_ancestor), the one of each that
// running an agent, --on-question, the hook's install, the tmux popup and the ask service use.
#define BOOST_TEST_MODULE processes
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/proc_stat.hpp"
#include "core/search_path.hpp"

using namespace askhost;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "askhost-processes-XXXXXX").string();
        path = ::mkdtemp(tmpl.data());
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string file(const std::string& rel, mode_t mode) const {
        const fs::path p = path / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << "#!/bin/sh\n";
        ::chmod(p.c_str(), mode);
        return p.string();
    }
};

// PATH set for one test, and put back after it.
struct PathIs {
    std::optional<std::string> old;
    explicit PathIs(const char* path) {
        if (const char* p = std::getenv("PATH")) old = p;
        if (path) ::setenv("PATH", path, 1);
        else ::unsetenv("PATH");
    }
    ~PathIs() {
        if (old) ::setenv("PATH", old->c_str(), 1);
        else ::unsetenv("PATH");
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
