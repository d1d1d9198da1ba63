// `askhost attach [SOCKET]`: a terminal client of a running host, answering in the ncurses dialog.
#pragma once

#include <string>
#include <vector>

#include "core/command_line.hpp"

namespace askhost {

extern const cli::Command kAttachCommand;
int run_attach(const std::vector<std::string>& args);

}  // namespace askhost
