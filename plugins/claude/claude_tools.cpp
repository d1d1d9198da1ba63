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
    // What will run leads; the model's description of it is only its claim, so it comes after
    // (a "List files" description on `rm -rf build` must not be what the person reads first).
    req.title = describe_tool_input(input);
    req.detail = json::string_of(input, "description");
    if (req.title.empty()) {
        req.title = req.detail.empty() ? tool : req.detail;
        req.detail.clear();
    }
    if (req.title == req.detail) req.detail.clear();
    req.choices = default_permission_choices(tool);
    fill_permission_fields(req, input);
    return req;
}

}  // namespace askhost::claude
