// `askhost attach [SOCKET]`: a terminal client of a running host, answering in the ncurses dialog.
#pragma once

#include <string>
#include <vector>

namespace askhost {

int run_attach(const std::vector<std::string>& args);

}  // namespace askhost
