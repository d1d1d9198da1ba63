// Agent text made inert and visible: every control and invisible character becomes a visible sign.
#include "core/text/sanitize.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>

#include "core/text/utf8.hpp"

namespace askhost {

namespace {

void append_code(std::string& out, char32_t cp) {
    static constexpr char hex[] = "0123456789ABCDEF";
    out += "<U+";
    int shift = 12;  // four digits at least, five or six above U+FFFF
    while (shift < 20 && (cp >> (shift + 4)) != 0) shift += 4;
    for (; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 0xF];
    out += '>';
}

// The characters a person cannot see, or that reorder what follows (Unicode's default-ignorable
// code points, line and paragraph separators, interlinear annotation, Egyptian format controls),
// except the variation selectors 1-16, which emoji need. Sorted; docs/dialog.md lists the same set.
struct Range {
    char32_t first, last;
};
constexpr Range kInvisible[] = {
    {0x00AD, 0x00AD}, {0x034F, 0x034F},   {0x061C, 0x061C},   {0x115F, 0x1160},   {0x17B4, 0x17B5},   {0x180B, 0x180F},
    {0x200B, 0x200F}, {0x2028, 0x202E},   {0x2060, 0x206F},   {0x3164, 0x3164},   {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},
    {0xFFF0, 0xFFFB}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF},
};

std::string shown(std::string_view text, Lines lines, bool tab_as_space) {
    const bool keep = lines == Lines::Keep;
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto step = utf8::decode(text, i);
        const char32_t cp = step.cp;
        if (!step.ok) {
            out += "\xEF\xBF\xBD";  // U+FFFD
        } else if (cp == '\n') {
            out += keep ? '\n' : ' ';
        } else if (cp == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            // CR LF is one line break: the LF that follows makes it.
        } else if (cp == '\t') {
            out += keep && !tab_as_space ? '\t' : ' ';
        } else if (cp < 0x20) {
            out += '^';  // caret notation: ESC is ^[, BEL ^G, CR ^M, NUL ^@
            out += static_cast<char>(cp + 0x40);
        } else if (cp == 0x7F) {
            out += "^?";
        } else if ((cp >= 0x80 && cp <= 0x9F) || is_invisible(cp)) {
            append_code(out, cp);
        } else {
            out.append(text, i, step.len);
        }
        i += step.len;
    }
    return out;
}

}  // namespace

bool is_invisible(char32_t cp) {
    const auto* r = std::lower_bound(std::begin(kInvisible), std::end(kInvisible), cp,
                                     [](const Range& range, char32_t c) { return range.last < c; });
    return r != std::end(kInvisible) && r->first <= cp;
}

std::string visible_text(std::string_view text, Lines lines) { return shown(text, lines, false); }

std::string sanitize_for_terminal(std::string_view text, bool keep_newlines) {
    return shown(text, keep_newlines ? Lines::Keep : Lines::Join, true);
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
