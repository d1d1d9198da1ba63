// Text for a terminal: its width in columns, cut and wrapped to a width.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace askhost::tui {

// Columns one code point takes (wcwidth; 1 for what it cannot measure, 0 for controls).
std::size_t char_width(char32_t c);
// Terminal columns of UTF-8 text (wcwidth per code point; needs a UTF-8 LC_CTYPE for non-ASCII).
std::size_t display_width(std::string_view text);
// Cut to `width` columns, ending in "…" when something was cut.
std::string truncate_to_width(std::string_view text, std::size_t width);
// Break into lines of at most `width` columns, at spaces where possible; '\n' starts a new line.
std::vector<std::string> wrap_text(std::string_view text, std::size_t width);
// 2847 -> "2,847".
std::string format_count(std::size_t n);

// The longest prefix of `add` that fits in `room` bytes of UTF-8 (core/text/utf8.hpp converts).
std::size_t fitting_prefix(std::u32string_view add, std::size_t room);

}  // namespace askhost::tui
