#include "common/tool_input.hpp"

namespace askhost {

namespace {

constexpr const char* kToolFields[] = {"questions", "metadata", "answers", "annotations"};

template <class Transfer>
Parsed<AskInput> project(const rapidjson::Value& input, Profile profile, Transfer transfer) {
    rapidjson::Document tool(rapidjson::kObjectType);
    if (input.IsObject())
        for (const char* key : kToolFields)
            if (input.HasMember(key))
                tool.AddMember(rapidjson::Value(key, tool.GetAllocator()), transfer(key, tool), tool.GetAllocator());
    return parse_ask_input(tool, profile);
}

}  // namespace

Parsed<AskInput> tool_ask_input(const rapidjson::Value& input, Profile profile) {
    return project(input, profile, [&](const char* key, rapidjson::Document& tool) {
        return rapidjson::Value(input[key], tool.GetAllocator());
    });
}

Parsed<AskInput> take_tool_ask_input(rapidjson::Value& input, Profile profile) {
    // Moved, not copied; `input`'s allocator outlives the projection.
    return project(input, profile, [&](const char* key, rapidjson::Document&) { return std::move(input[key]); });
}

}  // namespace askhost
