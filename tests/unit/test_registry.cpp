#define BOOST_TEST_MODULE registry
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "frontends/editor/registry.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "scratch.hpp"

using namespace askhost;
namespace fs = std::filesystem;

namespace {

struct TempDir : test::ScratchDir {
    TempDir() : ScratchDir("askhost-registry") {}
};

HostRecord host(long pid, std::int64_t start, std::vector<std::string> folders) {
    HostRecord r;
    r.pid = pid;
    r.start_ms = start;
    r.socket = "/run/askhost/host-" + std::to_string(pid) + ".sock";
    for (const auto& f : folders) r.folders.push_back(folder_from_path(f));
    return r;
}

}  // namespace

BOOST_AUTO_TEST_CASE(file_uris_round_trip_and_refuse_other_schemes) {
    BOOST_TEST(*path_from_file_uri("file:///home/me/my%20shop/") == "/home/me/my shop");
    BOOST_TEST(*path_from_file_uri("FILE://localhost/srv/x") == "/srv/x");
    BOOST_TEST(!path_from_file_uri("vscode-remote://ssh/home/me"));
    BOOST_TEST(!path_from_file_uri("file://otherhost/x"));
    BOOST_TEST(!path_from_file_uri("file:///a%00b"));   // a NUL cannot be in a path
    BOOST_TEST(!path_from_file_uri("file:///a/%E2p"));  // nor bytes that are not UTF-8 (found by fuzz_registry)
    BOOST_TEST(file_uri("/home/me/my shop") == "file:///home/me/my%20shop");
    BOOST_TEST(*path_from_file_uri(file_uri("/tmp/ä b#c")) == "/tmp/ä b#c");
    BOOST_TEST(folder_from_path("/srv/shop/").name == "shop");
}

BOOST_AUTO_TEST_CASE(the_deepest_folder_wins_and_ties_go_to_the_newest) {
    std::vector<HostRecord> hosts = {host(10, 100, {"/srv"}), host(11, 50, {"/srv/shop"}), host(12, 200, {"/srv/shop"}),
                                     host(13, 300, {"/srv/shopping"})};
    BOOST_TEST(host_for_directory(hosts, "/srv/shop/api")->pid == 12);
    BOOST_TEST(host_for_directory(hosts, "/srv/shop")->pid == 12);
    BOOST_TEST(host_for_directory(hosts, "/srv/shopx")->pid == 10);  // a prefix is no parent
    BOOST_TEST(host_for_directory(hosts, "/srv/shopping/x")->pid == 13);
    BOOST_TEST(host_for_directory(hosts, "/elsewhere") == nullptr);
}

BOOST_AUTO_TEST_CASE(records_read_back_and_bad_ones_are_refused) {
    HostRecord r = host(42, 1234, {"/srv/shop"});
    r.client_name = "Neovim \"nightly\"";
    r.kind = "editor";
    auto back = parse_record(record_json(r));
    BOOST_REQUIRE(back);
    BOOST_TEST(back->pid == 42);
    BOOST_TEST(back->client_name == r.client_name);
    BOOST_TEST(back->folders.at(0).path == "/srv/shop");
    BOOST_TEST(!parse_record("{\"version\":2,\"pid\":1,\"socket\":\"/x\"}"));
    BOOST_TEST(!parse_record("{\"version\":1,\"pid\":-3,\"socket\":\"/x\"}"));
    BOOST_TEST(!parse_record("{\"version\":1,\"pid\":3,\"socket\":\"relative.sock\"}"));
    BOOST_TEST(!parse_record("{\"version\":1,\"pid\":3,"));  // torn
    // A relative or non-file folder is dropped, the record kept.
    auto some = parse_record(
        "{\"version\":1,\"pid\":3,\"socket\":\"/x\",\"workspaceFolders\":"
        "[{\"uri\":\"http://x/y\"},{\"path\":\"rel\"},{\"uri\":\"file:///ok\"}]}");
    BOOST_REQUIRE(some);
    BOOST_REQUIRE(some->folders.size() == 1);
    BOOST_TEST(some->folders[0].path == "/ok");
}

BOOST_AUTO_TEST_CASE(a_registration_is_listed_while_it_lives) {
    TempDir dir;
    ::chmod(dir.path.c_str(), 0700);
    {
        Registration reg;
        BOOST_TEST(!reg.publish((dir.path / "host-1.sock").string(), "editor"));
        reg.update({folder_from_path("/srv/shop")}, "test", "1");
        auto hosts = list_hosts(dir.path.string());
        BOOST_REQUIRE(hosts.size() == 1);
        BOOST_TEST(hosts[0].pid == ::getpid());
        BOOST_TEST(hosts[0].folders.at(0).path == "/srv/shop");
        struct stat st {};
        BOOST_TEST(::stat(hosts[0].file.c_str(), &st) == 0);
        BOOST_TEST((st.st_mode & 0777) == 0600u);
    }
    BOOST_TEST(list_hosts(dir.path.string()).empty());
}

// The waiting count is no disk write on a question's path: it reaches the file on flush() (the
// host's coalescing timer), and a question that came and went before it leaves the file alone.
BOOST_AUTO_TEST_CASE(the_waiting_count_reaches_the_file_only_on_flush) {
    TempDir dir;
    ::chmod(dir.path.c_str(), 0700);
    Registration reg;
    BOOST_TEST(!reg.publish((dir.path / "host-1.sock").string(), "editor"));
    auto inode = [&] {
        struct stat st {};
        return ::stat(reg.record().file.c_str(), &st) == 0 ? st.st_ino : 0;
    };
    auto waiting = [&] {
        auto hosts = list_hosts(dir.path.string());
        return hosts.size() == 1 ? hosts[0].waiting : -1;
    };
    const auto first = inode();
    BOOST_TEST(first != 0u);
    reg.set_waiting(1);
    reg.set_waiting(0);
    reg.flush();
    BOOST_TEST(inode() == first);  // not rewritten (a rewrite renames a new file over it)
    reg.set_waiting(2);
    BOOST_TEST(waiting() == 0);
    BOOST_TEST(inode() == first);
    reg.flush();
    BOOST_TEST(waiting() == 2);
    const auto second = inode();
    BOOST_TEST(second != first);
    reg.flush();
    BOOST_TEST(inode() == second);  // nothing new to write
    reg.set_waiting(0);
    reg.update({folder_from_path("/srv/shop")}, "test", "1");  // another change writes the count too
    BOOST_TEST(waiting() == 0);
}

// The lookups return the folder or host, or the Error that says why not (its message as before).
BOOST_AUTO_TEST_SUITE(lookup_results)

// $XDG_RUNTIME_DIR set to a fresh private folder while the object lives.
struct RuntimeDir {
    TempDir dir;
    test::EnvVar var{"XDG_RUNTIME_DIR", dir.path.c_str()};
};

BOOST_AUTO_TEST_CASE(socket_directory_is_made_private_under_the_runtime_folder) {
    RuntimeDir runtime;
    auto dir = socket_directory();
    BOOST_REQUIRE(dir.has_value());
    BOOST_TEST(*dir == (runtime.dir.path / "askhost").string());
    struct stat st {};
    BOOST_REQUIRE(::stat(dir->c_str(), &st) == 0);
    BOOST_TEST((st.st_mode & 0777) == 0700u);
}

BOOST_AUTO_TEST_CASE(find_host_takes_the_hint_first) {
    auto found = find_host("/anywhere", "/somewhere/host-1.sock");
    BOOST_REQUIRE(found.has_value());
    BOOST_TEST(found->socket == "/somewhere/host-1.sock");
    BOOST_TEST(found->source == "$ASKHOST_SOCKET");
    BOOST_TEST(!found->record.has_value());
}

BOOST_AUTO_TEST_CASE(find_host_says_why_there_is_none) {
    RuntimeDir runtime;
    const std::string registry = (runtime.dir.path / "askhost").string();
    auto found = find_host("/nowhere/at/all", "");
    BOOST_REQUIRE(!found);
    BOOST_TEST(found.error().message ==
               "no askhost has a workspace holding /nowhere/at/all (0 running, registry " + registry + ")");
    BOOST_TEST(found.error().exit_status() == 1);
    // askhost attach's lookup, hosts that only wait included, says the same.
    auto attach = find_host("/nowhere/at/all", "", true);
    BOOST_REQUIRE(!attach);
    BOOST_TEST(attach.error().message == found.error().message);
}

BOOST_AUTO_TEST_CASE(connect_socket_says_why_not) {
    RuntimeDir runtime;
    const std::string path = (runtime.dir.path / "none.sock").string();
    auto fd = connect_socket(path);
    BOOST_REQUIRE(!fd);
    BOOST_TEST(fd.error().message.rfind(path + ": ", 0) == 0u);
    BOOST_TEST(fd.error().path == path);
    auto long_path = connect_socket(std::string(200, 'x'));
    BOOST_REQUIRE(!long_path);
    BOOST_TEST(long_path.error().message == "socket path too long");
}

BOOST_AUTO_TEST_SUITE_END()
