#include "web/web_policy.hpp"

#include <algorithm>
#include <charconv>

#include <openssl/crypto.h>
#include <boost/asio/ip/address.hpp>

#include "core/text/ascii.hpp"

namespace askhost::web {

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decoded(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
            out.push_back(static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2])));
            i += 2;
        } else {
            out.push_back(s[i] == '+' ? ' ' : s[i]);
        }
    }
    return out;
}

}  // namespace

Result<ListenAddress> parse_listen(std::string_view text) {
    const std::string shown(text);
    auto colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size())
        return Error::usage("--listen " + shown + ": expected ADDRESS:PORT, e.g. 127.0.0.1:8765");
    std::string_view host = text.substr(0, colon);
    std::string_view port_text = text.substr(colon + 1);
    unsigned port = 0;
    auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || port > 65535)
        return Error::usage("--listen " + shown + ": the port must be a number from 0 to 65535");
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    else if (host.find(':') != std::string_view::npos)
        return Error::usage("--listen " + shown + ": write an IPv6 address in brackets, e.g. [::1]:8765");
    ListenAddress out;
    out.port = static_cast<std::uint16_t>(port);
    if (ascii::equal_ignoring_case(host, "localhost")) host = "127.0.0.1";
    boost::system::error_code bad;
    auto address = boost::asio::ip::make_address(std::string(host), bad);
    if (bad) return Error::usage("--listen " + shown + ": '" + std::string(host) + "' is not an IP address");
    out.host = address.to_string();
    out.loopback = address.is_loopback();
    return out;
}

std::optional<std::string> host_name(std::string_view header) {
    if (header.empty() || header.size() > 255) return std::nullopt;
    std::string_view name = header;
    if (header.front() == '[') {
        auto close = header.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        name = header.substr(0, close + 1);
        std::string_view rest = header.substr(close + 1);
        if (!rest.empty() && rest.front() != ':') return std::nullopt;
        if (!rest.empty()) header = rest.substr(1);
        else header = {};
    } else {
        auto colon = header.find(':');
        if (colon != std::string_view::npos) {
            name = header.substr(0, colon);
            header = header.substr(colon + 1);
        } else {
            header = {};
        }
    }
    for (char c : header)
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    if (name.empty()) return std::nullopt;
    for (unsigned char c : name)
        if (!(std::isalnum(c) || c == '.' || c == '-' || c == '_' || c == '[' || c == ']' || c == ':'))
            return std::nullopt;
    return ascii::lowered(name);
}

bool host_allowed(std::string_view header, const ListenAddress& listen, const std::vector<std::string>& public_names) {
    auto name = host_name(header);
    if (!name) return false;
    if (*name == "localhost" || *name == "127.0.0.1" || *name == "[::1]") return true;
    const bool v6 = listen.host.find(':') != std::string::npos;
    const std::string listened = v6 ? "[" + listen.host + "]" : listen.host;
    if (listen.host != "0.0.0.0" && listen.host != "::" && *name == ascii::lowered(listened)) return true;
    for (const auto& p : public_names) {
        auto allowed = host_name(p);
        if (allowed && *allowed == *name) return true;
    }
    return false;
}

bool loopback_name(std::string_view header) {
    auto name = host_name(header);
    return name && (*name == "localhost" || *name == "127.0.0.1" || *name == "[::1]");
}

bool origin_allowed(std::string_view origin, std::string_view host_header, bool https) {
    if (host_header.empty()) return false;
    const std::string_view scheme = https ? "https://" : "http://";
    return origin.size() == scheme.size() + host_header.size() &&
           ascii::equal_ignoring_case(origin.substr(0, scheme.size()), scheme) &&
           ascii::equal_ignoring_case(origin.substr(scheme.size()), host_header);
}

std::string_view target_path(std::string_view target) {
    auto q = target.find_first_of("?#");
    return q == std::string_view::npos ? target : target.substr(0, q);
}

std::optional<std::string> query_param(std::string_view target, std::string_view name) {
    auto q = target.find('?');
    if (q == std::string_view::npos) return std::nullopt;
    std::string_view query = target.substr(q + 1);
    if (auto hash = query.find('#'); hash != std::string_view::npos) query = query.substr(0, hash);
    while (!query.empty()) {
        auto amp = query.find('&');
        std::string_view pair = query.substr(0, amp);
        auto eq = pair.find('=');
        if (pair.substr(0, eq) == name) return percent_decoded(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
        if (amp == std::string_view::npos) break;
        query = query.substr(amp + 1);
    }
    return std::nullopt;
}

std::optional<std::string> cookie_value(std::string_view header, std::string_view name) {
    while (!header.empty()) {
        auto semi = header.find(';');
        std::string_view pair = header.substr(0, semi);
        while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
        auto eq = pair.find('=');
        if (eq != std::string_view::npos && pair.substr(0, eq) == name) {
            std::string_view v = pair.substr(eq + 1);
            while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
            return std::string(v);
        }
        if (semi == std::string_view::npos) break;
        header = header.substr(semi + 1);
    }
    return std::nullopt;
}

std::string printable(std::string_view text, std::size_t max) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (i == max) return out + "...";
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\\') out += "\\\\";
        else if (c >= 0x20 && c < 0x7f) out.push_back(static_cast<char>(c));
        else {
            out += "\\x";
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        }
    }
    return out;
}

bool same_secret(std::string_view a, std::string_view b) {
    // The length is no secret (every token has the same); the bytes are compared in constant time.
    if (a.size() != b.size() || a.empty()) return false;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace askhost::web
