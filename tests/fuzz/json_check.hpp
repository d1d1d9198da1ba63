// Whether text is one valid JSON document (parsed iteratively: depth costs no stack here).
#pragma once

#include <string_view>

#include <rapidjson/document.h>
#include <rapidjson/memorystream.h>

inline bool valid_json(std::string_view text) {
    rapidjson::Document doc;
    doc.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(text.data(), text.size());
    return !doc.HasParseError();
}
