// Checks the fuzz targets share: whether text is one valid JSON document, and the events of one
// (every number literal as written), to show that nothing changed on the way through askhost.
#pragma once

#include <string>
#include <string_view>
#include <utility>
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
        bool Null() { return event("null"); }
        bool Bool(bool b) { return event(b ? "true" : "false"); }
        bool RawNumber(const char* s, rapidjson::SizeType n, bool) { return event("n:" + std::string(s, n)); }
        bool String(const char* s, rapidjson::SizeType n, bool) { return event("s:" + std::string(s, n)); }
        bool Key(const char* s, rapidjson::SizeType n, bool) { return event("k:" + std::string(s, n)); }
        bool StartObject() { return event("{"); }
        bool EndObject(rapidjson::SizeType) { return event("}"); }
        bool StartArray() { return event("["); }
        bool EndArray(rapidjson::SizeType) { return event("]"); }
        bool event(std::string e) {
            out.push_back(std::move(e));
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
