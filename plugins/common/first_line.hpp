// A line of an agent's progress output (a tool's arguments, its result) shown in the terminal.
#pragma once

#include <cstddef>
#include <string>

#include "core/text/utf8.hpp"

namespace askhost {

// s up to its first newline (" ..." marks the rest), and at most max bytes, cut at a whole
// character ("..." marks the cut).
inline std::string first_line(std::string s, std::size_t max = 200) {
    auto nl = s.find('\n');
    if (nl != std::string::npos) s = s.substr(0, nl) + " ...";
    return utf8::cut(s, max, "...");
}

}  // namespace askhost
