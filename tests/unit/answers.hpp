// The answers the unit tests hand back for a question: an option picked, text typed, several
// options of a multi-select.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/model/outcome.hpp"

namespace askhost::testing {

// The option `label` picked for question q (with notes, when given).
inline Answer picked(std::string q, std::string label, std::string notes = {}) {
    Answer a;
    a.question = std::move(q);
    a.values = {label};
    a.selected_option = std::move(label);
    a.notes = std::move(notes);
    return a;
}

// Text typed for question q (the Other row).
inline Answer typed(std::string q, std::string text) {
    Answer a;
    a.question = std::move(q);
    a.values = {std::move(text)};
    a.was_custom = true;
    return a;
}

// The values of a multi-select question q; custom: one of them was typed.
inline Answer multi(std::string q, std::vector<std::string> values, bool custom = false) {
    Answer a;
    a.question = std::move(q);
    a.values = std::move(values);
    a.multi = true;
    a.was_custom = custom;
    return a;
}

}  // namespace askhost::testing
