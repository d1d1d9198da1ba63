// JSON a unit test expects to be valid (a line an adapter sent, a message it builds), parsed:
// the test stops where it is not.
#pragma once

#include <string>

#include <rapidjson/document.h>
#include <boost/test/unit_test.hpp>

namespace askhost::testing {

inline rapidjson::Document parse(const std::string& s) {
    rapidjson::Document d;
    d.Parse(s.c_str());
    BOOST_REQUIRE(!d.HasParseError());
    return d;
}

}  // namespace askhost::testing
