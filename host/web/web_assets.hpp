// The page's files (host/web/page/dist/), built into the binary by embed_page.py.
#pragma once

#include <string_view>

namespace askhost::web {

struct WebAsset {
    std::string_view path;  // relative to dist/: "index.html", "app.js"
    std::string_view type;  // the Content-Type it is served with
    std::string_view bytes;
};

// The file at `path` (relative, no leading '/'), or nullptr.
const WebAsset* find_asset(std::string_view path);

}  // namespace askhost::web
