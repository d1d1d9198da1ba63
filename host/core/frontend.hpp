// A place that can show one ask to a person and produce one outcome.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/model/outcome.hpp"

namespace askhost {

class Frontend {
public:
    using Done = std::function<void(Outcome)>;
    virtual ~Frontend() = default;

    virtual std::string_view name() const = 0;

    // Show the ask. Call `done` exactly once, unless `withdraw` is called first.
    // `done` may be called from inside `show` (e.g. a frontend that answers at once).
    virtual void show(const Ask& ask, Done done) = 0;

    // The ask was answered elsewhere, timed out or its agent went away: close it, never call done.
    virtual void withdraw(const std::string& ask_id) = 0;
};

}  // namespace askhost
