// Asks as the editor protocol carries them, and outcomes as editors return them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "core/error.hpp"
#include "core/model/outcome.hpp"
#include "json/json_codec.hpp"

namespace askhost {

// What a client said it can show (initialize's capabilities.ask); the host adapts to it.
struct ClientAskCaps {
    bool multi_select = true;  // false: multi-select questions come as plain single-choice lists
    bool previews = true;      // false: option previews are left out
    bool notes = true;         // whether the client may return notes
};

ClientAskCaps parse_client_caps(const rapidjson::Value& capabilities);

// {id, questions, metadata?, agent, route, cwd?} as members of an open object (ask/submit's).
void write_ask_members(JsonWriter& w, const Ask& ask, const ClientAskCaps& caps);
// The ask/show params: the ask as this client can show it, and `who` asks (core/text/who_asks.hpp).
struct ShowAsk {
    const Ask& ask;
    const ClientAskCaps& caps;
};
void to_json(const ShowAsk& show, JsonWriter& w);
// The ask/show params object, as JSON text.
std::string ask_show_params(const Ask& ask, const ClientAskCaps& caps);
// The ask/state params: {state, pending:[{id, questions, agent, route, cwd?, who}]}.
std::string ask_state_params(const std::vector<const Ask*>& pending);
// The ask's members as a client that shows everything gets them (ask/state lists them so too):
// ShowAsk's JSON text without the braces, to write once per ask and copy whole.
std::string ask_members_text(const Ask& ask);
// Whether a client with these caps is shown ask_members_text as it is.
inline bool shows_all(const ClientAskCaps& caps) { return caps.multi_select && caps.previews; }
// ask/state's params from each pending ask's ask_members_text, in order.
std::string ask_state_params(const std::vector<std::string_view>& members);

// A client's ask/show result (native shape) checked against the ask. Answers are matched to the
// questions by text and returned in question order; a malformed result is an error naming the field.
json::FieldStatus read_client_outcome(const rapidjson::Value& v, const Ask& ask, Outcome& out, const json::Path& at);

// ask/show's result, typed: an outcome read against the ask it answers (set first, and shared with
// the caller: an ask is not copied for each call).
struct ClientOutcome {
    std::shared_ptr<const Ask> ask;
    Outcome outcome;
};
json::FieldStatus from_json(const rapidjson::Value& v, ClientOutcome& out, const json::Path& at);

// The same at "result"; a malformed result is an error naming the field.
Result<Outcome> parse_client_outcome(const rapidjson::Value& result, const Ask& ask);

// The outcome as an ask/show result (native shape), as JSON text.
std::string outcome_json(const Outcome& outcome);

}  // namespace askhost
