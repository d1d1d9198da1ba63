// What a Web Push message says (issue 44), before it is encrypted: the JSON the page's service
// worker (host/web/page/src/sw.ts) turns into a notification, or closes one with, typed on both
// sides and held together by tests/web/push_messages.json (tests/unit/test_push_messages.cpp,
// tests/web/push_messages.test.mjs). How much of the question it carries is the person's choice
// (`web-push` in the config, docs/web.md); it never carries the token, a cookie or anything else
// that opens the page.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "json/json_codec.hpp"

namespace askhost::web {
struct WaitingAsk;
}

namespace askhost::web::push {

// A notification's button: option `action` (its index, as text) titled by its label; `open` when
// it must not be picked from a notification (a permission's allow: the page asks once more).
struct Action {
    std::string action, title;
    bool open = false;  // written only when true
};

// {type:"ask", tag, server, title, body, actions?, keys?}: a question (tag: its key) or a burst
// of them (tag: kBurstTag, keys: theirs) to notify of, from the run `server` of askhost web.
struct AskPush {
    std::string tag, server, title, body;
    std::optional<std::vector<Action>> actions;
    std::optional<std::vector<std::string>> keys;
};
// {type:"close", tag}: the notification of `tag` is taken away (answered or withdrawn).
struct ClosePush {
    std::string tag;
};
using Message = std::variant<AskPush, ClosePush>;

// As the service worker reads them: the tag is required, the rest lenient (a wrong or missing
// server, title or body is empty, a wrong list of actions or keys is none), an unknown type an
// error.
json::FieldStatus from_json(const rapidjson::Value& v, Action& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, AskPush& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, ClosePush& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, Message& out, const json::Path& at);
void to_json(const Action& a, json::Writer& w);
void to_json(const AskPush& m, json::Writer& w);
void to_json(const ClosePush& m, json::Writer& w);
void to_json(const Message& m, json::Writer& w);

// full: who asks, the first question's words and, for a simple question, its options as actions;
// who: who asks, no words of the question; none: that a question waits, nothing more.
enum class Content { Full, Who, None };
std::optional<Content> parse_content(std::string_view text);  // "full", "who", "none"
std::string_view content_name(Content c);

// The tag of the notification that stands for a burst of questions.
inline constexpr std::string_view kBurstTag = "askhost-burst";

// The notification of one question: {type:"ask", tag: its key, server, title, body, actions?:
// [{action, title, open?}]}. Actions (a single-select question alone, of at most three options)
// in Full only; `open` marks an option that must not be picked from a notification (a
// permission's allow: the page asks once more).
std::string ask_message(const WaitingAsk& ask, Content content, std::string_view server_id);
// The same with who asks already read (line_of's `who`): the record is parsed once per question.
std::string ask_message(const WaitingAsk& ask, std::string_view who, Content content, std::string_view server_id);
// What a summary of several questions says of one: its key, who asks, its words.
struct Line {
    std::string key, who, words;
};
Line line_of(const WaitingAsk& ask);
// Several questions that started waiting together, in one notification: {type:"ask", tag:
// kBurstTag, server, title: "N questions waiting", body, keys}. `waiting` (N) may be more than
// the questions it names: the body then says how many more.
std::string burst_message(const std::vector<Line>& asks, std::size_t waiting, Content content,
                          std::string_view server_id);
// Closes the notification of `tag` on the device: {type:"close", tag}.
std::string close_message(std::string_view tag);

}  // namespace askhost::web::push
