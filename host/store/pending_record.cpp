#include "store/pending_record.hpp"

#include <algorithm>
#include <memory>

#include <boost/asio/post.hpp>

#include "store/pending_file.hpp"

namespace askhost {

namespace {

void record_log(PendingRecord::Log log, std::string_view m) {
    if (log) log(m);
}

}  // namespace

PendingRecord::PendingRecord(boost::asio::io_context& io, std::string path, std::string session, Log log)
    : io_(io),
      path_(std::move(path)),
      session_(std::move(session)),
      log_(log),
      writer_(path_, [log](std::string_view m) { record_log(log, m); }) {}

void PendingRecord::show(const Ask& ask, Done done) {
    current_ = ask;
    done_ = std::move(done);
    queued_ = false;
    // Queued after this turn of the loop: the ask/show to the host's clients is written first,
    // before the writer's thread wakes to compete with it for a CPU. Posted twice, so that it
    // runs after what this turn posted (the clients' writes).
    boost::asio::post(io_, [this, id = ask.id, token = lifetime_.token()] {
        if (!token) return;
        boost::asio::post(io_, [this, id, token] {
            if (!token || !current_ || current_->id != id || queued_) return;
            queued_ = true;
            writer_.change(
                [ask = *current_, path = writer_.path(), log = log_, session = session_](store::PendingLoad& loaded) {
                    auto err = store::add_pending_ask(path, loaded, ask, session,
                                                      [log](std::string_view m) { record_log(log, m); });
                    if (err) record_log(log, "cannot write the pending-questions file: " + err->message);
                    return !err;
                });
        });
    });
}

void PendingRecord::withdraw(const std::string& ask_id) {
    if (!current_ || current_->id != ask_id) return;
    if (queued_) remove(current_->questions);
    current_.reset();
    done_ = nullptr;
    queued_ = false;
}

void PendingRecord::poll() {
    if (!current_ || !queued_ || polling_) return;
    polling_ = true;
    auto taken = std::make_shared<std::optional<std::vector<Answer>>>();
    writer_.change(
        [questions = current_->questions, permission = current_->permission, taken, path = path_, log = log_,
         said = said_, id = current_->id](store::PendingLoad& loaded) {
            if (loaded.status != store::PendingLoad::Status::Ok) return false;
            std::vector<std::string> warnings;
            auto answers = store::take_answers(loaded.file, questions, warnings, permission);
            // Polled every second: each reason is said once per question set.
            for (const auto& w : warnings)
                if (said->insert(id + '\n' + w).second) record_log(log, path + ": " + w);
            if (!answers) return false;
            std::erase_if(loaded.file.questions, [](const store::PendingQuestion& p) { return p.used; });
            *taken = std::move(answers);
            return true;
        },
        [io = &io_, this, id = current_->id, taken, token = lifetime_.token()] {
            boost::asio::post(*io, [this, id, taken, token] {
                if (!token) return;
                polling_ = false;
                if (!*taken || !current_ || current_->id != id) return;
                record_log(log_, "answered from " + path_);
                auto done = std::move(done_);
                current_.reset();
                queued_ = false;
                done(Outcome::answered(std::move(**taken)));
            });
        });
}

void PendingRecord::remove(const std::vector<Question>& questions) {
    writer_.change([questions](store::PendingLoad& loaded) {
        if (loaded.status != store::PendingLoad::Status::Ok) return false;
        return std::erase_if(loaded.file.questions, [&](const store::PendingQuestion& p) {
                   return std::any_of(questions.begin(), questions.end(),
                                      [&](const Question& q) { return q.question == p.question.question; });
               }) > 0;
    });
}

}  // namespace askhost
