// A JSON-lines agent protocol's dispatch: each message type an adapter handles, read into its
// envelope struct (from_json) and handed to its handler. The native, Claude Code and pi adapters
// each keep one table.
#pragma once

#include <functional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <rapidjson/document.h>

#include "json/json_codec.hpp"

namespace askhost {

// What dispatch did with a message; each adapter decides what an unhandled line is (its output,
// or nothing to show).
enum class Dispatch {
    Handled,
    Untyped,   // no object, or its "type" is no string or empty
    Unhandled  // a type not in the table, or an envelope that did not read
};

class MessageTable {
public:
    // Handler: void(const Message&), or void(const Message&, rapidjson::Document&) for one that
    // takes members from the message.
    template <class Message, class Handler>
    MessageTable& on(std::string_view type, Handler handler) {
        handlers_.emplace_back(type, [handler = std::move(handler)](rapidjson::Document& doc) {
            Message message{};
            if (from_json(doc, message, json::Path(""))) return false;
            if constexpr (std::is_invocable_v<Handler&, const Message&, rapidjson::Document&>) handler(message, doc);
            else handler(message);
            return true;
        });
        return *this;
    }

    Dispatch dispatch(rapidjson::Document& doc) const;

private:
    std::vector<std::pair<std::string_view, std::function<bool(rapidjson::Document&)>>> handlers_;
};

}  // namespace askhost
