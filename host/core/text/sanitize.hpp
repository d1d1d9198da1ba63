// Text from an agent is shown, never executed: neutralise what a terminal would interpret, and
// show what a person could not see.
#pragma once

#include <string>
#include <string_view>

namespace askhost {

// Line breaks in agent text: kept where the face wraps text over lines (a question, a description,
// a preview), each a space where it shows one line (a label, a header, who asks).
enum class Lines { Join, Keep };

// Agent text as every face shows it (docs/dialog.md, "Agent text in every face"; the vectors in
// tests/text/visible_text.json): valid UTF-8 out (invalid bytes become U+FFFD); C0 controls in
// caret notation ("^[", "^G"; a CR before LF is part of the line break), DEL as "^?"; C1 controls,
// bidi controls and invisible characters as "<U+202E>". LF and TAB stay with Lines::Keep, else
// each becomes a space.
std::string visible_text(std::string_view text, Lines lines = Lines::Join);

// Whether a code point is in the rule's set of invisible characters (format, bidi, zero-width,
// fillers, tags: visible_text shows it as "<U+XXXX>").
bool is_invisible(char32_t cp);

// visible_text for a terminal's cells, which have no tab stops: a TAB is always a space.
// With keep_newlines, '\n' survives (for multi-line descriptions and previews).
std::string sanitize_for_terminal(std::string_view text, bool keep_newlines = false);

// One word for a POSIX shell: in single quotes (a ' as '\''), so the shell keeps it whole.
std::string shell_quote(std::string_view s);
// The same, left bare when the shell would keep it whole anyway (letters, digits, _./-+:@%,=).
std::string shell_word(std::string_view s);

}  // namespace askhost
