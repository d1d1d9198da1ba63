// JSON string literals for bulk text, such as the agent's output on its way to an editor.
#pragma once

#include <string>
#include <string_view>

namespace askhost {

// Appends text to out as a JSON string literal (quotes included), escaping what JSON requires
// and replacing each byte that starts no valid UTF-8 sequence with U+FFFD. One pass; runs of
// plain bytes are found a word at a time and copied at once.
void append_json_text(std::string& out, std::string_view text);

// Text for a JSON string: each byte that starts no valid UTF-8 sequence becomes U+FFFD.
std::string repair_utf8(std::string_view s);

}  // namespace askhost
