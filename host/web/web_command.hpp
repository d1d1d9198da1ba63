// `askhost web`: every waiting question of every host of this user, on a page (docs/web.md).
#pragma once

#include <string>
#include <vector>

namespace askhost::web {

int run_web(const std::vector<std::string>& args);

}  // namespace askhost::web
