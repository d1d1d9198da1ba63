// The pending-questions file as one more place that shows the question while a host of the ask
// service's own waits (host/service): `askhost questions` lists it and `askhost answer` answers it
// (checked at each poll). When the question ends elsewhere, its entries leave the file. The file
// work (the folder's lock, the read, the atomic write with its fsyncs: 1 to 8 ms on a busy disk) is
// done by the writer's thread; the loop only queues it, so the ask/show to the host's clients
// (askhost web's page, askhost attach) and the answer to a client that connects meanwhile never
// wait for the disk.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "core/frontend.hpp"
#include "core/lifetime.hpp"
#include "store/pending_writer.hpp"

namespace askhost {

class PendingRecord final : public Frontend {
public:
    // Where it says what it does; also called from the writer's thread: one write(2) of a line.
    using Log = void (*)(std::string_view);
    PendingRecord(boost::asio::io_context& io, std::string path, std::string session, Log log);

    std::string_view name() const override { return "pending-questions file"; }
    void show(const Ask& ask, Done done) override;
    void withdraw(const std::string& ask_id) override;
    // Answers given with `askhost answer` since the last poll end the question: read, marked used
    // and dropped from the file on the writer's thread, handed to the broker back on the loop.
    void poll();

private:
    // The entries of these questions leave the file.
    void remove(const std::vector<Question>& questions);

    boost::asio::io_context& io_;
    std::string path_;
    std::string session_;
    Log log_;
    std::optional<Ask> current_;
    Done done_;
    bool queued_ = false;   // current_'s entries are queued to the writer (so in the file, or soon)
    bool polling_ = false;  // a poll is queued on the writer
    // What the polls have said (ask id, warning), touched on the writer's thread only.
    std::shared_ptr<std::set<std::string>> said_ = std::make_shared<std::set<std::string>>();
    Lifetime lifetime_;
    store::PendingWriter writer_;  // last: destroyed first, it writes what is queued before the rest goes
};

}  // namespace askhost
