// UTF-8 for the whole tree: one strict decoder (JSON text's check and repair, the terminal
// sanitizer, the dialogs), its encoder, and one way to cut text short at a whole character. It
// includes nothing of ours: host/json, below core, uses it too.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace askhost::utf8 {

struct Step {
    char32_t cp = 0;      // the code point, or U+FFFD when !ok
    std::size_t len = 1;  // bytes consumed; on error the maximal invalid subpart (at least 1)
    bool ok = false;
};

// Decodes one code point at s[pos] (pos < s.size()). Refuses overlongs, surrogates and anything
// above U+10FFFF, following Unicode's "maximal subpart" rule so one bad sequence is one error.
inline Step decode(std::string_view s, std::size_t pos) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char b0 = byte(pos);
    if (b0 < 0x80) return {b0, 1, true};

    std::size_t need = 0;
    char32_t cp = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        need = 1;
        cp = b0 & 0x1Fu;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        need = 2;
        cp = b0 & 0x0Fu;
        if (b0 == 0xE0) lo = 0xA0;       // overlong
        else if (b0 == 0xED) hi = 0x9F;  // surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        need = 3;
        cp = b0 & 0x07u;
        if (b0 == 0xF0) lo = 0x90;       // overlong
        else if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
        return {U'\uFFFD', 1, false};
    }

    std::size_t i = pos + 1;
    for (std::size_t k = 0; k < need; ++k, ++i) {
        if (i >= s.size()) return {U'\uFFFD', i - pos, false};
        const unsigned char b = byte(i);
        const unsigned char min = k == 0 ? lo : 0x80;
        const unsigned char max = k == 0 ? hi : 0xBF;
        if (b < min || b > max) return {U'\uFFFD', i - pos, false};
        cp = (cp << 6) | (b & 0x3Fu);
    }
    return {cp, need + 1, true};
}

inline void append(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// The bytes `cp` takes in UTF-8.
inline std::size_t encoded_size(char32_t cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

inline std::size_t encoded_size(std::u32string_view text) {
    std::size_t n = 0;
    for (char32_t c : text) n += encoded_size(c);
    return n;
}

// Code points out: each invalid sequence becomes one U+FFFD (decode's maximal-subpart rule).
inline std::u32string to_u32(std::string_view s) {
    std::u32string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const Step st = decode(s, i);
        out.push_back(st.cp);
        i += st.len;
    }
    return out;
}

inline std::string from_u32(std::u32string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char32_t c : text) append(out, c);
    return out;
}

// How many bytes of `s` to keep to cut it at no more than `max` bytes without splitting a
// character: `max` itself, or less by the continuation bytes of the character it would split.
inline std::size_t whole_char_prefix(std::string_view s, std::size_t max) {
    if (s.size() <= max) return s.size();
    std::size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return cut;
}

// `s` if it fits in `max` bytes; else its longest whole-character prefix of at most `max` bytes,
// then `mark` (e.g. "..." or an ellipsis; the mark is not counted in `max`).
inline std::string cut(std::string_view s, std::size_t max, std::string_view mark = {}) {
    if (s.size() <= max) return std::string(s);
    std::string out(s.substr(0, whole_char_prefix(s, max)));
    out += mark;
    return out;
}

}  // namespace askhost::utf8
