#include "store/session_store.hpp"

#include <algorithm>

#include <sys/stat.h>

#include "json/json_access.hpp"
#include "store/fs_util.hpp"
#include "store/pending_file.hpp"

namespace askhost::store {

namespace fs = std::filesystem;

Result<std::unique_ptr<SessionStore>> SessionStore::create(SessionStoreOptions opts) {
    std::string id = opts.session;
    std::string continued;
    if (id.empty()) {
        // Answers waiting in the pending file mean this run continues the session that asked them.
        const std::string pf = opts.pending_file.empty() ? std::string(default_pending_file) : opts.pending_file;
        std::error_code ec;
        if (fs::exists(pf, ec)) {
            auto loaded = load_pending(pf);
            const auto& f = loaded.file;
            bool waiting = std::any_of(f.questions.begin(), f.questions.end(),
                                       [](const PendingQuestion& q) { return !q.used && q.answer; });
            if (loaded.status == PendingLoad::Status::Ok && waiting && valid_session_id(f.session_id))
                continued = id = f.session_id;
        }
        if (id.empty()) id = new_session_id();
    } else if (!valid_session_id(id)) {
        return Error::usage("--session: '" + id + "' is not a session id (letters, digits, '.', '_', '-'; at most 64)");
    }
    std::unique_ptr<rapidjson::Document> answers;
    if (!opts.answers_json.empty()) {
        answers = std::make_unique<rapidjson::Document>();
        if (auto e = json::parse(*answers, opts.answers_json))
            return Error::usage("--answers: " + std::string(e->too_deep ? "refused" : "not valid") + " JSON at " +
                                line_column(opts.answers_json, e->offset) + ": " + e->message +
                                " (give a JSON array, e.g. '[\"SQLite\", \"my-service\"]')");
    }
    if (!opts.log) opts.log = [](std::string_view) {};
    std::unique_ptr<SessionStore> store(new SessionStore(std::move(opts), id));
    store->answers_ = std::move(answers);
    // Asks of an earlier run that never got an outcome (killed, or its agent went away mid-question):
    // when asked again, they are replays.
    if (!continued.empty()) store->opts_.session = continued;
    if (!store->opts_.session.empty()) {
        auto contents = read_journal(store->journal_.path());
        for (const auto& w : contents.warnings) store->warn(store->journal_.path().string() + ": " + w);
        for (const auto& e : contents.exchanges)
            if (e.interrupted() || e.outcome == "withdrawn")
                store->interrupted_.emplace_back(questions_key(e.questions), e.key());
    }
    return store;
}

SessionStore::SessionStore(SessionStoreOptions opts, const std::string& session_id)
    : opts_(std::move(opts)),
      pending_file_(opts_.pending_file.empty() ? std::string(default_pending_file) : opts_.pending_file),
      journal_(journal_path(sessions_dir(), session_id), session_id, opts_.mode, opts_.journal_sync),
      print_(pending_file_, session_id, [this](std::string_view m) { opts_.log(m); }) {}

SessionStore::~SessionStore() = default;

void SessionStore::warn(const std::string& message) { opts_.log(message); }

void SessionStore::attach(Broker& broker, bool print_fallback) {
    auto prev_submit = broker.on_submit;
    broker.on_submit = [this, prev_submit](const Ask& ask) {
        journal_ask(ask, {});
        if (prev_submit) prev_submit(ask);
    };
    auto prev_outcome = broker.on_outcome;
    broker.on_outcome = [this, prev_outcome](const Ask& ask, const Outcome& outcome) {
        journal_outcome(ask, outcome, {});
        if (prev_outcome) prev_outcome(ask, outcome);
    };
    auto prev_withdrawn = broker.on_withdrawn;
    broker.on_withdrawn = [this, prev_withdrawn](const Ask& ask) {
        if (auto err = journal_.record_withdrawn(ask); err && !journal_warned_) {
            journal_warned_ = true;
            warn("session journal: " + err->message);
        }
        if (prev_withdrawn) prev_withdrawn(ask);
    };
    if (print_fallback) broker.set_fallback(&print_);
}

void SessionStore::journal_ask(const Ask& ask, std::string_view source) {
    std::string replay_of;
    // Almost always nothing was interrupted: no key to make then.
    const std::string key = interrupted_.empty() ? std::string() : questions_key(ask.questions);
    auto it = std::find_if(interrupted_.begin(), interrupted_.end(), [&](const auto& p) { return p.first == key; });
    if (it != interrupted_.end()) {
        replay_of = it->second;
        interrupted_.erase(it);
        warn("asking again what an earlier run was asking when it stopped (" + replay_of + ")");
    }
    if (auto err = journal_.record_ask(ask, source, replay_of); err && !journal_warned_) {
        journal_warned_ = true;
        warn("session journal: " + err->message);
    }
}

void SessionStore::journal_outcome(const Ask& ask, const Outcome& outcome, std::string_view source) {
    if (auto err = journal_.record_outcome(ask, outcome, source); err && !journal_warned_) {
        journal_warned_ = true;
        warn("session journal: " + err->message);
    }
}

std::optional<Outcome> SessionStore::pre_answer(const Ask& ask) {
    if (auto o = from_answers_flag(ask)) return o;
    return from_pending_file(ask);
}

std::optional<Outcome> SessionStore::from_answers_flag(const Ask& in) {
    if (!answers_) return std::nullopt;
    auto doc = std::move(answers_);  // the next question set only, whether it fits or not
    PendingFile scratch;
    add_ask(scratch, in, journal_.session_id(), {});
    auto res = apply_answers(scratch, *doc);
    for (const auto& e : res.errors) warn("--answers: " + e);
    if (!res.errors.empty()) {
        warn("--answers does not fit these questions; asking instead");
        return std::nullopt;
    }
    std::vector<std::string> warnings;
    auto answers = take_answers(scratch, in.questions, warnings, in.permission, /*permission_answers=*/true);
    for (const auto& w : warnings) warn("--answers: " + w);
    if (!answers) {
        warn("--answers leaves a question unanswered; asking instead");
        return std::nullopt;
    }
    Ask ask = in;
    ask.id = "pre-" + std::to_string(next_pre_id_++);
    journal_ask(ask, "answers-flag");
    Outcome o = Outcome::answered(std::move(*answers));
    journal_outcome(ask, o, "answers-flag");
    return o;
}

std::optional<Outcome> SessionStore::from_pending_file(const Ask& in) {
    // Asked on every question and almost always absent: one stat, before any path is built.
    struct stat st {};
    if (::stat(pending_file_.c_str(), &st) != 0) return std::nullopt;
    const fs::path path(pending_file_);
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    DirLock lock(dir);
    auto loaded = load_pending(path);
    if (loaded.status == PendingLoad::Status::Missing) return std::nullopt;
    if (loaded.status == PendingLoad::Status::Error) {
        warn(loaded.error + " (not used to answer; fix it, or: askhost questions clear)");
        return std::nullopt;
    }
    std::vector<std::string> warnings;
    auto answers = take_answers(loaded.file, in.questions, warnings, in.permission);
    for (const auto& w : warnings) warn(pending_file_ + ": " + w);
    if (!answers) return std::nullopt;
    Ask ask = in;
    ask.id = "pre-" + std::to_string(next_pre_id_++);
    journal_ask(ask, "pending-file");
    Outcome o = Outcome::answered(std::move(*answers));
    // Journal first: if we die before marking them used, the answers are only offered again.
    journal_outcome(ask, o, "pending-file");
    loaded.file.timestamp = iso8601_utc(now_ms());
    if (auto err = save_pending(path, loaded.file))
        warn("cannot mark the answers used in " + pending_file_ + ": " + err->message);
    const std::size_t n = in.questions.size();
    warn("answered " + std::to_string(n) + (n == 1 ? " question" : " questions") + " from " + pending_file_);
    return o;
}

}  // namespace askhost::store
