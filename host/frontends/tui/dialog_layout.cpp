#include "frontends/tui/dialog_layout.hpp"

#include <algorithm>
#include <utility>

#include "core/text/preview.hpp"
#include "core/text/sanitize.hpp"
#include "core/text/utf8.hpp"
#include "frontends/tui/dialog_text.hpp"

namespace askhost::tui {

namespace {

constexpr std::string_view other_label = "Other (type your answer)";
constexpr std::size_t max_dialog_width = 80;
constexpr std::size_t max_tab_label_width = 20;
// A typed answer shows at most this many lines, following the cursor (a paste can be long).
constexpr std::size_t max_input_lines = 8;

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

std::string ScreenLine::plain() const {
    std::string out;
    for (const auto& s : spans) out += s.text;
    return out;
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
                l.spans.push_back(Span{utf8::from_u32(cell.text), cell.cursor ? AttrReverse : AttrNone});
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
            add_wrapped(out, "Note: " + sanitize_for_terminal(utf8::from_u32(m.notes(q)), true), width, "    ", "    ",
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

// A permission as the person must see it: who wants what (head), the whole command or edit
// (text, which scrolls), and the agent's reason (tail), its own claim, dimmed and last.
struct PermissionView {
    std::vector<ScreenLine> head, text, tail;
};

PermissionView permission_view(const Permission& p, std::size_t width) {
    PermissionView v;
    const std::string tool = sanitize_for_terminal(p.tool);
    const std::string who = tool.empty() ? std::string("The agent") : tool;
    // An edit writes, even one that only deletes (replaces without content). Without either it
    // may only read the file (Read, Grep): "access", which is never untrue.
    const bool writes = !p.content.empty() || !p.replaces.empty();
    std::string what;
    if (!p.command.empty()) what = who + " wants to run:";
    else if (!p.path.empty())
        what = who + (writes ? " wants to write " : " wants to access ") + sanitize_for_terminal(p.path) +
               (writes ? ":" : "");
    else what = tool.empty() ? std::string("The agent wants to use a tool") : tool + " wants to run";
    add_wrapped(v.head, what, width, "  ", "  ", AttrBold);
    auto label = [&](const std::string& text) { add_wrapped(v.text, text, width, "  ", "  ", AttrBold); };
    auto block = [&](const std::string& text) {
        add_wrapped(v.text, sanitize_for_terminal(text, true), width, "  │ ", "  │ ", AttrNone);
    };
    if (!p.command.empty()) {
        block(p.command);
        if (!p.path.empty()) label((writes ? "to " : "in ") + sanitize_for_terminal(p.path) + (writes ? ":" : ""));
    }
    if (!p.replaces.empty()) {
        label("replacing:");
        block(p.replaces);
        label(p.content.empty() ? "with nothing (deleting it)" : "with:");
    }
    if (!p.content.empty()) block(p.content);
    if (!p.reason.empty())
        add_wrapped(v.tail, "The agent says: " + sanitize_for_terminal(p.reason, true), width, "  ", "  ", AttrDim);
    return v;
}

// The text's lines from the model's scroll position that fit in `room` rows, with a line above or
// below saying how many are out of view and which key shows them: never cut without a word.
std::vector<ScreenLine> permission_window(const DialogModel& m, std::vector<ScreenLine> text, std::size_t room) {
    if (text.size() <= room) {
        m.clamp_permission_scroll(0);
        return text;
    }
    const std::size_t shown = std::max<std::size_t>(room > 2 ? room - 2 : 1, 1);
    m.clamp_permission_scroll(text.size() - shown);
    const std::size_t begin = m.permission_scroll();
    const std::size_t end = begin + shown;
    std::vector<ScreenLine> out;
    out.push_back(line_of(begin > 0 ? "  ↑ " + std::to_string(begin) + " more lines above (PgUp)"
                                    : "  lines 1-" + std::to_string(end) + " of " + std::to_string(text.size()),
                          AttrDim | AttrBold));
    for (std::size_t i = begin; i < end; ++i) out.push_back(std::move(text[i]));
    out.push_back(
        line_of(end < text.size() ? "  ↓ " + std::to_string(text.size() - end) + " more lines below (PgDn)" : "  (end)",
                AttrDim | AttrBold));
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
    std::optional<PermissionView> permission;
    if (m.on_submit_tab()) title.push_back(line_of("  Review your answers", AttrBold));
    else if (m.permission()) {
        // The command, whole, takes the question's place: the wording only repeats it, cut.
        permission = permission_view(*m.permission(), w);
        title = permission->head;
        title.insert(title.end(), permission->text.begin(), permission->text.end());
        title.insert(title.end(), permission->tail.begin(), permission->tail.end());
    } else add_wrapped(title, sanitize_for_terminal(m.question(m.tab()).question, true), w, "  ", "  ", AttrBold);

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
    if (permission) {
        // The options keep their rows; the command scrolls in what is left (at least 3 rows).
        const std::size_t others = fixed() - permission->text.size();
        const std::size_t room = height > others + natural_body ? height - others - natural_body : 0;
        title = permission->head;
        auto window = permission_window(m, permission->text, std::max<std::size_t>(room, 3));
        title.insert(title.end(), window.begin(), window.end());
        title.insert(title.end(), permission->tail.begin(), permission->tail.end());
    } else if (fixed() + std::min<std::size_t>(natural_body, 3) > height && title.size() > 1) {
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
