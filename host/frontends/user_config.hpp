// The person's settings file: $XDG_CONFIG_HOME/askhost/config (default ~/.config/askhost/config),
// lines of `key = value`, '#' starting a comment. A file, because an environment variable does not
// reach a server an agent starts (Codex cleans its MCP servers' environment).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace askhost {

// The file's path ("" when neither XDG_CONFIG_HOME nor HOME is set).
std::string user_config_path();

// The value of the first line that sets `key` (spaces around it trimmed), or nullopt when no line
// does or there is no file.
std::optional<std::string> user_config_value(std::string_view key);

// A yes/no setting: false, no, off and 0 are false; any other value is true; unset: `fallback`.
bool user_config_flag(std::string_view key, bool fallback);

}  // namespace askhost
