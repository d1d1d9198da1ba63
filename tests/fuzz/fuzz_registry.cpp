// Registry records as a reader finds them (hand-edited, torn, hostile): parsed or refused, never a
// crash; an accepted record writes back as valid JSON that reads back to the same record, and the
// lookup over it answers for any directory. The first byte picks the directory looked up.
#include <cstdint>
#include <string>
#include <string_view>

#include "frontends/editor/registry.hpp"
#include "fuzz.hpp"
#include "json_check.hpp"

using namespace askhost;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    static const char* dirs[] = {"/", "/srv", "/srv/shop/api", "/tmp/x y", "/a/../b"};
    const std::string dir = dirs[data[0] % 5];
    std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    auto rec = parse_record(text);
    if (!rec) return 0;
    FUZZ_CHECK(rec->pid > 0);
    FUZZ_CHECK(!rec->socket.empty() && rec->socket[0] == '/');
    for (const auto& f : rec->folders) FUZZ_CHECK(!f.path.empty() && f.path[0] == '/');
    const std::string json = record_json(*rec);
    FUZZ_CHECK(valid_json(json));
    auto again = parse_record(json);
    FUZZ_CHECK(again.has_value());
    FUZZ_CHECK(again->pid == rec->pid && again->socket == rec->socket && again->folders.size() == rec->folders.size());
    for (std::size_t i = 0; i < rec->folders.size(); ++i) FUZZ_CHECK(again->folders[i].path == rec->folders[i].path);
    std::vector<HostRecord> hosts{*rec};
    if (const HostRecord* h = host_for_directory(hosts, dir)) FUZZ_CHECK(h->pid == rec->pid);
    for (const auto& f : rec->folders)
        if (auto p = path_from_file_uri(f.uri)) FUZZ_CHECK(p->find('\0') == std::string::npos);
    return 0;
}
