#include "store/answer_spec.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <variant>

#include "core/text/ascii.hpp"
#include "core/text/utf8.hpp"

namespace askhost::store {

namespace {

// A typed answer's blanks: spaces, tabs and line ends.
std::string_view trim(std::string_view s) { return ascii::trim(s, " \t\n\r"); }

// The option label `text` names, exactly or ignoring case; "" when none; error when ambiguous.
std::variant<std::string, std::monostate> match_label(const Question& q, std::string_view text) {
    for (const auto& o : q.options)
        if (o.label == text) return o.label;
    const std::string want = ascii::lowered(text);
    const Option* found = nullptr;
    for (const auto& o : q.options) {
        if (ascii::lowered(o.label) != want) continue;
        if (found) return std::monostate{};  // two labels differ only in case: take neither
        found = &o;
    }
    return found ? found->label : std::string();
}

std::string shorten(std::string_view s) { return s.size() <= 60 ? std::string(s) : utf8::cut(s, 57, "..."); }

}  // namespace

SpecParse parse_answer_spec(const rapidjson::Value& v) {
    SpecParse out;
    auto item = [](const rapidjson::Value& x, AnswerItem& it) -> bool {
        if (x.IsString()) {
            it.text.assign(x.GetString(), x.GetStringLength());
            return true;
        }
        if (x.IsInt64()) {
            it.number = x.GetInt64();
            it.text = std::to_string(*it.number);
            return true;
        }
        return false;
    };
    if (v.IsNull()) return out;
    AnswerSpec spec;
    if (v.IsArray()) {
        spec.array = true;
        for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
            AnswerItem it;
            if (!item(v[i], it)) {
                out.error = "[" + std::to_string(i) + "]: expected a string (a label or text) or an option number";
                return out;
            }
            spec.items.push_back(std::move(it));
        }
    } else {
        AnswerItem it;
        if (!item(v, it)) {
            out.error = "expected a string (a label or text), an option number, an array of them, or null";
            return out;
        }
        spec.items.push_back(std::move(it));
    }
    out.spec = std::move(spec);
    return out;
}

Result<Answer> resolve_answer(const Question& q, const AnswerSpec& spec) {
    const std::size_t n_opts = q.options.size();
    if (spec.items.empty()) return Error::failed("empty answer: give a value, or null to leave it unanswered");
    if (!q.multi_select && spec.items.size() > 1)
        return Error::failed("takes one answer, " + std::to_string(spec.items.size()) +
                             " given (it is not multi-select)");

    std::vector<std::string> values;
    bool any_custom = false;
    std::optional<std::string> single_label;
    auto add = [&](std::string v, bool is_option) {
        if (std::find(values.begin(), values.end(), v) != values.end()) return;  // given twice
        if (is_option) single_label = v;
        else any_custom = true;
        values.push_back(std::move(v));
    };
    for (const auto& it : spec.items) {
        if (it.number && n_opts > 0) {
            if (*it.number < 1 || static_cast<unsigned long long>(*it.number) > n_opts)
                return Error::failed("option " + std::to_string(*it.number) + " does not exist (" +
                                     std::to_string(n_opts) + (n_opts == 1 ? " option)" : " options)"));
            add(q.options[static_cast<std::size_t>(*it.number - 1)].label, true);
            continue;
        }
        std::string_view text = trim(it.text);
        if (text.empty()) return Error::failed("empty answer: give a value, or null to leave it unanswered");
        if (text.size() > Limits::max_answer_bytes)
            return Error::failed("answer is " + std::to_string(text.size()) + " bytes, at most " +
                                 std::to_string(Limits::max_answer_bytes));
        auto m = match_label(q, text);
        if (std::holds_alternative<std::monostate>(m))
            return Error::failed(
                "\"" + shorten(text) +
                "\" matches several options that differ only in case; give the exact label or its number");
        if (auto& label = std::get<std::string>(m); !label.empty()) {
            add(label, true);
            continue;
        }
        // "Authentication, REST API" for a multi-select question: split when every part is a label.
        if (q.multi_select && text.find(',') != std::string_view::npos) {
            std::vector<std::string> parts;
            bool all_labels = true;
            std::size_t start = 0;
            while (start <= text.size()) {
                std::size_t comma = text.find(',', start);
                if (comma == std::string_view::npos) comma = text.size();
                auto pm = match_label(q, trim(text.substr(start, comma - start)));
                auto* pl = std::get_if<std::string>(&pm);
                if (!pl || pl->empty()) {
                    all_labels = false;
                    break;
                }
                parts.push_back(*pl);
                start = comma + 1;
            }
            if (all_labels) {
                for (auto& p : parts) add(std::move(p), true);
                continue;
            }
        }
        add(std::string(text), false);
    }

    Answer a;
    a.question = q.question;
    a.values = std::move(values);
    if (q.multi_select) {
        a.multi = true;
        a.was_custom = any_custom;
    } else {
        a.was_custom = any_custom;
        if (!any_custom) a.selected_option = single_label;
    }
    return a;
}

std::string answer_disagreement(const Question& q, const Answer& resolved, const std::optional<std::string>& selected,
                                std::optional<bool> was_custom) {
    auto is_option = [&](std::string_view v) {
        return std::any_of(q.options.begin(), q.options.end(), [&](const Option& o) { return o.label == v; });
    };
    const std::string said = resolved.values.empty() ? std::string() : resolved.values.front();
    if (selected) {
        if (!is_option(*selected))
            return "selectedOption: \"" + shorten(*selected) + "\" is none of the question's options";
        if (was_custom.value_or(false)) return "wasCustom: true, but an option is selected";
        const bool agrees = q.multi_select ? std::find(resolved.values.begin(), resolved.values.end(), *selected) !=
                                                 resolved.values.end()
                                           : resolved.values.size() == 1 && said == *selected && !resolved.was_custom;
        if (!agrees)
            return "selectedOption: \"" + shorten(*selected) + "\" disagrees with the answer \"" + shorten(said) + "\"";
    }
    if (was_custom) {
        const bool any_typed = std::any_of(resolved.values.begin(), resolved.values.end(),
                                           [&](const std::string& v) { return !is_option(v); });
        if (*was_custom && !any_typed)
            return "wasCustom: true, but \"" + shorten(said) + "\" is one of the question's options";
        if (!*was_custom && any_typed)
            return "wasCustom: false, but \"" + shorten(said) + "\" is none of the question's options";
    }
    return {};
}

AnswerSpec spec_of(const Answer& a) {
    AnswerSpec s;
    s.array = a.multi;
    for (const auto& v : a.values) s.items.push_back({v, std::nullopt});
    return s;
}

// ---- reading a person's own words --------------------------------------------------------------

namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool word_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || u >= 0x80 || c == '-' ||
           c == '_' || c == '+' || c == '#' || c == '.';
}

// Lower-case words: letters, digits, UTF-8, and the marks names carry (order-processor, C++, Node.js).
std::vector<std::string> words_of(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        if (!word_char(s[i])) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < s.size() && word_char(s[j])) ++j;
        std::string w = ascii::lowered(s.substr(i, j - i));
        while (!w.empty() && (w.back() == '.' || w.back() == '-')) w.pop_back();
        while (!w.empty() && (w.front() == '.' || w.front() == '-')) w.erase(0, 1);
        if (!w.empty()) out.push_back(std::move(w));
        i = j;
    }
    return out;
}

bool in(std::string_view w, std::initializer_list<std::string_view> set) {
    return std::find(set.begin(), set.end(), w) != set.end();
}

// Words that say nothing about which option is meant.
bool stop_word(std::string_view w) {
    return w.size() < 3 || in(w, {"the",     "and",  "for",    "with",  "use",    "using",  "all",   "not",  "but",
                                  "its",     "call", "name",   "named", "please", "option", "which", "what", "should",
                                  "include", "want", "one",    "two",   "three",  "four",   "our",   "your", "you",
                                  "this",    "that", "them",   "then",  "from",   "like",   "let",   "just", "also",
                                  "any",     "pick", "choose", "take",  "would",  "could",  "new",   "yes"});
}

// Words that answer nothing: a part made of them only may be dropped.
bool filler(const std::vector<std::string>& words) {
    return std::all_of(words.begin(), words.end(), [](const std::string& w) {
        return in(w, {"please", "thanks", "thank", "you", "ok", "okay", "cheers", "that's", "thats", "all", "and", "so",
                      "that", "is", "it"});
    });
}

// `needle` occurs in `hay` as consecutive words.
bool has_run(const std::vector<std::string>& hay, const std::vector<std::string>& needle) {
    if (needle.empty() || needle.size() > hay.size()) return false;
    for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i)
        if (std::equal(needle.begin(), needle.end(), hay.begin() + static_cast<std::ptrdiff_t>(i))) return true;
    return false;
}

// "postgres" names "postgresql", "auth" names "authentication": equal, or a prefix of 4 letters or more.
bool word_names(std::string_view said, std::string_view word) {
    if (said == word) return true;
    const std::size_t n = std::min(said.size(), word.size());
    return n >= 4 && said.substr(0, n) == word.substr(0, n);
}

// The label without a trailing parenthesis: "PostgreSQL (Recommended)" -> "PostgreSQL".
std::string_view core_label(std::string_view label) {
    auto t = trim(label);
    if (!t.empty() && t.back() == ')') {
        const auto open = t.rfind('(');
        if (open != std::string_view::npos && open > 0) return trim(t.substr(0, open));
    }
    return t;
}

struct Part {
    std::size_t begin = 0, end = 0;  // in the text
    std::vector<std::string> words;
    std::size_t clause = 0;  // parts cut by "and" or "then" share one
};

bool joiner_at(std::string_view t, std::size_t i, std::string_view word) {
    if (i == 0 || !space(t[i - 1]) || t.size() - i < word.size()) return false;
    if (ascii::lowered(t.substr(i, word.size())) != word) return false;
    return i + word.size() == t.size() || space(t[i + word.size()]);
}

// The text cut at commas, semicolons, line ends, full stops and the words "and" and "then".
std::vector<Part> split_parts(std::string_view t) {
    std::vector<Part> out;
    std::size_t clause = 0;
    auto push = [&](std::size_t b, std::size_t e) {
        while (b < e && space(t[b])) ++b;
        while (e > b && space(t[e - 1])) --e;
        if (b == e) return;
        Part p{b, e, words_of(t.substr(b, e - b)), clause};
        if (!p.words.empty()) out.push_back(std::move(p));
    };
    std::size_t start = 0;
    for (std::size_t i = 0; i < t.size();) {
        std::size_t skip = 0;
        bool ends_clause = true;
        const char c = t[i];
        const bool full_stop = c == '.' && (i + 1 == t.size() || space(t[i + 1]));
        if (c == ',' || c == ';' || c == '\n' || full_stop) {
            skip = 1;
        } else if (joiner_at(t, i, "and")) {
            skip = 3;
            ends_clause = false;
        } else if (joiner_at(t, i, "then")) {
            skip = 4;
            ends_clause = false;
        }
        if (skip == 0) {
            ++i;
            continue;
        }
        push(start, i);
        if (ends_clause) ++clause;
        start = i + skip;
        i = start;
    }
    push(start, t.size());
    return out;
}

// An option number a part gives: "2", "option 2", "#2", "number 2"; 0 when none.
std::size_t option_number(const Part& p, std::size_t n_options) {
    std::string_view w;
    if (p.words.size() == 1) w = p.words[0];
    else if (p.words.size() == 2 && in(p.words[0], {"option", "number", "choice", "no"})) w = p.words[1];
    else return 0;
    if (!w.empty() && w.front() == '#') w.remove_prefix(1);
    if (w.empty() || w.size() > 3 || !std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return 0;
    const std::size_t n = std::stoul(std::string(w));
    return n >= 1 && n <= n_options ? n : 0;
}

// The options of `q` a part names, in option order; `conflict` when it names several of a
// single-select question's options equally.
struct Named {
    std::vector<std::size_t> options;
    bool conflict = false;
};

Named named_options(const Question& q, const Part& p) {
    Named out;
    if (q.options.empty()) return out;
    std::set<std::size_t> whole;  // the label, or its core, said in full
    for (std::size_t o = 0; o < q.options.size(); ++o) {
        const auto label = words_of(q.options[o].label);
        const auto core = words_of(core_label(q.options[o].label));
        if (has_run(p.words, label) || has_run(p.words, core)) whole.insert(o);
    }
    // One said word naming one option's word; a word that names several options names none.
    std::set<std::size_t> by_word;
    for (const auto& said : p.words) {
        if (stop_word(said)) continue;
        std::vector<std::size_t> hits;
        for (std::size_t o = 0; o < q.options.size(); ++o) {
            const auto core = words_of(core_label(q.options[o].label));
            if (std::any_of(core.begin(), core.end(),
                            [&](const std::string& w) { return !stop_word(w) && word_names(said, w); }))
                hits.push_back(o);
        }
        if (hits.size() == 1) by_word.insert(hits[0]);
    }
    // "all three features", "every feature": each option of a multi-select question it names.
    if (q.multi_select && std::any_of(p.words.begin(), p.words.end(), [](const std::string& w) {
            return in(w, {"all", "every", "everything", "both"});
        })) {
        auto about = words_of(q.question);
        const auto header = words_of(q.header);
        about.insert(about.end(), header.begin(), header.end());
        const bool names_question = std::any_of(p.words.begin(), p.words.end(), [&](const std::string& said) {
            return !stop_word(said) &&
                   std::any_of(about.begin(), about.end(), [&](const std::string& w) { return word_names(said, w); });
        });
        if (names_question) {
            for (std::size_t o = 0; o < q.options.size(); ++o) out.options.push_back(o);
            return out;
        }
    }
    std::set<std::size_t> all = whole;
    all.insert(by_word.begin(), by_word.end());
    if (!q.multi_select && all.size() > 1) {
        if (whole.size() == 1) all = whole;  // "PostgreSQL, not SQLite" is not this; a full label wins a word
        else {
            out.conflict = true;
            return out;
        }
    }
    out.options.assign(all.begin(), all.end());
    return out;
}

// The answer the parts `run` give `q` by their place: its option numbers when they are all
// numbers of its options (one for a single-select question), else their words as they stand.
TextReading by_place(const Question& q, std::string_view t, const std::vector<Part>& parts,
                     const std::vector<std::size_t>& run) {
    TextReading out;
    std::vector<std::size_t> picks;
    for (std::size_t r : run) {
        if (filler(parts[r].words)) continue;
        const std::size_t n = option_number(parts[r], q.options.size());
        if (n == 0) {
            picks.clear();
            break;
        }
        picks.push_back(n - 1);
    }
    std::sort(picks.begin(), picks.end());
    picks.erase(std::unique(picks.begin(), picks.end()), picks.end());
    const std::size_t b = parts[run.front()].begin, e = parts[run.back()].end;
    out.text = std::string(t.substr(b, e - b));
    if (!picks.empty() && (q.multi_select || picks.size() == 1)) {
        out.how = TextReading::How::Options;
        for (std::size_t o : picks) out.labels.push_back(q.options[o].label);
    } else {
        out.how = TextReading::How::Part;
    }
    return out;
}

}  // namespace

namespace {

constexpr std::size_t kNone = SIZE_MAX;

// Each part: the one question whose options it names (kNone when no question's, or several).
std::vector<std::size_t> naming_parts(const std::vector<const Question*>& qs, const std::vector<Part>& parts,
                                      std::vector<Named>& named) {
    std::vector<std::size_t> out(parts.size(), kNone);
    named.assign(parts.size(), Named{});
    for (std::size_t i = 0; i < parts.size(); ++i) {
        std::size_t found = kNone;
        bool several = false;
        for (std::size_t q = 0; q < qs.size(); ++q) {
            Named n = named_options(*qs[q], parts[i]);
            if (n.options.empty() && !n.conflict) continue;
            if (found != kNone) several = true;
            found = q;
            named[i] = std::move(n);
        }
        if (!several) out[i] = found;
    }
    return out;
}

// The questions whose options parts name, answered with them; which questions parts claimed.
std::vector<bool> answer_by_options(const std::vector<const Question*>& qs, std::string_view t,
                                    const std::vector<Part>& parts, const std::vector<std::size_t>& part_question,
                                    const std::vector<Named>& named, std::vector<TextReading>& out) {
    std::vector<bool> claimed(qs.size(), false);
    for (std::size_t q = 0; q < qs.size(); ++q) {
        std::set<std::size_t> opts;
        bool conflict = false;
        std::string said;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (part_question[i] != q) continue;
            claimed[q] = true;
            conflict = conflict || named[i].conflict;
            opts.insert(named[i].options.begin(), named[i].options.end());
            said += (said.empty() ? "" : ", ") + std::string(t.substr(parts[i].begin, parts[i].end - parts[i].begin));
        }
        if (!claimed[q] || conflict || (!qs[q]->multi_select && opts.size() != 1)) continue;
        out[q].how = TextReading::How::Options;
        out[q].text = said;
        for (std::size_t o : opts) out[q].labels.push_back(qs[q]->options[o].label);
    }
    return claimed;
}

// The leftover parts `run` between two answered questions, for the unanswered questions
// `between` them; returns whether words of them went to no question.
bool answer_between(const std::vector<const Question*>& qs, std::string_view t, const std::vector<Part>& parts,
                    const std::vector<std::size_t>& run, const std::vector<std::size_t>& between,
                    std::vector<TextReading>& out) {
    bool any_words = false;
    for (std::size_t r : run) any_words = any_words || !filler(parts[r].words);
    if (between.empty()) return any_words;
    if (!any_words) {
        // No words left for them: the text said nothing to these questions, so they stay open.
        for (std::size_t q : between) out[q].how = TextReading::How::Open;
    } else if (between.size() == 1) {
        // One question: every leftover word between its neighbours is its answer.
        out[between[0]] = by_place(*qs[between[0]], t, parts, run);
    } else {
        // As many clauses as questions: one each, when each fits its question (free text,
        // or option numbers); otherwise which goes where is not clear.
        std::vector<std::vector<std::size_t>> clauses;
        for (std::size_t r : run) {
            if (clauses.empty() || parts[clauses.back().front()].clause != parts[r].clause) clauses.emplace_back();
            clauses.back().push_back(r);
        }
        if (clauses.size() == between.size()) {
            std::vector<TextReading> tries;
            for (std::size_t k = 0; k < clauses.size(); ++k)
                tries.push_back(by_place(*qs[between[k]], t, parts, clauses[k]));
            bool all_fit = true;
            for (std::size_t k = 0; k < tries.size(); ++k)
                all_fit = all_fit && (qs[between[k]]->options.empty() || tries[k].how == TextReading::How::Options);
            for (std::size_t k = 0; all_fit && k < tries.size(); ++k) out[between[k]] = std::move(tries[k]);
        }
    }
    return false;
}

}  // namespace

std::vector<TextReading> read_text_answer(const std::vector<const Question*>& qs, std::string_view text) {
    const std::string_view t = trim(text);
    std::vector<TextReading> out(qs.size());
    const auto parts = split_parts(t);
    std::vector<Named> named;
    const auto part_question = naming_parts(qs, parts, named);
    const auto claimed = answer_by_options(qs, t, parts, part_question, named, out);

    // The parts left over answer the questions between the answered ones, in question order.
    bool in_order = true;
    std::size_t last = 0;
    for (std::size_t q : part_question) {
        if (q == kNone) continue;
        in_order = in_order && q >= last;
        last = q;
    }
    bool lost = false;
    if (in_order) {
        std::size_t i = 0, prev = kNone;  // prev: the question the last naming part answered
        while (i <= parts.size()) {
            std::vector<std::size_t> run;
            while (i < parts.size() && part_question[i] == kNone) run.push_back(i++);
            const std::size_t next = i < parts.size() ? part_question[i] : qs.size();
            std::vector<std::size_t> between;
            for (std::size_t q = prev == kNone ? 0 : prev + 1; q < next; ++q)
                if (!claimed[q]) between.push_back(q);
            lost = answer_between(qs, t, parts, run, between, out) || lost;
            if (i >= parts.size()) break;
            prev = part_question[i];
            ++i;
        }
    } else {
        for (std::size_t i = 0; i < parts.size(); ++i)
            lost = lost || (part_question[i] == kNone && !filler(parts[i].words));
        // Every word went to a question that named it: the others were not spoken to.
        for (std::size_t q = 0; q < qs.size() && !lost; ++q)
            if (!claimed[q]) out[q].how = TextReading::How::Open;
    }
    // Words no question took must still reach the model: in a question that keeps the whole text.
    const bool whole_kept =
        std::any_of(out.begin(), out.end(), [](const TextReading& r) { return r.how == TextReading::How::Whole; });
    if (lost && !whole_kept) out.assign(qs.size(), TextReading{});
    for (auto& r : out)
        if (r.how == TextReading::How::Whole) r.text = std::string(t);
    return out;
}

std::string question_ref(std::size_t index, const Question& q) {
    return "question " + std::to_string(index + 1) + " (\"" + shorten(q.question) + "\")";
}

}  // namespace askhost::store
