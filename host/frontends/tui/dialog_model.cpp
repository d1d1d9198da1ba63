#include "frontends/tui/dialog_model.hpp"

#include <algorithm>
#include <utility>

#include "core/text/sanitize.hpp"
#include "core/text/utf8.hpp"
#include "frontends/tui/dialog_text.hpp"

namespace askhost::tui {

namespace {

bool printable(char32_t c) {
    return c >= 0x20 && c != 0x7f && !(c >= 0x80 && c < 0xa0) && c <= 0x10ffff && !(c >= 0xd800 && c <= 0xdfff);
}

// Text as a text field keeps it: CR LF and a lone CR are one line break, a tab is a space, other
// control characters go.
std::u32string clean_text(std::u32string_view text) {
    std::u32string clean;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char32_t c = text[i];
        if (c == U'\r') {
            clean.push_back(U'\n');
            if (i + 1 < text.size() && text[i + 1] == U'\n') ++i;
        } else if (c == U'\n') {
            clean.push_back(U'\n');
        } else if (c == U'\t') {
            clean.push_back(U' ');
        } else if (printable(c)) {
            clean.push_back(c);
        }
    }
    return clean;
}

}  // namespace

// ---------------------------------------------------------------- the state machine

DialogModel::DialogModel(std::vector<Question> questions, std::optional<Permission> permission)
    : questions_(std::move(questions)), states_(questions_.size()), permission_(std::move(permission)) {
    for (std::size_t q = 0; q < questions_.size(); ++q)
        if (questions_[q].multi_select) states_[q].checked.assign(row_count(q), false);
}

// One rule in all three dialogs: the label ends with "(Recommended)", ASCII whitespace after it
// ignored (Neovim: %s*$, VS Code: [ \t\n\r\f\v]*$).
bool DialogModel::is_recommended(std::string_view label) {
    constexpr std::string_view mark = "(Recommended)";
    while (!label.empty() && std::string_view(" \t\n\r\f\v").find(label.back()) != std::string_view::npos)
        label.remove_suffix(1);
    return label.size() >= mark.size() && label.substr(label.size() - mark.size()) == mark;
}

std::size_t DialogModel::row_count(std::size_t q) const { return free_text(q) ? 0 : questions_[q].options.size() + 1; }

bool DialogModel::checked(std::size_t q, std::size_t row) const {
    const auto& c = states_[q].checked;
    return row < c.size() && c[row];
}

bool DialogModel::editing(std::size_t q) const { return free_text(q) || states_[q].editing_other; }

std::size_t DialogModel::visible_rows(std::size_t q) const {
    return questions_[q].options.size() > scroll_threshold ? scroll_window : row_count(q);
}

DialogModel::Mode DialogModel::mode() const {
    if (confirm_ == Confirm::Discard) return Mode::ConfirmDiscard;
    if (confirm_ == Confirm::Long) return Mode::ConfirmLong;
    if (noting_) return Mode::EditNote;
    if (!on_submit_tab() && !questions_.empty() && editing(tab_)) return Mode::EditText;
    return Mode::Browse;
}

std::size_t DialogModel::answered_count() const {
    return static_cast<std::size_t>(
        std::count_if(states_.begin(), states_.end(), [](const auto& s) { return s.answer.has_value(); }));
}

std::vector<std::size_t> DialogModel::unanswered() const {
    std::vector<std::size_t> out;
    for (std::size_t q = 0; q < states_.size(); ++q)
        if (!states_[q].answer) out.push_back(q);
    return out;
}

std::string DialogModel::tab_label(std::size_t q) const {
    const auto& qu = questions_[q];
    return sanitize_for_terminal(qu.header.empty() ? qu.question : qu.header);
}

std::string DialogModel::confirm_text() const {
    if (confirm_ == Confirm::Discard) {
        // One plural rule in all three dialogs: "Discard 1 answer?", "Discard 2 answers?".
        const std::size_t n = answered_count();
        return "Discard " + std::to_string(n) + (n == 1 ? " answer?" : " answers?");
    }
    if (confirm_ == Confirm::Long) return "Answer is long (" + format_count(long_chars_) + " chars). Continue anyway?";
    return {};
}

// The key hint under the dialog (docs/dialog.md), outside a confirmation: the seeds' words, or
// (narrow) the same keys in fewer words for a window too narrow for them on one row.
std::string DialogModel::hint_words(bool narrow) const {
    const DialogModel& m = *this;
    const bool multi_q = m.multi_question();
    auto pick = [narrow](const char* wide, const char* short_form) { return std::string(narrow ? short_form : wide); };
    if (noting_) return pick("Note for the agent • Enter or Esc to go back", "Note • Enter/Esc back");
    if (!m.on_submit_tab() && m.editing(m.tab())) {
        if (m.free_text(m.tab()))
            return multi_q ? pick("Tab switch • Enter confirm • Esc cancel", "Tab switch • Enter ok • Esc cancel")
                           : pick("Enter to submit • Esc to cancel", "Enter submit • Esc cancel");
        if (m.question(m.tab()).multi_select) return pick("Enter to confirm • Esc to go back", "Enter ok • Esc back");
        return multi_q ? pick("Tab switch • Enter confirm • Esc back", "Tab switch • Enter ok • Esc back")
                       : pick("Enter to submit • Esc to go back", "Enter submit • Esc back");
    }
    if (m.on_submit_tab()) {
        return m.answered_count() == m.question_count()
                   ? pick("Enter to submit • Tab/←→ switch • Esc cancel", "Enter submit • Tab/←→ switch • Esc cancel")
                   : pick("Answer every question to submit • Tab/←→ switch • Esc cancel",
                          "Answer all first • Tab/←→ switch • Esc cancel");
    }
    if (m.question(m.tab()).multi_select)
        return multi_q ? pick("Tab/←→ switch • Space toggle • Enter confirm • Esc cancel",
                              "Tab/←→ switch • Space toggle • Enter ok • Esc cancel")
                       : pick("Space to toggle • Enter to submit • Esc to cancel",
                              "Space toggle • Enter submit • Esc cancel");
    return multi_q ? pick("Tab/←→ switch • ↑↓ select • Enter confirm • Esc cancel",
                          "Tab/←→ switch • ↑↓ select • Enter ok • Esc cancel")
                   : pick("↑↓ navigate • 1-9 quick select • Enter to select • Esc to cancel",
                          "↑↓ move • 1-9 pick • Enter select • Esc cancel");
}

std::string DialogModel::hint() const { return hint_words(false); }

std::string DialogModel::narrow_hint() const { return hint_words(true); }

DialogModel::Result DialogModel::set_notes(std::size_t q, const std::u32string& notes) {
    if (outcome_ || q >= states_.size()) return Result::Ignored;
    notice_ = false;
    std::u32string clean = clean_text(notes);
    const std::size_t keep = fitting_prefix(clean, max_text_bytes);
    if (keep < clean.size()) {
        clean.resize(keep);
        notice_ = true;
    }
    if (clean == states_[q].notes) return notice_ ? Result::Rejected : Result::Ignored;
    states_[q].notes = std::move(clean);
    return Result::Changed;
}

DialogModel::Result DialogModel::handle(const Key& key) {
    if (outcome_ || questions_.empty()) return Result::Ignored;
    notice_ = false;
    if (key.kind == KeyKind::Paste) {
        // A paste is text for the question on screen, never keys: on a question with options it
        // opens "Other" and lands there; in a confirmation or on Submit it is dropped.
        if (confirm_ != Confirm::None || on_submit_tab()) return Result::Ignored;
        if (noting_) return set_notes(tab_, states_[tab_].notes + key.text);
        if (!editing(tab_)) open_other();
        return insert_paste(key.text);
    }
    if (confirm_ == Confirm::Discard) return handle_confirm_discard(key);
    if (confirm_ == Confirm::Long) return handle_confirm_long(key);
    if (on_submit_tab()) return handle_submit_tab(key);
    if (noting_) return handle_note(key);
    if (editing(tab_)) return handle_edit(key);
    return handle_browse(key);
}

DialogModel::Result DialogModel::handle_browse(const Key& key) {
    const Question& q = questions_[tab_];
    QuestionState& s = cur();
    switch (key.kind) {
        case KeyKind::Up: return move_cursor(-1);
        case KeyKind::Down: return move_cursor(1);
        case KeyKind::PageUp:
            if (permission_) {
                permission_scroll_ -= std::min(permission_scroll_, permission_page);
                return Result::Changed;
            }
            return move_cursor(-static_cast<long>(visible_rows(tab_)));
        case KeyKind::PageDown:
            if (permission_) {
                permission_scroll_ += permission_page;
                return Result::Changed;
            }
            return move_cursor(static_cast<long>(visible_rows(tab_)));
        case KeyKind::Home: return set_cursor(0);
        case KeyKind::End: return set_cursor(other_row(tab_));
        case KeyKind::Tab:
        case KeyKind::Right: return switch_tab(1);
        case KeyKind::BackTab:
        case KeyKind::Left: return switch_tab(-1);
        case KeyKind::Escape: return escape();
        case KeyKind::Enter:
            if (q.multi_select) return submit_multi_select();
            return choose_row(s.cursor);
        case KeyKind::Char:
            if (key.ch == U'k') return move_cursor(-1);
            if (key.ch == U'j') return move_cursor(1);
            if (key.ch == U' ') return q.multi_select ? toggle_row(s.cursor) : Result::Ignored;
            if (key.ch == U'0') return quick_select(other_row(tab_));
            if (key.ch == U'n') {  // the question's note, as VS Code's `n` (docs/dialog.md)
                noting_ = true;
                return Result::Changed;
            }
            if (key.ch >= U'1' && key.ch <= U'9') {
                const std::size_t row = static_cast<std::size_t>(key.ch - U'1');
                if (row >= row_count(tab_)) return Result::Rejected;
                return quick_select(row);
            }
            return Result::Ignored;
        default: return Result::Ignored;
    }
}

DialogModel::Result DialogModel::insert_paste(const std::u32string& text) {
    QuestionState& s = cur();
    std::u32string clean = clean_text(text);
    const std::size_t used = s.text_bytes;
    const std::size_t keep = fitting_prefix(clean, used < max_text_bytes ? max_text_bytes - used : 0);
    if (keep < clean.size()) {
        clean.resize(keep);
        notice_ = true;  // the person is told before they submit, never cut silently
    }
    if (clean.empty()) return text.empty() ? Result::Ignored : Result::Rejected;
    s.text.insert(s.text_pos, clean);
    s.text_bytes += utf8::encoded_size(clean);
    s.text_pos += clean.size();
    return Result::Changed;
}

DialogModel::Result DialogModel::handle_edit(const Key& key) {
    QuestionState& s = cur();
    const bool other = !free_text(tab_);
    switch (key.kind) {
        case KeyKind::Char:
            if (!printable(key.ch)) return Result::Ignored;
            if (s.text_bytes + utf8::encoded_size(key.ch) > max_text_bytes) {
                notice_ = true;
                return Result::Rejected;
            }
            s.text.insert(s.text.begin() + static_cast<std::ptrdiff_t>(s.text_pos), key.ch);
            s.text_bytes += utf8::encoded_size(key.ch);
            ++s.text_pos;
            return Result::Changed;
        case KeyKind::Backspace:
            if (s.text_pos == 0) return Result::Rejected;
            s.text_bytes -= utf8::encoded_size(s.text[--s.text_pos]);
            s.text.erase(s.text_pos, 1);
            return Result::Changed;
        case KeyKind::Delete:
            if (s.text_pos >= s.text.size()) return Result::Rejected;
            s.text_bytes -= utf8::encoded_size(s.text[s.text_pos]);
            s.text.erase(s.text_pos, 1);
            return Result::Changed;
        case KeyKind::ClearLine:
            if (s.text.empty()) return Result::Ignored;
            s.text.clear();
            s.text_bytes = 0;
            s.text_pos = 0;
            return Result::Changed;
        case KeyKind::Left:
            // With nothing typed the arrows still switch tabs, as on every other tab.
            if (s.text.empty() && multi_question()) return switch_tab(-1);
            if (s.text_pos == 0) return Result::Ignored;
            --s.text_pos;
            return Result::Changed;
        case KeyKind::Right:
            if (s.text.empty() && multi_question()) return switch_tab(1);
            if (s.text_pos >= s.text.size()) return Result::Ignored;
            ++s.text_pos;
            return Result::Changed;
        case KeyKind::Home: s.text_pos = 0; return Result::Changed;
        case KeyKind::End: s.text_pos = s.text.size(); return Result::Changed;
        case KeyKind::Tab: return switch_tab(1);
        case KeyKind::BackTab: return switch_tab(-1);
        case KeyKind::Up:
        case KeyKind::PageUp:
            if (!other) return Result::Ignored;
            leave_edit();
            move_cursor(-1);
            return Result::Changed;
        case KeyKind::Enter: return commit_text(false);
        case KeyKind::Escape:
            if (other) {  // back to the list, keeping what was typed
                leave_edit();
                return Result::Changed;
            }
            return escape();
        default: return Result::Ignored;
    }
}

DialogModel::Result DialogModel::handle_note(const Key& key) {
    QuestionState& s = cur();
    switch (key.kind) {
        case KeyKind::Char:
            if (!printable(key.ch)) return Result::Ignored;
            return set_notes(tab_, s.notes + key.ch);
        case KeyKind::Backspace:
            if (s.notes.empty()) return Result::Rejected;
            s.notes.pop_back();
            return Result::Changed;
        case KeyKind::ClearLine:
            if (s.notes.empty()) return Result::Ignored;
            s.notes.clear();
            return Result::Changed;
        case KeyKind::Enter:
        case KeyKind::Escape: noting_ = false; return Result::Changed;
        default: return Result::Ignored;
    }
}

DialogModel::Result DialogModel::handle_submit_tab(const Key& key) {
    switch (key.kind) {
        case KeyKind::Enter:
            if (answered_count() != questions_.size()) return Result::Rejected;
            finish_answered();
            return Result::Finished;
        case KeyKind::Tab:
        case KeyKind::Right: return switch_tab(1);
        case KeyKind::BackTab:
        case KeyKind::Left: return switch_tab(-1);
        case KeyKind::Escape: return escape();
        default: return Result::Ignored;
    }
}

DialogModel::Result DialogModel::handle_confirm_discard(const Key& key) {
    if (key.kind == KeyKind::Char && (key.ch == U'y' || key.ch == U'Y')) {
        confirm_ = Confirm::None;
        outcome_ = Outcome::cancelled();
        return Result::Finished;
    }
    if ((key.kind == KeyKind::Char && (key.ch == U'n' || key.ch == U'N')) || key.kind == KeyKind::Escape ||
        key.kind == KeyKind::Enter) {
        confirm_ = Confirm::None;
        return Result::Changed;
    }
    return Result::Ignored;
}

DialogModel::Result DialogModel::handle_confirm_long(const Key& key) {
    if ((key.kind == KeyKind::Char && (key.ch == U'y' || key.ch == U'Y')) || key.kind == KeyKind::Enter) {
        confirm_ = Confirm::None;
        return commit_text(true);
    }
    if ((key.kind == KeyKind::Char && (key.ch == U'n' || key.ch == U'N')) || key.kind == KeyKind::Escape) {
        confirm_ = Confirm::None;
        return Result::Changed;
    }
    return Result::Ignored;
}

DialogModel::Result DialogModel::escape() {
    const std::size_t n = answered_count();
    if (n == 0) {
        outcome_ = Outcome::cancelled();
        return Result::Finished;
    }
    confirm_ = Confirm::Discard;
    return Result::Changed;
}

DialogModel::Result DialogModel::move_cursor(long delta) {
    const std::size_t rows = row_count(tab_);
    if (rows == 0) return Result::Ignored;
    const long target = std::clamp(static_cast<long>(cur().cursor) + delta, 0L, static_cast<long>(rows) - 1);
    return set_cursor(static_cast<std::size_t>(target));
}

DialogModel::Result DialogModel::set_cursor(std::size_t row) {
    QuestionState& s = cur();
    if (row >= row_count(tab_) || row == s.cursor) return Result::Ignored;
    s.cursor = row;
    keep_cursor_visible(s, tab_);
    return Result::Changed;
}

void DialogModel::keep_cursor_visible(QuestionState& s, std::size_t q) {
    const std::size_t vis = std::max<std::size_t>(visible_rows(q), 1);
    if (s.cursor < s.scroll) s.scroll = s.cursor;
    if (s.cursor >= s.scroll + vis) s.scroll = s.cursor - vis + 1;
}

DialogModel::Result DialogModel::quick_select(std::size_t row) {
    set_cursor(row);
    return questions_[tab_].multi_select ? toggle_row(row) : choose_row(row);
}

DialogModel::Result DialogModel::choose_row(std::size_t row) {
    if (row == other_row(tab_)) return open_other();
    const std::string& label = questions_[tab_].options[row].label;
    Answer a;
    a.question = questions_[tab_].question;
    a.values = {label};
    a.selected_option = label;
    a.was_custom = false;
    // The terminal shows previews, so the one picked goes back with the answer.
    if (const auto& p = questions_[tab_].options[row].preview) a.preview = *p;
    return commit(std::move(a));
}

DialogModel::Result DialogModel::toggle_row(std::size_t row) {
    QuestionState& s = cur();
    if (row == other_row(tab_) && !s.checked[row]) return open_other();
    s.checked[row] = !s.checked[row];
    refresh_multi_answer(tab_);
    return Result::Changed;
}

DialogModel::Result DialogModel::open_other() {
    QuestionState& s = cur();
    s.cursor = other_row(tab_);
    keep_cursor_visible(s, tab_);
    s.editing_other = true;
    s.text_pos = s.text.size();
    return Result::Changed;
}

void DialogModel::leave_edit() {
    QuestionState& s = cur();
    if (!s.editing_other) return;
    s.editing_other = false;
    if (questions_[tab_].multi_select) {
        s.checked[other_row(tab_)] = !s.text.empty();
        refresh_multi_answer(tab_);
    }
}

// An answered multi-select question follows later toggles; with nothing left checked it is unanswered.
void DialogModel::refresh_multi_answer(std::size_t q) {
    QuestionState& s = states_[q];
    if (!s.answer) return;
    const std::size_t other = other_row(q);
    bool any = std::find(s.checked.begin(), s.checked.begin() + static_cast<std::ptrdiff_t>(other), true) !=
               s.checked.begin() + static_cast<std::ptrdiff_t>(other);
    any = any || (s.checked[other] && !s.text.empty());
    if (!any) {
        s.answer.reset();
        return;
    }
    Answer a;
    a.question = questions_[q].question;
    a.multi = true;
    for (std::size_t r = 0; r < other; ++r)
        if (s.checked[r]) a.values.push_back(questions_[q].options[r].label);
    if (s.checked[other] && !s.text.empty()) {
        a.values.push_back(utf8::from_u32(s.text));
        a.was_custom = true;
    }
    s.answer = std::move(a);
}

DialogModel::Result DialogModel::commit_text(bool confirmed_long) {
    QuestionState& s = cur();
    // Blank text says nothing: it is not an answer.
    if (std::all_of(s.text.begin(), s.text.end(), [](char32_t c) { return c == U' ' || c == U'\n'; }))
        return Result::Rejected;
    if (!confirmed_long && s.text.size() > soft_answer_limit) {
        confirm_ = Confirm::Long;
        long_chars_ = s.text.size();
        return Result::Changed;
    }
    if (questions_[tab_].multi_select) {
        s.editing_other = false;
        s.checked[other_row(tab_)] = true;
        refresh_multi_answer(tab_);
        return Result::Changed;
    }
    Answer a;
    a.question = questions_[tab_].question;
    a.values = {utf8::from_u32(s.text)};
    a.was_custom = true;
    return commit(std::move(a));
}

DialogModel::Result DialogModel::submit_multi_select() {
    QuestionState& s = cur();
    // Build the answer as if it had been answered, then keep it only if something is checked.
    s.answer = Answer{};
    refresh_multi_answer(tab_);
    if (!s.answer) return Result::Rejected;
    Answer a = *s.answer;
    return commit(std::move(a));
}

DialogModel::Result DialogModel::commit(Answer answer) {
    QuestionState& s = cur();
    s.answer = std::move(answer);
    s.editing_other = false;
    if (!multi_question()) {
        finish_answered();
        return Result::Finished;
    }
    // On to the next unanswered question, or to Submit when every one has an answer.
    const std::size_t n = questions_.size();
    for (std::size_t step = 1; step <= n; ++step) {
        const std::size_t q = (tab_ + step) % n;
        if (!states_[q].answer) {
            tab_ = q;
            return Result::Changed;
        }
    }
    tab_ = n;
    return Result::Changed;
}

DialogModel::Result DialogModel::switch_tab(long delta) {
    if (!multi_question()) return Result::Ignored;
    if (!on_submit_tab()) leave_edit();
    const long count = static_cast<long>(tab_count());
    tab_ = static_cast<std::size_t>(((static_cast<long>(tab_) + delta) % count + count) % count);
    return Result::Changed;
}

void DialogModel::finish_answered() {
    std::vector<Answer> answers;
    answers.reserve(states_.size());
    for (const auto& s : states_) {
        answers.push_back(*s.answer);
        // A note is sent trimmed; a blank one is none.
        const auto b = s.notes.find_first_not_of(U" \n");
        if (b != std::u32string::npos)
            answers.back().notes = utf8::from_u32(s.notes.substr(b, s.notes.find_last_not_of(U" \n") - b + 1));
    }
    outcome_ = Outcome::answered(std::move(answers));
}

}  // namespace askhost::tui
