// The question model: what an agent may ask, parsed and validated once at the edge.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <rapidjson/document.h>

#include "core/error.hpp"
#include "core/model/permission.hpp"

namespace askhost {

struct Option {
    std::string label;
    std::string description;             // empty when the agent gave none
    std::optional<std::string> preview;  // markdown or an HTML fragment
};

struct Question {
    std::string question;
    std::string header;           // empty when the agent gave none (lenient profile)
    std::vector<Option> options;  // empty: a free-text question
    bool multi_select = false;
};

// strict: the ask_user_question schema models are trained on; lenient: the ask_user spec.
enum class Profile { Strict, Lenient };

std::string_view profile_name(Profile p);
std::optional<Profile> parse_profile(std::string_view name);

// Hard caps that protect the host in both profiles.
struct Limits {
    static constexpr std::size_t strict_max_questions = 4;
    static constexpr std::size_t strict_min_options = 2;
    static constexpr std::size_t strict_max_options = 4;
    static constexpr std::size_t strict_max_header_chars = 12;  // Unicode code points
    static constexpr std::size_t max_questions = 32;
    static constexpr std::size_t max_options = 64;
    static constexpr std::size_t max_text_bytes = 4096;  // question, header, label, description
    static constexpr std::size_t max_preview_bytes = 65536;
    static constexpr std::size_t max_result_bytes = 100000;   // reference implementation's cap
    static constexpr std::size_t max_answer_bytes = 65536;    // a pre-supplied answer value or notes
    static constexpr std::size_t max_metadata_bytes = 65536;  // metadata serialised
    static constexpr std::size_t max_json_depth = 32;         // nesting levels inside metadata
    static constexpr std::size_t max_input_bytes = 8u << 20;  // JSON text given to parse_ask_input
};

// A refusal the agent caused: a value, never an exception.
struct Refusal {
    std::string code;     // "invalid_schema" | "subagent" | "invalid_request"
    std::string path;     // e.g. "questions[1].options"
    std::string message;  // e.g. "questions[1].options: 5 given, at most 4"
};

// REQ-AUQ-005: what a sub-agent's question is told, wherever the agent marks it as a sub-agent's
// (docs/subagents.md).
inline constexpr const char* kSubagentRefusal =
    "Only the main conversation can ask the user questions; a sub-agent must decide on its own or "
    "report back to its parent.";

// Answers an agent supplied up front (reference implementation's `answers`), in the order given.
struct PresetAnswer {
    std::string question;
    std::vector<std::string> values;
    bool multi = false;  // given as an array
};

struct PresetAnnotation {
    std::string question;
    std::string preview;
    std::string notes;
};

// Everything an agent sends with one ask, validated.
struct AskInput {
    std::vector<Question> questions;
    std::string metadata_json;  // "" or the metadata object serialised compactly
    std::vector<PresetAnswer> preset_answers;
    std::vector<PresetAnnotation> preset_annotations;
    std::optional<Permission> permission;  // a tool permission: its one question's meaning, typed
};

template <class T>
using Parsed = std::variant<T, Refusal>;

// Parses an object holding `questions` (and optional metadata, answers, annotations).
// Unknown keys are refused in both profiles, naming the field; the lenient profile also reads a
// question's Roo Code-style `suggestions` (strings) as its options.
Parsed<AskInput> parse_ask_input(const rapidjson::Value& obj, Profile profile);

// Same, from JSON text (invalid JSON or invalid UTF-8 is refused with code invalid_request).
Parsed<AskInput> parse_ask_input(std::string_view json, Profile profile);

// The validation rules alone, for questions built in code.
std::optional<Refusal> validate_questions(const std::vector<Question>& questions, Profile profile);

// nullopt when the preview is safe; otherwise why it was refused (a Usage error: the request is
// wrong). Markdown is always accepted.
Status check_html_preview(std::string_view preview);

// Number of Unicode code points in valid UTF-8.
std::size_t utf8_length(std::string_view s);
bool utf8_valid(std::string_view s);

}  // namespace askhost
