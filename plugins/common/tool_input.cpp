#include "common/tool_input.hpp"

#include "json/json_access.hpp"

namespace askhost {

namespace {

constexpr const char* kToolFields[] = {"questions", "metadata", "answers", "annotations"};

template <class Transfer>
Parsed<AskInput> project(const rapidjson::Value& input, Profile profile, Transfer transfer, bool permission = false) {
    // Five members at most: their array in a buffer on the stack, not a 64 KiB heap chunk.
    char pool_buffer[1024];
    rapidjson::MemoryPoolAllocator<> pool(pool_buffer, sizeof pool_buffer);
    rapidjson::Document tool(rapidjson::kObjectType, &pool, 256, json::stack_allocator());
    if (input.IsObject())
        for (const char* key : kToolFields)
            if (input.HasMember(key))
                tool.AddMember(rapidjson::Value(key, tool.GetAllocator()), transfer(key, tool), tool.GetAllocator());
    if (permission && input.IsObject() && input.HasMember("permission"))
        tool.AddMember("permission", transfer("permission", tool), tool.GetAllocator());
    return parse_ask_input(tool, profile);
}

}  // namespace

Parsed<AskInput> tool_ask_input(const rapidjson::Value& input, Profile profile) {
    return project(input, profile, [&](const char* key, rapidjson::Document& tool) {
        return rapidjson::Value(input[key], tool.GetAllocator());
    });
}

Parsed<AskInput> take_tool_ask_input(rapidjson::Value& input, Profile profile, bool with_permission) {
    // Moved, not copied; `input`'s allocator outlives the projection.
    return project(
        input, profile, [&](const char* key, rapidjson::Document&) { return std::move(input[key]); }, with_permission);
}

}  // namespace askhost
