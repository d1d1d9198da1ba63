// The terminal dialog's screen as text lines: pure, so unit tests compare it with the spec's drawings.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/model/outcome.hpp"
#include "core/model/question.hpp"
#include "frontends/tui/dialog_model.hpp"

namespace askhost::tui {

enum Attr : unsigned { AttrNone = 0, AttrBold = 1, AttrReverse = 2, AttrDim = 4 };

struct Span {
    std::string text;  // valid UTF-8 without controls
    unsigned attrs = AttrNone;
};

struct ScreenLine {
    std::vector<Span> spans;
    std::string plain() const;  // the spans' text joined
};

// The dialog for a terminal of `width` x `height` cells: every line fits in `width` columns and
// there are at most `height` lines. Agent text goes through sanitize_for_terminal.
std::vector<ScreenLine> layout_dialog(const DialogModel& model, std::size_t width, std::size_t height);

// The one line left on the terminal after the dialog closes, at most `width` columns.
// "withdrawn" marks an ask closed from elsewhere.
std::string summary_line(const std::vector<Question>& questions, const Outcome* outcome, std::size_t width);

}  // namespace askhost::tui
