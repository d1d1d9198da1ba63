#define BOOST_TEST_MODULE sanitize
#include <boost/test/unit_test.hpp>

#include <string>

#include "cases.hpp"
#include "core/model/question.hpp"
#include "core/text/ascii.hpp"
#include "core/text/sanitize.hpp"
#include "core/text/utf8.hpp"
#include "json/json_text.hpp"

using askhost::sanitize_for_terminal;
using askhost::testing::expect_each;

namespace {

const std::string replacement = "\xEF\xBF\xBD";

std::string shown(const std::string& s) { return sanitize_for_terminal(s); }
std::string shown_keeping_newlines(const std::string& s) { return sanitize_for_terminal(s, true); }

bool no_raw_controls(const std::string& s, bool allow_newline) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '\n' && allow_newline) continue;
        if (c < 0x20 || c == 0x7F) return false;
        if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) <= 0x9F) return false;  // C1
    }
    return true;
}

}  // namespace

BOOST_AUTO_TEST_CASE(plain_text_untouched) {
    expect_each(shown, {
                           {"", ""},
                           {"Which database should we use?", "Which database should we use?"},
                           {"PostgreSQL (Recommended) ~ [x] {y}", "PostgreSQL (Recommended) ~ [x] {y}"},
                       });
}

BOOST_AUTO_TEST_CASE(wide_and_combining_characters_untouched) {
    expect_each(shown, {
                           {"数据库 データ 데이터", "数据库 データ 데이터"},
                           {"\xF0\x9F\x98\x80 emoji", "\xF0\x9F\x98\x80 emoji"},
                           {"e\xCC\x81t\xC3\xA9", "e\xCC\x81t\xC3\xA9"},  // e + U+0301, é
                           {"Базаданных", "Базаданных"},
                           {"\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D", "\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D"},  // Hebrew
                       });
}

BOOST_AUTO_TEST_CASE(escape_sequences_become_visible) {
    expect_each(shown, {
                           {"\x1b[2J\x1b[H", "^[[2J^[[H"},
                           {"\x1b[31mred\x1b[0m", "^[[31mred^[[0m"},
                           // OSC 52 would write the clipboard; both terminators are neutralised.
                           {"\x1b]52;c;ZXZpbA==\x07", "^[]52;c;ZXZpbA==^G"},
                           {"\x1b]52;c;ZXZpbA==\x1b\\", "^[]52;c;ZXZpbA==^[\\"},
                           {"\x1b]0;title\x07", "^[]0;title^G"},
                       });
}

BOOST_AUTO_TEST_CASE(c0_controls_in_caret_notation) {
    expect_each(shown, {
                           {"bell\x07", "bell^G"},
                           {std::string("a\0b", 3), "a^@b"},
                           {"back\x08space", "back^Hspace"},
                           {"line\rover", "line^Mover"},
                           {"\x0e\x0f\x1f", "^N^O^_"},
                           {"del\x7f", "del^?"},
                       });
}

BOOST_AUTO_TEST_CASE(tabs_and_newlines) {
    expect_each(shown, {
                           {"a\tb", "a b"},
                           {"one\ntwo", "one two"},
                       });
    expect_each(shown_keeping_newlines, {
                                            {"one\ntwo", "one\ntwo"},
                                            {"one\r\ntwo", "one\ntwo"},  // CR LF is one line break
                                            {"one\rtwo\r", "one^Mtwo^M"},
                                            {"\x1b[2J\n", "^[[2J\n"},
                                            {"a\tb", "a b"},  // a terminal has no tab stops
                                        });
}

BOOST_AUTO_TEST_CASE(c1_controls_shown_as_code_points) {
    expect_each(shown, {
                           {"\xC2\x9B"
                            "2J",
                            "<U+009B>2J"},  // C1 CSI
                           {"\xC2\x9D"
                            "52;c;x\xC2\x9C",
                            "<U+009D>52;c;x<U+009C>"},  // C1 OSC .. ST
                           {"\xC2\x80\xC2\x85", "<U+0080><U+0085>"},
                           {"\xC2\xA0", "\xC2\xA0"},  // NBSP is not a control
                       });
}

BOOST_AUTO_TEST_CASE(raw_c1_bytes_are_invalid_utf8) {
    // A bare 0x9B byte is what 8-bit terminals read as CSI: it is not UTF-8, so U+FFFD.
    BOOST_TEST(sanitize_for_terminal("\x9b"
                                     "2J") == replacement + "2J");
}

BOOST_AUTO_TEST_CASE(bidi_controls_are_neutralised) {
    expect_each(shown,
                {
                    {"abc\xE2\x80\xAE"
                     "fed",
                     "abc<U+202E>fed"},  // RLO
                    {"\xE2\x80\xAA\xE2\x80\xAB\xE2\x80\xAC\xE2\x80\xAD", "<U+202A><U+202B><U+202C><U+202D>"},
                    {"\xE2\x81\xA6x\xE2\x81\xA7y\xE2\x81\xA8z\xE2\x81\xA9", "<U+2066>x<U+2067>y<U+2068>z<U+2069>"},
                    {"\xE2\x80\x8F", "<U+200F>"},  // RLM, too (the rest of the table: tests/text)
                });
}

BOOST_AUTO_TEST_CASE(invalid_bytes_become_replacement_characters) {
    expect_each(shown, {
                           {"a\xFF"
                            "b",
                            "a" + replacement + "b"},
                           {"\xC0\xAF", replacement + replacement},                    // overlong: two bad bytes
                           {"\xED\xA0\x80", replacement + replacement + replacement},  // surrogate
                           {"\xE2\x82x", replacement + "x"},                           // one truncated sequence
                           {"\xF0\x9F\x98", replacement},
                           {"\xF4\x90\x80\x80", replacement + replacement + replacement + replacement},
                       });
    BOOST_TEST(askhost::utf8_valid(sanitize_for_terminal("\xFE\xFF\x80\xC2")));
}

BOOST_AUTO_TEST_CASE(every_byte_value_gives_safe_valid_output) {
    std::string all;
    for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
    for (bool keep : {false, true}) {
        const std::string out = sanitize_for_terminal(all, keep);
        BOOST_TEST(askhost::utf8_valid(out));
        BOOST_TEST(no_raw_controls(out, keep));
    }
}

BOOST_AUTO_TEST_CASE(every_c1_and_bidi_code_point_gives_safe_output) {
    std::string all;
    for (char32_t cp = 0x80; cp <= 0x9F; ++cp) {
        all += static_cast<char>(0xC2);
        all += static_cast<char>(cp & 0xFF);
    }
    const std::string out = sanitize_for_terminal(all);
    BOOST_TEST(no_raw_controls(out, false));
    BOOST_TEST(out.find("<U+009F>") != std::string::npos);
}

// ---- JSON text for agent output (text/json_text) ----------------------------------------------

namespace {

// The obvious byte-at-a-time version: what append_json_text's word-at-a-time scan must match.
std::string reference_json_text(const std::string& text) {
    const std::string repaired = askhost::repair_utf8(text);
    std::string out = "\"";
    static const char hex[] = "0123456789abcdef";
    for (unsigned char c : repaired) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (c < 0x20) {
                    out += "\\u00";
                    out += hex[c >> 4];
                    out += hex[c & 0xF];
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    return out + "\"";
}

std::string json_text(const std::string& text) {
    std::string out;
    askhost::append_json_text(out, text);
    return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(json_text_escapes_and_repairs_like_the_bytewise_reference) {
    BOOST_TEST(json_text("") == "\"\"");
    BOOST_TEST(json_text("plain ascii text, longer than one word\n") ==
               "\"plain ascii text, longer than one word\\n\"");
    BOOST_TEST(json_text("tab\there \"q\" back\\slash \x1b[31m") ==
               "\"tab\\there \\\"q\\\" back\\\\slash \\u001b[31m\"");
    BOOST_TEST(json_text("héllo 中文 😀") == "\"héllo 中文 😀\"");
    BOOST_TEST(json_text("a\xff"
                         "b") ==
               "\"a\xEF\xBF\xBD"
               "b\"");
    BOOST_TEST(json_text(std::string("nul\0byte", 8)) == "\"nul\\u0000byte\"");
    BOOST_TEST(json_text("\x7f del stays") == "\"\x7f del stays\"");
    // Every special byte at every offset of strings across the 16- and 32-byte steps (twice), and
    // random bytes of every length.
    const std::string specials = std::string("\"\\\n\x01\x1f\x80\xff\xc3\xa9\xe4\xb8\xad", 13) + std::string(1, '\0');
    for (std::size_t len = 0; len < 100; ++len)
        for (std::size_t at = 0; at < len; ++at)
            for (char sp : specials) {
                std::string t(len, 'x');
                t[at] = sp;
                BOOST_TEST_REQUIRE(json_text(t) == reference_json_text(t));
            }
    unsigned seed = 12345;
    for (int round = 0; round < 3000; ++round) {
        std::string t(static_cast<std::size_t>(round % 97), ' ');
        for (auto& ch : t) {
            seed = seed * 1103515245u + 12345u;
            const unsigned r = (seed >> 16) & 0xFF;
            ch = static_cast<char>(r < 200 ? 0x20 + r % 0x5F : r);  // mostly printable, some of anything
        }
        BOOST_TEST_REQUIRE(json_text(t) == reference_json_text(t));
    }
    // Lines of every length one after another (a read of agent output), a special byte at every
    // offset of a 100-byte line among them, and a text longer than the steps the output grows by.
    for (std::size_t len = 0; len < 70; ++len) {
        std::string t;
        for (int line = 0; line < 5; ++line) t += std::string(len, static_cast<char>('a' + line)) + "\n";
        BOOST_TEST_REQUIRE(json_text(t) == reference_json_text(t));
    }
    for (std::size_t at = 0; at < 100; ++at)
        for (char sp : specials) {
            std::string t;
            for (int line = 0; line < 3; ++line) t += std::string(99, 'x') + "\n";
            t[100 + at] = sp;
            BOOST_TEST_REQUIRE(json_text(t) == reference_json_text(t));
        }
    std::string big;
    for (int line = 0; line < 2000; ++line)
        big += "line " + std::to_string(line) + " \"quoted\" \xc3\xa9\t" + std::string(line % 90, 'z') + "\n";
    BOOST_TEST_REQUIRE(json_text(big) == reference_json_text(big));
}

// ---- core/text/utf8.hpp: the one decoder and the one cut at a whole character ----

BOOST_AUTO_TEST_CASE(utf8_cut_never_splits_a_character) {
    namespace utf8 = askhost::utf8;
    const std::string emoji = "\xF0\x9F\x98\x80";  // U+1F600, four bytes
    // The cut at byte 6 would fall inside the emoji that starts at byte 4: it moves back to 4.
    const std::string s = "abcd" + emoji + "efgh";
    BOOST_TEST(utf8::whole_char_prefix(s, 6) == 4u);
    BOOST_TEST(utf8::cut(s, 6, "...") == "abcd...");
    BOOST_TEST(utf8::cut(s, 8, "...") == "abcd" + emoji + "...");
    BOOST_TEST(utf8::cut(s, 12) == s);  // fits: untouched, no mark
    for (std::size_t max = 0; max < s.size(); ++max) {
        const std::string c = utf8::cut(s, max);
        BOOST_TEST(c.size() <= max);
        BOOST_TEST(askhost::utf8_valid(c), "cut at " << max << " is valid UTF-8");
    }
}

BOOST_AUTO_TEST_CASE(utf8_round_trip_and_one_replacement_per_bad_sequence) {
    namespace utf8 = askhost::utf8;
    const std::string s = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";  // a, é, €, 😀
    const std::u32string u = utf8::to_u32(s);
    BOOST_TEST((u == std::u32string{U'a', U'\u00E9', U'\u20AC', U'\U0001F600'}));
    BOOST_TEST(utf8::from_u32(u) == s);
    BOOST_TEST(utf8::encoded_size(u) == s.size());
    // A truncated 3-byte sequence is one U+FFFD (the maximal subpart), a stray continuation another.
    BOOST_TEST((utf8::to_u32("\xE2\x82x\x80") == std::u32string{U'\uFFFD', U'x', U'\uFFFD'}));
    // Overlongs and surrogates are refused as the validator refuses them.
    BOOST_TEST((utf8::to_u32("\xC0\xAF") == std::u32string{U'\uFFFD', U'\uFFFD'}));
    BOOST_TEST((utf8::to_u32("\xED\xA0\x80") == std::u32string{U'\uFFFD', U'\uFFFD', U'\uFFFD'}));
}

// The locale-free case and blank helpers the header, answer and URI parsers share: only ASCII
// letters change case (a UTF-8 byte never matches a letter), and only the blanks named are cut.
BOOST_AUTO_TEST_CASE(ascii_case_and_blanks) {
    namespace ascii = askhost::ascii;
    BOOST_TEST(ascii::lowered("Content-LENGTH: \xC3\x84") == "content-length: \xC3\x84");
    BOOST_TEST(ascii::equal_ignoring_case("Content-Length", "content-length"));
    BOOST_TEST(!ascii::equal_ignoring_case("\xC3\x84", "\xC3\xA4"));  // Ä and ä: not ASCII
    BOOST_TEST(!ascii::equal_ignoring_case("for", "fo"));
    BOOST_TEST(ascii::trim(" \t a b \t") == "a b");
    BOOST_TEST(ascii::trim("\r\n x\r\n", " \t\n\r") == "x");
    BOOST_TEST(ascii::trim("\rx\r") == "\rx\r");  // a carriage return is no blank unless named
    BOOST_TEST(ascii::trim(" \t ").empty());
    BOOST_TEST(ascii::trim("").empty());
    BOOST_TEST(ascii::trim_start(" \t{x} ") == "{x} ");
    BOOST_TEST(ascii::trim_start("  ").empty());
}
