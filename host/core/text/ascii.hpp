// ASCII character classes for the parsers that read markup and words byte by byte (the HTML
// preview rule, the question's HTML check): locale-free, unlike <cctype>.
#pragma once

namespace askhost::ascii {

constexpr char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// HTML's white space: space, tab, line feed, carriage return, form feed.
constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

}  // namespace askhost::ascii
