// What one host run keeps and recalls: the session journal, the pending-questions file (written
// by the print frontend, read back to answer re-asked questions), and --answers.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "core/broker.hpp"
#include "core/error.hpp"
#include "store/journal.hpp"
#include "store/print_frontend.hpp"

namespace askhost::store {

struct SessionStoreOptions {
    std::string session;       // --session; "" makes a new one
    std::string pending_file;  // --pending-file; "" is the default
    std::string answers_json;  // --answers; "" for none
    JournalMode mode = JournalMode::Interactive;
    JournalSync journal_sync = JournalSync::Deferred;
    std::function<void(std::string_view)> log;  // a diagnostic line for the person (stderr)
};

class SessionStore {
public:
    // A usage error (bad --session, --answers not JSON) comes back as a message.
    static Result<std::unique_ptr<SessionStore>> create(SessionStoreOptions opts);
    ~SessionStore();
    SessionStore(const SessionStore&) = delete;
    SessionStore& operator=(const SessionStore&) = delete;

    // Journals every ask and outcome of `broker`; in print mode the pending file is its fallback.
    void attach(Broker& broker, bool print_fallback);
    // Session::Hooks::pre_answer: --answers once, then answers waiting in the pending file.
    std::optional<Outcome> pre_answer(const Ask& ask);

    const std::string& session_id() const { return journal_.session_id(); }
    const std::string& pending_file() const { return pending_file_; }

private:
    explicit SessionStore(SessionStoreOptions opts, const std::string& session_id);
    void journal_ask(const Ask& ask, std::string_view source);
    void journal_outcome(const Ask& ask, const Outcome& outcome, std::string_view source);
    std::optional<Outcome> from_answers_flag(const Ask& ask);
    std::optional<Outcome> from_pending_file(const Ask& ask);
    void warn(const std::string& message);

    SessionStoreOptions opts_;
    std::string pending_file_;
    Journal journal_;
    PrintFrontend print_;
    std::unique_ptr<rapidjson::Document> answers_;                  // --answers until the first ask uses it
    std::vector<std::pair<std::string, std::string>> interrupted_;  // questions_key, run/askId
    unsigned long next_pre_id_ = 1;
    bool journal_warned_ = false;
};

}  // namespace askhost::store
