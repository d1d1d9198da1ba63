// A person's answer as typed (askhost answer, --answers, a hand-edited file), checked against
// its question: option labels or numbers, several for multi-select, any other text is "Other".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "core/error.hpp"
#include "core/model/outcome.hpp"

namespace askhost::store {

// One value: text, or an option number (1-based) when given as a JSON number.
struct AnswerItem {
    std::string text;
    std::optional<long long> number;
};

struct AnswerSpec {
    std::vector<AnswerItem> items;
    bool array = false;  // given as a JSON array
};

// A JSON answer value: string, integer, or an array of them. null gives an empty optional.
// On a wrong shape: the error text (the caller adds where it was).
struct SpecParse {
    std::optional<AnswerSpec> spec;
    std::string error;
};
SpecParse parse_answer_spec(const rapidjson::Value& v);

// The answer as the agent gets it, or why not (e.g. "option 7 does not exist (3 options)").
// Labels match exactly, then ignoring ASCII case; numbers pick options; other text is custom.
Result<Answer> resolve_answer(const Question& q, const AnswerSpec& spec);

// A selectedOption (and wasCustom) given beside an answer must agree with it, as every face's
// answer must (docs/protocol.md): the option named exactly, and the answer itself saying the same.
// "" when they agree; else why, naming the field ("selectedOption: \"Allow\" disagrees with the
// answer \"Deny\"").
std::string answer_disagreement(const Question& q, const Answer& resolved, const std::optional<std::string>& selected,
                                std::optional<bool> was_custom = std::nullopt);

// An answer as stored in the pending file: its values, an array for multi-select.
AnswerSpec spec_of(const Answer& a);

// The answer value as JSON: a string, a number, or an array (any rapidjson writer).
template <class W>
void write_spec(W& w, const AnswerSpec& spec) {
    auto one = [&](const AnswerItem& it) {
        if (it.number) w.Int64(*it.number);
        else w.String(it.text.data(), static_cast<rapidjson::SizeType>(it.text.size()));
    };
    if (spec.array) {
        w.StartArray();
        for (const auto& it : spec.items) one(it);
        w.EndArray();
    } else if (!spec.items.empty()) {
        one(spec.items.front());
    } else {
        w.Null();
    }
}

// A person's own words (askhost answer --text) read against the questions they answer: the part of
// the sentence that answers each question, where that is clear. A part that names one question's
// options (a label, a word of one, "all" of a multi-select) answers that question; the parts left
// between answered questions answer the questions between them, in question order (a number
// there picks that question's option). Questions between which no words are left stay open (a
// phrase that answered one question is used up there); a question the words left over may be for,
// but not clearly, gets the whole text.
struct TextReading {
    enum class How { Options, Part, Whole, Open } how = How::Whole;
    std::vector<std::string> labels;  // How::Options: the options named, in the question's order
    std::string text;  // Part: the words; Options: the words naming them; Whole: the whole text; Open: ""
};
// One reading per question, in the order given; `text` is trimmed, empty only for Open.
std::vector<TextReading> read_text_answer(const std::vector<const Question*>& questions, std::string_view text);

// How errors and listings name a question: question 2 ("What should we name this service?").
std::string question_ref(std::size_t index, const Question& q);

}  // namespace askhost::store
