#include "common/message_table.hpp"

#include <algorithm>

namespace askhost {

Dispatch MessageTable::dispatch(rapidjson::Document& doc) const {
    const rapidjson::Value* type = json::is_object(doc) ? json::member(doc, "type") : nullptr;
    if (!type || !type->IsString() || type->GetStringLength() == 0) return Dispatch::Untyped;
    auto it = std::find_if(handlers_.begin(), handlers_.end(),
                           [t = json::str(*type)](const auto& h) { return h.first == t; });
    return it != handlers_.end() && it->second(doc) ? Dispatch::Handled : Dispatch::Unhandled;
}

}  // namespace askhost
