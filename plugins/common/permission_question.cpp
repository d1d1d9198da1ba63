#include "common/permission_question.hpp"

#include <set>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "core/text/utf8.hpp"
#include "json/json_access.hpp"

namespace askhost {
namespace {

constexpr std::size_t kMaxTitleChars = 300;
constexpr std::size_t kMaxDetailChars = 500;

// One line of at most `max` code points: whitespace runs that hold a line break become one
// space (a multi-line command reads as one line), invalid UTF-8 becomes U+FFFD.
std::string one_line(std::string_view s, std::size_t max) {
    std::string out;
    std::size_t chars = 0;
    bool pending_space = false;
    for (std::size_t i = 0; i < s.size();) {
        const auto step = utf8::decode(s, i);
        i += step.len;
        if (step.cp == U'\n' || step.cp == U'\r') {
            pending_space = true;
            continue;
        }
        if (pending_space) {
            while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
            if (!out.empty()) {
                out.push_back(' ');
                ++chars;
            }
            pending_space = false;
            if (step.cp == U' ' || step.cp == U'\t') {
                pending_space = true;  // swallow the indentation of the next line too
                continue;
            }
        }
        if (chars == max) {
            // Never cut silently: the faces show the typed permission whole, and this says so.
            std::size_t rest = 1;
            for (; i < s.size(); ++rest) i += utf8::decode(s, i).len;
            out += "\xE2\x80\xA6 (" + std::to_string(rest) + " more characters)";  // …
            return out;
        }
        utf8::append(out, step.cp);
        ++chars;
    }
    return out;
}

std::string_view string_member(const rapidjson::Value& v, const char* key) {
    if (!v.IsObject()) return {};
    auto it = v.FindMember(key);
    if (it == v.MemberEnd() || !it->value.IsString()) return {};
    return {it->value.GetString(), it->value.GetStringLength()};
}

}  // namespace

std::vector<PermissionChoice> default_permission_choices(std::string_view tool) {
    const std::string name = tool.empty() ? std::string("this tool") : std::string(tool);
    return {
        {"allow", "Allow", PermissionKind::AllowOnce, "Run it this time"},
        {"deny", "Deny", PermissionKind::RejectOnce, "Do not run it; the agent is told you refused"},
        {"always", "Always allow this tool", PermissionKind::AllowAlways,
         "Allow " + name + " without asking for the rest of this run"},
    };
}

std::string describe_tool_input(const rapidjson::Value& input) {
    if (!input.IsObject()) return {};
    std::string out;
    auto add = [&](std::string_view s) {
        if (s.empty()) return;
        if (!out.empty()) out += ", ";
        out += s;
    };
    for (const char* key : {"command", "file_path", "notebook_path", "path", "url", "pattern", "query"})
        add(string_member(input, key));
    auto paths = input.FindMember("paths");
    if (paths != input.MemberEnd() && paths->value.IsArray())
        for (const auto& p : paths->value.GetArray())
            if (p.IsString()) add({p.GetString(), p.GetStringLength()});
    return out;
}

void describe_permission(PermissionRequest& request, const rapidjson::Value& input) {
    request.title = describe_tool_input(input);
    request.detail = json::string_of(input, "description");
    if (request.title.empty()) {
        request.title = request.detail.empty() ? request.tool : request.detail;
        request.detail.clear();
    }
    if (request.title == request.detail) request.detail.clear();
}

void fill_permission_fields(PermissionRequest& request, const rapidjson::Value& input) {
    if (!input.IsObject()) return;
    request.command = string_member(input, "command");
    for (const char* key : {"file_path", "notebook_path", "path"})
        if (request.path.empty()) request.path = string_member(input, key);
    for (const char* key : {"content", "new_string", "new_source"})
        if (request.content.empty()) request.content = string_member(input, key);
    // Edit's old text: what its new text replaces (an empty new text deletes it).
    request.replaces = string_member(input, "old_string");
    // A search names what it looks for beside where (Grep's pattern and path): both are shown.
    if (request.command.empty())
        for (const char* key : {"url", "pattern", "query"})
            if (request.command.empty()) request.command = string_member(input, key);
    request.reason = string_member(input, "description");
    // Nothing of it read (an MCP server's tool: {"sql": "DROP TABLE users"}): what it will run
    // with is its whole input, shown as JSON, which no string in it can make look like another
    // key. Without it the faces named the tool alone.
    if (request.command.empty() && request.path.empty() && request.content.empty() && request.replaces.empty() &&
        input.MemberCount() > 0) {
        rapidjson::StringBuffer buf;
        rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buf);
        w.SetIndent(' ', 2);
        if (json::write(input, w)) request.command.assign(buf.GetString(), buf.GetSize());
    }
}

namespace {

// A text past the model's cap is cut where a face can say so: the faces show every byte up to it.
std::string capped(std::string_view s) {
    std::string whole = utf8_valid(s) ? std::string(s) : utf8::from_u32(utf8::to_u32(s));  // U+FFFD for bad bytes
    if (whole.size() <= kMaxPermissionTextBytes) return whole;
    const std::size_t keep = utf8::whole_char_prefix(whole, kMaxPermissionTextBytes - 100);
    return whole.substr(0, keep) + "\n[askhost: " + std::to_string(whole.size() - keep) + " more bytes not shown]";
}

}  // namespace

AskInput permission_ask(const PermissionRequest& request) {
    const std::string tool = one_line(request.tool, 60);
    const std::string title = one_line(request.title, kMaxTitleChars);
    const std::string detail = one_line(request.detail, kMaxDetailChars);
    std::string what = title.empty() ? tool : title;
    std::string text;
    if (what.empty()) text = "Allow the agent to use a tool?";
    else if (tool.empty() || what.rfind(tool, 0) == 0) text = "Allow " + what + "?";
    else text = "Allow " + tool + ": " + what + "?";
    if (!detail.empty() && what.find(detail) == std::string::npos) text += " (" + detail + ")";

    Question q;
    q.question = std::move(text);
    q.header = "Permission";
    std::set<std::string> used;
    for (const auto& c : request.choices) {
        std::string label = one_line(c.label, 200);
        if (label.empty()) label = one_line(c.id, 200);
        if (label.empty()) label = "Option";
        if (used.count(label)) {
            const std::string base = label;
            for (int n = 2; used.count(label); ++n) label = base + " (" + std::to_string(n) + ")";
        }
        used.insert(label);
        q.options.push_back({label, one_line(c.description, 300), std::nullopt});
    }
    Permission typed;
    typed.tool = one_line(request.tool, 200);
    typed.command = capped(request.command);
    // Code points, each at most 4 bytes: within the model's Limits::max_text_bytes.
    typed.path = one_line(request.path, 1000);
    typed.content = capped(request.content);
    typed.replaces = capped(request.replaces);
    typed.reason = one_line(
        request.reason.empty() && typed.command.empty() && typed.path.empty() ? request.title : request.reason, 1000);
    for (std::size_t i = 0; i < q.options.size(); ++i)
        typed.options.push_back({q.options[i].label, request.choices[i].kind});
    AskInput input;
    input.questions.push_back(std::move(q));
    input.permission = std::move(typed);
    input.metadata_json = R"({"source":"permission"})";
    return input;
}

PermissionDecision decide_permission(const PermissionRequest& request, const Outcome& outcome) {
    PermissionDecision d;
    if (outcome.kind != OutcomeKind::Answered || outcome.answers.empty()) return d;
    const Answer& a = outcome.answers.front();
    // The labels as shown: permission_ask may have made them unique.
    const AskInput shown = permission_ask(request);
    const auto& options = shown.questions.front().options;
    if (a.selected_option && !a.was_custom) {
        // The option must be the answer itself: one that says Deny and selects Allow picks nothing.
        if (a.values.size() != 1 || a.values.front() != *a.selected_option) return d;
        for (std::size_t i = 0; i < options.size() && i < request.choices.size(); ++i)
            if (options[i].label == *a.selected_option) {
                d.choice = &request.choices[i];
                return d;
            }
    }
    // Typed text: a refusal in the person's words (an agent that takes a message shows it).
    std::string text;
    for (const auto& v : a.values) text += (text.empty() ? "" : ", ") + v;
    if (text.empty()) return d;
    for (const auto& c : request.choices)
        if (c.kind == PermissionKind::RejectOnce) {
            d.choice = &c;
            break;
        }
    if (!d.choice)
        for (const auto& c : request.choices)
            if (c.kind == PermissionKind::RejectAlways) {
                d.choice = &c;
                break;
            }
    if (d.choice) d.message = std::move(text);
    return d;
}

void ToolPolicy::allow(std::string_view list) {
    std::size_t i = 0;
    while (i < list.size()) {
        while (i < list.size() && (list[i] == ',' || list[i] == ' ' || list[i] == '\t')) ++i;
        std::size_t start = i;
        while (i < list.size() && list[i] != ',' && list[i] != ' ' && list[i] != '\t') ++i;
        if (i > start) patterns_.push_back({std::string(list.substr(start, i - start)), false});
    }
}

const ToolPolicy::Pattern* ToolPolicy::match(std::string_view tool) const {
    if (tool.empty()) return nullptr;
    for (const auto& pattern : patterns_) {
        std::string_view p = pattern.text;
        if (p == "*") return &pattern;
        if (!p.empty() && p.back() == '*') {
            if (tool.substr(0, p.size() - 1) == p.substr(0, p.size() - 1)) return &pattern;
        } else if (p == tool) {
            return &pattern;
        }
    }
    return nullptr;
}

bool ToolPolicy::allows(std::string_view tool) const { return match(tool) != nullptr; }

std::string_view ToolPolicy::reason(std::string_view tool) const {
    const Pattern* p = match(tool);
    if (!p) return {};
    return p->remembered ? "you chose Always earlier in this session" : "--allow-tools";
}

const PermissionChoice* ToolPolicy::automatic_choice(const PermissionRequest& request) const {
    if (!allows(request.tool)) return nullptr;
    for (auto kind : {PermissionKind::AllowOnce, PermissionKind::AllowAlways})
        for (const auto& c : request.choices)
            if (c.kind == kind) return &c;
    return nullptr;
}

void ToolPolicy::remember(const PermissionRequest& request, const PermissionChoice& choice) {
    if (choice.kind == PermissionKind::AllowAlways && !request.tool.empty() && !allows(request.tool))
        patterns_.push_back({request.tool, true});
}

}  // namespace askhost
