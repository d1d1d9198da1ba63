// ACP's elicitation/create in form mode (MCP's elicitation schema) as an Ask, and the Ask's
// outcome back as the elicitation result the agent expects.
#pragma once

#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "core/error.hpp"
#include "core/model/outcome.hpp"

namespace askhost::acp {

// One question of the form: the property it answers and how its answer is written back.
struct FormField {
    enum class Type { String, Number, Integer, Boolean };
    std::string key;                       // the property ("question_0")
    std::string custom_key;                // its "Other" companion ("question_0_custom"), or ""
    Type type = Type::String;              // of the value (of the items, for an array)
    bool array = false;                    // multi-select
    std::vector<std::string> values_json;  // option i's value as JSON (its const), parallel to options
};

struct ElicitationForm {
    AskInput input;                 // one question per field, validated
    std::vector<FormField> fields;  // parallel to input.questions
};

// `params` of elicitation/create. Each property is a question: `oneOf`/`enum` strings are options
// (titles and descriptions kept), `type: array` with `items.anyOf`/`items.enum` is multi-select,
// a boolean is Yes/No, other strings and numbers are free text. A `<key>_custom` property next
// to `<key>` is not asked on its own: it carries the "Other" answer (or a note on a chosen option).
// The single question's text is the form's `message`; with several, each field's description.
// A form askhost cannot ask is a usage error naming the field.
Result<ElicitationForm> parse_elicitation_form(const rapidjson::Value& params, Profile profile);

// The result of elicitation/create for an outcome: {"action":"accept","content":{...}} when
// answered, "decline" when the person cancelled (or nobody can answer now), "cancel" when the
// question went away (timed out, the client vanished).
std::string elicitation_result_json(const ElicitationForm& form, const Outcome& outcome);

}  // namespace askhost::acp
