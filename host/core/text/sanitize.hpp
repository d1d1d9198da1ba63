// Text from an agent is shown, never executed: neutralise what a terminal would interpret.
#pragma once

#include <string>
#include <string_view>

namespace askhost {

// Valid UTF-8 out: ESC, C0/C1 controls and DEL become visible (e.g. "^[", "^G"), invalid bytes
// become U+FFFD. With keep_newlines, '\n' survives (for multi-line descriptions and previews).
std::string sanitize_for_terminal(std::string_view text, bool keep_newlines = false);

// One word for a POSIX shell: in single quotes (a ' as '\''), so the shell keeps it whole.
std::string shell_quote(std::string_view s);
// The same, left bare when the shell would keep it whole anyway (letters, digits, _./-+:@%,=).
std::string shell_word(std::string_view s);

}  // namespace askhost
