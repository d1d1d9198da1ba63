#include "web/web_push_message.hpp"

#include <algorithm>

#include <rapidjson/document.h>

#include "core/model/permission.hpp"
#include "core/text/sanitize.hpp"
#include "core/text/utf8.hpp"
#include "json/json_access.hpp"
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
        std::string what = !p.command.empty() ? p.command : !p.path.empty() ? p.path : p.tool;
        // A command with a path says where (Grep's folder), as the page's list does.
        if (!p.command.empty() && !p.path.empty())
            what += (p.content.empty() && p.replaces.empty() ? " in " : " to ") + p.path;
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
    AskPush m;
    m.tag = a.key;
    m.server = server_id;
    if (content == Content::None) {
        m.title = "askhost";
        m.body = "A question is waiting: open the page to see it.";
        return json::to_text(Message{std::move(m)});
    }
    m.title = shown(std::string(who) + " asks", kTitleBytes);
    if (content == Content::Who) {
        m.body = "Open the page to see the question.";
        return json::to_text(Message{std::move(m)});
    }
    m.body = shown(words(a), kBodyBytes);
    const auto& qs = a.ask.questions;
    if (qs.size() == 1 && !qs.front().multi_select && !qs.front().options.empty() &&
        qs.front().options.size() <= kMaxActions) {
        m.actions.emplace();
        for (std::size_t i = 0; i < qs.front().options.size(); ++i) {
            const std::string& label = qs.front().options[i].label;
            m.actions->push_back({std::to_string(i), shown(label, kActionBytes), opens_page(a, label)});
        }
    }
    return json::to_text(Message{std::move(m)});
}

Line line_of(const WaitingAsk& a) { return {a.key, who(a), words(a)}; }

std::string burst_message(const std::vector<Line>& asks, std::size_t waiting, Content content,
                          std::string_view server_id) {
    AskPush m;
    m.tag = kBurstTag;
    m.server = server_id;
    waiting = std::max(waiting, asks.size());
    m.title = std::to_string(waiting) + " questions waiting";
    std::string body;
    if (content == Content::None) {
        body = "Open the page to see them.";
    } else {
        // The end first, so that a body cut to fit still says it.
        const std::string more =
            waiting > asks.size() ? "; and " + std::to_string(waiting - asks.size()) + " more" : std::string();
        for (const Line& a : asks) {
            if (!body.empty()) body += "; ";
            body += a.who;
            if (content == Content::Full) body += ": " + a.words;
        }
        if (!more.empty()) body = shown(body, kBodyBytes - more.size() - std::string_view("…").size()) + more;
    }
    m.body = shown(body, kBodyBytes);
    m.keys.emplace();
    for (const Line& a : asks) m.keys->push_back(a.key);
    return json::to_text(Message{std::move(m)});
}

std::string close_message(std::string_view tag) { return json::to_text(Message{ClosePush{std::string(tag)}}); }

// --- the message's JSON ----------------------------------------------------------------------

json::FieldStatus from_json(const rapidjson::Value& v, Action& out, const json::Path& at) {
    return json::ObjectReader(v, at)
        .required("action", out.action)
        .required("title", out.title)
        .lenient("open", out.open)
        .status();
}

json::FieldStatus from_json(const rapidjson::Value& v, AskPush& out, const json::Path& at) {
    return json::ObjectReader(v, at)
        .required("tag", out.tag)
        .lenient("server", out.server)
        .lenient("title", out.title)
        .lenient("body", out.body)
        .lenient("actions", out.actions)
        .lenient("keys", out.keys)
        .status();
}

json::FieldStatus from_json(const rapidjson::Value& v, ClosePush& out, const json::Path& at) {
    return json::ObjectReader(v, at).required("tag", out.tag).status();
}

json::FieldStatus from_json(const rapidjson::Value& v, Message& out, const json::Path& at) {
    std::string type;
    json::ObjectReader o(v, at);
    if (!o.required("type", type).ok()) return o.status();
    if (type == "ask") {
        AskPush m;
        if (auto e = from_json(v, m, at)) return e;
        out = std::move(m);
        return {};
    }
    if (type == "close") {
        ClosePush m;
        if (auto e = from_json(v, m, at)) return e;
        out = std::move(m);
        return {};
    }
    return json::invalid(at.field("type"), "unknown push message type '" + type + "'");
}

void to_json(const Action& a, json::Writer& w) {
    json::ObjectWriter o(w);
    o.field("action", a.action).field("title", a.title);
    if (a.open) o.field("open", true);
}

void to_json(const AskPush& m, json::Writer& w) {
    json::ObjectWriter o(w);
    o.field("type", "ask").field("tag", m.tag).field("server", m.server).field("title", m.title).field("body", m.body);
    o.optional("actions", m.actions).optional("keys", m.keys);
}

void to_json(const ClosePush& m, json::Writer& w) { json::ObjectWriter(w).field("type", "close").field("tag", m.tag); }

void to_json(const Message& m, json::Writer& w) {
    std::visit([&](const auto& message) { to_json(message, w); }, m);
}

}  // namespace askhost::web::push
