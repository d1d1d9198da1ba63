// An error that knows its kind: exit statuses and protocol codes come from the kind, never from
// matching the message's words.
#pragma once

#include <optional>
#include <string>

namespace askhost {

struct Error {
    enum class Kind {
        Usage,      // the command line or request itself is wrong (exit 2)
        NotFound,   // the agent's program is not there (exit 127, as a shell says)
        CannotRun,  // found, but it cannot be executed: permissions, not a program (exit 126)
        Failed,     // anything else (exit 1)
    };
    Kind kind = Kind::Failed;
    std::string message;
    std::string path;  // the file, or the field of a request, the error is about (may be empty)

    static Error usage(std::string m) { return {Kind::Usage, std::move(m), {}}; }
    static Error not_found(std::string m) { return {Kind::NotFound, std::move(m), {}}; }
    static Error cannot_run(std::string m) { return {Kind::CannotRun, std::move(m), {}}; }
    static Error failed(std::string m, std::string path = {}) { return {Kind::Failed, std::move(m), std::move(path)}; }

    int exit_status() const {
        switch (kind) {
        case Kind::Usage: return 2;
        case Kind::NotFound: return 127;
        case Kind::CannotRun: return 126;
        case Kind::Failed: return 1;
        }
        return 1;
    }
};

// What a step that can fail returns: nothing, or why not.
using Status = std::optional<Error>;

}  // namespace askhost
