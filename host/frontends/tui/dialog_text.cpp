#include "frontends/tui/dialog_text.hpp"

#include <algorithm>
#include <cwchar>

#include "core/text/utf8.hpp"

namespace askhost::tui {

std::size_t char_width(char32_t c) {
    if (c < 0x80) return (c >= 0x20 && c != 0x7f) ? 1 : 0;
    const int w = ::wcwidth(static_cast<wchar_t>(c));
    return w < 0 ? 1 : static_cast<std::size_t>(w);
}

std::size_t fitting_prefix(std::u32string_view add, std::size_t room) {
    std::size_t used = 0, n = 0;
    for (char32_t c : add) {
        const std::size_t b = utf8::encoded_size(c);
        if (used + b > room) break;
        used += b;
        ++n;
    }
    return n;
}

std::size_t display_width(std::string_view text_utf8) {
    std::size_t w = 0;
    for (char32_t c : utf8::to_u32(text_utf8)) w += char_width(c);
    return w;
}

std::string truncate_to_width(std::string_view text_utf8, std::size_t width) {
    if (display_width(text_utf8) <= width) return std::string(text_utf8);
    if (width == 0) return {};
    std::u32string out;
    std::size_t used = 0;
    for (char32_t c : utf8::to_u32(text_utf8)) {
        const std::size_t cw = char_width(c);
        if (used + cw > width - 1) break;  // keep one column for the ellipsis
        out.push_back(c);
        used += cw;
    }
    return utf8::from_u32(out) + "…";
}

std::vector<std::string> wrap_text(std::string_view text_utf8, std::size_t width) {
    width = std::max<std::size_t>(width, 1);
    std::vector<std::string> lines;
    const std::u32string text = utf8::to_u32(text_utf8);
    std::size_t para_start = 0;
    while (para_start <= text.size()) {
        std::size_t para_end = text.find(U'\n', para_start);
        if (para_end == std::u32string::npos) para_end = text.size();
        const std::u32string_view para(text.data() + para_start, para_end - para_start);

        std::u32string line;
        std::size_t line_w = 0;
        std::size_t i = 0;
        if (para.empty()) lines.emplace_back();
        while (i < para.size()) {
            // One word (with the spaces before it) at a time.
            std::size_t j = i;
            while (j < para.size() && para[j] == U' ') ++j;
            std::size_t k = j;
            while (k < para.size() && para[k] != U' ') ++k;
            std::size_t lead_w = j - i, word_w = 0;
            for (std::size_t x = j; x < k; ++x) word_w += char_width(para[x]);
            if (!line.empty() && line_w + lead_w + word_w > width) {
                lines.push_back(utf8::from_u32(line));
                line.clear();
                line_w = 0;
                lead_w = 0;  // spaces at a break vanish
            }
            if (lead_w) {
                line.append(lead_w, U' ');
                line_w += lead_w;
            }
            // A word wider than the line is cut by characters.
            for (std::size_t x = j; x < k; ++x) {
                const std::size_t cw = char_width(para[x]);
                if (line_w + cw > width && !line.empty()) {
                    lines.push_back(utf8::from_u32(line));
                    line.clear();
                    line_w = 0;
                }
                line.push_back(para[x]);
                line_w += cw;
            }
            i = k;
        }
        if (!line.empty()) lines.push_back(utf8::from_u32(line));
        if (para_end == text.size()) break;
        para_start = para_end + 1;
    }
    if (lines.empty()) lines.emplace_back();
    return lines;
}

std::string format_count(std::size_t n) {
    const std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
        out.push_back(digits[i]);
    }
    return out;
}

}  // namespace askhost::tui
