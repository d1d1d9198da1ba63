// ASCII character classes and case for the parsers that read markup, headers and words byte by
// byte (the HTML preview rule, the question's HTML check, frame and HTTP headers, the answers a
// person types): locale-free, unlike <cctype>, whose tolower follows the locale a curses face sets.
#pragma once

#include <string>
#include <string_view>

namespace askhost::ascii {

constexpr char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// HTML's white space: space, tab, line feed, carriage return, form feed.
constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// `s` with its ASCII capitals made small; every other byte (UTF-8 too) as it is.
inline std::string lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = lower(c);
    return out;
}

// Equal but for the case of ASCII letters ("Content-Length", "content-length").
constexpr bool equal_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

// `s` without the characters of `blanks` at either end; by default HTTP's optional white space
// (space and tab).
constexpr std::string_view trim(std::string_view s, std::string_view blanks = " \t") {
    const std::size_t first = s.find_first_not_of(blanks);
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(blanks) - first + 1);
}

// `s` without the characters of `blanks` at its start.
constexpr std::string_view trim_start(std::string_view s, std::string_view blanks = " \t") {
    const std::size_t first = s.find_first_not_of(blanks);
    return first == std::string_view::npos ? std::string_view() : s.substr(first);
}

}  // namespace askhost::ascii
