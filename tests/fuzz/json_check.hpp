// Checks the fuzz targets share: whether text is one valid JSON document, and the events of one
// (every number literal as written), to show that nothing changed on the way through askhost.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

// Read iteratively and without building a document (depth costs no stack, checking costs little
// of a fuzz run); nothing but white space may follow the value.
inline bool valid_json(std::string_view text) {
    rapidjson::MemoryStream in(text.data(), text.size());
    rapidjson::Reader reader;
    rapidjson::BaseReaderHandler<> ignore;
    constexpr unsigned kFlags = rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag;
    return !reader.Parse<kFlags>(in, ignore).IsError() && in.Tell() == text.size();
}

// The parse events of text, numbers as their literal and strings decoded: two texts with the same
// events hold the same values, written alike or not. Empty when text is no valid JSON.
inline std::vector<std::string> json_events(std::string_view text) {
    struct Recorder : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Recorder> {
        std::vector<std::string> out;
        bool Default() { return false; }  // numbers come as RawNumber: no other event is expected
        bool Null() {
            out.emplace_back("null");
            return true;
        }
        bool Bool(bool b) {
            out.emplace_back(b ? "true" : "false");
            return true;
        }
        bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
            out.push_back("n:" + std::string(s, n));
            return true;
        }
        bool String(const char* s, rapidjson::SizeType n, bool) {
            out.push_back("s:" + std::string(s, n));
            return true;
        }
        bool Key(const char* s, rapidjson::SizeType n, bool) {
            out.push_back("k:" + std::string(s, n));
            return true;
        }
        bool StartObject() {
            out.emplace_back("{");
            return true;
        }
        bool EndObject(rapidjson::SizeType) {
            out.emplace_back("}");
            return true;
        }
        bool StartArray() {
            out.emplace_back("[");
            return true;
        }
        bool EndArray(rapidjson::SizeType) {
            out.emplace_back("]");
            return true;
        }
    } recorder;
    rapidjson::MemoryStream in(text.data(), text.size());
    rapidjson::Reader reader;
    constexpr unsigned kFlags =
        rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;
    if (reader.Parse<kFlags>(in, recorder).IsError()) return {};
    return std::move(recorder.out);
}
