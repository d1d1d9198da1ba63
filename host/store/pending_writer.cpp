#include "store/pending_writer.hpp"

#include <cerrno>
#include <exception>
#include <optional>
#include <system_error>
#include <utility>

#include <unistd.h>

#include "store/fs_util.hpp"

namespace askhost::store {

namespace fs = std::filesystem;

PendingWriter::PendingWriter(fs::path file, Report report) : file_(std::move(file)), report_(std::move(report)) {
    if (!report_) report_ = [](std::string_view) {};
}

PendingWriter::~PendingWriter() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();  // it leaves only with the queue empty
}

void PendingWriter::change(Change change, After after) {
    bool now = false;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back({std::move(change), std::move(after)});
        ++queued_;
        if (!thread_.joinable() && !inline_) {
            try {
                thread_ = std::thread([this] { run(); });
            } catch (const std::system_error&) {  // no thread to be had: the caller does the work
                inline_ = true;
            }
        }
        now = inline_;
    }
    if (now) return apply();
    wake_.notify_one();
}

void PendingWriter::flush() {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::uint64_t upto = queued_;
    applied_.wait(lock, [&] { return done_ >= upto; });
}

std::size_t PendingWriter::writes() {
    std::lock_guard<std::mutex> lock(mutex_);
    return writes_;
}

void PendingWriter::run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return !queue_.empty() || stopping_; });
        if (queue_.empty()) return;  // stopping, with nothing left to write
        lock.unlock();
        apply();
        lock.lock();
    }
}

void PendingWriter::apply() {
    const fs::path dir = file_.has_parent_path() ? file_.parent_path() : fs::path(".");
    Status error = make_dirs(dir, 0700);
    std::optional<DirLock> turn;  // other askhost processes change the file too: one at a time
    if (!error) turn.emplace(dir);
    std::deque<Item> batch;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        batch.swap(queue_);  // taken under the folder's lock: what was queued while waiting for it joins
    }
    bool wrote = false;
    try {
        PendingLoad loaded;
        bool write = false;
        if (!error) {
            loaded = load_pending(file_);
            for (auto& item : batch)
                if (item.change && item.change(loaded)) write = true;
        }
        if (write && loaded.status != PendingLoad::Status::Error) {
            if (!loaded.file.questions.empty()) {
                error = save_pending(file_, loaded.file);
            } else if (::unlink(file_.c_str()) != 0 && errno != ENOENT) {
                error = Error::failed("cannot remove " + file_.string() + ": " + errno_text(errno), file_.string());
            }
            wrote = !error;
        }
    } catch (const std::exception& e) {  // out of memory: the batch is lost, said, and the host goes on
        error = Error::failed(e.what(), file_.string());
    }
    turn.reset();
    if (error) report_("cannot write the pending-questions file: " + error->message);
    for (auto& item : batch)
        if (item.after) item.after();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        done_ += batch.size();
        if (wrote) ++writes_;
    }
    applied_.notify_all();
}

}  // namespace askhost::store
