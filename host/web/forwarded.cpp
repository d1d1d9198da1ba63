#include "web/forwarded.hpp"

#include <array>

#include <boost/asio/ip/address.hpp>

#include "core/text/ascii.hpp"

namespace askhost::web {

namespace {

// After the last `sep`, trimmed.
std::string_view last_item(std::string_view s, char sep) {
    const auto at = s.rfind(sep);
    return ascii::trim(at == std::string_view::npos ? s : s.substr(at + 1));
}

// "192.0.2.7", "192.0.2.7:4711", "2001:db8::1", "[2001:db8::1]" or "[2001:db8::1]:4711", perhaps
// quoted: the address; else nullopt.
std::optional<boost::asio::ip::address> node_address(std::string_view node) {
    if (node.size() >= 2 && node.front() == '"' && node.back() == '"') node = node.substr(1, node.size() - 2);
    if (node.starts_with('[')) {
        const auto close = node.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        const std::string_view rest = node.substr(close + 1);
        if (!rest.empty() && !rest.starts_with(':')) return std::nullopt;
        node = node.substr(1, close - 1);
    } else if (node.find(':') == node.rfind(':') && node.find(':') != std::string_view::npos) {
        node = node.substr(0, node.find(':'));  // IPv4 and its port
    }
    boost::system::error_code ec;
    auto a = boost::asio::ip::make_address(std::string(node), ec);
    if (ec) return std::nullopt;
    if (a.is_v6() && a.to_v6().is_v4_mapped())
        a = boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, a.to_v6());
    return a;
}

std::string client_name(const boost::asio::ip::address& a) {
    if (a.is_v4()) return a.to_string();
    std::array<unsigned char, 16> bytes = a.to_v6().to_bytes();
    for (std::size_t i = 8; i < bytes.size(); ++i) bytes[i] = 0;
    return boost::asio::ip::address_v6(bytes).to_string() + "/64";
}

// The for= of one Forwarded element ("for=192.0.2.60;proto=http;by=203.0.113.43").
std::optional<std::string_view> for_parameter(std::string_view element) {
    while (!element.empty()) {
        const auto semi = element.find(';');
        const std::string_view pair = ascii::trim(element.substr(0, semi));
        const auto eq = pair.find('=');
        if (eq != std::string_view::npos && ascii::equal_ignoring_case(ascii::trim(pair.substr(0, eq)), "for"))
            return ascii::trim(pair.substr(eq + 1));
        if (semi == std::string_view::npos) break;
        element.remove_prefix(semi + 1);
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> forwarded_client(std::string_view x_forwarded_for, std::string_view forwarded) {
    std::optional<boost::asio::ip::address> a;
    if (!ascii::trim(x_forwarded_for).empty()) {
        a = node_address(last_item(x_forwarded_for, ','));
    } else if (auto f = for_parameter(last_item(forwarded, ','))) {
        a = node_address(*f);
    }
    if (!a) return std::nullopt;
    return client_name(*a);
}

}  // namespace askhost::web
