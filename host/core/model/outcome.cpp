// Outcomes and the result shapes handed back to agents.
#include "core/model/outcome.hpp"

#include <algorithm>

#include "core/text/sanitize.hpp"
#include "core/text/utf8.hpp"

namespace askhost {

namespace {

// An outcome of kind k and nothing else: the factories add what their kind carries.
Outcome of_kind(OutcomeKind k) {
    Outcome o;
    o.kind = k;
    return o;
}

}  // namespace

Outcome Outcome::answered(std::vector<Answer> a) {
    Outcome o = of_kind(OutcomeKind::Answered);
    o.answers = std::move(a);
    return o;
}

Outcome Outcome::cancelled(std::string reason) {
    Outcome o = of_kind(OutcomeKind::Cancelled);
    o.reason = std::move(reason);
    return o;
}

Outcome Outcome::timed_out() { return of_kind(OutcomeKind::TimedOut); }

Outcome Outcome::connection_lost() { return of_kind(OutcomeKind::ConnectionLost); }

Outcome Outcome::pending(std::string file, std::size_t open_questions) {
    Outcome o = of_kind(OutcomeKind::Pending);
    o.pending_file = std::move(file);
    o.open_questions = open_questions;
    return o;
}

Outcome Outcome::refused(Refusal r) {
    Outcome o = of_kind(OutcomeKind::Refused);
    o.error = std::move(r);
    return o;
}

std::string declined_text(std::string_view reason) {
    std::string text = "User declined to answer questions";
    if (!reason.empty()) text += " (" + std::string(reason) + ")";
    return text;
}

std::string_view outcome_kind_name(OutcomeKind k) {
    switch (k) {
        case OutcomeKind::Answered: return "answered";
        case OutcomeKind::Cancelled: return "cancelled";
        case OutcomeKind::TimedOut: return "timedOut";
        case OutcomeKind::ConnectionLost: return "connectionLost";
        case OutcomeKind::Pending: return "pending";
        case OutcomeKind::Refused: return "refused";
    }
    return "unknown";
}

namespace {

// The agent must always receive valid JSON, whatever a frontend handed in.
std::string repaired(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto step = utf8::decode(s, i);
        utf8::append(out, step.cp);
        i += step.len;
    }
    return out;
}

void put(JsonWriter& w, std::string_view s) {
    const std::string fixed = utf8_valid(s) ? std::string() : repaired(s);
    const std::string_view v = fixed.empty() ? s : std::string_view(fixed);
    w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
}

void key(JsonWriter& w, std::string_view k) {
    const std::string fixed = utf8_valid(k) ? std::string() : repaired(k);
    const std::string_view v = fixed.empty() ? k : std::string_view(fixed);
    w.Key(v.data(), static_cast<rapidjson::SizeType>(v.size()));
}

// One of this file's own keys: ASCII, nothing to check.
template <std::size_t N>
void key(JsonWriter& w, const char (&k)[N]) {
    w.Key(k, static_cast<rapidjson::SizeType>(N - 1));
}

void append_joined(std::string& out, const std::vector<std::string>& values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0) out += ", ";
        out += values[i];
    }
}

std::string joined(const std::vector<std::string>& values) {
    std::string out;
    append_joined(out, values);
    return out;
}

// An answer's preview and notes, those it has.
void write_annotation(JsonWriter& w, const Answer& a) {
    if (!a.preview.empty()) {
        key(w, "preview");
        put(w, a.preview);
    }
    if (!a.notes.empty()) {
        key(w, "notes");
        put(w, a.notes);
    }
}

void write_answer(JsonWriter& w, const Answer& a) {
    w.StartObject();
    key(w, "question");
    put(w, a.question);
    key(w, "answer");
    if (a.multi) {
        w.StartArray();
        for (const auto& v : a.values) put(w, v);
        w.EndArray();
    } else if (a.values.size() == 1) {
        put(w, a.values.front());
    } else {
        put(w, joined(a.values));
    }
    if (a.selected_option && !a.multi) {  // a multi-select's array names its picks itself
        key(w, "selectedOption");
        put(w, *a.selected_option);
    }
    key(w, "wasCustom");
    w.Bool(a.was_custom);
    write_annotation(w, a);
    w.EndObject();
}

void empty_answers(JsonWriter& w) {
    key(w, "answers");
    w.StartArray();
    w.EndArray();
}

// The reference implementation's formatAnswersForModel, written into one string: its sentence
// around the entries, each `"question"="answer"` with the preview and notes it has.
constexpr std::string_view kModelHead = "User has answered your questions: ";
constexpr std::string_view kModelTail = ". You can now continue with the user's answers in mind.";

void append_model_entry(std::string& out, bool first, const std::string& question,
                        const std::vector<std::string>& values, const std::string& preview, const std::string& notes) {
    if (!first) out += ", ";
    out += '"';
    out += question;
    out += "\"=\"";
    append_joined(out, values);
    out += '"';
    if (!preview.empty()) {
        out += " selected preview:\n";
        out += preview;
    }
    if (!notes.empty()) {
        out += " user notes: ";
        out += notes;
    }
}

}  // namespace

void write_native_result(JsonWriter& w, const Outcome& outcome) {
    key(w, "answered");
    w.Bool(outcome.kind == OutcomeKind::Answered);
    switch (outcome.kind) {
        case OutcomeKind::Answered:
            key(w, "answers");
            w.StartArray();
            for (const auto& a : outcome.answers) write_answer(w, a);
            w.EndArray();
            key(w, "text");
            put(w, model_text(outcome.answers));
            break;
        case OutcomeKind::Cancelled:
            empty_answers(w);
            key(w, "cancelled");
            w.Bool(true);
            if (!outcome.reason.empty()) {
                key(w, "reason");
                put(w, outcome.reason);
            }
            break;
        case OutcomeKind::TimedOut:
            empty_answers(w);
            key(w, "timedOut");
            w.Bool(true);
            break;
        case OutcomeKind::ConnectionLost:
            key(w, "connectionLost");
            w.Bool(true);
            break;
        case OutcomeKind::Pending:
            key(w, "pendingFile");
            put(w, outcome.pending_file);
            if (outcome.open_questions) {
                key(w, "openQuestions");
                w.Uint64(outcome.open_questions);
            }
            key(w, "text");
            put(w, pending_text(outcome.pending_file, outcome.open_questions));
            break;
        case OutcomeKind::Refused:
            key(w, "error");
            w.StartObject();
            key(w, "code");
            put(w, outcome.error.code);
            key(w, "message");
            put(w, outcome.error.message);
            key(w, "path");
            put(w, outcome.error.path);
            w.EndObject();
            break;
    }
}

void write_answers_map(JsonWriter& w, const std::vector<Answer>& answers) {
    key(w, "answers");
    w.StartObject();
    for (const auto& a : answers) {
        key(w, a.question);
        put(w, joined(a.values));
    }
    w.EndObject();
    const bool annotated = std::any_of(answers.begin(), answers.end(),
                                       [](const Answer& a) { return !a.preview.empty() || !a.notes.empty(); });
    if (!annotated) return;
    key(w, "annotations");
    w.StartObject();
    for (const auto& a : answers) {
        if (a.preview.empty() && a.notes.empty()) continue;
        key(w, a.question);
        w.StartObject();
        write_annotation(w, a);
        w.EndObject();
    }
    w.EndObject();
}

std::string model_text(const std::vector<Answer>& answers) {
    std::size_t size = kModelHead.size() + kModelTail.size();
    for (const auto& a : answers) {
        size += a.question.size() + a.preview.size() + a.notes.size() + 48;
        for (const auto& v : a.values) size += v.size() + 2;
    }
    std::string out;
    out.reserve(size);
    out += kModelHead;
    for (std::size_t i = 0; i < answers.size(); ++i) {
        const Answer& a = answers[i];
        append_model_entry(out, i == 0, a.question, a.values, a.preview, a.notes);
    }
    out += kModelTail;
    return out;
}

std::string model_text(const std::vector<PresetAnswer>& answers, const std::vector<PresetAnnotation>& annotations) {
    static const PresetAnnotation none;
    std::string out(kModelHead);
    for (std::size_t i = 0; i < answers.size(); ++i) {
        const PresetAnswer& a = answers[i];
        const auto it = std::find_if(annotations.begin(), annotations.end(),
                                     [&](const PresetAnnotation& n) { return n.question == a.question; });
        const PresetAnnotation& note = it == annotations.end() ? none : *it;
        append_model_entry(out, i == 0, a.question, a.values, note.preview, note.notes);
    }
    out += kModelTail;
    return out;
}

namespace {

// `["<answer 1>", "<answer 2>"]`, one placeholder per open question, in single quotes.
std::string answer_example(std::size_t open_questions) {
    if (open_questions == 1) return "'[\"<answer>\"]'";
    std::string out = "'[";
    for (std::size_t i = 1; i <= std::max<std::size_t>(open_questions, 1); ++i)
        out += (i > 1 ? ", " : "") + std::string("\"<answer ") + std::to_string(i) + ">\"";
    return out + (open_questions ? "]'" : ", ...]'");
}

}  // namespace

std::string pending_text(const std::string& pending_file, std::size_t open_questions) {
    return "Questions pending. User input required.\n"
           "\n"
           "To answer, run:\n"
           "  askhost answer " +
           answer_example(open_questions) +
           "\n"
           "\n"
           "Or edit the JSON file and run:\n"
           "  askhost answer --file " +
           shell_word(pending_file) +
           "\n"
           "\n"
           "Questions saved to: " +
           pending_file;
}

std::vector<Answer> answers_from_presets(const std::vector<Question>& questions,
                                         const std::vector<PresetAnswer>& presets,
                                         const std::vector<PresetAnnotation>& annotations) {
    std::vector<Answer> out;
    out.reserve(presets.size());
    for (const auto& p : presets) {
        const auto q = std::find_if(questions.begin(), questions.end(),
                                    [&](const Question& x) { return x.question == p.question; });
        const auto is_label = [&](const std::string& v) {
            return q != questions.end() &&
                   std::any_of(q->options.begin(), q->options.end(), [&](const Option& o) { return o.label == v; });
        };
        Answer a;
        a.question = p.question;
        a.values = p.values;
        a.multi = p.multi || (q != questions.end() && q->multi_select);
        if (!a.multi && p.values.size() == 1 && is_label(p.values[0])) a.selected_option = p.values[0];
        a.was_custom = !std::all_of(p.values.begin(), p.values.end(), is_label);
        const auto n = std::find_if(annotations.begin(), annotations.end(),
                                    [&](const PresetAnnotation& x) { return x.question == p.question; });
        if (n != annotations.end()) {
            a.preview = n->preview;
            a.notes = n->notes;
        }
        out.push_back(std::move(a));
    }
    return out;
}

std::optional<Outcome> outcome_without_asking(const Parsed<AskInput>& parsed) {
    if (const auto* refusal = std::get_if<Refusal>(&parsed)) return Outcome::refused(*refusal);
    const auto& input = std::get<AskInput>(parsed);
    if (input.preset_answers.empty()) return std::nullopt;
    return Outcome::answered(answers_from_presets(input.questions, input.preset_answers, input.preset_annotations));
}

bool result_within_cap(const Outcome& outcome, std::size_t margin) {
    rapidjson::StringBuffer buffer;
    JsonWriter w(buffer);
    w.StartObject();
    write_native_result(w, outcome);
    w.EndObject();
    return buffer.GetSize() + margin <= Limits::max_result_bytes;
}

std::size_t fit_result_cap(Outcome& outcome,
                           const std::function<std::string(std::size_t question, std::string_view whole)>& keep) {
    if (outcome.kind != OutcomeKind::Answered) return 0;
    std::size_t cut = 0;
    while (!result_within_cap(outcome, kResultMargin)) {
        // The longest text still worth cutting (longer than what a cut one keeps and its note).
        std::string* longest = nullptr;
        std::size_t question = 0;
        for (std::size_t i = 0; i < outcome.answers.size(); ++i) {
            Answer& a = outcome.answers[i];
            auto consider = [&](std::string& s) {
                if (s.size() > kKeptBytes + 512 && (!longest || s.size() > longest->size())) {
                    longest = &s;
                    question = i;
                }
            };
            for (auto& v : a.values)
                if (!a.selected_option || v != *a.selected_option) consider(v);  // never an option's label
            consider(a.notes);
        }
        if (!longest) break;  // nothing left to cut: the agent's own check has the last word
        std::size_t end = 0;  // the first kKeptBytes, never splitting a character
        while (end < longest->size()) {
            const auto step = utf8::decode(*longest, end);
            if (end + step.len > kKeptBytes) break;
            end += step.len;
        }
        const std::string where = keep(question, *longest);
        const std::string note =
            where.empty()
                ? " [... cut: the whole answer was " + std::to_string(longest->size()) +
                      " bytes, more than this tool's result may hold, and askhost could not save the rest]"
                : " [... cut: the whole answer, " + std::to_string(longest->size()) + " bytes, is in " + where + "]";
        longest->resize(end);
        *longest += note;
        ++cut;
    }
    return cut;
}

}  // namespace askhost
