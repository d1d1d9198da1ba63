// Parsing and validation of what an agent asks: both profiles, every refusal a value.
#include "core/model/question.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <span>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/text/ascii.hpp"
#include "core/text/preview.hpp"
#include "core/text/utf8.hpp"
#include "json/json_access.hpp"

namespace askhost {

std::string_view profile_name(Profile p) { return p == Profile::Strict ? "strict" : "lenient"; }

std::optional<Profile> parse_profile(std::string_view name) {
    if (name == "strict") return Profile::Strict;
    if (name == "lenient") return Profile::Lenient;
    return std::nullopt;
}

bool utf8_valid(std::string_view s) {
    // ASCII 8 bytes at a time (most of what agents write); a byte with its high bit set decodes.
    std::size_t i = 0;
    while (i < s.size()) {
        if (s.size() - i >= 8) {
            std::uint64_t word = 0;
            std::memcpy(&word, s.data() + i, 8);
            if ((word & 0x8080808080808080ull) == 0) {
                i += 8;
                continue;
            }
        }
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const auto step = utf8::decode(s, i);
        if (!step.ok) return false;
        i += step.len;
    }
    return true;
}

std::size_t utf8_length(std::string_view s) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.size(); ++n) i += utf8::decode(s, i).len;
    return n;
}

namespace {

using Check = std::optional<Refusal>;
using rapidjson::Value;

Refusal schema_error(const std::string& path, std::string_view detail) {
    std::string message = path.empty() ? std::string(detail) : path + ": " + std::string(detail);
    return Refusal{"invalid_schema", path, std::move(message)};
}

// Where a value sits in the request ("questions[1].options[0].label"), spelled out only when a
// check refuses it: a request that passes builds no path strings. An At points at the one it
// extends, so each must be a named local (or a temporary used within one expression).
class At {
public:
    At() = default;  // the request itself: ""
    explicit At(std::string_view name) : name_(name) {}

    At field(std::string_view name) const { return At(this, name, Kind::Field, 0); }
    At item(std::size_t i) const { return At(this, {}, Kind::Item, i); }
    At raw(std::string_view text) const { return At(this, text, Kind::Raw, 0); }  // appended as it is

    std::string str() const {
        std::string out;
        append(out);
        return out;
    }

private:
    enum class Kind { Field, Item, Raw };
    At(const At* up, std::string_view name, Kind kind, std::size_t index)
        : up_(up), name_(name), kind_(kind), index_(index) {}

    void append(std::string& out) const {
        if (up_ != nullptr) up_->append(out);
        switch (kind_) {
            case Kind::Field:
                if (!out.empty()) out += '.';
                out += name_;
                break;
            case Kind::Item:
                out += '[';
                out += std::to_string(index_);
                out += ']';
                break;
            case Kind::Raw: out += name_; break;
        }
    }

    const At* up_ = nullptr;
    std::string_view name_;
    Kind kind_ = Kind::Field;
    std::size_t index_ = 0;
};

Refusal schema_error(const At& at, std::string_view detail) { return schema_error(at.str(), detail); }

// Agent text quoted inside a message: valid UTF-8 and short, so a refusal stays readable.
std::string shown(std::string_view s) {
    constexpr std::size_t max_chars = 60;
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < s.size(); ++chars) {
        if (chars == max_chars) return out + "...";
        const auto step = utf8::decode(s, i);
        utf8::append(out, step.cp);
        i += step.len;
    }
    return out;
}

std::string quoted(std::string_view s) { return "\"" + shown(s) + "\""; }

// The strict profile's messages are the reference implementation's: they quote the agent's text
// whole (valid UTF-8; texts are capped at Limits::max_text_bytes, so a message stays bounded).
std::string quoted_whole(std::string_view s) { return "\"" + utf8::from_u32(utf8::to_u32(s)) + "\""; }

bool blank(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    });
}

std::string index_path(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

std::string count_detail(std::size_t n, std::string_view bound, std::size_t limit) {
    return std::to_string(n) + " given, " + std::string(bound) + " " + std::to_string(limit);
}

// --- the rules, shared by the JSON parser and validate_questions ---------------------------

Check check_text(const At& path, std::string_view s, std::size_t max_bytes) {
    if (!utf8_valid(s)) return schema_error(path, "invalid UTF-8");
    if (s.size() > max_bytes)
        return schema_error(path, std::to_string(s.size()) + " bytes, at most " + std::to_string(max_bytes));
    return std::nullopt;
}

Check check_nonblank_text(const At& path, std::string_view s) {
    if (auto r = check_text(path, s, Limits::max_text_bytes)) return r;
    if (blank(s)) return schema_error(path, "must not be empty");
    return std::nullopt;
}

// The strict profile speaks the reference implementation's words; the lenient one counts.
Check check_question_count(std::size_t n, Profile profile) {
    if (profile == Profile::Strict) {
        if (n < 1) return schema_error("questions", "Provide 1-4 questions");
        if (n > Limits::strict_max_questions) return schema_error("questions", "At most 4 questions allowed");
        return std::nullopt;
    }
    if (n < 1) return schema_error("questions", count_detail(n, "at least", 1));
    if (n > Limits::max_questions) return schema_error("questions", count_detail(n, "at most", Limits::max_questions));
    return std::nullopt;
}

Check check_duplicate_question(const std::vector<Question>& earlier, const std::string& text, std::size_t i,
                               Profile profile) {
    for (std::size_t k = 0; k < earlier.size() && k < i; ++k) {
        if (earlier[k].question != text) continue;
        const std::string path = index_path("questions", i) + ".question";
        if (profile == Profile::Strict)
            return schema_error(path, "Question texts must be unique: " + quoted_whole(text));
        return schema_error(path, "duplicate of " + index_path("questions", k) + ".question " + quoted(text));
    }
    return std::nullopt;
}

// Presence and text; the strict length rule (check_header_length) waits for the option counts.
Check check_header(const At& path, std::string_view header, bool present, Profile profile) {
    if (profile == Profile::Strict && !present) return schema_error(path, "required");
    if (auto r = check_text(path, header, Limits::max_text_bytes)) return r;
    if (profile == Profile::Strict && blank(header)) return schema_error(path, "must not be empty");
    return std::nullopt;
}

Check check_header_length(const At& path, const Question& q) {
    if (utf8_length(q.header) <= Limits::strict_max_header_chars) return std::nullopt;
    return schema_error(path, "header for " + quoted_whole(q.question) + " exceeds " +
                                  std::to_string(Limits::strict_max_header_chars) + " chars");
}

// `question` is the question's text, quoted in the strict message.
Check check_option_count(const At& path, std::size_t n, Profile profile, std::string_view question) {
    if (profile == Profile::Strict) {
        if (n < Limits::strict_min_options || n > Limits::strict_max_options)
            return schema_error(path, "Question " + quoted_whole(question) + " must have 2-4 options");
    } else if (n > Limits::max_options) {
        return schema_error(path, count_detail(n, "at most", Limits::max_options));
    }
    return std::nullopt;
}

Check check_duplicate_label(std::span<const Option> earlier, const std::string& label, const At& path, Profile profile,
                            std::string_view question) {
    for (const auto& o : earlier) {
        if (o.label != label) continue;
        if (profile == Profile::Strict)
            return schema_error(path, "Option labels must be unique within question " + quoted_whole(question));
        return schema_error(path, "duplicate label " + quoted(label));
    }
    return std::nullopt;
}

Check check_preview_html(const At& path, std::string_view preview, Profile profile, const Option& o,
                         std::string_view question) {
    const auto refused = check_html_preview(preview);
    if (!refused) return std::nullopt;
    if (profile == Profile::Strict)
        return schema_error(path, "Option " + quoted_whole(o.label) + " in question " + quoted_whole(question) + ": " +
                                      refused->message);
    return schema_error(path, refused->message);
}

// The reference implementation's rules, in its order, once every question's option count has
// passed: per question, its text unique, its header's length, then each option's label unique
// and its preview safe.
Check check_strict_rules(const std::vector<Question>& questions) {
    for (std::size_t i = 0; i < questions.size(); ++i) {
        const Question& q = questions[i];
        const At top("questions");
        const At path = top.item(i);
        if (auto r = check_duplicate_question(questions, q.question, i, Profile::Strict)) return r;
        if (auto r = check_header_length(path.field("header"), q)) return r;
        const At options = path.field("options");
        for (std::size_t j = 0; j < q.options.size(); ++j) {
            const Option& o = q.options[j];
            const At option_path = options.item(j);
            const std::span<const Option> earlier(q.options.data(), j);
            if (auto r =
                    check_duplicate_label(earlier, o.label, option_path.field("label"), Profile::Strict, q.question))
                return r;
            if (o.preview)
                if (auto r =
                        check_preview_html(option_path.field("preview"), *o.preview, Profile::Strict, o, q.question))
                    return r;
        }
    }
    return std::nullopt;
}

// --- JSON access ---------------------------------------------------------------------------

// Reads a JSON object into the model. Fields are checked in a fixed order, first error wins.
class AskParser {
public:
    explicit AskParser(Profile profile) : profile_(profile) {}

    Parsed<AskInput> parse(const Value& obj) {
        AskInput input;
        if (auto r = parse_top(obj, input)) return *r;
        return input;
    }

private:
    Profile profile_;

    bool strict() const { return profile_ == Profile::Strict; }

    static std::string_view key_of(const Value::ConstMemberIterator& m) {
        return {m->name.GetString(), m->name.GetStringLength()};
    }

    // Known keys at most once; an unknown key is refused in both profiles: what the agent meant by
    // it would otherwise be dropped without a word.
    static Check check_keys(const Value& obj, const At& path, std::initializer_list<std::string_view> allowed) {
        std::array<bool, 8> seen{};
        for (auto m = obj.MemberBegin(); m != obj.MemberEnd(); ++m) {
            const std::string_view key = key_of(m);
            const auto it = std::find(allowed.begin(), allowed.end(), key);
            if (it == allowed.end()) {
                const std::string name = shown(key);
                return schema_error(path.field(name), "unknown field");
            }
            auto& flag = seen[static_cast<std::size_t>(it - allowed.begin())];
            if (flag) return schema_error(path.field(key), "given twice");
            flag = true;
        }
        return std::nullopt;
    }

    // The member, or nullptr when absent (or null in the lenient profile, which means absent).
    const Value* find(const Value& obj, const char* key) const {
        const auto m = obj.FindMember(key);
        if (m == obj.MemberEnd()) return nullptr;
        if (!strict() && m->value.IsNull()) return nullptr;
        return &m->value;
    }

    static Check read_string(const Value* v, const At& path, std::string& out) {
        if (!v->IsString()) return schema_error(path, "expected a string");
        out.assign(v->GetString(), v->GetStringLength());
        return std::nullopt;
    }

    // A field that must be there in either profile: a string with more than white space in it.
    Check read_required_text(const Value& obj, const At& path, const char* key, std::string& out) const {
        const At field_path = path.field(key);
        const Value* v = find(obj, key);
        if (v == nullptr) return schema_error(field_path, "required");
        if (auto r = read_string(v, field_path, out)) return r;
        return check_nonblank_text(field_path, out);
    }

    Check parse_top(const Value& obj, AskInput& input) const {
        if (!obj.IsObject()) return schema_error("", "expected a JSON object with a \"questions\" array");
        if (auto r = check_keys(obj, At(), {"questions", "answers", "annotations", "metadata", "permission"})) return r;

        const Value* qs = find(obj, "questions");
        if (strict() && (qs == nullptr || !qs->IsArray())) return schema_error("questions", "Provide 1-4 questions");
        if (qs == nullptr) return schema_error("questions", "required");
        if (!qs->IsArray()) return schema_error("questions", "expected an array");
        if (auto r = check_question_count(qs->Size(), profile_)) return r;
        input.questions.reserve(qs->Size());
        for (rapidjson::SizeType i = 0; i < qs->Size(); ++i) {
            if (auto r = parse_question((*qs)[i], i, input.questions)) return r;
        }
        // Strict: every question's option count (checked while parsing) before the other rules.
        if (strict())
            if (auto r = check_strict_rules(input.questions)) return r;

        if (auto r = parse_metadata(find(obj, "metadata"), input.metadata_json)) return r;
        if (const Value* permission = find(obj, "permission")) {
            Permission p;
            if (auto r = parse_permission(*permission, input.questions, p)) return r;
            input.permission = std::move(p);
        }
        if (auto r = parse_keyed_by_question(find(obj, "answers"), "answers", input, &AskParser::read_preset_answer))
            return r;
        if (auto r = parse_keyed_by_question(find(obj, "annotations"), "annotations", input,
                                             &AskParser::read_preset_annotation))
            return r;
        return std::nullopt;
    }

    Check parse_question(const Value& v, std::size_t i, std::vector<Question>& out) const {
        const At top("questions");
        const At path = top.item(i);
        if (!v.IsObject()) return schema_error(path, "expected an object");
        // Roo Code's `suggestions` (a list of answers) are the lenient profile's options too.
        if (auto r = strict() ? check_keys(v, path, {"question", "header", "options", "multiSelect"})
                              : check_keys(v, path, {"question", "header", "options", "multiSelect", "suggestions"}))
            return r;
        Question q;

        if (auto r = read_required_text(v, path, "question", q.question)) return r;
        if (!strict())
            if (auto r = check_duplicate_question(out, q.question, i, profile_)) return r;

        const At header_path = path.field("header");
        const Value* header = find(v, "header");
        if (header != nullptr) {
            if (auto r = read_string(header, header_path, q.header)) return r;
        }
        if (auto r = check_header(header_path, q.header, header != nullptr, profile_)) return r;

        const At options_path = path.field("options");
        const Value* options = find(v, "options");
        if (strict() && (options == nullptr || !options->IsArray()))
            return check_option_count(options_path, 0, profile_, q.question);
        if (options != nullptr) {
            if (!options->IsArray()) return schema_error(options_path, "expected an array");
            if (auto r = check_option_count(options_path, options->Size(), profile_, q.question)) return r;
            q.options.reserve(options->Size());
            for (rapidjson::SizeType j = 0; j < options->Size(); ++j) {
                if (auto r = parse_option((*options)[j], options_path.item(j), q.options)) return r;
            }
        }
        if (const Value* suggestions = strict() ? nullptr : find(v, "suggestions")) {
            const At suggestions_path = path.field("suggestions");
            if (options != nullptr) return schema_error(suggestions_path, "give options or suggestions, not both");
            if (auto r = parse_suggestions(*suggestions, suggestions_path, q)) return r;
        }

        const Value* multi = find(v, "multiSelect");
        if (multi != nullptr) {
            if (!multi->IsBool()) return schema_error(path.field("multiSelect"), "expected a boolean");
            // A free-text question has nothing to select several of.
            q.multi_select = multi->GetBool() && !q.options.empty();
        }
        out.push_back(std::move(q));
        return std::nullopt;
    }

    // Roo Code's suggestions: answers offered as strings, each an option with no description.
    Check parse_suggestions(const Value& v, const At& path, Question& q) const {
        if (!v.IsArray()) return schema_error(path, "expected an array of strings");
        if (auto r = check_option_count(path, v.Size(), profile_, q.question)) return r;
        q.options.reserve(v.Size());
        for (rapidjson::SizeType j = 0; j < v.Size(); ++j) {
            const At item_path = path.item(j);
            Option o;
            if (auto r = read_string(&v[j], item_path, o.label)) return r;
            if (auto r = check_nonblank_text(item_path, o.label)) return r;
            if (auto r = check_duplicate_label(q.options, o.label, item_path, profile_, q.question)) return r;
            q.options.push_back(std::move(o));
        }
        return std::nullopt;
    }

    Check parse_option(const Value& v, const At& path, std::vector<Option>& out) const {
        if (!v.IsObject()) return schema_error(path, "expected an object");
        if (auto r = check_keys(v, path, {"label", "description", "preview"})) return r;
        Option o;

        if (auto r = read_required_text(v, path, "label", o.label)) return r;
        if (!strict())
            if (auto r = check_duplicate_label(out, o.label, path.field("label"), profile_, {})) return r;

        if (const Value* d = find(v, "description")) {
            const At d_path = path.field("description");
            if (auto r = read_string(d, d_path, o.description)) return r;
            if (auto r = check_text(d_path, o.description, Limits::max_text_bytes)) return r;
        }
        if (const Value* p = find(v, "preview")) {
            const At p_path = path.field("preview");
            std::string preview;
            if (auto r = read_string(p, p_path, preview)) return r;
            if (auto r = check_text(p_path, preview, Limits::max_preview_bytes)) return r;
            if (!strict())
                if (auto r = check_preview_html(p_path, preview, profile_, o, {})) return r;
            if (!preview.empty()) o.preview = std::move(preview);
        }
        out.push_back(std::move(o));
        return std::nullopt;
    }

    Check parse_metadata(const Value* v, std::string& out) const {
        if (v == nullptr) return std::nullopt;
        if (!json::is_object(*v)) return schema_error("metadata", "expected an object");
        if (strict()) {
            const auto source = v->FindMember("source");
            if (source != v->MemberEnd() && !source->value.IsString())
                return schema_error("metadata.source", "expected a string");
        }
        // Metadata is the one agent value this parser re-serialises (Accept recurses once a level).
        if (json::deeper_than(*v, Limits::max_json_depth))
            return schema_error("metadata", "nested deeper than " + std::to_string(Limits::max_json_depth) + " levels");
        rapidjson::StringBuffer buffer;
        rapidjson::Writer<rapidjson::StringBuffer, rapidjson::UTF8<>, rapidjson::UTF8<>, rapidjson::CrtAllocator,
                          rapidjson::kWriteValidateEncodingFlag>
            writer(buffer);
        if (!json::write(*v, writer)) return schema_error("metadata", "invalid UTF-8");
        if (buffer.GetSize() > Limits::max_metadata_bytes)
            return schema_error("metadata", std::to_string(buffer.GetSize()) + " bytes, at most " +
                                                std::to_string(Limits::max_metadata_bytes));
        out.assign(buffer.GetString(), buffer.GetSize());
        return std::nullopt;
    }

    // Answers and annotations are both objects keyed by question text, each question at most once;
    // read(question, path, value, input) takes in one member.
    using ReadKeyed = Check (AskParser::*)(std::string question, const At& path, const Value& value,
                                           AskInput& input) const;
    Check parse_keyed_by_question(const Value* v, const char* base, AskInput& input, ReadKeyed read) const {
        if (v == nullptr) return std::nullopt;
        if (!v->IsObject()) return schema_error(base, "expected an object");
        std::vector<std::string> seen;
        for (auto m = v->MemberBegin(); m != v->MemberEnd(); ++m) {
            std::string key(key_of(m));
            const At root(base);
            const std::string bracketed = "[" + quoted(key) + "]";
            const At path = root.raw(bracketed);
            if (std::find(seen.begin(), seen.end(), key) != seen.end()) return schema_error(path, "given twice");
            const bool known = std::any_of(input.questions.begin(), input.questions.end(),
                                           [&](const Question& q) { return q.question == key; });
            if (!known) return schema_error(path, "no such question");
            seen.push_back(key);
            if (auto r = (this->*read)(std::move(key), path, m->value, input)) return r;
        }
        return std::nullopt;
    }

    // An answer given in advance: one string, or an array of strings (a multi-select's).
    Check read_preset_answer(std::string question, const At& path, const Value& value, AskInput& input) const {
        PresetAnswer preset;
        preset.question = std::move(question);
        if (value.IsString()) {
            preset.values.emplace_back(value.GetString(), value.GetStringLength());
            if (auto r = check_text(path, preset.values.back(), Limits::max_answer_bytes)) return r;
        } else if (value.IsArray()) {
            preset.multi = true;
            if (value.Size() > Limits::max_options)
                return schema_error(path, count_detail(value.Size(), "at most", Limits::max_options));
            for (rapidjson::SizeType j = 0; j < value.Size(); ++j) {
                const At item_path = path.item(j);
                std::string item;
                if (auto r = read_string(&value[j], item_path, item)) return r;
                if (auto r = check_text(item_path, item, Limits::max_answer_bytes)) return r;
                preset.values.push_back(std::move(item));
            }
        } else {
            return schema_error(path, "expected a string or an array of strings");
        }
        input.preset_answers.push_back(std::move(preset));
        return std::nullopt;
    }

    Check read_preset_annotation(std::string question, const At& path, const Value& value, AskInput& input) const {
        PresetAnnotation note;
        note.question = std::move(question);
        if (!value.IsObject()) return schema_error(path, "expected an object");
        if (auto r = read_note_text(value, "preview", path, note.preview, Limits::max_preview_bytes)) return r;
        if (auto r = read_note_text(value, "notes", path, note.notes, Limits::max_answer_bytes)) return r;
        input.preset_annotations.push_back(std::move(note));
        return std::nullopt;
    }

    // An annotation's optional text (preview, notes): a string of at most max_bytes.
    Check read_note_text(const Value& note, const char* name, const At& path, std::string& out,
                         std::size_t max_bytes) const {
        const Value* v = find(note, name);
        if (v == nullptr) return std::nullopt;
        const At field_path = path.field(name);
        if (auto r = read_string(v, field_path, out)) return r;
        return check_text(field_path, out, max_bytes);
    }
};

Refusal request_error(std::string message) { return Refusal{"invalid_request", "", std::move(message)}; }

Refusal internal_error(const std::exception& e) {
    return request_error(std::string("could not process the request: ") + e.what());
}

}  // namespace

Parsed<AskInput> parse_ask_input(const rapidjson::Value& obj, Profile profile) {
    try {
        return AskParser(profile).parse(obj);
    } catch (const std::exception& e) {  // allocation failure on hostile input: still a refusal
        return internal_error(e);
    }
}

Parsed<AskInput> parse_ask_input(std::string_view json, Profile profile) {
    try {
        if (json.size() > Limits::max_input_bytes)
            return request_error("request is " + std::to_string(json.size()) + " bytes, at most " +
                                 std::to_string(Limits::max_input_bytes));
        // Any depth (at a heap cost bounded by max_input_bytes): too deep metadata is refused by name.
        rapidjson::Document doc;
        if (auto err = json::parse(doc, json, json::no_depth_limit))
            return request_error("invalid JSON at offset " + std::to_string(err->offset) + ": " + err->message);
        return AskParser(profile).parse(doc);
    } catch (const std::exception& e) {
        return internal_error(e);
    }
}

std::optional<Refusal> validate_questions(const std::vector<Question>& questions, Profile profile) {
    const bool strict = profile == Profile::Strict;
    if (auto r = check_question_count(questions.size(), profile)) return r;
    for (std::size_t i = 0; i < questions.size(); ++i) {
        const Question& q = questions[i];
        const At top("questions");
        const At path = top.item(i);
        if (auto r = check_nonblank_text(path.field("question"), q.question)) return r;
        if (!strict)
            if (auto r = check_duplicate_question(questions, q.question, i, profile)) return r;
        if (auto r = check_header(path.field("header"), q.header, true, profile)) return r;
        const At options_path = path.field("options");
        if (auto r = check_option_count(options_path, q.options.size(), profile, q.question)) return r;
        for (std::size_t j = 0; j < q.options.size(); ++j) {
            const Option& o = q.options[j];
            const At option_path = options_path.item(j);
            const At label_path = option_path.field("label");
            if (auto r = check_nonblank_text(label_path, o.label)) return r;
            const std::span<const Option> earlier(q.options.data(), j);
            if (!strict)
                if (auto r = check_duplicate_label(earlier, o.label, label_path, profile, {})) return r;
            if (auto r = check_text(option_path.field("description"), o.description, Limits::max_text_bytes)) return r;
            if (!o.preview) continue;
            const At preview_path = option_path.field("preview");
            if (auto r = check_text(preview_path, *o.preview, Limits::max_preview_bytes)) return r;
            if (!strict)
                if (auto r = check_preview_html(preview_path, *o.preview, profile, o, {})) return r;
        }
    }
    if (strict) return check_strict_rules(questions);
    return std::nullopt;
}

// --- HTML previews -------------------------------------------------------------------------

namespace {

using ascii::is_alpha;
using ascii::is_space;
using ascii::lower;

bool starts_with_ci(std::string_view s, std::size_t pos, std::string_view prefix) {
    if (s.size() - std::min(pos, s.size()) < prefix.size()) return false;
    for (std::size_t k = 0; k < prefix.size(); ++k)
        if (lower(s[pos + k]) != prefix[k]) return false;
    return true;
}

// What a browser would read as the URL: a few entities decoded, whitespace and controls dropped.
std::string normalise_url(std::string_view v) {
    std::string out;
    for (std::size_t i = 0; i < v.size();) {
        if (v[i] == '&') {
            std::size_t k = i + 1;
            if (k < v.size() && v[k] == '#') {
                ++k;
                const bool hex = k < v.size() && lower(v[k]) == 'x';
                if (hex) ++k;
                unsigned long code = 0;
                std::size_t digits = 0;
                for (; k < v.size() && digits < 8; ++k, ++digits) {
                    const char c = lower(v[k]);
                    if (c >= '0' && c <= '9') code = code * (hex ? 16 : 10) + static_cast<unsigned long>(c - '0');
                    else if (hex && c >= 'a' && c <= 'f') code = code * 16 + static_cast<unsigned long>(c - 'a' + 10);
                    else break;
                }
                if (digits > 0) {
                    if (k < v.size() && v[k] == ';') ++k;
                    if (code > 0x20 && code < 0x7F) out += lower(static_cast<char>(code));
                    else if (code >= 0x7F) out += '?';  // non-ASCII never forms "javascript:"
                    i = k;
                    continue;
                }
            } else if (starts_with_ci(v, k, "colon;")) {
                out += ':';
                i = k + 6;
                continue;
            } else if (starts_with_ci(v, k, "tab;")) {
                i = k + 4;
                continue;
            } else if (starts_with_ci(v, k, "newline;")) {
                i = k + 8;
                continue;
            }
        }
        const auto c = static_cast<unsigned char>(v[i]);
        if (c > 0x20 && c != 0x7F) out += lower(v[i]);
        ++i;
    }
    return out;
}

bool dangerous_url(std::string_view value) {
    const std::string url = normalise_url(value);
    return url.find("javascript:") != std::string::npos || url.find("vbscript:") != std::string::npos;
}

constexpr std::array<std::string_view, 12> kForbiddenTags = {
    "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta", "link", "noscript"};
constexpr std::array<std::string_view, 3> kDocumentTags = {"html", "head", "body"};

Status check_html(std::string_view p) {
    std::size_t i = 0;
    while ((i = p.find('<', i)) != std::string_view::npos) {
        if (p.compare(i, 4, "<!--") == 0) {
            const auto end = p.find("-->", i + 4);
            if (end == std::string_view::npos) return std::nullopt;
            i = end + 3;
            continue;
        }
        if (starts_with_ci(p, i, "<!doctype"))
            return Error::usage("must be an HTML fragment, not a full document (<!DOCTYPE>)");
        std::size_t k = i + 1;
        if (k < p.size() && p[k] == '/') ++k;
        if (k >= p.size() || !is_alpha(p[k])) {
            ++i;
            continue;
        }
        std::string name;
        while (k < p.size() && (is_alpha(p[k]) || (p[k] >= '0' && p[k] <= '9') || p[k] == '-')) name += lower(p[k++]);
        if (std::find(kForbiddenTags.begin(), kForbiddenTags.end(), name) != kForbiddenTags.end())
            return Error::usage("<" + name + "> is not allowed");
        if (std::find(kDocumentTags.begin(), kDocumentTags.end(), name) != kDocumentTags.end())
            return Error::usage("must be an HTML fragment, not a full document (<" + name + ">)");

        // Attributes up to the closing '>': names, then quoted or bare values.
        while (k < p.size() && p[k] != '>') {
            if (is_space(p[k]) || p[k] == '/') {
                ++k;
                continue;
            }
            std::string attr;
            while (k < p.size() && !is_space(p[k]) && p[k] != '/' && p[k] != '>' && p[k] != '=') attr += lower(p[k++]);
            if (attr.size() > 2 && attr.compare(0, 2, "on") == 0)
                return Error::usage("event-handler attribute " + attr + "= is not allowed");
            while (k < p.size() && is_space(p[k])) ++k;
            if (k >= p.size() || p[k] != '=') continue;
            ++k;
            while (k < p.size() && is_space(p[k])) ++k;
            std::size_t begin = k;
            std::size_t end = k;
            if (k < p.size() && (p[k] == '"' || p[k] == '\'')) {
                const char quote = p[k];
                begin = k + 1;
                end = p.find(quote, begin);
                if (end == std::string_view::npos) end = p.size();
                k = std::min(end + 1, p.size());
            } else {
                while (k < p.size() && !is_space(p[k]) && p[k] != '>') ++k;
                end = k;
            }
            if (dangerous_url(p.substr(begin, end - begin))) return Error::usage("javascript: URL is not allowed");
        }
        i = k;
    }
    return std::nullopt;
}

// Markdown stays markdown, but a link target can still be a script.
Status check_markdown(std::string_view p) {
    for (std::size_t i = p.find("]("); i != std::string_view::npos; i = p.find("](", i + 2)) {
        const std::size_t close = p.find(')', i + 2);
        const std::string_view target = p.substr(i + 2, close == std::string_view::npos ? p.npos : close - i - 2);
        const std::string url = normalise_url(target);
        const std::size_t start = url.empty() || url[0] != '<' ? 0 : 1;
        if (url.compare(start, 11, "javascript:") == 0 || url.compare(start, 9, "vbscript:") == 0)
            return Error::usage("javascript: URL is not allowed");
    }
    return std::nullopt;
}

}  // namespace

Status check_html_preview(std::string_view preview) {
    if (looks_like_html(preview)) {
        if (auto reason = check_html(preview)) return reason;
    }
    return check_markdown(preview);  // markdown may carry HTML, and HTML may carry markdown links
}

}  // namespace askhost
