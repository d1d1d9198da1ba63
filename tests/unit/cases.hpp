// Tables of cases for one function: each input with what the function must make of it, checked
// in turn; a failing case is named by its input.
#pragma once

#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>

#include <boost/test/unit_test.hpp>

namespace askhost::testing {

// The input as a C string literal, bytes outside printable ASCII as \xHH (a failing case's name
// must not drive the terminal that shows it).
inline std::string literal(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
            out += static_cast<char>(c);
            continue;
        }
        char hex[5];
        std::snprintf(hex, sizeof hex, "\\x%02X", c);
        out += hex;
    }
    return out + "\"";
}

template <typename F>
void expect_each(F&& f, std::initializer_list<std::pair<std::string, std::string>> cases) {
    for (const auto& [input, expected] : cases) {
        BOOST_TEST_CONTEXT("input " << literal(input)) { BOOST_TEST(f(input) == expected); }
    }
}

// f(input) == expected for every input.
template <typename F>
void expect_all(F&& f, const std::string& expected, std::initializer_list<std::string> inputs) {
    for (const auto& input : inputs) {
        BOOST_TEST_CONTEXT("input " << literal(input)) { BOOST_TEST(f(input) == expected); }
    }
}

}  // namespace askhost::testing
