#include "core/adapter.hpp"

namespace askhost {

std::string program_name(std::string_view argv0) {
    const auto slash = argv0.find_last_of('/');
    return std::string(slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1));
}

std::function<bool(const std::vector<std::string>&)> detects_program(std::string name) {
    return [name = std::move(name)](const std::vector<std::string>& argv) {
        return !argv.empty() && program_name(argv[0]) == name;
    };
}

void AdapterRegistry::add(AdapterInfo info) { adapters_.push_back(std::move(info)); }

const AdapterInfo* AdapterRegistry::find(std::string_view name) const {
    for (const auto& a : adapters_)
        if (a.name == name) return &a;
    return nullptr;
}

const AdapterInfo* AdapterRegistry::detect(const std::vector<std::string>& argv, std::string_view fallback) const {
    for (const auto& a : adapters_)
        if (a.detects && a.detects(argv)) return &a;
    return find(fallback);
}

const cli::Subcommand* AdapterRegistry::command(std::string_view name) const {
    for (const auto& a : adapters_)
        for (const auto& c : a.commands)
            if (c.spec && c.spec->name == name && c.run) return &c;
    return nullptr;
}

}  // namespace askhost
