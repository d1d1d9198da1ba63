// A tool call's input as an ask: the one projection of an agent's envelope onto the ask_user
// fields, and the one way to submit it (answered at once when nothing needs the person).
#pragma once

#include <string>

#include <rapidjson/document.h>

#include "core/model/outcome.hpp"
#include "core/pending_asks.hpp"

namespace askhost {

// The members of `input` that make an ask (questions, metadata, answers, annotations), checked by
// `profile`; the envelope's other members are not the tool's. Copies them: `input` must be of a
// depth already checked.
Parsed<AskInput> tool_ask_input(const rapidjson::Value& input, Profile profile);
// The same, moving the members out of `input` (a copy recurses as deep as the agent nested them).
// with_permission: `permission` too, for a protocol whose agent types it (the native one); a
// model's tool input never carries one.
Parsed<AskInput> take_tool_ask_input(rapidjson::Value& input, Profile profile, bool with_permission = false);

// Submits a parsed tool input for request `id`: refused, or every answer given by the agent itself,
// `answer` runs at once with that outcome; else the person is asked through `pending`.
template <class Data>
void ask_tool_input(PendingAsks<Data>& pending, const std::string& id, Parsed<AskInput> parsed, Data data,
                    typename PendingAsks<Data>::Answer answer) {
    if (auto now = outcome_without_asking(parsed)) return answer(std::move(*now), std::move(data));
    pending.ask(id, std::get<AskInput>(std::move(parsed)), std::move(data), std::move(answer));
}

}  // namespace askhost
