#include "store/journal.hpp"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rapidjson/document.h>

#include "json/json_access.hpp"
#include "store/fs_util.hpp"

namespace askhost::store {

namespace fs = std::filesystem;

std::string_view journal_mode_name(JournalMode m) {
    switch (m) {
        case JournalMode::Interactive: return "interactive";
        case JournalMode::Print: return "print";
        case JournalMode::Rpc: return "rpc";
    }
    return "interactive";
}

std::string_view journal_outcome_name(OutcomeKind k) { return outcome_kind_name(k); }

fs::path sessions_dir() {
    const char* xdg = std::getenv("XDG_STATE_HOME");
    if (xdg && xdg[0] == '/') return fs::path(xdg) / "askhost" / "sessions";
    const char* home = std::getenv("HOME");
    if (home && home[0] == '/') return fs::path(home) / ".local" / "state" / "askhost" / "sessions";
    return {};
}

// No folder (neither XDG_STATE_HOME nor HOME) is no journal, never one relative to the working directory.
fs::path journal_path(const fs::path& dir, const std::string& session_id) {
    if (dir.empty()) return {};
    return dir / (session_id + ".jsonl");
}

bool valid_session_id(std::string_view id) {
    if (id.empty() || id.size() > 64 || id.front() == '.') return false;
    for (char c : id) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                  c == '-';
        if (!ok) return false;
    }
    return true;
}

namespace {

std::string random_hex(int digits) {
    static const char* hex = "0123456789abcdef";
    std::random_device rd;
    std::string out;
    for (int i = 0; i < digits; ++i) out.push_back(hex[rd() % 16]);
    return out;
}

}  // namespace

std::string new_session_id() {
    std::time_t t = std::time(nullptr);
    struct tm tm {};
    ::gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
    return std::string(buf) + "-" + random_hex(4);
}

std::string questions_key(const std::vector<Question>& questions) {
    std::string key;
    for (const auto& q : questions) {
        key += q.question;
        key.push_back('\x1f');
    }
    return key;
}

// ---- writing ----

namespace {

void write_str(JsonWriter& w, std::string_view s) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }

void write_member(JsonWriter& w, const char* key, std::string_view s) {
    w.Key(key);
    write_str(w, s);
}

// The member only when s is not empty: a record leaves out what its ask does not have.
void write_if_any(JsonWriter& w, const char* key, std::string_view s) {
    if (!s.empty()) write_member(w, key, s);
}

// The questions as a JSON array.
void write_question_list(JsonWriter& w, const std::vector<Question>& qs) {
    w.StartArray();
    for (const Question& q : qs) {
        w.StartObject();
        write_member(w, "question", q.question);
        write_if_any(w, "header", q.header);
        if (!q.options.empty()) {
            json::write_objects(w, "options", q.options, [&w](const Option& o) {
                write_member(w, "label", o.label);
                write_if_any(w, "description", o.description);
                if (o.preview) write_member(w, "preview", *o.preview);
            });
        }
        w.Key("multiSelect");
        w.Bool(q.multi_select);
        w.EndObject();
    }
    w.EndArray();
}

void write_questions(JsonWriter& w, const std::vector<Question>& qs) {
    w.Key("questions");
    write_question_list(w, qs);
}

void write_answers(JsonWriter& w, const std::vector<Answer>& answers) {
    json::write_objects(w, "answers", answers, [&w](const Answer& a) {
        write_member(w, "question", a.question);
        w.Key("answer");
        if (a.multi) {
            w.StartArray();
            for (const auto& v : a.values) write_str(w, v);
            w.EndArray();
        } else {
            write_str(w, a.values.empty() ? std::string_view() : std::string_view(a.values.front()));
        }
        if (a.selected_option) write_member(w, "selectedOption", *a.selected_option);
        w.Key("wasCustom");
        w.Bool(a.was_custom);
        write_if_any(w, "preview", a.preview);
        write_if_any(w, "notes", a.notes);
    });
}

// The questions array as JSON text, for a record to copy whole.
std::string questions_text(const std::vector<Question>& qs) {
    rapidjson::StringBuffer buf(json::stack_allocator(), 1024);
    JsonWriter w(buf);
    write_question_list(w, qs);
    return std::string(buf.GetString(), buf.GetSize());
}

void write_raw_questions(JsonWriter& w, const std::string& text) {
    w.Key("questions");
    w.RawValue(text.data(), text.size(), rapidjson::kArrayType);
}

void write_metadata(JsonWriter& w, const std::string& metadata_json) {
    if (metadata_json.empty()) return;
    w.Key("metadata");
    w.RawValue(metadata_json.data(), metadata_json.size(), rapidjson::kObjectType);
}

}  // namespace

void write_questions_json(JsonWriter& w, const std::vector<Question>& questions) { write_questions(w, questions); }
void write_answers_json(JsonWriter& w, const std::vector<Answer>& answers) { write_answers(w, answers); }

// Syncs the journal's file off the event loop. A record wakes it when it is idle; it syncs, then
// gathers for kGather: records written meanwhile share its next sync, so a burst of answers costs
// one flush and one wake-up per kGather, not one each. It only ever calls fdatasync on a
// descriptor that stays open until it has been joined.
struct Journal::Syncer {
    static constexpr std::chrono::milliseconds kGather{10};

    explicit Syncer(int fd) : fd(fd), thread([this] { run(); }) {}

    ~Syncer() {
        {
            std::lock_guard<std::mutex> lock(mutex);
            stopping = true;
        }
        wake.notify_one();
        thread.join();  // after its last sync: nothing written is left unsynced
    }

    void written() {
        bool notify = false;
        {
            std::lock_guard<std::mutex> lock(mutex);
            dirty = true;
            notify = idle;
        }
        if (notify) wake.notify_one();
    }

    std::optional<std::string> take_error() {
        std::lock_guard<std::mutex> lock(mutex);
        auto e = std::move(error);
        error.reset();
        return e;
    }

    void run() {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;) {
            idle = true;
            wake.wait(lock, [this] { return dirty || stopping; });
            idle = false;
            while (dirty) {
                dirty = false;
                lock.unlock();
                const int rc = ::fdatasync(fd);
                const int err = errno;
                lock.lock();
                if (rc != 0 && !error) error = errno_text(err);
                if (!stopping) wake.wait_for(lock, kGather, [this] { return stopping; });
            }
            if (stopping) return;
        }
    }

    const int fd;
    std::mutex mutex;
    std::condition_variable wake;
    bool dirty = false, stopping = false, idle = false;
    std::optional<std::string> error;
    std::thread thread;  // last: started once the rest is ready
};

Journal::Journal(fs::path file, std::string session_id, JournalMode mode, JournalSync sync)
    : file_(std::move(file)), session_(std::move(session_id)), run_(random_hex(8)), mode_(mode), sync_(sync) {}

Journal::~Journal() {
    syncer_.reset();
    if (fd_ >= 0) ::close(fd_);
}

Status Journal::append(std::string_view line) {
    if (fd_ < 0) {
        if (file_.empty()) return Error::failed("no state directory: set XDG_STATE_HOME or HOME");
        if (auto err = make_dirs(file_.parent_path(), 0700)) return err;
        fd_ = ::open(file_.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);  // read: the last byte
        if (fd_ < 0) return Error::failed("cannot open " + file_.string() + ": " + errno_text(errno), file_.string());
    }
    // Two hosts may share a session (--session): one writer at a time keeps lines whole.
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {}
    // A torn line left by a crash must not swallow this record: end it first.
    // (When the file ends where our last record did, that record's newline is its last byte.)
    struct stat st {};
    const bool sized = ::fstat(fd_, &st) == 0;
    std::string ended;  // the record after a newline that ends a torn line
    if (sized && st.st_size > 0 && st.st_size != known_end_) {
        char last = '\n';
        if (::pread(fd_, &last, 1, st.st_size - 1) == 1 && last != '\n') {
            ended.reserve(line.size() + 1);
            ended += '\n';
            ended += line;
            line = ended;
        }
    }
    std::string_view rest = line;
    Status error;
    while (!rest.empty()) {
        ssize_t n = ::write(fd_, rest.data(), rest.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            error = Error::failed("cannot write " + file_.string() + ": " + errno_text(errno), file_.string());
            break;
        }
        rest.remove_prefix(static_cast<std::size_t>(n));
    }
    known_end_ = sized && !error ? st.st_size + static_cast<off_t>(line.size()) : -1;
    if (!error && sync_ == JournalSync::Always && ::fdatasync(fd_) != 0)
        error = Error::failed("cannot sync " + file_.string() + ": " + errno_text(errno), file_.string());
    ::flock(fd_, LOCK_UN);
    if (!error && sync_ == JournalSync::Deferred) {
        if (!syncer_) {
            try {
                syncer_ = std::make_unique<Syncer>(fd_);
            } catch (const std::exception&) {  // no thread to be had: sync here, as Always does
                sync_ = JournalSync::Always;
                if (::fdatasync(fd_) != 0)
                    return Error::failed("cannot sync " + file_.string() + ": " + errno_text(errno), file_.string());
                return error;
            }
        }
        if (auto e = syncer_->take_error())
            error = Error::failed("cannot sync " + file_.string() + ": " + *e, file_.string());
        syncer_->written();
    }
    return error;
}

Status Journal::record_ask(const Ask& ask, std::string_view source, std::string_view replay_of) {
    // The questions' text is kept for the ask's outcome record, which writes them again.
    std::string questions = questions_text(ask.questions);
    rapidjson::StringBuffer buf(json::stack_allocator(), 2048);
    JsonWriter w(buf);
    w.StartObject();
    w.Key("type");
    w.String("ask");
    w.Key("session");
    write_str(w, session_);
    w.Key("run");
    write_str(w, run_);
    w.Key("askId");
    write_str(w, ask.id);
    w.Key("at");
    w.Int64(now_ms());
    w.Key("mode");
    write_str(w, journal_mode_name(mode_));
    w.Key("agent");
    write_str(w, ask.agent);
    if (!source.empty()) {
        w.Key("source");
        write_str(w, source);
    }
    if (!replay_of.empty()) {
        w.Key("replayOf");
        write_str(w, replay_of);
    }
    write_raw_questions(w, questions);
    if (ask.permission) {  // what the person was shown, whole: the command, its reason, the options' meanings
        w.Key("permission");
        write_permission(w, *ask.permission);
    }
    write_metadata(w, ask.metadata_json);
    w.EndObject();
    buf.Put('\n');
    Status error = append(std::string_view(buf.GetString(), buf.GetSize()));
    // Bounded: an ask whose outcome never comes (the run ended) leaves its text behind.
    if (questions_.size() >= kQuestionsKept) questions_.clear();
    questions_.insert_or_assign(ask.id, std::move(questions));
    return error;
}

void Journal::write_questions_of(JsonWriter& w, const Ask& ask) {
    const auto it = questions_.find(ask.id);
    if (it == questions_.end()) return write_questions(w, ask.questions);
    write_raw_questions(w, it->second);
    questions_.erase(it);
}

namespace {

void outcome_head(JsonWriter& w, const std::string& session, const std::string& run, const Ask& ask,
                  std::string_view mode, std::string_view kind, std::int64_t at) {
    w.StartObject();
    w.Key("type");
    w.String("outcome");
    w.Key("session");
    write_str(w, session);
    w.Key("run");
    write_str(w, run);
    w.Key("askId");
    write_str(w, ask.id);
    w.Key("at");
    w.Int64(at);
    w.Key("mode");
    write_str(w, mode);
    w.Key("agent");
    write_str(w, ask.agent);
    w.Key("outcome");
    write_str(w, kind);
}

}  // namespace

Status Journal::record_outcome(const Ask& ask, const Outcome& o, std::string_view source) {
    rapidjson::StringBuffer buf(json::stack_allocator(), 2048);
    JsonWriter w(buf);
    const std::int64_t at = now_ms();
    outcome_head(w, session_, run_, ask, journal_mode_name(mode_), journal_outcome_name(o.kind), at);
    if (!source.empty()) {
        w.Key("source");
        write_str(w, source);
    }
    // Self-contained, like the spec's stored details: {questions, answers, answeredAt, mode, metadata}.
    write_questions_of(w, ask);
    if (o.kind == OutcomeKind::Answered) {
        write_answers(w, o.answers);
        w.Key("answeredAt");
        w.Int64(at);
    }
    if (o.kind == OutcomeKind::Pending) {
        w.Key("pendingFile");
        write_str(w, o.pending_file);
    }
    if (o.kind == OutcomeKind::Cancelled && !o.reason.empty()) {
        w.Key("reason");
        write_str(w, o.reason);
    }
    if (o.kind == OutcomeKind::Refused) {
        w.Key("error");
        w.StartObject();
        w.Key("code");
        write_str(w, o.error.code);
        w.Key("path");
        write_str(w, o.error.path);
        w.Key("message");
        write_str(w, o.error.message);
        w.EndObject();
    }
    write_metadata(w, ask.metadata_json);
    w.EndObject();
    buf.Put('\n');
    return append(std::string_view(buf.GetString(), buf.GetSize()));
}

Status Journal::record_withdrawn(const Ask& ask) {
    rapidjson::StringBuffer buf(json::stack_allocator(), 2048);
    JsonWriter w(buf);
    outcome_head(w, session_, run_, ask, journal_mode_name(mode_), "withdrawn", now_ms());
    write_questions_of(w, ask);
    write_metadata(w, ask.metadata_json);
    w.EndObject();
    buf.Put('\n');
    return append(std::string_view(buf.GetString(), buf.GetSize()));
}

// ---- reading ----

namespace {

std::string get_str(const rapidjson::Value& o, const char* key) { return json::string_of(o, key); }

std::int64_t get_ms(const rapidjson::Value& o, const char* key) {
    auto it = o.FindMember(key);
    if (it == o.MemberEnd() || !it->value.IsInt64()) return 0;
    return it->value.GetInt64();
}

bool get_bool(const rapidjson::Value& o, const char* key) {
    const rapidjson::Value* v = json::member(o, key);
    return v && v->IsBool() && v->GetBool();
}

// The members of o's array `key` that are objects (none when it is missing or no array).
std::vector<const rapidjson::Value*> objects_in(const rapidjson::Value& o, const char* key) {
    std::vector<const rapidjson::Value*> out;
    const rapidjson::Value* array = json::member(o, key);
    if (!array || !array->IsArray()) return out;
    for (const auto& v : array->GetArray())
        if (v.IsObject()) out.push_back(&v);
    return out;
}

Option get_option(const rapidjson::Value& ov) {
    Option op;
    if (ov.IsString()) {
        op.label = ov.GetString();
    } else if (ov.IsObject()) {
        op.label = get_str(ov, "label");
        op.description = get_str(ov, "description");
        const rapidjson::Value* pv = json::member(ov, "preview");
        if (pv && pv->IsString()) op.preview = std::string(json::str(*pv));
    }
    return op;
}

std::vector<Question> get_questions(const rapidjson::Value& o) {
    std::vector<Question> out;
    for (const rapidjson::Value* q : objects_in(o, "questions")) {
        Question x;
        x.question = get_str(*q, "question");
        x.header = get_str(*q, "header");
        x.multi_select = get_bool(*q, "multiSelect");
        const rapidjson::Value* opts = json::member(*q, "options");
        if (opts && opts->IsArray())
            for (const auto& ov : opts->GetArray()) x.options.push_back(get_option(ov));
        out.push_back(std::move(x));
    }
    return out;
}

std::vector<Answer> get_answers(const rapidjson::Value& o) {
    std::vector<Answer> out;
    for (const rapidjson::Value* ap : objects_in(o, "answers")) {
        const rapidjson::Value& a = *ap;
        Answer x;
        x.question = get_str(a, "question");
        auto v = a.FindMember("answer");
        if (v != a.MemberEnd() && v->value.IsArray()) {
            x.multi = true;
            for (const auto& s : v->value.GetArray())
                if (s.IsString()) x.values.emplace_back(s.GetString(), s.GetStringLength());
        } else if (v != a.MemberEnd() && v->value.IsString()) {
            x.values.emplace_back(v->value.GetString(), v->value.GetStringLength());
        }
        auto so = a.FindMember("selectedOption");
        if (so != a.MemberEnd() && so->value.IsString()) x.selected_option = std::string(so->value.GetString());
        x.was_custom = get_bool(a, "wasCustom");
        x.preview = get_str(a, "preview");
        x.notes = get_str(a, "notes");
        out.push_back(std::move(x));
    }
    return out;
}

std::string get_metadata(const rapidjson::Value& o) {
    auto it = o.FindMember("metadata");
    if (it == o.MemberEnd() || !json::is_object(it->value)) return {};
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    json::write(it->value, w);
    return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace

JournalContents parse_journal(std::string_view text) {
    JournalContents out;
    std::map<std::string, std::size_t> by_key;  // run/askId -> index in exchanges
    std::size_t line_no = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        ++line_no;
        std::size_t nl = text.find('\n', pos);
        const bool last_unterminated = nl == std::string_view::npos;
        std::string_view line = text.substr(pos, last_unterminated ? std::string_view::npos : nl - pos);
        pos = last_unterminated ? text.size() : nl + 1;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
        rapidjson::Document doc;
        const auto error = json::parse(doc, line);
        if (error && error->too_deep) {
            out.warnings.push_back("line " + std::to_string(line_no) + ": " + error->message + ", skipped");
            continue;
        }
        if (error || !doc.IsObject()) {
            // A crash mid-write leaves the last line cut short; a later run then starts a new line after it.
            const bool at_end = last_unterminated || text.find_first_not_of('\n', pos) == std::string_view::npos;
            const char* why = at_end                ? ": torn last record (askhost stopped while writing it), skipped"
                              : line.front() == '{' ? ": torn record (askhost stopped while writing it), skipped"
                                                    : ": not a JSON record, skipped";
            out.warnings.push_back("line " + std::to_string(line_no) + why);
            continue;
        }
        const std::string type = get_str(doc, "type");
        if (type != "ask" && type != "outcome") continue;  // a newer record kind: not ours to judge
        const std::string key = get_str(doc, "run") + "/" + get_str(doc, "askId");
        auto found = by_key.find(key);
        // The exchange as the record states it: an ask record, or an outcome record (self-contained).
        const auto add_exchange = [&] {
            Exchange e;
            e.run = get_str(doc, "run");
            e.ask_id = get_str(doc, "askId");
            e.asked_at = get_ms(doc, "at");
            e.mode = get_str(doc, "mode");
            e.agent = get_str(doc, "agent");
            e.questions = get_questions(doc);
            e.metadata_json = get_metadata(doc);
            by_key[key] = out.exchanges.size();
            out.exchanges.push_back(std::move(e));
            return by_key.find(key);
        };
        if (type == "ask") {
            Exchange& e = out.exchanges[add_exchange()->second];
            e.source = get_str(doc, "source");
            e.replay_of = get_str(doc, "replayOf");
            continue;
        }
        // An outcome whose ask line was lost: it is self-contained, keep it.
        if (found == by_key.end()) found = add_exchange();
        Exchange& e = out.exchanges[found->second];
        e.outcome = get_str(doc, "outcome");
        if (e.outcome.empty()) e.outcome = "unknown";
        e.finished_at = get_ms(doc, "at");
        if (auto s = get_str(doc, "source"); !s.empty()) e.source = s;
        e.answers = get_answers(doc);
        e.pending_file = get_str(doc, "pendingFile");
        e.detail = get_str(doc, "reason");
        auto err = doc.FindMember("error");
        if (err != doc.MemberEnd() && err->value.IsObject()) e.detail = get_str(err->value, "message");
    }
    return out;
}

JournalContents read_journal(const fs::path& file) {
    auto text = read_whole(file);
    if (text.status == FileText::Status::Missing) return {};
    if (text.status == FileText::Status::Error) {
        JournalContents out;
        out.warnings.push_back(text.error);
        return out;
    }
    return parse_journal(text.data);
}

}  // namespace askhost::store
