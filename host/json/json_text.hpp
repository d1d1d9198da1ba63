// JSON string literals for bulk text, such as the agent's output on its way to an editor.
#pragma once

#include <string>
#include <string_view>

namespace askhost {

// Appends text to out as a JSON string literal (quotes included), escaping what JSON requires
// and repairing it as repair_utf8 does. One pass; runs of plain bytes are found a word at a time
// and copied at once.
void append_json_text(std::string& out, std::string_view text);

// Text for a JSON string: each maximal subpart of an invalid UTF-8 sequence becomes one U+FFFD,
// as core/text/utf8.hpp decodes everywhere (tests/text/utf8_repair.json).
std::string repair_utf8(std::string_view s);

}  // namespace askhost
