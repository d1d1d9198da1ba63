// The shared text vectors (tests/text/*.json, README.md there) replayed against the host's rules:
// what text a face may show (visible_text), when a preview is HTML (looks_like_html,
// preview_text), who asks (who_asks, which the faces show as the host says it), how a typed
// command line splits (cli::split_command_line) and how invalid UTF-8 is repaired (core's decoder
// and json/'s repair and check by it). Neovim's and the TypeScript faces' replays read the same
// files.
#define BOOST_TEST_MODULE text_vectors
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <rapidjson/document.h>

#include "cases.hpp"
#include "core/command_line.hpp"
#include "core/text/preview.hpp"
#include "core/text/sanitize.hpp"
#include "core/text/utf8.hpp"
#include "core/text/who_asks.hpp"
#include "json/json_access.hpp"
#include "json/json_text.hpp"

using askhost::Lines;
using askhost::testing::literal;

namespace {

rapidjson::Document read_vectors(const char* name) {
    std::ifstream in(std::string(ASKHOST_TESTS "/text/") + name);
    BOOST_TEST_REQUIRE(in.good(), name);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    rapidjson::Document doc;
    doc.Parse(text.c_str(), text.size());
    BOOST_TEST_REQUIRE(!doc.HasParseError(), name);
    return doc;
}

std::string str(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

std::string encoded(char32_t cp) {
    std::string s;
    askhost::utf8::append(s, cp);
    return s;
}

// "2028-202E" or "00AD": the first and last code point of a range of the rule's table.
std::pair<char32_t, char32_t> range_of(const std::string& s) {
    const auto dash = s.find('-');
    const auto first = static_cast<char32_t>(std::stoul(s.substr(0, dash), nullptr, 16));
    const auto last =
        dash == std::string::npos ? first : static_cast<char32_t>(std::stoul(s.substr(dash + 1), nullptr, 16));
    return {first, last};
}

// "61 e2 82": the bytes a vector writes in hex (JSON strings cannot hold invalid UTF-8).
std::string bytes_of(const std::string& hex) {
    std::string out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 3)
        out.push_back(static_cast<char>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    return out;
}

std::string code(char32_t cp) {
    char buf[16];
    std::snprintf(buf, sizeof buf, cp > 0xFFFF ? "<U+%X>" : "<U+%04X>", static_cast<unsigned>(cp));
    return buf;
}

}  // namespace

BOOST_AUTO_TEST_CASE(visible_text_cases) {
    const auto doc = read_vectors("visible_text.json");
    for (const auto& c : doc["cases"].GetArray()) {
        const std::string in = str(c["in"]);
        const std::string one_line = str(c["one_line"]);
        const std::string lines = c.HasMember("lines") ? str(c["lines"]) : one_line;
        BOOST_TEST_CONTEXT(str(c["about"]) << ": " << literal(in)) {
            BOOST_TEST(literal(askhost::visible_text(in, Lines::Join)) == literal(one_line));
            BOOST_TEST(literal(askhost::visible_text(in, Lines::Keep)) == literal(lines));
        }
    }
}

// Every code point of every range in the table is shown as a code, and its neighbours outside
// the table as they are: the table here is the table of the vectors.
BOOST_AUTO_TEST_CASE(visible_text_invisible_ranges) {
    const auto doc = read_vectors("visible_text.json");
    std::size_t checked = 0;
    for (const auto& r : doc["invisible"].GetArray()) {
        const auto [first, last] = range_of(str(r));
        BOOST_TEST_CONTEXT("range " << str(r)) {
            for (char32_t cp = first; cp <= last; ++cp, ++checked)
                if (askhost::visible_text(encoded(cp)) != code(cp)) BOOST_ERROR("not shown as a code: " << code(cp));
            for (char32_t cp : {first - 1, last + 1})
                if (!askhost::is_invisible(cp) && cp > 0x9F)
                    BOOST_TEST(askhost::visible_text(encoded(cp)) == encoded(cp), "shown changed: " << code(cp));
        }
    }
    BOOST_TEST(checked > 4096U);
    // Nothing outside the vectors' table is in the rule's.
    for (char32_t cp = 0xA0; cp <= 0x10FFFF; ++cp) {
        if (!askhost::is_invisible(cp)) continue;
        bool listed = false;
        for (const auto& r : doc["invisible"].GetArray()) {
            const auto [first, last] = range_of(str(r));
            listed = listed || (cp >= first && cp <= last);
        }
        if (!listed) BOOST_ERROR("invisible but not in the vectors' table: " << code(cp));
    }
}

BOOST_AUTO_TEST_CASE(preview_text_cases) {
    const auto doc = read_vectors("preview_text.json");
    for (const auto& c : doc["cases"].GetArray()) {
        const std::string preview = str(c["preview"]);
        BOOST_TEST_CONTEXT(str(c["about"]) << ": " << literal(preview)) {
            BOOST_TEST(askhost::looks_like_html(preview) == c["html"].GetBool());
            if (c.HasMember("text")) BOOST_TEST(literal(askhost::preview_text(preview)) == literal(str(c["text"])));
        }
    }
}

BOOST_AUTO_TEST_CASE(who_asks_cases) {
    const auto doc = read_vectors("who_asks.json");
    for (const auto& c : doc["cases"].GetArray()) {
        BOOST_TEST_CONTEXT(str(c["about"])) {
            BOOST_TEST(askhost::who_asks(str(c["agent"]), str(c["route"])) == str(c["who"]));
        }
    }
}

BOOST_AUTO_TEST_CASE(command_line_cases) {
    const auto doc = read_vectors("command_line.json");
    for (const auto& c : doc["cases"].GetArray()) {
        const std::string line = str(c["line"]);
        BOOST_TEST_CONTEXT(str(c["about"]) << ": " << literal(line)) {
            const auto got = askhost::cli::split_command_line(line);
            if (c.HasMember("error")) {
                BOOST_TEST_REQUIRE(!got);
                BOOST_TEST(got.error().message == str(c["error"]));
                BOOST_TEST(got.error().exit_status() == 2);
            } else {
                BOOST_TEST_REQUIRE(got.has_value(), (got ? std::string() : got.error().message));
                std::vector<std::string> want;
                for (const auto& w : c["argv"].GetArray()) want.push_back(str(w));
                BOOST_TEST(got->size() == want.size());
                for (std::size_t i = 0; i < std::min(got->size(), want.size()); ++i)
                    BOOST_TEST(literal((*got)[i]) == literal(want[i]), "word " << i);
            }
        }
    }
}

// One U+FFFD per maximal subpart wherever the host decodes: core's decoder (the dialogs, visible
// text) and json/'s repair of agent output, its JSON string writer and its well-formedness check.
BOOST_AUTO_TEST_CASE(utf8_repair_cases) {
    const auto doc = read_vectors("utf8_repair.json");
    for (const auto& c : doc["cases"].GetArray()) {
        const std::string in = bytes_of(str(c["bytes"]));
        const std::string want = str(c["text"]);
        BOOST_TEST_CONTEXT(str(c["about"]) << ": " << str(c["bytes"])) {
            BOOST_TEST(literal(askhost::utf8::from_u32(askhost::utf8::to_u32(in))) == literal(want));
            BOOST_TEST(literal(askhost::visible_text(in, Lines::Keep)) == literal(want));
            BOOST_TEST(literal(askhost::repair_utf8(in)) == literal(want));
            std::string json;
            askhost::append_json_text(json, in);
            BOOST_TEST(literal(json) == literal("\"" + want + "\""));
            BOOST_TEST(askhost::json::utf8_well_formed(in) == (in == want));
        }
    }
}
