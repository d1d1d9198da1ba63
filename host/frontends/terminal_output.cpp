#include "frontends/terminal_output.hpp"

#include <cerrno>

#include <unistd.h>

namespace askhost {

void TerminalOutput::write(Stream stream, std::string_view data) {
    if (held_) {
        if (!backlog_.empty() && backlog_.back().first == stream) backlog_.back().second.append(data);
        else backlog_.emplace_back(stream, std::string(data));
        return;
    }
    write_all(stream == Stream::Stdout ? 1 : 2, data);
}

void TerminalOutput::hold(bool on) {
    held_ = on;
    if (on) return;
    auto pending = std::move(backlog_);
    backlog_.clear();
    for (const auto& [s, d] : pending) write_all(s == Stream::Stdout ? 1 : 2, d);
}

}  // namespace askhost
