// What a Web Push message says (issue 44), before it is encrypted: the JSON the page's service
// worker (host/web/page/src/sw.js) turns into a notification, or closes one with. How much of the
// question it carries is the person's choice (`web-push` in the config, docs/web.md); it never
// carries the token, a cookie or anything else that opens the page.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace askhost::web {
struct WaitingAsk;
}

namespace askhost::web::push {

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
// kBurstTag, server, title: "N questions waiting", body, keys}.
std::string burst_message(const std::vector<Line>& asks, Content content, std::string_view server_id);
// Closes the notification of `tag` on the device: {type:"close", tag}.
std::string close_message(std::string_view tag);

}  // namespace askhost::web::push
