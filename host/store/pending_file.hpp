// The pending-questions file: questions nobody could answer yet, and the answers given later.
// Format (docs/files.md): {version, sessionId, timestamp, agent, howToAnswer, questions: [{question,
// header, options: [labels], descriptions: {label: text}, multiSelect, permission?, answer,
// selectedOption?, used, sessionId?}], metadata}. Written atomically; read tolerantly (hand edits, the spec's shorter shape).
#pragma once

#include "core/error.hpp"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/outcome.hpp"
#include "store/answer_spec.hpp"

namespace askhost::store {

inline constexpr const char* default_pending_file = ".askhost/pending-questions.json";

struct PendingQuestion {
    Question question;
    std::optional<AnswerSpec> answer;  // nullopt: "answer": null
    // A tool permission asked by this question (its whole command, the options' meanings): an
    // answer is for this permission only. Absent in files from before askhost kept it.
    std::optional<Permission> permission;
    std::optional<std::string> selected_option;  // a hand edit's: must agree with the answer
    bool used = false;                           // the answer was handed to the agent
    std::string session_id;                      // the asking session, when it differs from the file's
};

struct PendingFile {
    std::string session_id;
    std::string timestamp;  // ISO 8601 UTC of the last change by askhost
    std::string agent;
    std::string metadata_json;  // "" or an object: the latest ask's metadata
    std::vector<PendingQuestion> questions;

    // Questions not yet handed to the agent (the ones `askhost answer` addresses), in file order.
    std::vector<std::size_t> open() const;
    PendingQuestion* find(std::string_view question_text);
};

// Parse errors name the field: "questions[1].answer: expected ...", or "line 4, column 9: ...".
Result<PendingFile> parse_pending(std::string_view text);
std::string serialize_pending(const PendingFile& file);

struct PendingLoad {
    enum class Status { Ok, Missing, Error } status = Status::Ok;
    PendingFile file;
    std::string error;  // names the file
};
PendingLoad load_pending(const std::filesystem::path& path);
// Atomic replace, mode 0600, parent directories created 0700.
Status save_pending(const std::filesystem::path& path, const PendingFile& file);
// A file that does not parse is the person's work: moved aside to PATH.broken-<ms> (said through
// `log`) and `loaded` made a new, empty file; an error when it cannot be moved.
Status set_aside_broken(const std::filesystem::path& path, PendingLoad& loaded,
                        const std::function<void(std::string_view)>& log);

// Adds an ask's questions: used entries are dropped (they were consumed); an entry with the same
// question text is refreshed (options, header, permission) and keeps an answer it already has,
// unless the entry was for another permission (another command under the same wording): then
// the answer was not given for this one and is dropped.
void add_ask(PendingFile& file, const Ask& ask, const std::string& session_id, const std::string& timestamp);
// The ask added to the file as loaded from `path`, asked now: a file that does not parse set aside
// first (set_aside_broken), an error when it cannot be. What the print frontend and the ask
// service's record (pending_record.hpp) both do before the file is saved.
Status add_pending_ask(const std::filesystem::path& path, PendingLoad& loaded, const Ask& ask,
                       const std::string& session_id, const std::function<void(std::string_view)>& log);

// When every question of `questions` has an unused, valid answer in the file (matched by question
// text): the answers in `questions` order, and those entries marked used. Otherwise nullopt and
// the file untouched; answers that do not fit their question are reported in `warnings`. The
// ask's `permission` (of its one question) must be the entry's: an answer given for another
// command, or before the file kept the command, is no answer to this one. A permission's answer
// is taken only when `permission_answers` says its source is the person (--answers): the pending
// file is writable by the agent itself, so a permission found answered there stays pending for a
// face, and `warnings` says why (issue 45).
std::optional<std::vector<Answer>> take_answers(PendingFile& file, const std::vector<Question>& questions,
                                                std::vector<std::string>& warnings,
                                                const std::optional<Permission>& permission = std::nullopt,
                                                bool permission_answers = false);

// Answering the file from a person's input (askhost answer): a JSON array in open-question order
// (null keeps an answer as it is), an object {"question text": answer}, a pending-file-shaped
// object with "questions" [{question, answer, selectedOption?}] (or a result-shaped one with
// "answers" [{question, answer, selectedOption?, wasCustom?}]: a selectedOption or wasCustom
// that disagrees with its answer is refused), or one value when one question is open.
// A tool permission is refused (it is answered in a face: the file's answer is not taken for it).
// All or nothing: on any error the file is left as it was and every error is listed.
struct AnswerResult {
    std::vector<std::size_t> changed;  // indices into file.questions
    std::vector<std::string> errors;
    std::vector<std::string> understood;  // apply_text: how each changed answer was read, in `changed` order
};
AnswerResult apply_answers(PendingFile& file, const rapidjson::Value& input);
// Free text (--text), the person's own words, read for each open question without an answer
// (read_text_answer): the options a part names, the part that answers it, nothing when no words
// are left for it (it stays open), or where that is not clear the whole text, given once: the
// first such question gets it, the others answer `(see my answer to "FIRST")`.
AnswerResult apply_text(PendingFile& file, std::string_view text);

}  // namespace askhost::store
