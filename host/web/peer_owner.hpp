// Who is at the other end of a TCP connection that comes over this machine's loopback: the uid
// that owns the peer's socket, asked of the kernel (NETLINK_SOCK_DIAG). Every local user reaches
// askhost web from the same address; their uids tell them apart, so that one user's guesses do not
// make another's wait.
#pragma once

#include <optional>

#include <sys/types.h>

namespace askhost::web {

// The owner of the peer socket of connected TCP socket `fd` when both ends are on this machine,
// else (or when the kernel does not say) nullopt.
std::optional<uid_t> local_peer_uid(int fd);

}  // namespace askhost::web
