#include "frontends/tui/dialog_model.hpp"

#include <algorithm>
#include <cctype>
#include <cwchar>
#include <utility>

#include "core/text/sanitize.hpp"

namespace askhost::tui {

namespace {

constexpr std::string_view other_label = "Other (type your answer)";
constexpr std::size_t max_dialog_width = 80;
constexpr std::size_t max_tab_label_width = 20;
// A typed answer shows at most this many lines, following the cursor (a paste can be long).
constexpr std::size_t max_input_lines = 8;

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

std::size_t char_width(char32_t c) {
    if (c < 0x80) return (c >= 0x20 && c != 0x7f) ? 1 : 0;
    const int w = ::wcwidth(static_cast<wchar_t>(c));
    return w < 0 ? 1 : static_cast<std::size_t>(w);
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i) out += sep;
        out += parts[i];
    }
    return out;
}

std::string spaces(std::size_t n) { return std::string(n, ' '); }

}  // namespace

// ---------------------------------------------------------------- text helpers

std::u32string utf8_to_u32(std::string_view s) {
    std::u32string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        std::size_t len = 0;
        char32_t cp = 0;
        if (b < 0x80) {
            len = 1;
            cp = b;
        } else if ((b & 0xe0) == 0xc0) {
            len = 2;
            cp = b & 0x1f;
        } else if ((b & 0xf0) == 0xe0) {
            len = 3;
            cp = b & 0x0f;
        } else if ((b & 0xf8) == 0xf0) {
            len = 4;
            cp = b & 0x07;
        }
        bool ok = len > 0 && i + len <= s.size();
        for (std::size_t k = 1; ok && k < len; ++k) {
            const auto c = static_cast<unsigned char>(s[i + k]);
            if ((c & 0xc0) != 0x80) ok = false;
            else cp = (cp << 6) | (c & 0x3f);
        }
        if (ok) {
            static constexpr char32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
            if (cp < min_for_len[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) ok = false;
        }
        if (!ok) {
            out.push_back(U'\uFFFD');
            i += 1;
            continue;
        }
        out.push_back(cp);
        i += len;
    }
    return out;
}

std::string u32_to_utf8(std::u32string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char32_t c : text) {
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
        } else if (c < 0x800) {
            out.push_back(static_cast<char>(0xc0 | (c >> 6)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
        } else if (c < 0x10000) {
            out.push_back(static_cast<char>(0xe0 | (c >> 12)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
        } else {
            out.push_back(static_cast<char>(0xf0 | (c >> 18)));
            out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
        }
    }
    return out;
}

std::size_t utf8_bytes(std::u32string_view text) {
    std::size_t n = 0;
    for (char32_t c : text) n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    return n;
}

std::size_t fitting_prefix(std::u32string_view add, std::size_t room) {
    std::size_t used = 0, n = 0;
    for (char32_t c : add) {
        const std::size_t b = utf8_bytes(std::u32string_view(&c, 1));
        if (used + b > room) break;
        used += b;
        ++n;
    }
    return n;
}

std::size_t display_width(std::string_view utf8) {
    std::size_t w = 0;
    for (char32_t c : utf8_to_u32(utf8)) w += char_width(c);
    return w;
}

std::string truncate_to_width(std::string_view utf8, std::size_t width) {
    if (display_width(utf8) <= width) return std::string(utf8);
    if (width == 0) return {};
    std::u32string out;
    std::size_t used = 0;
    for (char32_t c : utf8_to_u32(utf8)) {
        const std::size_t cw = char_width(c);
        if (used + cw > width - 1) break;  // keep one column for the ellipsis
        out.push_back(c);
        used += cw;
    }
    return u32_to_utf8(out) + "…";
}

std::vector<std::string> wrap_text(std::string_view utf8, std::size_t width) {
    width = std::max<std::size_t>(width, 1);
    std::vector<std::string> lines;
    const std::u32string text = utf8_to_u32(utf8);
    std::size_t para_start = 0;
    while (para_start <= text.size()) {
        std::size_t para_end = text.find(U'\n', para_start);
        if (para_end == std::u32string::npos) para_end = text.size();
        const std::u32string_view para(text.data() + para_start, para_end - para_start);

        std::u32string line;
        std::size_t line_w = 0;
        std::size_t i = 0;
        if (para.empty()) lines.emplace_back();
        while (i < para.size()) {
            // One word (with the spaces before it) at a time.
            std::size_t j = i;
            while (j < para.size() && para[j] == U' ') ++j;
            std::size_t k = j;
            while (k < para.size() && para[k] != U' ') ++k;
            std::size_t lead_w = j - i, word_w = 0;
            for (std::size_t x = j; x < k; ++x) word_w += char_width(para[x]);
            if (!line.empty() && line_w + lead_w + word_w > width) {
                lines.push_back(u32_to_utf8(line));
                line.clear();
                line_w = 0;
                lead_w = 0;  // spaces at a break vanish
            }
            if (lead_w) {
                line.append(lead_w, U' ');
                line_w += lead_w;
            }
            // A word wider than the line is cut by characters.
            for (std::size_t x = j; x < k; ++x) {
                const std::size_t cw = char_width(para[x]);
                if (line_w + cw > width && !line.empty()) {
                    lines.push_back(u32_to_utf8(line));
                    line.clear();
                    line_w = 0;
                }
                line.push_back(para[x]);
                line_w += cw;
            }
            i = k;
        }
        if (!line.empty()) lines.push_back(u32_to_utf8(line));
        if (para_end == text.size()) break;
        para_start = para_end + 1;
    }
    if (lines.empty()) lines.emplace_back();
    return lines;
}

std::string format_count(std::size_t n) {
    const std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
        out.push_back(digits[i]);
    }
    return out;
}

namespace {

// The host's rule (core/model/question.cpp): a '<' first, or one before a letter, '/' or '!'.
bool looks_like_html(std::string_view p) {
    const std::size_t first = p.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && p[first] == '<') return true;
    for (std::size_t k = p.find('<'); k != std::string_view::npos; k = p.find('<', k + 1)) {
        std::size_t n = k + 1;
        if (n < p.size() && (p[n] == '/' || p[n] == '!')) ++n;
        if (n < p.size() && std::isalpha(static_cast<unsigned char>(p[n]))) return true;
    }
    return false;
}

std::string lower_ascii(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

std::string preview_text(std::string_view preview) {
    if (!looks_like_html(preview)) return std::string(preview);
    static const std::vector<std::string_view> blocks = {"p",  "div",   "br",  "li",         "ul", "ol",
                                                         "tr", "table", "pre", "h1",         "h2", "h3",
                                                         "h4", "h5",    "h6",  "blockquote", "hr"};
    std::string out;
    for (std::size_t i = 0; i < preview.size();) {
        const char c = preview[i];
        if (c == '<') {
            const std::size_t end = preview.find('>', i);
            if (end == std::string_view::npos) break;  // an unclosed tag: the rest is inside it
            std::string_view tag = preview.substr(i + 1, end - i - 1);
            if (tag.substr(0, 3) == "!--") {  // a comment may hold '>'
                const std::size_t close = preview.find("-->", i + 4);
                i = close == std::string_view::npos ? preview.size() : close + 3;
                continue;
            }
            const bool closing = !tag.empty() && tag[0] == '/';
            if (closing) tag.remove_prefix(1);
            const std::string name = lower_ascii(tag.substr(0, tag.find_first_of(" \t\r\n/")));
            if (std::find(blocks.begin(), blocks.end(), name) != blocks.end()) {
                if (!out.empty() && out.back() != '\n') out += '\n';
                if (name == "li" && !closing) out += "• ";
            }
            i = end + 1;
            continue;
        }
        if (c == '&') {
            static const std::vector<std::pair<std::string_view, std::string_view>> entities = {
                {"&lt;", "<"},  {"&gt;", ">"},   {"&amp;", "&"}, {"&quot;", "\""},
                {"&#39;", "'"}, {"&apos;", "'"}, {"&nbsp;", " "}};
            bool done = false;
            for (const auto& [name, text] : entities)
                if (lower_ascii(preview.substr(i, name.size())) == name) {
                    out += text;
                    i += name.size();
                    done = true;
                    break;
                }
            if (done) continue;
        }
        out += c;
        ++i;
    }
    // At most one blank line in a row, none at the ends.
    std::string tidy;
    for (char c : out) {
        if (c == '\n' && tidy.size() >= 2 && tidy[tidy.size() - 1] == '\n' && tidy[tidy.size() - 2] == '\n') continue;
        tidy += c;
    }
    const std::size_t b = tidy.find_first_not_of(" \n"), e = tidy.find_last_not_of(" \n");
    return b == std::string::npos ? std::string() : tidy.substr(b, e - b + 1);
}

std::string ScreenLine::plain() const {
    std::string out;
    for (const auto& s : spans) out += s.text;
    return out;
}

// ---------------------------------------------------------------- the state machine

DialogModel::DialogModel(std::vector<Question> questions)
    : questions_(std::move(questions)), states_(questions_.size()) {
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
        case KeyKind::PageUp: return move_cursor(-static_cast<long>(visible_rows(tab_)));
        case KeyKind::PageDown: return move_cursor(static_cast<long>(visible_rows(tab_)));
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
    const std::size_t used = utf8_bytes(s.text);
    const std::size_t keep = fitting_prefix(clean, used < max_text_bytes ? max_text_bytes - used : 0);
    if (keep < clean.size()) {
        clean.resize(keep);
        notice_ = true;  // the person is told before they submit, never cut silently
    }
    if (clean.empty()) return text.empty() ? Result::Ignored : Result::Rejected;
    s.text.insert(s.text_pos, clean);
    s.text_pos += clean.size();
    return Result::Changed;
}

DialogModel::Result DialogModel::handle_edit(const Key& key) {
    QuestionState& s = cur();
    const bool other = !free_text(tab_);
    switch (key.kind) {
        case KeyKind::Char:
            if (!printable(key.ch)) return Result::Ignored;
            if (utf8_bytes(s.text) + utf8_bytes(std::u32string_view(&key.ch, 1)) > max_text_bytes) {
                notice_ = true;
                return Result::Rejected;
            }
            s.text.insert(s.text.begin() + static_cast<std::ptrdiff_t>(s.text_pos), key.ch);
            ++s.text_pos;
            return Result::Changed;
        case KeyKind::Backspace:
            if (s.text_pos == 0) return Result::Rejected;
            s.text.erase(--s.text_pos, 1);
            return Result::Changed;
        case KeyKind::Delete:
            if (s.text_pos >= s.text.size()) return Result::Rejected;
            s.text.erase(s.text_pos, 1);
            return Result::Changed;
        case KeyKind::ClearLine:
            if (s.text.empty()) return Result::Ignored;
            s.text.clear();
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
        a.values.push_back(u32_to_utf8(s.text));
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
    a.values = {u32_to_utf8(s.text)};
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
            answers.back().notes = u32_to_utf8(s.notes.substr(b, s.notes.find_last_not_of(U" \n") - b + 1));
    }
    outcome_ = Outcome::answered(std::move(answers));
}

// ---------------------------------------------------------------- layout

namespace {

ScreenLine line_of(std::string text, unsigned attrs = AttrNone) {
    ScreenLine l;
    if (!text.empty()) l.spans.push_back(Span{std::move(text), attrs});
    return l;
}

// Wrapped text, the first line after `first` and the rest after `rest` (both plain).
void add_wrapped(std::vector<ScreenLine>& out, std::string_view text, std::size_t width, const std::string& first,
                 const std::string& rest, unsigned attrs) {
    const std::size_t indent = std::max(display_width(first), display_width(rest));
    const auto lines = wrap_text(text, width > indent ? width - indent : 1);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        ScreenLine l;
        l.spans.push_back(Span{i == 0 ? first : rest, AttrNone});
        if (!lines[i].empty()) l.spans.push_back(Span{lines[i], attrs});
        out.push_back(std::move(l));
    }
}

// A text input: wrapped by characters, the cursor drawn as a reversed cell or "█" at the end.
std::vector<ScreenLine> input_lines(const std::u32string& text, std::size_t pos, bool show_cursor, std::size_t width,
                                    const std::string& first, const std::string& rest, std::size_t max_lines) {
    const std::size_t indent = std::max(display_width(first), display_width(rest));
    const std::size_t avail = width > indent + 1 ? width - indent : 2;
    struct Cell {
        std::u32string text;
        bool cursor = false;
    };
    std::vector<std::vector<Cell>> rows(1);
    std::size_t col = 0, cursor_row = 0;
    auto put = [&](char32_t c, bool is_cursor) {
        const std::size_t cw = char_width(c);
        if (col + cw > avail && col > 0) {
            rows.emplace_back();
            col = 0;
        }
        if (is_cursor) cursor_row = rows.size() - 1;
        auto& r = rows.back();
        if (r.empty() || r.back().cursor || is_cursor) r.push_back(Cell{{}, is_cursor});
        r.back().text.push_back(c);
        col += cw;
        if (is_cursor) r.push_back(Cell{});
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == U'\n') {  // a line break: shown as ↵, and the text goes on below
            put(U'↵', show_cursor && i == pos);
            rows.emplace_back();
            col = 0;
            continue;
        }
        put(text[i], show_cursor && i == pos);
    }
    if (show_cursor && pos >= text.size()) {
        put(U'█', false);
        cursor_row = rows.size() - 1;
    }

    // Show the lines around the cursor when the text is taller than the room.
    std::size_t begin = 0, end = rows.size();
    max_lines = std::max<std::size_t>(max_lines, 1);
    if (end - begin > max_lines) {
        const std::size_t anchor = show_cursor ? cursor_row : rows.size() - 1;
        end = std::min(rows.size(), anchor + 1);
        begin = end > max_lines ? end - max_lines : 0;
        end = std::min(rows.size(), begin + max_lines);
    }
    // Lines scrolled out above are marked with "…" in the margin.
    const std::string scrolled = rest.size() >= 2 ? rest.substr(0, rest.size() - 2) + "… " : rest;
    std::vector<ScreenLine> out;
    for (std::size_t r = begin; r < end; ++r) {
        ScreenLine l;
        l.spans.push_back(Span{r == 0 ? first : (r == begin ? scrolled : rest), AttrNone});
        for (const auto& cell : rows[r])
            if (!cell.text.empty())
                l.spans.push_back(Span{u32_to_utf8(cell.text), cell.cursor ? AttrReverse : AttrNone});
        out.push_back(std::move(l));
    }
    return out;
}

std::string rule(std::size_t width) {
    std::string s;
    for (std::size_t i = 0; i < width; ++i) s += "─";
    return s;
}

ScreenLine tab_bar(const DialogModel& m, std::size_t width) {
    struct Item {
        std::string text;
        bool current;
    };
    std::vector<Item> items;
    for (std::size_t q = 0; q < m.question_count(); ++q) {
        const bool current = m.tab() == q;
        const std::string box = (m.answered(q) || current) ? "■" : "□";
        items.push_back({box + " " + truncate_to_width(m.tab_label(q), max_tab_label_width), current});
    }
    items.push_back({"✓ Submit", m.on_submit_tab()});

    // The window of tabs around the current one that fits.
    auto width_of = [&](std::size_t b, std::size_t e) {
        std::size_t w = display_width(" ← ") + display_width(" →");
        for (std::size_t i = b; i < e; ++i) w += display_width(items[i].text) + (i > b ? 2 : 0);
        if (b > 0) w += 2;
        if (e < items.size()) w += 2;
        return w;
    };
    std::size_t b = m.tab(), e = m.tab() + 1;
    for (bool grew = true; grew;) {
        grew = false;
        if (e < items.size() && width_of(b, e + 1) <= width) {
            ++e;
            grew = true;
        }
        if (b > 0 && width_of(b - 1, e) <= width) {
            --b;
            grew = true;
        }
    }
    ScreenLine l;
    l.spans.push_back({" ← ", AttrNone});
    if (b > 0) l.spans.push_back({"… ", AttrDim});
    for (std::size_t i = b; i < e; ++i) {
        if (i > b) l.spans.push_back({"  ", AttrNone});
        l.spans.push_back({items[i].text, items[i].current ? (AttrReverse | AttrBold) : AttrNone});
    }
    if (e < items.size()) l.spans.push_back({" …", AttrDim});
    l.spans.push_back({" →", AttrNone});
    return l;
}

// `room`: the columns a hint row has; the seeds' words when they fit on one row, else the narrow ones.
std::string hint_text(const DialogModel& m, std::size_t room) {
    switch (m.mode()) {
        case DialogModel::Mode::ConfirmDiscard: return m.confirm_text() + " [y/N]";
        case DialogModel::Mode::ConfirmLong: return m.confirm_text() + " [Y/n]";
        default: {
            std::string wide = m.hint();
            return display_width(wide) <= room ? wide : m.narrow_hint();
        }
    }
}

// Hints wrap between their " • " parts, never inside one if it fits.
void add_hint(std::vector<ScreenLine>& out, const std::string& hint, std::size_t width, unsigned attrs) {
    constexpr std::string_view sep = " • ";
    const std::size_t room = width > 2 ? width - 2 : 1;
    std::vector<std::string> parts;
    for (std::size_t start = 0;;) {
        const std::size_t at = hint.find(sep, start);
        parts.push_back(hint.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) break;
        start = at + sep.size();
    }
    std::string line;
    auto flush = [&] {
        if (!line.empty()) add_wrapped(out, line, width, "  ", "  ", attrs);
        line.clear();
    };
    for (const auto& part : parts) {
        const std::string joined = line.empty() ? part : line + std::string(sep) + part;
        if (!line.empty() && display_width(joined) > room) {
            flush();
            line = part;
        } else {
            line = joined;
        }
    }
    flush();
}

std::string answer_text(const Answer& a, std::string_view sep) {
    std::vector<std::string> v;
    for (const auto& s : a.values) v.push_back(sanitize_for_terminal(s));
    return join(v, sep);
}

// One option row (with its description and, for Other, the typed text) as lines.
std::vector<ScreenLine> option_lines(const DialogModel& m, std::size_t q, std::size_t row, std::size_t width,
                                     std::size_t text_room) {
    const Question& qu = m.question(q);
    const bool is_cursor = m.cursor(q) == row;
    const bool is_other = row == m.other_row(q);
    std::string mark = is_cursor ? "  > " : "    ";
    if (qu.multi_select) mark += m.checked(q, row) ? "[x] " : "[ ] ";
    else mark += std::to_string(row + 1) + ". ";
    const std::size_t indent = display_width(mark);

    std::string label = is_other ? std::string(other_label) : sanitize_for_terminal(qu.options[row].label);
    unsigned attrs = AttrNone;
    if (!is_other && DialogModel::is_recommended(qu.options[row].label)) attrs |= AttrBold;
    if (is_cursor) attrs |= AttrReverse;

    std::vector<ScreenLine> out;
    add_wrapped(out, label, width, mark, spaces(indent), attrs);
    if (!is_other && !qu.options[row].description.empty())
        add_wrapped(out, sanitize_for_terminal(qu.options[row].description, true), width, spaces(indent),
                    spaces(indent), AttrDim);
    if (is_other) {
        const bool edit = m.editing(q);
        if (edit || !m.text(q).empty()) {
            auto in = input_lines(m.text(q), m.text_cursor(q), edit, width, spaces(indent), spaces(indent), text_room);
            out.insert(out.end(), in.begin(), in.end());
        }
    }
    return out;
}

std::vector<ScreenLine> list_body(const DialogModel& m, std::size_t q, std::size_t width, std::size_t room) {
    const std::size_t rows = m.row_count(q);
    const std::size_t cursor = m.cursor(q);
    std::vector<std::vector<ScreenLine>> items(rows);
    const std::size_t text_room = std::clamp<std::size_t>(room > 6 ? room - 6 : 1, 1, max_input_lines);
    for (std::size_t r = 0; r < rows; ++r) items[r] = option_lines(m, q, r, width, text_room);

    std::size_t b = std::min(m.scroll_offset(q), rows - 1);
    std::size_t e = std::min(rows, b + std::max<std::size_t>(m.visible_rows(q), 1));
    if (cursor < b) b = cursor;
    if (cursor >= e) e = cursor + 1;
    auto lines_of = [&](std::size_t bb, std::size_t ee) {
        std::size_t n = (bb > 0 ? 1 : 0) + (ee < rows ? 1 : 0);
        for (std::size_t r = bb; r < ee; ++r) n += items[r].size();
        return n;
    };
    // Too little room: drop whole rows from the side farther from the cursor.
    while (lines_of(b, e) > room && e - b > 1) {
        if (cursor - b > e - 1 - cursor) ++b;
        else --e;
    }
    std::vector<ScreenLine> out;
    if (b > 0) out.push_back(line_of("    ↑ " + std::to_string(b) + " more...", AttrDim));
    for (std::size_t r = b; r < e; ++r) out.insert(out.end(), items[r].begin(), items[r].end());
    if (e < rows) out.push_back(line_of("    ↓ " + std::to_string(rows - e) + " more...", AttrDim));
    return out;
}

std::vector<ScreenLine> review_body(const DialogModel& m, std::size_t width) {
    std::vector<ScreenLine> out;
    bool any = false;
    for (std::size_t q = 0; q < m.question_count(); ++q) {
        if (!m.answered(q)) continue;
        any = true;
        add_wrapped(out, m.tab_label(q) + ": " + answer_text(*m.answer(q), ", "), width, "  ", "    ", AttrNone);
        if (!m.notes(q).empty())
            add_wrapped(out, "Note: " + sanitize_for_terminal(u32_to_utf8(m.notes(q)), true), width, "    ", "    ",
                        AttrDim);
    }
    const auto missing = m.unanswered();
    if (!missing.empty()) {
        if (any) out.push_back(ScreenLine{});
        std::vector<std::string> names;
        for (auto q : missing) names.push_back(m.tab_label(q));
        add_wrapped(out, "Unanswered: " + join(names, ", "), width, "  ", "    ", AttrBold);
    }
    return out;
}

}  // namespace

std::vector<ScreenLine> layout_dialog(const DialogModel& m, std::size_t width, std::size_t height) {
    std::vector<ScreenLine> out;
    if (m.question_count() == 0 || height == 0) return out;
    const std::size_t w = std::clamp<std::size_t>(width, 1, max_dialog_width);

    // The parts, top to bottom: rule, header or tab bar, gap, question, gap, body, gap, hint, rule.
    std::vector<ScreenLine> bar;
    if (m.multi_question()) {
        bar.push_back(tab_bar(m, w));
    } else if (!m.question(0).header.empty()) {
        bar.push_back(
            line_of(" " + truncate_to_width(sanitize_for_terminal(m.question(0).header), w > 1 ? w - 1 : 1), AttrBold));
    }
    std::vector<ScreenLine> title;
    if (m.on_submit_tab()) title.push_back(line_of("  Review your answers", AttrBold));
    else add_wrapped(title, sanitize_for_terminal(m.question(m.tab()).question, true), w, "  ", "  ", AttrBold);

    const bool confirming = m.mode() == DialogModel::Mode::ConfirmDiscard || m.mode() == DialogModel::Mode::ConfirmLong;
    std::vector<ScreenLine> hint;
    const std::size_t hint_room = w > 2 ? w - 2 : 1;
    add_hint(hint, hint_text(m, hint_room), w, confirming ? AttrBold : AttrDim);
    // The typed-text limit's words, above the hint, before anything is submitted.
    std::vector<ScreenLine> notice;
    if (!m.notice().empty()) add_wrapped(notice, std::string(m.notice()), w, "  ", "  ", AttrBold);

    auto make_body = [&](std::size_t room) {
        if (m.on_submit_tab()) return review_body(m, w);
        if (m.free_text(m.tab()))
            return input_lines(m.text(m.tab()), m.text_cursor(m.tab()), true, w, "  > ", "    ",
                               std::min(room, max_input_lines));
        return list_body(m, m.tab(), w, room);
    };
    const std::size_t natural_body = make_body(std::max<std::size_t>(height, 64)).size();

    // On a short terminal the choices matter most: first the hint shrinks to one line, then the
    // blank lines go, then the question shrinks to one line; the body gets what is left.
    bool gaps = true;
    auto fixed = [&] { return 2 + bar.size() + title.size() + notice.size() + hint.size() + (gaps ? 3 : 0); };
    if (fixed() + natural_body > height && hint.size() > 1) {
        hint.clear();
        hint.push_back(
            line_of("  " + truncate_to_width(hint_text(m, hint_room), hint_room), confirming ? AttrBold : AttrDim));
    }
    if (fixed() + natural_body > height) gaps = false;
    if (fixed() + std::min<std::size_t>(natural_body, 3) > height && title.size() > 1) {
        const std::size_t others = fixed() - title.size();
        const std::size_t keep = std::max<std::size_t>(1, height > others + 3 ? height - others - 3 : 1);
        if (title.size() > keep) {
            title.resize(keep);
            title.back().spans.back().text =
                truncate_to_width(title.back().spans.back().text + " …", w > 2 ? w - 2 : 1);
        }
    }
    // The question's note, and the preview of the option under the cursor, go under the list:
    // the note always, the preview only with at least 3 spare rows.
    std::vector<ScreenLine> note;
    if (!m.on_submit_tab() && (m.mode() == DialogModel::Mode::EditNote || !m.notes(m.tab()).empty())) {
        const bool editing_note = m.mode() == DialogModel::Mode::EditNote;
        note = input_lines(m.notes(m.tab()), m.notes(m.tab()).size(), editing_note, w, "  Note: ", "        ", 3);
        if (!editing_note)
            for (auto& l : note)
                for (std::size_t i = 1; i < l.spans.size(); ++i) l.spans[i].attrs = AttrDim;
    }
    auto fixed_all = [&] { return fixed() + note.size(); };
    const std::size_t room = height > fixed_all() ? height - fixed_all() : 1;
    std::vector<ScreenLine> body = make_body(room);
    for (auto& l : note) body.push_back(std::move(l));
    if (!m.on_submit_tab() && !m.free_text(m.tab())) {
        const auto& options = m.question(m.tab()).options;
        const std::size_t row = m.cursor(m.tab());
        const std::size_t spare = height > fixed() + body.size() ? height - fixed() - body.size() : 0;
        if (row < options.size() && options[row].preview && spare >= 3) {
            std::vector<ScreenLine> text;
            add_wrapped(text, sanitize_for_terminal(preview_text(*options[row].preview), true), w, "  ", "  ",
                        AttrNone);
            const std::size_t keep = std::min(text.size(), spare - 2);
            body.emplace_back();
            const std::string title = "  ── Preview ";
            body.push_back(line_of(title + rule(w > display_width(title) ? w - display_width(title) : 0), AttrDim));
            for (std::size_t i = 0; i < keep; ++i) body.push_back(std::move(text[i]));
            if (keep < text.size()) body.back() = line_of("  …", AttrDim);
        }
    }

    out.push_back(line_of(rule(w), AttrDim));
    for (auto& l : bar) out.push_back(std::move(l));
    if (gaps) out.emplace_back();
    for (auto& l : title) out.push_back(std::move(l));
    if (gaps) out.emplace_back();
    for (auto& l : body) out.push_back(std::move(l));
    if (gaps) out.emplace_back();
    const std::size_t tail = notice.size() + hint.size() + 1;
    for (auto& l : notice) out.push_back(std::move(l));
    for (auto& l : hint) out.push_back(std::move(l));
    out.push_back(line_of(rule(w), AttrDim));

    if (out.size() > height) {
        // Still too tall (a tiny terminal): keep the hint and closing rule, cut above them.
        const std::size_t keep_tail = std::min(tail, height);
        std::vector<ScreenLine> cut(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(height - keep_tail));
        cut.insert(cut.end(), out.end() - static_cast<std::ptrdiff_t>(keep_tail), out.end());
        out = std::move(cut);
    }
    // Nothing may run past the right edge.
    for (auto& l : out) {
        std::size_t used_w = 0;
        for (auto& sp : l.spans) {
            const std::size_t sw = display_width(sp.text);
            if (used_w + sw > w) sp.text = truncate_to_width(sp.text, used_w < w ? w - used_w : 0);
            used_w += display_width(sp.text);
        }
    }
    return out;
}

std::string summary_line(const std::vector<Question>& questions, const Outcome* outcome, std::size_t width) {
    if (questions.empty()) return {};
    std::string line;
    std::string what;
    if (!outcome) what = "withdrawn";
    else if (outcome->kind == OutcomeKind::Cancelled) what = "cancelled";
    else if (outcome->kind == OutcomeKind::TimedOut) what = "timed out";
    else if (outcome->kind == OutcomeKind::ConnectionLost) what = "connection lost";
    else if (outcome->kind != OutcomeKind::Answered) what = std::string(outcome_kind_name(outcome->kind));

    if (questions.size() == 1) {
        // Cut the question rather than the answer: the answer is what the line is for.
        std::string result = what.empty() && !outcome->answers.empty() ? answer_text(outcome->answers[0], ", ") : what;
        result = truncate_to_width(result, std::max<std::size_t>(width / 2, 1));
        const std::size_t fixed = display_width("? ") + display_width(" → ") + display_width(result);
        const std::string q = sanitize_for_terminal(questions[0].question);
        line = "? " + truncate_to_width(q, width > fixed ? width - fixed : 1) + " → " + result;
    } else if (what.empty()) {
        std::vector<std::string> parts;
        for (std::size_t i = 0; i < questions.size() && i < outcome->answers.size(); ++i) {
            const auto& qu = questions[i];
            parts.push_back(sanitize_for_terminal(qu.header.empty() ? qu.question : qu.header) + "=" +
                            answer_text(outcome->answers[i], "+"));
        }
        line = "? " + std::to_string(questions.size()) + " questions answered: " + join(parts, ", ");
    } else {
        line = "? " + std::to_string(questions.size()) + " questions → " + what;
    }
    return truncate_to_width(line, std::max<std::size_t>(width, 1));
}

}  // namespace askhost::tui
