// `askhost status` and `askhost hosts` over registry records as a reader may find them
// (hand-edited, torn, another user's, hostile paths and names): the input is up to eight records
// separated by a line "--"; those parse_record accepts are reported in every form. The JSON form
// is valid JSON whose total is the sum (no overflow); the text forms are valid UTF-8 with no
// control character but the line ends, so no record can drive the terminal.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/hosts_command.hpp"
#include "core/model/question.hpp"
#include "fuzz.hpp"
#include "json/json_access.hpp"
#include "json_check.hpp"

using namespace askhost;

namespace {

bool terminal_safe(std::string_view text) {
    if (!utf8_valid(text)) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7F) return false;
        // C1 controls, U+0080..U+009F, are C2 80..C2 9F in UTF-8.
        if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xA0) return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    std::vector<HostRecord> hosts;
    long long sum = 0;
    for (int n = 0; n < 8 && !rest.empty(); ++n) {
        const auto cut = rest.find("\n--\n");
        const std::string_view text = rest.substr(0, cut);
        rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 4);
        if (auto rec = parse_record(text)) {
            FUZZ_CHECK(rec->waiting >= 0);
            sum += rec->waiting;
            hosts.push_back(std::move(*rec));
        }
    }
    const std::string as_json = status_report(hosts, StatusForm::Json);
    rapidjson::Document doc;
    FUZZ_CHECK(!json::parse(doc, as_json));
    const rapidjson::Value* waiting = json::member(doc, "waiting");
    FUZZ_CHECK(waiting && waiting->IsInt64() && waiting->GetInt64() == sum);
    const std::string tmux = status_report(hosts, StatusForm::Tmux);
    FUZZ_CHECK(terminal_safe(tmux) && tmux.find('\n') == tmux.size() - 1);
    FUZZ_CHECK(terminal_safe(status_report(hosts, StatusForm::Text)));
    for (const char* here : {"/srv/shop", "/"}) {
        FUZZ_CHECK(terminal_safe(hosts_report(hosts, "/run/user/1000/askhost", here, "", {"x"}, false)));
        FUZZ_CHECK(valid_json(hosts_report(hosts, "/run/user/1000/askhost", here, "", {}, true)));
    }
    return 0;
}
