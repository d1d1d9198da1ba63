// An option's preview: whether it is HTML, and the text a face shows for it. One rule in C++, Lua
// (editor-bridges/neovim/lua/askhost/text.lua) and TypeScript (editor-bridges/vscode/webview/
// text.ts), held together by tests/text/preview_text.json.
#include "core/text/preview.hpp"

#include "core/text/ascii.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace askhost {

namespace {

using ascii::is_alpha;
using ascii::is_space;

std::string lower_ascii(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = ascii::lower(c);
    return out;
}

}  // namespace

bool looks_like_html(std::string_view p) {
    std::size_t i = 0;
    while (i < p.size() && is_space(p[i])) ++i;
    if (i < p.size() && p[i] == '<') return true;
    for (std::size_t k = p.find('<'); k != std::string_view::npos; k = p.find('<', k + 1)) {
        std::size_t n = k + 1;
        if (n < p.size() && (p[n] == '/' || p[n] == '!')) ++n;
        if (n < p.size() && is_alpha(p[n])) return true;
    }
    return false;
}

std::string preview_text(std::string_view preview) {
    if (!looks_like_html(preview)) return std::string(preview);
    static const std::vector<std::string_view> blocks = {"p",  "div",   "br",  "li",         "ul", "ol",
                                                         "tr", "table", "pre", "h1",         "h2", "h3",
                                                         "h4", "h5",    "h6",  "blockquote", "hr"};
    std::string out;
    for (std::size_t i = 0; i < preview.size();) {
        const char c = preview[i];
        if (c == '<') {
            const std::size_t end = preview.find('>', i);
            if (end == std::string_view::npos) break;  // an unclosed tag: the rest is inside it
            std::string_view tag = preview.substr(i + 1, end - i - 1);
            if (tag.substr(0, 3) == "!--") {  // a comment may hold '>'
                const std::size_t close = preview.find("-->", i + 4);
                i = close == std::string_view::npos ? preview.size() : close + 3;
                continue;
            }
            const bool closing = !tag.empty() && tag[0] == '/';
            if (closing) tag.remove_prefix(1);
            const std::string name = lower_ascii(tag.substr(0, tag.find_first_of(" \t\r\n/")));
            if (std::find(blocks.begin(), blocks.end(), name) != blocks.end()) {
                if (!out.empty() && out.back() != '\n') out += '\n';
                if (name == "li" && !closing) out += "• ";
            }
            i = end + 1;
            continue;
        }
        if (c == '&') {
            static const std::vector<std::pair<std::string_view, std::string_view>> entities = {
                {"&lt;", "<"},  {"&gt;", ">"},   {"&amp;", "&"}, {"&quot;", "\""},
                {"&#39;", "'"}, {"&apos;", "'"}, {"&nbsp;", " "}};
            bool done = false;
            for (const auto& [name, text] : entities)
                if (lower_ascii(preview.substr(i, name.size())) == name) {
                    out += text;
                    i += name.size();
                    done = true;
                    break;
                }
            if (done) continue;
        }
        out += c;
        ++i;
    }
    // At most one blank line in a row, none at the ends.
    std::string tidy;
    for (char c : out) {
        if (c == '\n' && tidy.size() >= 2 && tidy[tidy.size() - 1] == '\n' && tidy[tidy.size() - 2] == '\n') continue;
        tidy += c;
    }
    const std::size_t b = tidy.find_first_not_of(" \n"), e = tidy.find_last_not_of(" \n");
    return b == std::string::npos ? std::string() : tidy.substr(b, e - b + 1);
}

}  // namespace askhost
