#include "web/name_lookup.hpp"

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>

namespace askhost::web::push {

namespace ip = boost::asio::ip;

// What a lookup's thread shares with its owner: the loop to post to (null once the owner let go)
// and the lookups whose `done` still waits, by number. Only under `mutex`.
struct NameLookups::Mailbox {
    std::mutex mutex;
    boost::asio::io_context* io = nullptr;
    std::map<std::uint64_t, std::function<void(Result<Addresses>)>> waiting;
    std::uint64_t next = 1;
};

Result<Addresses> resolve_blocking(const std::string& host, std::uint16_t port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo* list = nullptr;
    const std::string service = std::to_string(port);
    const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &list);
    if (rc != 0) {
        const std::string why = rc == EAI_SYSTEM ? std::strerror(errno) : ::gai_strerror(rc);
        return Error::failed(host + ": " + why);
    }
    Addresses out;
    for (const addrinfo* a = list; a; a = a->ai_next) {
        if (a->ai_family == AF_INET && a->ai_addrlen >= sizeof(sockaddr_in)) {
            sockaddr_in sin{};
            std::memcpy(&sin, a->ai_addr, sizeof sin);
            out.emplace_back(ip::address_v4(ntohl(sin.sin_addr.s_addr)), port);
        } else if (a->ai_family == AF_INET6 && a->ai_addrlen >= sizeof(sockaddr_in6)) {
            sockaddr_in6 sin6{};
            std::memcpy(&sin6, a->ai_addr, sizeof sin6);
            ip::address_v6::bytes_type bytes;
            std::memcpy(bytes.data(), &sin6.sin6_addr, bytes.size());
            out.emplace_back(ip::address_v6(bytes, sin6.sin6_scope_id), port);
        }
    }
    ::freeaddrinfo(list);
    if (out.empty()) return Error::failed(host + ": no address");
    return out;
}

NameLookups::NameLookups(boost::asio::io_context& io, Resolve resolve, std::size_t most)
    : io_(io), box_(std::make_shared<Mailbox>()), resolve_(std::move(resolve)), most_(most) {
    box_->io = &io;
}

NameLookups::~NameLookups() { abandon(); }

void NameLookups::abandon() {
    std::map<std::uint64_t, std::function<void(Result<Addresses>)>> dropped;
    {
        std::lock_guard<std::mutex> lock(box_->mutex);
        box_->io = nullptr;
        dropped.swap(box_->waiting);
    }
    // `dropped` goes here, outside the lock: what its callbacks hold may take time to let go.
}

void NameLookups::lookup(const std::string& host, std::uint16_t port, std::function<void(Result<Addresses>)> done) {
    boost::system::error_code not_address;
    const ip::address address = ip::make_address(host, not_address);
    if (!not_address) {
        boost::asio::post(io_,
                          [done = std::move(done), at = ip::tcp::endpoint(address, port)] { done(Addresses{at}); });
        return;
    }
    std::uint64_t id = 0;
    {
        std::lock_guard<std::mutex> lock(box_->mutex);
        if (!box_->io) return;  // let go already: nothing is posted to a loop that is going
        if (box_->waiting.size() >= most_) {
            boost::asio::post(io_, [done = std::move(done), n = most_] {
                done(Error::failed(std::to_string(n) + " name lookups are running already"));
            });
            return;
        }
        id = box_->next++;
        box_->waiting.emplace(id, std::move(done));
    }
    try {
        // Detached: nothing ever joins it. It holds the mailbox alone, not its owner.
        std::thread([box = box_, resolve = resolve_, host, port, id] {
            Result<Addresses> found = resolve(host, port);
            std::lock_guard<std::mutex> lock(box->mutex);
            auto it = box->waiting.find(id);
            if (!box->io || it == box->waiting.end()) return;  // abandoned: dropped here
            boost::asio::post(*box->io, [done = std::move(it->second), found = std::move(found)]() mutable {
                done(std::move(found));
            });
            box->waiting.erase(it);
        }).detach();
    } catch (const std::system_error& e) {
        std::function<void(Result<Addresses>)> back;
        {
            std::lock_guard<std::mutex> lock(box_->mutex);
            auto it = box_->waiting.find(id);
            if (it == box_->waiting.end()) return;
            back = std::move(it->second);
            box_->waiting.erase(it);
        }
        boost::asio::post(io_, [back = std::move(back), why = std::string(e.what())] {
            back(Error::failed("no thread to look the name up: " + why));
        });
    }
}

}  // namespace askhost::web::push
