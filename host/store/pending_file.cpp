#include "store/pending_file.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include <rapidjson/prettywriter.h>

#include "core/text/ascii.hpp"
#include "core/text/utf8.hpp"
#include "json/json_access.hpp"
#include "store/fs_util.hpp"

namespace askhost::store {

namespace {

// Why a tool permission's answer is not taken from the file: anything that can write the project
// (the agent, in a mode that edits without asking) could write it there.
constexpr std::string_view permission_refusal =
    "a tool permission is not answered through the pending-questions file (the agent can write "
    "that file); answer it in a face: the editor, askhost tui, or askhost web";

constexpr const char* kHowToAnswer =
    "Set each \"answer\": an option label or number, your own text, or for multiSelect a list; "
    "then run the agent again. Or: askhost answer '[...]' in question order (askhost questions "
    "shows them).";

std::string str(const rapidjson::Value& v) { return std::string(v.GetString(), v.GetStringLength()); }

std::string compact(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    json::write(v, w);
    return std::string(buf.GetString(), buf.GetSize());
}

// An optional string member: absent or null leaves `out`; another type is an error.
bool opt_string(const rapidjson::Value& obj, const char* key, const std::string& where, std::string& out,
                std::string& error) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || it->value.IsNull()) return true;
    if (!it->value.IsString()) {
        error = where + key + ": expected a string";
        return false;
    }
    out = str(it->value);
    return true;
}

bool parse_options(const rapidjson::Value& q, const std::string& where, Question& out, std::string& error) {
    auto it = q.FindMember("options");
    if (it != q.MemberEnd() && !it->value.IsNull()) {
        if (!it->value.IsArray()) {
            error = where + "options: expected an array of labels";
            return false;
        }
        const auto& arr = it->value;
        for (rapidjson::SizeType i = 0; i < arr.Size(); ++i) {
            const std::string at = where + "options[" + std::to_string(i) + "]";
            Option o;
            if (arr[i].IsString()) {
                o.label = str(arr[i]);
            } else if (arr[i].IsObject()) {
                if (!opt_string(arr[i], "label", at + ".", o.label, error)) return false;
                if (!opt_string(arr[i], "description", at + ".", o.description, error)) return false;
            } else {
                error = at + ": expected a label (a string) or {\"label\", \"description\"}";
                return false;
            }
            if (o.label.empty()) {
                error = at + ": the label is empty";
                return false;
            }
            for (const auto& prev : out.options) {
                if (prev.label == o.label) {
                    error = at + ": \"" + o.label + "\" is listed twice";
                    return false;
                }
            }
            out.options.push_back(std::move(o));
        }
    }
    auto d = q.FindMember("descriptions");
    if (d != q.MemberEnd() && !d->value.IsNull()) {
        if (!d->value.IsObject()) {
            error = where + "descriptions: expected an object {\"label\": \"description\"}";
            return false;
        }
        for (auto m = d->value.MemberBegin(); m != d->value.MemberEnd(); ++m) {
            const std::string label = str(m->name);
            if (!m->value.IsString()) {
                error = where + "descriptions[\"" + label + "\"]: expected a string";
                return false;
            }
            // A description of an option that is gone (a hand edit) is harmless: skip it.
            for (auto& o : out.options)
                if (o.label == label) o.description = str(m->value);
        }
    }
    return true;
}

// Two asks of the same permission: every field alike (an answer to one is an answer to the other).
bool same_permission(const std::optional<Permission>& a, const std::optional<Permission>& b) {
    if (!a || !b) return !a && !b;
    auto same_choice = [](const Permission::Choice& x, const Permission::Choice& y) {
        return x.label == y.label && x.kind == y.kind;
    };
    return a->tool == b->tool && a->command == b->command && a->path == b->path && a->content == b->content &&
           a->reason == b->reason &&
           std::equal(a->options.begin(), a->options.end(), b->options.begin(), b->options.end(), same_choice);
}

}  // namespace

std::vector<std::size_t> PendingFile::open() const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < questions.size(); ++i)
        if (!questions[i].used) out.push_back(i);
    return out;
}

PendingQuestion* PendingFile::find(std::string_view text) {
    for (auto& q : questions)
        if (q.question.question == text) return &q;
    return nullptr;
}

Result<PendingFile> parse_pending(std::string_view text) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return Error::failed("the file is empty");
    rapidjson::Document doc;
    // Hand edits are expected: comments and trailing commas are forgiven.
    if (auto e = json::parse<rapidjson::kParseCommentsFlag | rapidjson::kParseTrailingCommasFlag>(doc, text))
        return Error::failed("not valid JSON at " + line_column(text, e->offset) + ": " + e->message);
    if (!doc.IsObject()) return Error::failed(std::string("expected a JSON object with \"questions\" at the top"));

    PendingFile f;
    std::string error;
    if (!opt_string(doc, "sessionId", "", f.session_id, error)) return Error::failed(error);
    if (!opt_string(doc, "timestamp", "", f.timestamp, error)) return Error::failed(error);
    if (!opt_string(doc, "agent", "", f.agent, error)) return Error::failed(error);
    auto md = doc.FindMember("metadata");
    if (md != doc.MemberEnd() && !md->value.IsNull()) {
        if (!json::is_object(md->value)) return Error::failed("metadata: expected an object");
        if (json::deeper_than(md->value, Limits::max_json_depth))
            return Error::failed("metadata: nested deeper than " + std::to_string(Limits::max_json_depth) + " levels");
        f.metadata_json = compact(md->value);
    }
    auto qs = doc.FindMember("questions");
    if (qs == doc.MemberEnd()) return Error::failed("questions: missing (expected an array of questions)");
    if (!qs->value.IsArray()) return Error::failed("questions: expected an array of questions");
    std::set<std::string> seen;
    for (rapidjson::SizeType i = 0; i < qs->value.Size(); ++i) {
        const auto& q = qs->value[i];
        const std::string where = "questions[" + std::to_string(i) + "].";
        if (!q.IsObject()) return Error::failed("questions[" + std::to_string(i) + "]: expected an object");
        PendingQuestion pq;
        auto t = q.FindMember("question");
        if (t == q.MemberEnd() || !t->value.IsString() || t->value.GetStringLength() == 0)
            return Error::failed(where + "question: expected the question text (a non-empty string)");
        pq.question.question = str(t->value);
        if (!seen.insert(pq.question.question).second)
            return Error::failed(where + "question: \"" + pq.question.question + "\" appears twice");
        if (!opt_string(q, "header", where, pq.question.header, error)) return Error::failed(error);
        if (!parse_options(q, where, pq.question, error)) return Error::failed(error);
        auto ms = q.FindMember("multiSelect");
        if (ms != q.MemberEnd() && !ms->value.IsNull()) {
            if (!ms->value.IsBool()) return Error::failed(where + "multiSelect: expected true or false");
            pq.question.multi_select = ms->value.GetBool();
        }
        auto perm = q.FindMember("permission");
        if (perm != q.MemberEnd() && !perm->value.IsNull()) {
            Permission p;
            if (auto why = parse_permission(perm->value, std::vector<Question>{pq.question}, p))
                return Error::failed(where + why->message);
            pq.permission = std::move(p);
        }
        auto a = q.FindMember("answer");
        if (a != q.MemberEnd()) {
            auto sp = parse_answer_spec(a->value);
            if (!sp.error.empty()) return Error::failed(where + "answer" + (sp.error[0] == '[' ? "" : ": ") + sp.error);
            pq.answer = std::move(sp.spec);
        }
        if (auto sel = q.FindMember("selectedOption"); sel != q.MemberEnd() && !sel->value.IsNull()) {
            std::string label;
            if (!opt_string(q, "selectedOption", where, label, error)) return Error::failed(error);
            pq.selected_option = std::move(label);
        }
        auto u = q.FindMember("used");
        if (u != q.MemberEnd() && !u->value.IsNull()) {
            if (!u->value.IsBool()) return Error::failed(where + "used: expected true or false");
            pq.used = u->value.GetBool();
        }
        if (!opt_string(q, "sessionId", where, pq.session_id, error)) return Error::failed(error);
        if (pq.session_id == f.session_id) pq.session_id.clear();
        f.questions.push_back(std::move(pq));
    }
    return f;
}

std::string serialize_pending(const PendingFile& f) {
    rapidjson::StringBuffer buf;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buf);
    w.SetIndent(' ', 2);
    auto s = [&](const std::string& v) { w.String(v.data(), static_cast<rapidjson::SizeType>(v.size())); };
    w.StartObject();
    w.Key("version");
    w.Int(1);
    w.Key("sessionId");
    s(f.session_id);
    w.Key("timestamp");
    s(f.timestamp);
    if (!f.agent.empty()) {
        w.Key("agent");
        s(f.agent);
    }
    w.Key("howToAnswer");
    w.String(kHowToAnswer);
    w.Key("questions");
    w.StartArray();
    for (const auto& pq : f.questions) {
        const Question& q = pq.question;
        w.StartObject();
        w.Key("question");
        s(q.question);
        if (!q.header.empty()) {
            w.Key("header");
            s(q.header);
        }
        if (!q.options.empty()) {
            w.Key("options");
            w.StartArray();
            for (const auto& o : q.options) s(o.label);
            w.EndArray();
            bool any =
                std::any_of(q.options.begin(), q.options.end(), [](const Option& o) { return !o.description.empty(); });
            if (any) {
                w.Key("descriptions");
                w.StartObject();
                for (const auto& o : q.options) {
                    if (o.description.empty()) continue;
                    w.Key(o.label.data(), static_cast<rapidjson::SizeType>(o.label.size()));
                    s(o.description);
                }
                w.EndObject();
            }
            w.Key("multiSelect");
            w.Bool(q.multi_select);
        }
        if (pq.permission) {
            rapidjson::StringBuffer perm;
            JsonWriter pw(perm);
            write_permission(pw, *pq.permission);
            w.Key("permission");
            w.RawValue(perm.GetString(), perm.GetSize(), rapidjson::kObjectType);
        }
        w.Key("answer");
        if (pq.answer) write_spec(w, *pq.answer);
        else w.Null();
        if (pq.selected_option) {
            w.Key("selectedOption");
            s(*pq.selected_option);
        }
        w.Key("used");
        w.Bool(pq.used);
        if (!pq.session_id.empty() && pq.session_id != f.session_id) {
            w.Key("sessionId");
            s(pq.session_id);
        }
        w.EndObject();
    }
    w.EndArray();
    if (!f.metadata_json.empty()) {
        w.Key("metadata");
        w.RawValue(f.metadata_json.data(), f.metadata_json.size(), rapidjson::kObjectType);
    }
    w.EndObject();
    std::string out(buf.GetString(), buf.GetSize());
    out.push_back('\n');
    return out;
}

PendingLoad load_pending(const std::filesystem::path& path) {
    PendingLoad out;
    auto text = read_whole(path);
    if (text.status == FileText::Status::Missing) {
        out.status = PendingLoad::Status::Missing;
        return out;
    }
    if (text.status == FileText::Status::Error) {
        out.status = PendingLoad::Status::Error;
        out.error = text.error;
        return out;
    }
    auto parsed = parse_pending(text.data);
    if (!parsed) {
        out.status = PendingLoad::Status::Error;
        out.error = path.string() + ": " + parsed.error().message;
        return out;
    }
    out.file = *std::move(parsed);
    return out;
}

Status save_pending(const std::filesystem::path& path, const PendingFile& file) {
    auto err = atomic_write(path, serialize_pending(file), 0600);
    if (!err) mark_askhost_folder(path.parent_path());
    return err;
}

Status set_aside_broken(const std::filesystem::path& path, PendingLoad& loaded,
                        const std::function<void(std::string_view)>& log) {
    const std::string aside = path.string() + ".broken-" + std::to_string(now_ms());
    if (std::rename(path.c_str(), aside.c_str()) != 0) return Error::failed(loaded.error, path.string());
    log(loaded.error + "; kept as " + aside + ", starting a new file");
    loaded = PendingLoad{};
    return std::nullopt;
}

Status add_pending_ask(const std::filesystem::path& path, PendingLoad& loaded, const Ask& ask,
                       const std::string& session_id, const std::function<void(std::string_view)>& log) {
    if (loaded.status == PendingLoad::Status::Error)
        if (Status err = set_aside_broken(path, loaded, log)) return err;
    add_ask(loaded.file, ask, session_id, iso8601_utc(now_ms()));
    return std::nullopt;
}

void add_ask(PendingFile& f, const Ask& ask, const std::string& session_id, const std::string& timestamp) {
    f.questions.erase(
        std::remove_if(f.questions.begin(), f.questions.end(), [](const PendingQuestion& q) { return q.used; }),
        f.questions.end());
    // Entries keep the session that asked them when the file changes hands.
    for (auto& q : f.questions)
        if (q.session_id.empty()) q.session_id = f.session_id;
    // A permission is its one question's: the command it asks to run goes with it.
    const std::optional<Permission> permission = ask.questions.size() == 1 ? ask.permission : std::nullopt;
    for (const auto& q : ask.questions) {
        if (auto* e = f.find(q.question)) {
            if (!same_permission(e->permission, permission)) {  // another command under the same wording
                e->answer.reset();
                e->selected_option.reset();
            }
            e->question = q;
            e->permission = permission;
            e->session_id = session_id;
            continue;
        }
        PendingQuestion pq;
        pq.question = q;
        pq.permission = permission;
        pq.session_id = session_id;
        f.questions.push_back(std::move(pq));
    }
    f.session_id = session_id;
    f.timestamp = timestamp;
    f.agent = ask.agent;
    f.metadata_json = ask.metadata_json;
    for (auto& q : f.questions)
        if (q.session_id == f.session_id) q.session_id.clear();
}

std::optional<std::vector<Answer>> take_answers(PendingFile& f, const std::vector<Question>& questions,
                                                std::vector<std::string>& warnings,
                                                const std::optional<Permission>& permission, bool permission_answers) {
    std::vector<Answer> out;
    std::vector<PendingQuestion*> hits;
    bool ok = true;
    const std::optional<Permission> asked = questions.size() == 1 ? permission : std::nullopt;
    for (std::size_t i = 0; i < questions.size(); ++i) {
        PendingQuestion* e = f.find(questions[i].question);
        if (!e || e->used || !e->answer) {
            ok = false;
            continue;
        }
        if (permission && !permission_answers) {
            warnings.push_back(question_ref(i, questions[i]) + ": " + std::string(permission_refusal));
            ok = false;
            continue;
        }
        if (!same_permission(e->permission, asked)) {
            // The same wording, another permission: the answer was not given for what runs now.
            warnings.push_back(question_ref(i, questions[i]) + ": the answer in the file is not for this " +
                               (!asked          ? std::string("question: it was given for a tool permission")
                                : e->permission ? std::string("command: it was given for another one")
                                                : std::string("command: it was given before askhost kept the "
                                                              "command in the file")) +
                               "; answer again (askhost questions shows it)");
            ok = false;
            continue;
        }
        auto r = resolve_answer(questions[i], *e->answer);
        if (!r) {
            warnings.push_back(question_ref(i, questions[i]) +
                               ": the answer in the file does not fit: " + r.error().message);
            ok = false;
            continue;
        }
        if (auto wrong = answer_disagreement(questions[i], *r, e->selected_option); !wrong.empty()) {
            warnings.push_back(question_ref(i, questions[i]) + ": the answer in the file does not fit: " + wrong);
            ok = false;
            continue;
        }
        out.push_back(*std::move(r));
        hits.push_back(e);
    }
    if (!ok || questions.empty()) return std::nullopt;
    for (auto* e : hits) e->used = true;
    return out;
}

namespace {

// What an answer's entry says of it beside the answer: its selectedOption and wasCustom, as a
// face's answer carries them. "" or the field that is not what it must be.
std::string read_what_it_says(const rapidjson::Value& entry, std::optional<std::string>& selected,
                              std::optional<bool>& was_custom) {
    if (auto sel = entry.FindMember("selectedOption"); sel != entry.MemberEnd() && !sel->value.IsNull()) {
        if (!sel->value.IsString()) return "selectedOption: expected an option's label";
        selected = str(sel->value);
    }
    if (auto custom = entry.FindMember("wasCustom"); custom != entry.MemberEnd() && !custom->value.IsNull()) {
        if (!custom->value.IsBool()) return "wasCustom: expected true or false";
        was_custom = custom->value.GetBool();
    }
    return {};
}

bool all_digits(std::string_view s) {
    return !s.empty() && s.size() < 6 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

AnswerResult apply_answers(PendingFile& f, const rapidjson::Value& input) {
    AnswerResult res;
    const auto open = f.open();
    if (open.empty()) {
        res.errors.push_back("no questions are waiting for an answer");
        return res;
    }
    std::vector<std::pair<std::size_t, AnswerSpec>> given;  // file index, answer
    std::set<std::size_t> seen;

    // One answer for the question at file_index (errors name it by its place among the open ones).
    auto take = [&](std::size_t file_index, const rapidjson::Value& v, const std::optional<std::string>& selected = {},
                    std::optional<bool> was_custom = {}) {
        const Question& q = f.questions[file_index].question;
        const std::size_t pos =
            static_cast<std::size_t>(std::find(open.begin(), open.end(), file_index) - open.begin());
        const std::string who = question_ref(pos, q);
        if (!seen.insert(file_index).second) {
            res.errors.push_back(who + ": answered twice");
            return;
        }
        auto sp = parse_answer_spec(v);
        if (!sp.error.empty()) {
            res.errors.push_back(who + ": " + sp.error);
            return;
        }
        if (!sp.spec) return;  // null: keep it as it is
        if (f.questions[file_index].permission) {
            res.errors.push_back(who + ": " + std::string(permission_refusal));
            return;
        }
        auto r = resolve_answer(q, *sp.spec);
        if (!r) {
            res.errors.push_back(who + ": " + r.error().message);
            return;
        }
        // The faces' rule: a selectedOption beside an answer says the same as the answer.
        if (auto wrong = answer_disagreement(q, *r, selected, was_custom); !wrong.empty()) {
            res.errors.push_back(who + ": " + wrong);
            return;
        }
        given.emplace_back(file_index, spec_of(*r));
    };
    // An open question by its text, or by its number in the open list ("2").
    auto lookup = [&](std::string_view key) -> std::optional<std::size_t> {
        for (std::size_t i : open)
            if (f.questions[i].question.question == key) return i;
        if (all_digits(key)) {
            std::size_t n = std::stoul(std::string(key));
            if (n >= 1 && n <= open.size()) return open[n - 1];
        }
        return std::nullopt;
    };
    auto shorten_key = [](std::string_view k) { return k.size() > 60 ? utf8::cut(k, 57, "...") : std::string(k); };

    // The file's shape ("questions"), or a result's ("answers": [{question, answer, selectedOption, wasCustom}]).
    auto qs = input.IsObject() ? input.FindMember("questions") : rapidjson::Value::ConstMemberIterator();
    if (input.IsObject() && (qs == input.MemberEnd() || !qs->value.IsArray())) {
        auto as = input.FindMember("answers");
        if (as != input.MemberEnd() && as->value.IsArray()) qs = as;
    }
    if (input.IsArray()) {
        if (input.Size() != open.size()) {
            res.errors.push_back(std::string(input.Size() > open.size() ? "too many answers: " : "too few answers: ") +
                                 std::to_string(input.Size()) + " given for " + std::to_string(open.size()) +
                                 " open question" + (open.size() == 1 ? "" : "s") +
                                 " (one per question, in order; null leaves one as it is)");
            return res;
        }
        for (rapidjson::SizeType i = 0; i < input.Size(); ++i) take(open[i], input[i]);
    } else if (input.IsObject() && qs != input.MemberEnd() && qs->value.IsArray()) {
        // The file itself, edited: match its questions by text.
        const std::string list = str(qs->name);
        for (rapidjson::SizeType i = 0; i < qs->value.Size(); ++i) {
            const auto& e = qs->value[i];
            const std::string at = list + "[" + std::to_string(i) + "]";
            auto t = e.IsObject() ? e.FindMember("question") : rapidjson::Value::ConstMemberIterator();
            if (!e.IsObject() || t == e.MemberEnd() || !t->value.IsString()) {
                res.errors.push_back(at + ": expected {\"question\": TEXT, \"answer\": ...}");
                continue;
            }
            const std::string text = str(t->value);
            auto a = e.FindMember("answer");
            auto idx = lookup(text);
            if (!idx) {
                // Questions already handed to the agent may stay in an edited copy: skip them.
                auto* known = f.find(text);
                if (known && known->used) continue;
                if (a == e.MemberEnd() || a->value.IsNull()) continue;
                res.errors.push_back(at + ": no open question \"" + shorten_key(text) + "\"");
                continue;
            }
            if (a == e.MemberEnd()) continue;
            std::optional<std::string> selected;
            std::optional<bool> was_custom;
            if (auto bad = read_what_it_says(e, selected, was_custom); !bad.empty()) {
                res.errors.push_back(at + "." + bad);
                continue;
            }
            take(*idx, a->value, selected, was_custom);
        }
    } else if (input.IsObject()) {
        for (auto m = input.MemberBegin(); m != input.MemberEnd(); ++m) {
            const std::string key = str(m->name);
            auto idx = lookup(key);
            if (!idx) {
                res.errors.push_back("\"" + shorten_key(key) + "\": no open question with this text (or number)");
                continue;
            }
            take(*idx, m->value);
        }
    } else if (open.size() == 1) {
        take(open[0], input);
    } else {
        res.errors.push_back("one answer given for " + std::to_string(open.size()) +
                             " open questions: give a JSON array, one answer per question in order");
        return res;
    }
    if (!res.errors.empty()) return res;
    if (given.empty()) {
        res.errors.push_back("no answers given (every value was null)");
        return res;
    }
    for (auto& [i, spec] : given) {
        f.questions[i].answer = std::move(spec);
        f.questions[i].selected_option.reset();  // checked above; the answer names the option itself
        res.changed.push_back(i);
    }
    return res;
}

AnswerResult apply_text(PendingFile& f, std::string_view text) {
    AnswerResult res;
    const std::string_view t = ascii::trim(text, " \n\t");
    if (t.empty()) {
        res.errors.push_back("--text: the text is empty");
        return res;
    }
    if (t.size() > Limits::max_answer_bytes) {
        res.errors.push_back("--text: " + std::to_string(t.size()) + " bytes, at most " +
                             std::to_string(Limits::max_answer_bytes));
        return res;
    }
    const auto open = f.open();
    if (open.empty()) {
        res.errors.push_back("no questions are waiting for an answer");
        return res;
    }
    // Each question the part of the text that answers it, where that is clear; the others the
    // whole text, once, and a pointer to it, so the model reads the person's words once.
    std::vector<std::size_t> todo;
    std::vector<const Question*> qs;
    std::optional<std::size_t> permission_at;
    for (std::size_t i : open) {
        if (f.questions[i].permission) {  // answered in a face only: the text is not for it
            if (!permission_at) permission_at = i;
            continue;
        }
        if (f.questions[i].answer) continue;
        todo.push_back(i);
        qs.push_back(&f.questions[i].question);
    }
    if (todo.empty() && permission_at) {
        const auto pos = static_cast<std::size_t>(std::find(open.begin(), open.end(), *permission_at) - open.begin());
        res.errors.push_back(question_ref(pos, f.questions[*permission_at].question) + ": " +
                             std::string(permission_refusal));
        return res;
    }
    const auto readings = read_text_answer(qs, t);
    std::optional<std::size_t> whole_at;
    for (std::size_t k = 0; k < todo.size(); ++k) {
        const auto& r = readings[k];
        if (r.how == TextReading::How::Open) continue;  // the text is not for it: it keeps waiting
        AnswerSpec spec;
        std::string from;
        if (r.how == TextReading::How::Options) {
            spec.array = f.questions[todo[k]].question.multi_select;
            for (const auto& l : r.labels) spec.items.push_back({l, std::nullopt});
            from = "from \"" + r.text + "\"";
        } else if (r.how == TextReading::How::Part) {
            spec.items.push_back({r.text, std::nullopt});

        } else if (!whole_at) {
            whole_at = todo[k];
            spec.items.push_back({r.text, std::nullopt});
            from = "your whole text: which part answers it is not clear";
        } else {
            spec.items.push_back(
                {"(see my answer to \"" + f.questions[*whole_at].question.question + "\")", std::nullopt});
            from = "not clear: points to your whole text";
        }
        f.questions[todo[k]].answer = std::move(spec);
        f.questions[todo[k]].selected_option.reset();
        res.changed.push_back(todo[k]);
        res.understood.push_back(std::move(from));
    }
    if (todo.empty())
        res.errors.push_back("every open question already has an answer; change one with askhost answer JSON");
    else if (res.changed.empty()) res.errors.push_back("--text: nothing in the text answers a question");
    return res;
}

}  // namespace askhost::store
