#include "adapter.hpp"

namespace askhost {

void AdapterRegistry::add(AdapterInfo info) { adapters_.push_back(std::move(info)); }

const AdapterInfo* AdapterRegistry::find(std::string_view name) const {
    for (const auto& a : adapters_)
        if (a.name == name) return &a;
    return nullptr;
}

const AdapterInfo* AdapterRegistry::detect(const std::vector<std::string>& argv,
                                           std::string_view fallback) const {
    for (const auto& a : adapters_)
        if (a.detects && a.detects(argv)) return &a;
    return find(fallback);
}

}  // namespace askhost
