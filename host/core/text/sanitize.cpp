// Agent text made inert for a terminal: every control becomes something you can see.
#include "core/text/sanitize.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "core/text/utf8.hpp"

namespace askhost {

namespace {

void append_code(std::string& out, char32_t cp) {
    static constexpr char hex[] = "0123456789ABCDEF";
    out += "<U+";
    for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 0xF];
    out += '>';
}

// Bidi embeddings, overrides and isolates can make shown text read differently from its bytes.
bool is_bidi_control(char32_t cp) { return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069); }

}  // namespace

std::string sanitize_for_terminal(std::string_view text, bool keep_newlines) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto step = utf8::decode(text, i);
        const char32_t cp = step.cp;
        if (!step.ok) {
            out += "\xEF\xBF\xBD";  // U+FFFD
        } else if (cp == '\n') {
            out += keep_newlines ? '\n' : ' ';
        } else if (cp == '\t') {
            out += ' ';
        } else if (cp < 0x20) {
            out += '^';  // caret notation: ESC is ^[, BEL ^G, CR ^M, NUL ^@
            out += static_cast<char>(cp + 0x40);
        } else if (cp == 0x7F) {
            out += "^?";
        } else if ((cp >= 0x80 && cp <= 0x9F) || is_bidi_control(cp)) {
            append_code(out, cp);
        } else {
            out.append(text, i, step.len);
        }
        i += step.len;
    }
    return out;
}

std::string shell_quote(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out += "'\\''";
        else out.push_back(c);
    }
    return out + "'";
}

std::string shell_word(std::string_view s) {
    const bool bare = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_./-+:@%,=", c) != nullptr;
    });
    return bare ? std::string(s) : shell_quote(s);
}

}  // namespace askhost
