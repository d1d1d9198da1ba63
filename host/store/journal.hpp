// The session journal: append-only JSON lines, one file per session, a record per ask and per
// outcome, each written before the answer is handed back. Format: docs/files.md.
#pragma once

#include "core/error.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/model/outcome.hpp"

namespace askhost::store {

// How the person was reached: the spec's "interactive" | "print" | "rpc".
enum class JournalMode { Interactive, Print, Rpc };
std::string_view journal_mode_name(JournalMode m);

// When a record reaches the disk. Either way it is written (in the kernel: it survives askhost
// being killed) before the answer is handed back.
//   Deferred  a background thread syncs it right after, off the answer's path (the default)
//   Always    fdatasync before the answer is handed back: survives a power cut too, costs a
//             disk flush (about 0.1 ms on an SSD, much more on a disk) per record
enum class JournalSync { Deferred, Always };

// $XDG_STATE_HOME/askhost/sessions, or ~/.local/state/askhost/sessions when XDG_STATE_HOME is
// unset or not absolute. Empty when neither it nor HOME is set.
std::filesystem::path sessions_dir();
std::filesystem::path journal_path(const std::filesystem::path& dir, const std::string& session_id);

// Letters, digits, '.', '_', '-'; 1 to 64 characters; not starting with '.'.
bool valid_session_id(std::string_view id);
// Sortable and readable: "20261121-101502-3fa9".
std::string new_session_id();

// The stable names used in the journal: answered, cancelled, timedOut, connectionLost, pending,
// refused (and "withdrawn", written when the agent took the question back).
std::string_view journal_outcome_name(OutcomeKind k);

// One ask and what became of it, as read back.
struct Exchange {
    std::string run;     // the host run that asked
    std::string ask_id;  // unique within the run
    std::int64_t asked_at = 0;
    std::int64_t finished_at = 0;  // 0 while interrupted
    std::string mode;
    std::string agent;
    std::string source;     // how it was answered without asking: "answers-flag", "pending-file"
    std::string replay_of;  // "run/askId" of the interrupted ask it repeats
    std::vector<Question> questions;
    std::string metadata_json;
    std::string outcome;  // journal_outcome_name, or "" when no outcome was recorded (interrupted)
    std::vector<Answer> answers;
    std::string pending_file;
    std::string detail;  // a cancel reason or a refusal message

    bool interrupted() const { return outcome.empty(); }
    std::string key() const { return run + "/" + ask_id; }
};

struct JournalContents {
    std::vector<Exchange> exchanges;    // in the order they were asked
    std::vector<std::string> warnings;  // torn or unreadable lines, skipped
};

JournalContents parse_journal(std::string_view text);
// A missing file reads as empty; an unreadable one gives one warning.
JournalContents read_journal(const std::filesystem::path& file);

// The journal's JSON for questions and answers, as members "questions" / "answers" of an open object.
void write_questions_json(JsonWriter& w, const std::vector<Question>& questions);
void write_answers_json(JsonWriter& w, const std::vector<Answer>& answers);

// Question texts in order, joined: two asks with the same key ask the same thing.
std::string questions_key(const std::vector<Question>& questions);

class Journal {
public:
    // Nothing touches the disk until the first record (a run that asks nothing leaves no file).
    Journal(std::filesystem::path file, std::string session_id, JournalMode mode,
            JournalSync sync = JournalSync::Deferred);
    ~Journal();
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;

    const std::string& session_id() const { return session_; }
    const std::string& run_id() const { return run_; }
    const std::filesystem::path& path() const { return file_; }

    // Each appends one line (synced as `sync` says). An error is returned (and the record lost),
    // never thrown; a deferred sync that failed is reported by the next record.
    Status record_ask(const Ask& ask, std::string_view source = {}, std::string_view replay_of = {});
    Status record_outcome(const Ask& ask, const Outcome& outcome, std::string_view source = {});
    Status record_withdrawn(const Ask& ask);

private:
    Status append(std::string_view line);  // one record, its newline included
    // The questions of an ask's record_ask, written whole; or written anew when none were kept.
    void write_questions_of(JsonWriter& w, const Ask& ask);

    static constexpr std::size_t kQuestionsKept = 4096;

    std::filesystem::path file_;
    std::string session_;
    std::string run_;
    JournalMode mode_;
    JournalSync sync_;
    int fd_ = -1;
    long long known_end_ = -1;  // the file's size after our last record, -1 when unknown
    struct Syncer;
    std::unique_ptr<Syncer> syncer_;  // started with the first deferred record
    // Each ask's questions as its ask record wrote them (JSON text), until its outcome's record.
    std::unordered_map<std::string, std::string> questions_;
};

}  // namespace askhost::store
