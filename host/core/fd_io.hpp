// Output on file descriptors without <iostream>: its static initialiser builds the standard
// streams and locale in every run, ~0.5 MB resident for nothing in a host that talks JSON on pipes.
#pragma once

#include <array>
#include <cstddef>
#include <limits>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace askhost {

// Writes all of `data` to fd, retrying on EINTR; false if the fd is gone.
bool write_all(int fd, std::string_view data);

// What fd gives until its end or an error, retrying on EINTR. Reading stops once more than `limit`
// bytes have come, and then *over_limit (when given) is set.
std::string read_all(int fd, std::size_t limit = std::numeric_limits<std::size_t>::max(), bool* over_limit = nullptr);

// An std::ostream on a file descriptor, for the few commands that format text with streams
// (askhost answer, questions, history). Built only when such a command runs.
class FdOStream : public std::ostream {
public:
    explicit FdOStream(int fd);
    ~FdOStream() override;

private:
    class Buf : public std::streambuf {
    public:
        explicit Buf(int fd);
        int sync() override;
        int_type overflow(int_type c) override;

    private:
        int fd_;
        std::array<char, 4096> buf_{};
    };
    Buf buf_;
};

}  // namespace askhost
