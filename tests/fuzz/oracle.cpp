// Everything declared below, rapidjson's reader included (this file includes it first), is built
// without SanitizerCoverage: see oracle.hpp. ASan and UBSan still check it.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((no_sanitize("coverage"))), apply_to = function)
#endif

#include "oracle.hpp"

#include "json_check.hpp"

bool oracle_valid_json(std::string_view text) { return valid_json(text); }

bool OracleFrames::feed(std::string_view bytes) {
    constexpr std::string_view kName = "Content-Length: ";
    constexpr std::size_t kLongestHeader = kName.size() + 20 + 4;
    if (!error_.empty()) return false;
    pending_.append(bytes);
    std::string_view rest(pending_);
    while (!rest.empty()) {
        const auto end = rest.find("\r\n\r\n");
        if (end == std::string_view::npos) {
            if (rest.size() >= kLongestHeader || rest.substr(0, kName.size()) != kName.substr(0, rest.size()))
                error_ = "not a frame header: " + std::string(rest.substr(0, 40));
            break;
        }
        const std::string_view digits = rest.substr(kName.size(), end - kName.size());
        if (rest.substr(0, kName.size()) != kName || digits.empty() || digits.size() > 19 ||
            digits.find_first_not_of("0123456789") != std::string_view::npos) {
            error_ = "not a frame header: " + std::string(rest.substr(0, end));
            break;
        }
        std::size_t length = 0;
        for (char c : digits) length = length * 10 + static_cast<std::size_t>(c - '0');
        const std::string_view after = rest.substr(end + 4);
        if (after.size() < length) break;
        if (!valid_json(after.substr(0, length))) {
            error_ = "invalid JSON written: " + std::string(after.substr(0, length));
            break;
        }
        rest = after.substr(length);
    }
    pending_.erase(0, pending_.size() - rest.size());
    return error_.empty();
}

#if defined(__clang__)
#pragma clang attribute pop
#endif
