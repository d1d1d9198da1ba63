// The agent's output on askhost's own stdout/stderr, held back while a dialog owns the screen.
#pragma once

#include "core/fd_io.hpp"

#include <string>
#include <string_view>
#include <vector>

#include "core/adapter.hpp"

namespace askhost {

class TerminalOutput {
public:
    // Writes are plain blocking writes: in the terminal and print modes the terminal is ours.
    void write(Stream stream, std::string_view data);
    // While held, output is kept in order and written when released.
    void hold(bool on);
    bool held() const { return held_; }

private:
    bool held_ = false;
    std::vector<std::pair<Stream, std::string>> backlog_;
};

}  // namespace askhost
