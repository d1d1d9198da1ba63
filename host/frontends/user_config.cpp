#include "frontends/user_config.hpp"

#include <cstdlib>
#include <fstream>

namespace askhost {

namespace {

std::string trimmed(std::string s) {
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t\r") + 1);
    return s;
}

}  // namespace

std::string user_config_path() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    return xdg && *xdg == '/' ? std::string(xdg) + "/askhost/config"
           : home && *home    ? std::string(home) + "/.config/askhost/config"
                              : std::string();
}

std::optional<std::string> user_config_value(std::string_view key) {
    const std::string path = user_config_path();
    if (path.empty()) return std::nullopt;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        auto hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        if (trimmed(line.substr(0, eq)) != key) continue;
        return trimmed(line.substr(eq + 1));
    }
    return std::nullopt;
}

bool user_config_flag(std::string_view key, bool fallback) {
    auto v = user_config_value(key);
    if (!v) return fallback;
    return !(*v == "false" || *v == "no" || *v == "off" || *v == "0");
}

}  // namespace askhost
