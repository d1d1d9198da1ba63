#define BOOST_TEST_MODULE peer_owner
#include <boost/test/unit_test.hpp>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "web/peer_owner.hpp"

using askhost::web::local_peer_uid;

namespace {

// A socket descriptor closed when the test leaves.
struct Fd {
    int fd = -1;
    explicit Fd(int f) : fd(f) {}
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
};

// A listener on `family`'s any (dual-stack for AF_INET6) or loopback address, on a port the
// kernel picks; nullopt where the family is not there (no IPv6 on this machine).
std::optional<int> listener(int family, bool any, int& port) {
    const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return std::nullopt;
    sockaddr_storage at{};
    socklen_t len = 0;
    if (family == AF_INET) {
        auto& in = reinterpret_cast<sockaddr_in&>(at);
        in.sin_family = AF_INET;
        in.sin_addr.s_addr = htonl(any ? INADDR_ANY : INADDR_LOOPBACK);
        len = sizeof in;
    } else {
        const int off = 0;  // dual-stack: IPv4 peers arrive as ::ffff:a.b.c.d
        ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
        auto& in6 = reinterpret_cast<sockaddr_in6&>(at);
        in6.sin6_family = AF_INET6;
        in6.sin6_addr = any ? in6addr_any : in6addr_loopback;
        len = sizeof in6;
    }
    if (::bind(fd, reinterpret_cast<sockaddr*>(&at), len) != 0 || ::listen(fd, 4) != 0) {
        ::close(fd);
        return std::nullopt;
    }
    len = sizeof at;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&at), &len);
    port = ntohs(family == AF_INET ? reinterpret_cast<sockaddr_in&>(at).sin_port
                                   : reinterpret_cast<sockaddr_in6&>(at).sin6_port);
    return fd;
}

// A client of `family` connected to loopback:port; -1 when it cannot be.
int connect_to(int family, int port) {
    const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    sockaddr_storage at{};
    socklen_t len = 0;
    if (family == AF_INET) {
        auto& in = reinterpret_cast<sockaddr_in&>(at);
        in.sin_family = AF_INET;
        in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        in.sin_port = htons(static_cast<std::uint16_t>(port));
        len = sizeof in;
    } else {
        auto& in6 = reinterpret_cast<sockaddr_in6&>(at);
        in6.sin6_family = AF_INET6;
        in6.sin6_addr = in6addr_loopback;
        in6.sin6_port = htons(static_cast<std::uint16_t>(port));
        len = sizeof in6;
    }
    if (::connect(fd, reinterpret_cast<sockaddr*>(&at), len) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// The uid local_peer_uid finds for a client of `client_family` on a listener of `family`.
void check_owner(int family, bool any, int client_family, const char* what) {
    int port = 0;
    auto l = listener(family, any, port);
    if (!l) {
        BOOST_TEST_MESSAGE(std::string("skipped, no such listener here: ") + what);
        return;
    }
    Fd server(*l);
    Fd client(connect_to(client_family, port));
    BOOST_REQUIRE_MESSAGE(client.fd >= 0, what << ": connect: " << std::strerror(errno));
    Fd accepted(::accept4(server.fd, nullptr, nullptr, SOCK_CLOEXEC));
    BOOST_REQUIRE_MESSAGE(accepted.fd >= 0, what << ": accept: " << std::strerror(errno));
    const auto uid = local_peer_uid(accepted.fd);
    BOOST_TEST_REQUIRE(uid.has_value(), what << ": the kernel names the peer's owner");
    BOOST_TEST(*uid == ::geteuid(), what);
}

}  // namespace

BOOST_AUTO_TEST_CASE(ipv4_loopback_peer) { check_owner(AF_INET, false, AF_INET, "127.0.0.1 to 127.0.0.1"); }

BOOST_AUTO_TEST_CASE(ipv6_loopback_peer) { check_owner(AF_INET6, false, AF_INET6, "::1 to ::1"); }

// askhost web --listen '[::]:PORT': an IPv4 page comes as ::ffff:127.0.0.1 and its socket is an
// AF_INET one; sock_diag asked with the mapped pair looks it up as IPv4 (inet_diag_find_one_icsk).
BOOST_AUTO_TEST_CASE(ipv4_peer_of_a_dual_stack_listener) {
    check_owner(AF_INET6, true, AF_INET, "127.0.0.1 to a dual-stack ::");
}

BOOST_AUTO_TEST_CASE(not_a_connected_socket) {
    Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    BOOST_TEST(!local_peer_uid(fd.fd).has_value());
    BOOST_TEST(!local_peer_uid(-1).has_value());
}
