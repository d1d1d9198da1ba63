#include "claude_tools.hpp"

#include "json/json_access.hpp"
#include "json/json_codec.hpp"

namespace askhost::claude {

bool is_question_tool(std::string_view tool) {
    constexpr std::string_view mcp = "mcp__", suffix = "__ask_user_question";
    if (tool == kAskTool) return true;
    return tool.size() > mcp.size() + suffix.size() && tool.substr(0, mcp.size()) == mcp &&
           tool.substr(tool.size() - suffix.size()) == suffix;
}

namespace {

// {"answers": {...}, "annotations": {...}}: what AskUserQuestion's input gains.
struct AnswersMap {
    const std::vector<Answer>& answers;
};
void to_json(const AnswersMap& m, json::Writer& w) {
    json::ObjectWriter o(w);
    write_answers_map(o.writer(), m.answers);
}

}  // namespace

std::string input_with_answers(const std::string& original, const std::vector<Answer>& answers) {
    rapidjson::Document doc, add;
    // Both written by askhost (original from a value checked for depth), so both parse.
    json::parse(doc, original);
    json::parse(add, json::to_text(AnswersMap{answers}));
    if (!doc.IsObject()) doc.SetObject();
    for (auto& m : add.GetObject()) {
        doc.RemoveMember(m.name.GetString());
        doc.AddMember(rapidjson::Value(m.name, doc.GetAllocator()), rapidjson::Value(m.value, doc.GetAllocator()),
                      doc.GetAllocator());
    }
    return json::to_text(doc);
}

PermissionRequest tool_permission_request(const std::string& tool, const rapidjson::Value& input) {
    PermissionRequest req;
    req.tool = tool;
    describe_permission(req, input);
    req.choices = default_permission_choices(tool);
    fill_permission_fields(req, input);
    return req;
}

}  // namespace askhost::claude
