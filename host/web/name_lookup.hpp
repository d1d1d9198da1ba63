// Looking a push service's name up without anyone ever waiting for it. getaddrinfo blocks (a dead
// DNS server: seconds, tens of them), and Asio's resolver runs it on a thread that its io_context
// joins when it goes, so stopping askhost web waited for a lookup in progress. Here each lookup
// runs on a detached thread that holds nothing of its owner but a shared mailbox: the result is
// posted to the owner's loop while the owner lives, and dropped where it lands once it is gone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "core/error.hpp"

namespace askhost::web::push {

using Addresses = std::vector<boost::asio::ip::tcp::endpoint>;
// A lookup as the thread runs it, blocking: getaddrinfo (resolve_blocking), or a test's stand-in.
using Resolve = std::function<Result<Addresses>(const std::string& host, std::uint16_t port)>;

// getaddrinfo for a TCP service on `port`: every address the name has, or why none.
Result<Addresses> resolve_blocking(const std::string& host, std::uint16_t port);

class NameLookups {
public:
    // `done` of each lookup runs on `io`. At most `most` lookups run at once.
    explicit NameLookups(boost::asio::io_context& io, Resolve resolve = resolve_blocking, std::size_t most = 8);
    ~NameLookups();  // abandon()
    NameLookups(const NameLookups&) = delete;
    NameLookups& operator=(const NameLookups&) = delete;

    // The addresses of `host`, to `done` on the loop. An address is not looked up. When `most`
    // lookups run already, or no thread can be started, `done` hears why (a failure that passes).
    void lookup(const std::string& host, std::uint16_t port, std::function<void(Result<Addresses>)> done);

    // Every lookup still running is let go, never waited for: its `done` is destroyed here (on the
    // caller's thread) and never runs. The owner calls it before its loop goes.
    void abandon();

    struct Mailbox;

private:
    boost::asio::io_context& io_;
    std::shared_ptr<Mailbox> box_;
    Resolve resolve_;
    std::size_t most_;
};

}  // namespace askhost::web::push
