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
