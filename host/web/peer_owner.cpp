#include "web/peer_owner.hpp"

#include <cstring>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace askhost::web {

namespace {

// An address and port of either family, as sock_diag wants them (network order).
bool copy_endpoint(const sockaddr_storage& at, __be16& port, __be32 (&addr)[4]) {
    if (at.ss_family == AF_INET) {
        const auto& in = reinterpret_cast<const sockaddr_in&>(at);
        port = in.sin_port;
        addr[0] = in.sin_addr.s_addr;
        return true;
    }
    if (at.ss_family == AF_INET6) {
        const auto& in6 = reinterpret_cast<const sockaddr_in6&>(at);
        port = in6.sin6_port;
        std::memcpy(addr, &in6.sin6_addr, sizeof addr);
        return true;
    }
    return false;
}

}  // namespace

std::optional<uid_t> local_peer_uid(int fd) {
    sockaddr_storage local{}, remote{};
    socklen_t len = sizeof local;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) != 0) return std::nullopt;
    len = sizeof remote;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&remote), &len) != 0) return std::nullopt;
    if (local.ss_family != remote.ss_family) return std::nullopt;

    struct {
        nlmsghdr head;
        inet_diag_req_v2 req;
    } ask{};
    ask.head.nlmsg_len = sizeof ask;
    ask.head.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    ask.head.nlmsg_flags = NLM_F_REQUEST;
    ask.req.sdiag_family = static_cast<__u8>(local.ss_family);
    ask.req.sdiag_protocol = IPPROTO_TCP;
    ask.req.idiag_states = ~0U;
    // The peer's socket: its source is our remote end, its destination our local one. A dual-stack
    // listener's IPv4 peer comes as ::ffff:a.b.c.d: the kernel looks such a pair up as IPv4.
    if (!copy_endpoint(remote, ask.req.id.idiag_sport, ask.req.id.idiag_src) ||
        !copy_endpoint(local, ask.req.id.idiag_dport, ask.req.id.idiag_dst))
        return std::nullopt;
    ask.req.id.idiag_cookie[0] = ask.req.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;

    const int nl = ::socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (nl < 0) return std::nullopt;
    const timeval wait{0, 200000};  // the kernel answers at once; never hang the loop on it
    ::setsockopt(nl, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    std::optional<uid_t> out;
    alignas(nlmsghdr) char reply[8192];
    if (::sendto(nl, &ask, sizeof ask, 0, reinterpret_cast<sockaddr*>(&kernel), sizeof kernel) ==
        static_cast<ssize_t>(sizeof ask)) {
        const ssize_t n = ::recv(nl, reply, sizeof reply, 0);
        if (n >= static_cast<ssize_t>(sizeof(nlmsghdr))) {
            const auto* head = reinterpret_cast<const nlmsghdr*>(reply);
            if (NLMSG_OK(head, static_cast<unsigned>(n)) && head->nlmsg_type == SOCK_DIAG_BY_FAMILY &&
                head->nlmsg_len >= NLMSG_LENGTH(sizeof(inet_diag_msg))) {
                const auto* msg = static_cast<const inet_diag_msg*>(NLMSG_DATA(head));
                out = static_cast<uid_t>(msg->idiag_uid);
            }
        }
    }
    ::close(nl);
    return out;
}

}  // namespace askhost::web
