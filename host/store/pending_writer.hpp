// The pending-questions file written off the event loop (issue 32: nothing on disk in a
// question's path). The loop queues changes of the file; a thread of the writer's own applies
// them in order: the folder's lock, the file read, every change queued so far, then one atomic
// write (store::atomic_write: temporary file, fsync, rename, fsync of the folder), or the file
// removed when no question is left in it. Changes queued while the thread works share its next
// write. The destructor applies everything queued before it returns, so a host that ends (at its
// end of input or on a signal) loses no question and no answer.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string_view>
#include <thread>

#include "store/pending_file.hpp"

namespace askhost::store {

class PendingWriter {
public:
    // A change of the file as read (Missing: no file yet, an empty one to add to; Error: a file
    // that does not parse, never written over). Runs on the writer's thread, under the folder's
    // lock; true when the file is to be written.
    using Change = std::function<bool(PendingLoad& file)>;
    // Runs on the writer's thread once the write that carried its change is done (or failed).
    using After = std::function<void()>;
    // A failure, in a line that names the file; called on the writer's thread.
    using Report = std::function<void(std::string_view)>;

    PendingWriter(std::filesystem::path file, Report report);
    ~PendingWriter();
    PendingWriter(const PendingWriter&) = delete;
    PendingWriter& operator=(const PendingWriter&) = delete;

    const std::filesystem::path& path() const { return file_; }

    // Queues a change (and what to do after it); returns at once.
    void change(Change change, After after = nullptr);
    // Waits until every change queued so far is applied.
    void flush();
    // How many times the file was written or removed so far.
    std::size_t writes();

private:
    struct Item {
        Change change;
        After after;
    };
    void run();
    void apply();  // one batch: everything queued when the folder's lock is had

    std::filesystem::path file_;
    Report report_;
    std::mutex mutex_;
    std::condition_variable wake_, applied_;
    std::deque<Item> queue_;
    std::uint64_t queued_ = 0, done_ = 0;
    std::size_t writes_ = 0;
    bool stopping_ = false;
    bool inline_ = false;  // no thread could be started: changes are applied where they are queued
    std::thread thread_;   // started with the first change
};

}  // namespace askhost::store
