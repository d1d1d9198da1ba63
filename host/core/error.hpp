// An error that knows its kind: exit statuses and protocol codes come from the kind, never from
// matching the message's words.
#pragma once

#include <cassert>
#include <concepts>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

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
    int code = 0;      // the JSON-RPC error code a peer gave, or to give a peer (0: none)

    static Error usage(std::string m) { return {Kind::Usage, std::move(m), {}}; }
    static Error not_found(std::string m) { return {Kind::NotFound, std::move(m), {}}; }
    static Error cannot_run(std::string m) { return {Kind::CannotRun, std::move(m), {}}; }
    static Error failed(std::string m, std::string path = {}) { return {Kind::Failed, std::move(m), std::move(path)}; }
    // A JSON-RPC error: a peer's error reply, or the one to reply with.
    static Error rpc(int code, std::string m) { return {Kind::Failed, std::move(m), {}, code}; }

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

// What a step that makes something returns: the value, or why not (std::expected, before C++23).
//   Result<std::string> dir = socket_directory();
//   if (!dir) return fail(dir.error());
//   use(*dir);
template <class T>
class Result;

// What Result<T> takes as a value besides a T: what a T is made from, never an Error or a Result.
template <class U, class T>
concept MakesValue = !std::same_as<std::remove_cvref_t<U>, T> && !std::same_as<std::remove_cvref_t<U>, Error> &&
                     !std::same_as<std::remove_cvref_t<U>, Result<T>> && std::constructible_from<T, U&&>;

template <class T>
class Result {
    static_assert(!std::is_same_v<std::remove_cv_t<T>, Error>, "a Result holds a value or an Error, not both");
    static_assert(!std::is_reference_v<T>, "a Result holds its value");

public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}
    // Anything a T is made from (a string literal for a Result<std::string>, say).
    // MakesValue excludes Result itself, so this never hides the copy and move constructors.
    template <MakesValue<T> U>
    // NOLINTNEXTLINE(bugprone-forwarding-reference-overload)
    Result(U&& value) : v_(std::in_place_index<0>, std::forward<U>(value)) {}

    bool has_value() const { return v_.index() == 0; }
    explicit operator bool() const { return has_value(); }

    // The value: only when there is one.
    T& operator*() & { return checked_value(); }
    const T& operator*() const& { return checked_value(); }
    T&& operator*() && { return std::move(checked_value()); }
    T* operator->() { return &checked_value(); }
    const T* operator->() const { return &checked_value(); }

    // Why not: only when there is no value.
    const Error& error() const& {
        assert(!has_value());
        return *std::get_if<1>(&v_);
    }
    Error&& error() && {
        assert(!has_value());
        return std::move(*std::get_if<1>(&v_));
    }

    // The value, or `fallback` when there is none.
    template <class U>
    T value_or(U&& fallback) const& {
        return has_value() ? *std::get_if<0>(&v_) : static_cast<T>(std::forward<U>(fallback));
    }
    // nullopt with a value, else the error (to pass the failure on from a step that returns Status).
    Status status() const {
        if (has_value()) return std::nullopt;
        return error();
    }

private:
    T& checked_value() {
        assert(has_value());
        return *std::get_if<0>(&v_);
    }
    const T& checked_value() const {
        assert(has_value());
        return *std::get_if<0>(&v_);
    }

    std::variant<T, Error> v_;
};

}  // namespace askhost
