// A JSON file of test vectors shared with another language's tests (tests/web/*.json), read whole:
// the test stops if it is missing or is not JSON.
#pragma once

#include <fstream>
#include <iterator>
#include <string>

#include <rapidjson/document.h>
#include <boost/test/unit_test.hpp>

namespace askhost::test {

inline rapidjson::Document read_json_vectors(const std::string& path) {
    std::ifstream in(path);
    BOOST_TEST_REQUIRE(in.good(), path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    rapidjson::Document doc;
    doc.Parse(text.c_str(), text.size());
    BOOST_TEST_REQUIRE(!doc.HasParseError(), path);
    return doc;
}

}  // namespace askhost::test
