// Nobody to ask (print mode): write the questions to the pending-questions file and tell the
// agent at once where they are; the person answers later with `askhost answer`.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "core/frontend.hpp"

namespace askhost {

class PrintFrontend final : public Frontend {
public:
    using Log = std::function<void(std::string_view)>;
    // `pending_file` is handed to the agent as given (relative paths stay relative).
    PrintFrontend(std::string pending_file, std::string session_id, Log log);

    std::string_view name() const override { return "print"; }
    void show(const Ask& ask, Done done) override;
    void withdraw(const std::string& /*ask_id*/) override {}  // the file keeps it; nothing is on screen

private:
    std::string pending_file_;
    std::string session_id_;
    Log log_;
};

}  // namespace askhost
