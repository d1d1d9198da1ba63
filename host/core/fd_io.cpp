#include "core/fd_io.hpp"

#include <cerrno>

#include <unistd.h>

namespace askhost {

bool write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

std::string read_all(int fd, std::size_t limit, bool* over_limit) {
    std::string data;
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        data.append(buf, static_cast<std::size_t>(n));
        if (data.size() > limit) {
            if (over_limit) *over_limit = true;
            break;
        }
    }
    return data;
}

FdOStream::Buf::Buf(int fd) : fd_(fd) { setp(buf_.data(), buf_.data() + buf_.size()); }

int FdOStream::Buf::sync() {
    const bool ok = write_all(fd_, std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())));
    setp(buf_.data(), buf_.data() + buf_.size());
    return ok ? 0 : -1;
}

FdOStream::Buf::int_type FdOStream::Buf::overflow(int_type c) {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(c);
        pbump(1);
    }
    return traits_type::not_eof(c);
}

FdOStream::FdOStream(int fd) : std::ostream(nullptr), buf_(fd) { rdbuf(&buf_); }

FdOStream::~FdOStream() { buf_.pubsync(); }

}  // namespace askhost
