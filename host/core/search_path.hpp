// Finding a program on PATH, the one way askhost does it: to run an agent, to check an
// --on-question command or notify-send, to tell whether `askhost` on PATH is this one.
#pragma once

#include <string>
#include <string_view>

namespace askhost {

// The first executable regular file called `name` in $PATH's directories, as execvp looks (an
// empty entry is the working directory; without PATH, /usr/local/bin:/usr/bin:/bin); "" when
// there is none. `name` is a bare name: one with a '/' is no search.
std::string search_path(std::string_view name);

}  // namespace askhost
