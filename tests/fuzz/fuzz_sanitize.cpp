// The terminal sanitiser: whatever comes in, what goes out is valid UTF-8 a terminal cannot
// interpret and a person sees all of (no C0 or C1 control, no DEL, no bidi control or invisible
// character), and clean text passes unchanged.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/model/question.hpp"
#include "core/text/sanitize.hpp"
#include "core/text/utf8.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const bool keep_newlines = data[0] & 1;
    std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    const std::string out = askhost::sanitize_for_terminal(text, keep_newlines);
    FUZZ_CHECK(askhost::utf8_valid(out));
    bool clean = askhost::utf8_valid(text);
    for (std::size_t i = 0; i < out.size();) {
        const auto step = askhost::utf8::decode(out, i);
        const char32_t cp = step.cp;
        FUZZ_CHECK(cp >= 0x20 || (cp == '\n' && keep_newlines));
        FUZZ_CHECK(cp != 0x7F && !(cp >= 0x80 && cp <= 0x9F));
        FUZZ_CHECK(!askhost::is_invisible(cp));
        i += step.len;
    }
    for (std::size_t i = 0; clean && i < text.size();) {
        const auto step = askhost::utf8::decode(text, i);
        const char32_t cp = step.cp;
        if ((cp < 0x20 && !(cp == '\n' && keep_newlines)) || (cp >= 0x7F && cp <= 0x9F) || askhost::is_invisible(cp))
            clean = false;
        i += step.len;
    }
    if (clean) FUZZ_CHECK(out == text);
    // Sanitising is idempotent: the output is already inert.
    FUZZ_CHECK(askhost::sanitize_for_terminal(out, keep_newlines) == out);
    return 0;
}
