#include "web/web_push_message.hpp"

#include <rapidjson/document.h>

#include "core/model/permission.hpp"
#include "core/text/sanitize.hpp"
#include "core/text/utf8.hpp"
#include "json/json_access.hpp"
#include "transport/jsonrpc.hpp"
#include "web/web_hub.hpp"

namespace askhost::web::push {

namespace {

// A notification shows a line or two: what is cut here the page shows whole.
constexpr std::size_t kTitleBytes = 120;
constexpr std::size_t kBodyBytes = 400;
constexpr std::size_t kActionBytes = 60;
constexpr std::size_t kMaxActions = 3;

std::string shown(std::string_view text, std::size_t max) { return utf8::cut(visible_text(text), max, "…"); }

// Who asks, as the page names it ("codex · MCP"): the hub's record's `who`, else the agent.
std::string who(const WaitingAsk& a) {
    if (!a.page.who.empty()) return a.page.who;
    return a.ask.agent.empty() ? std::string("agent") : a.ask.agent;
}

// What the page's list shows of an ask: a permission's command, else its first question.
std::string words(const WaitingAsk& a) {
    if (a.ask.permission) {
        const Permission& p = *a.ask.permission;
        const std::string what = !p.command.empty() ? p.command : !p.path.empty() ? p.path : p.tool;
        return p.tool.empty() || what == p.tool ? what : p.tool + ": " + what;
    }
    if (a.ask.questions.empty()) return {};
    std::string w = a.ask.questions.front().question;
    if (a.ask.questions.size() > 1) w += " (+" + std::to_string(a.ask.questions.size() - 1) + " more)";
    return w;
}

bool opens_page(const WaitingAsk& a, const std::string& label) {
    if (!a.ask.permission) return false;
    const auto* choice = permission_choice(*a.ask.permission, label);
    // What it allows is asked once more on the page; an option of a kind askhost does not know too.
    return !choice || choice->kind == PermissionKind::AllowOnce || choice->kind == PermissionKind::AllowAlways ||
           choice->kind == PermissionKind::Other;
}

std::string head(std::string_view tag, std::string_view server_id) {
    return "{\"type\":\"ask\",\"tag\":" + json_quote(tag) + ",\"server\":" + json_quote(server_id);
}

}  // namespace

std::optional<Content> parse_content(std::string_view text) {
    if (text == "full") return Content::Full;
    if (text == "who") return Content::Who;
    if (text == "none") return Content::None;
    return std::nullopt;
}

std::string_view content_name(Content c) {
    switch (c) {
        case Content::Full: return "full";
        case Content::Who: return "who";
        case Content::None: return "none";
    }
    return "full";
}

std::string ask_message(const WaitingAsk& a, Content content, std::string_view server_id) {
    return ask_message(a, content == Content::None ? std::string() : who(a), content, server_id);
}

std::string ask_message(const WaitingAsk& a, std::string_view who, Content content, std::string_view server_id) {
    std::string m = head(a.key, server_id);
    if (content == Content::None)
        return m + ",\"title\":\"askhost\",\"body\":\"A question is waiting: open the page to see it.\"}";
    m += ",\"title\":" + json_quote(shown(std::string(who) + " asks", kTitleBytes));
    if (content == Content::Who) return m + ",\"body\":\"Open the page to see the question.\"}";
    m += ",\"body\":" + json_quote(shown(words(a), kBodyBytes));
    const auto& qs = a.ask.questions;
    if (qs.size() == 1 && !qs.front().multi_select && !qs.front().options.empty() &&
        qs.front().options.size() <= kMaxActions) {
        m += ",\"actions\":[";
        for (std::size_t i = 0; i < qs.front().options.size(); ++i) {
            const std::string& label = qs.front().options[i].label;
            if (i > 0) m += ',';
            m += "{\"action\":\"" + std::to_string(i) + "\",\"title\":" + json_quote(shown(label, kActionBytes));
            if (opens_page(a, label)) m += ",\"open\":true";
            m += '}';
        }
        m += ']';
    }
    return m + '}';
}

Line line_of(const WaitingAsk& a) { return {a.key, who(a), words(a)}; }

std::string burst_message(const std::vector<Line>& asks, Content content, std::string_view server_id) {
    std::string m = head(kBurstTag, server_id);
    m += ",\"title\":" + json_quote(std::to_string(asks.size()) + " questions waiting");
    std::string body;
    if (content == Content::None) {
        body = "Open the page to see them.";
    } else {
        for (const Line& a : asks) {
            if (!body.empty()) body += "; ";
            body += a.who;
            if (content == Content::Full) body += ": " + a.words;
        }
    }
    m += ",\"body\":" + json_quote(shown(body, kBodyBytes)) + ",\"keys\":[";
    for (std::size_t i = 0; i < asks.size(); ++i) m += (i > 0 ? "," : "") + json_quote(asks[i].key);
    return m + "]}";
}

std::string close_message(std::string_view tag) { return "{\"type\":\"close\",\"tag\":" + json_quote(tag) + "}"; }

}  // namespace askhost::web::push
