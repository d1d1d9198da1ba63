// This program's own file, for the commands that start askhost again (a tmux popup's
// `askhost attach`, the hook command `askhost hook install` writes, askhost-web beside it).
#pragma once

#include <string>

namespace askhost {

// The absolute path of the running executable (/proc/self/exe), or "" where it cannot be read.
std::string self_path();

}  // namespace askhost
