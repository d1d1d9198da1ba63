// The terminal dialog without a terminal: one Ask's state and its keys (dialog_layout.hpp draws it
// as text lines, dialog_text.hpp measures and cuts text).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/outcome.hpp"
#include "core/model/question.hpp"
#include "core/text/utf8.hpp"
#include "frontends/tui/dialog_text.hpp"

namespace askhost::tui {

// A key as the dialog sees it; the ncurses layer maps wget_wch results onto this.
enum class KeyKind {
    Char,  // a printable character in `ch`
    Up,
    Down,
    Left,
    Right,
    Home,
    End,
    PageUp,
    PageDown,
    Tab,
    BackTab,
    Enter,
    Escape,
    Backspace,
    Delete,
    ClearLine,  // Ctrl-U
    Paste,      // pasted text in `text` (bracketed paste): text, never keys
    Unknown,
};

struct Key {
    KeyKind kind = KeyKind::Unknown;
    char32_t ch = 0;
    std::u32string text;  // Paste

    static Key character(char32_t c) { return Key{KeyKind::Char, c, {}}; }
    static Key of(KeyKind k) { return Key{k, 0, {}}; }
    static Key paste(std::u32string t) { return Key{KeyKind::Paste, 0, std::move(t)}; }
};

// The spec's soft limit per typed answer: longer asks "Continue anyway? [Y/n]".
inline constexpr std::size_t soft_answer_limit = 2000;
// Hard cap on one typed answer or note, in UTF-8 bytes: the agent's result cap, no lower
// (docs/dialog.md). Input past it is not kept, and the dialog says so in cap_notice.
inline constexpr std::size_t max_text_bytes = 100000;
inline constexpr std::string_view cap_notice = "Answer is at its 100,000-byte limit: the rest was not kept";
// More options than this scroll; then this many rows are shown at once (the spec's drawing).
inline constexpr std::size_t scroll_threshold = 6;
inline constexpr std::size_t scroll_window = 5;

class DialogModel {
public:
    // EditNote: `n` on a list opened the current question's note; Enter or Esc closes it.
    enum class Mode { Browse, EditText, EditNote, ConfirmDiscard, ConfirmLong };
    enum class Result {
        Ignored,   // the key means nothing here
        Changed,   // redraw
        Rejected,  // the key was understood but refused (ring the bell)
        Finished,  // outcome() is set
    };

    explicit DialogModel(std::vector<Question> questions, std::optional<Permission> permission = std::nullopt);

    Result handle(const Key& key);

    bool finished() const { return outcome_.has_value(); }
    const std::optional<Outcome>& outcome() const { return outcome_; }

    // Layout of the ask.
    std::size_t question_count() const { return questions_.size(); }
    bool multi_question() const { return questions_.size() > 1; }
    const Question& question(std::size_t q) const { return questions_[q]; }
    const std::vector<Question>& questions() const { return questions_; }
    // Tabs are the questions, then Submit when there is more than one question.
    std::size_t tab() const { return tab_; }
    std::size_t tab_count() const { return questions_.size() + (multi_question() ? 1 : 0); }
    bool on_submit_tab() const { return multi_question() && tab_ == questions_.size(); }
    Mode mode() const;

    // Per question. Rows are the options, then "Other"; a free-text question has no rows.
    bool free_text(std::size_t q) const { return questions_[q].options.empty(); }
    std::size_t row_count(std::size_t q) const;
    std::size_t other_row(std::size_t q) const { return questions_[q].options.size(); }
    std::size_t cursor(std::size_t q) const { return states_[q].cursor; }
    bool checked(std::size_t q, std::size_t row) const;
    // Typed text (Other or free text) and the insertion point in code points.
    const std::u32string& text(std::size_t q) const { return states_[q].text; }
    std::size_t text_cursor(std::size_t q) const { return states_[q].text_pos; }
    // The text input is open: always for free text, after choosing Other otherwise.
    bool editing(std::size_t q) const;
    bool answered(std::size_t q) const { return states_[q].answer.has_value(); }
    const std::optional<Answer>& answer(std::size_t q) const { return states_[q].answer; }
    // First visible row and how many rows fit (all of them unless the list scrolls).
    std::size_t scroll_offset(std::size_t q) const { return states_[q].scroll; }
    std::size_t visible_rows(std::size_t q) const;

    std::size_t answered_count() const;
    std::vector<std::size_t> unanswered() const;
    // The code point count behind "Answer is long (N chars)" while mode() is ConfirmLong.
    std::size_t long_answer_chars() const { return long_chars_; }
    // The key hint outside a confirmation, the same words in all three dialogs.
    std::string hint() const;
    // The same keys in fewer words, for a terminal too narrow for hint() on one row.
    std::string narrow_hint() const;
    // The confirmation's words without the key hint ("Discard 1 answer?"), or "" when none.
    std::string confirm_text() const;
    // cap_notice while the last input was not kept whole because of max_text_bytes, else "".
    std::string_view notice() const { return notice_ ? cap_notice : std::string_view{}; }
    // The person's note on question q (sent with its answer, trimmed), capped like typed text.
    const std::u32string& notes(std::size_t q) const { return states_[q].notes; }
    Result set_notes(std::size_t q, const std::u32string& notes);

    // The name of a question in tabs, the review and the summary: its header, else its text.
    std::string tab_label(std::size_t q) const;

    static bool is_recommended(std::string_view label);

    // A tool permission: its command (or edit) is shown whole above the options, and PageUp /
    // PageDown scroll it when it is taller than the room (its options never need a page).
    const std::optional<Permission>& permission() const { return permission_; }
    // The first line of the permission's text in view; the layout, which knows how many lines the
    // text wraps to at the terminal's width, keeps it in range.
    std::size_t permission_scroll() const { return permission_scroll_; }
    void clamp_permission_scroll(std::size_t max) const { permission_scroll_ = std::min(permission_scroll_, max); }
    static constexpr std::size_t permission_page = 5;

private:
    std::string hint_words(bool narrow) const;
    struct QuestionState {
        std::size_t cursor = 0;
        std::vector<bool> checked;  // one per row, multi-select only
        std::u32string text;
        std::size_t text_bytes = 0;  // text's UTF-8 size, kept as it changes: no key rescans it
        std::size_t text_pos = 0;
        std::u32string notes;
        bool editing_other = false;
        std::size_t scroll = 0;
        std::optional<Answer> answer;
    };

    QuestionState& cur() { return states_[tab_]; }
    Result handle_browse(const Key& key);
    Result handle_edit(const Key& key);
    Result handle_note(const Key& key);
    Result insert_paste(const std::u32string& text);
    Result handle_submit_tab(const Key& key);
    Result handle_confirm_discard(const Key& key);
    Result handle_confirm_long(const Key& key);
    Result escape();
    Result move_cursor(long delta);
    Result set_cursor(std::size_t row);
    Result quick_select(std::size_t row);
    Result choose_row(std::size_t row);
    Result toggle_row(std::size_t row);
    Result open_other();
    Result commit_text(bool confirmed_long);
    Result commit(Answer answer);
    Result submit_multi_select();
    Result switch_tab(long delta);
    void leave_edit();
    void refresh_multi_answer(std::size_t q);
    void finish_answered();
    void keep_cursor_visible(QuestionState& s, std::size_t q);

    std::vector<Question> questions_;
    std::vector<QuestionState> states_;
    std::size_t tab_ = 0;
    enum class Confirm { None, Discard, Long };
    Confirm confirm_ = Confirm::None;
    bool noting_ = false;
    std::size_t long_chars_ = 0;
    bool notice_ = false;
    std::optional<Outcome> outcome_;
    std::optional<Permission> permission_;
    mutable std::size_t permission_scroll_ = 0;  // see clamp_permission_scroll
};

}  // namespace askhost::tui
