// For callbacks that may run after their object is gone (posted work, timers, a peer's reply):
// the object owns a Lifetime, each callback holds a token and checks it before touching the object.
#pragma once

#include <memory>

namespace askhost {

class Lifetime {
public:
    class Token {
    public:
        // Whether the owner still lives.
        explicit operator bool() const { return !alive_.expired(); }

    private:
        friend class Lifetime;
        explicit Token(std::weak_ptr<const char> alive) : alive_(std::move(alive)) {}
        std::weak_ptr<const char> alive_;
    };

    Lifetime() = default;
    Lifetime(const Lifetime&) = delete;
    Lifetime& operator=(const Lifetime&) = delete;

    Token token() const { return Token(self_); }
    // Ends it before the owner's members go (a destructor that tears down what callbacks touch).
    void end() { self_.reset(); }

private:
    std::shared_ptr<const char> self_ = std::make_shared<const char>('\0');
};

}  // namespace askhost
