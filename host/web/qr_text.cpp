#include "web/qr_text.hpp"

#include <memory>

#include <qrencode.h>

namespace askhost::web {

std::string qr_text(std::string_view text) {
    const std::string z(text);
    std::unique_ptr<QRcode, decltype(&QRcode_free)> code(QRcode_encodeString(z.c_str(), 0, QR_ECLEVEL_L, QR_MODE_8, 1),
                                                         &QRcode_free);
    if (!code) return {};
    constexpr int quiet = 2;
    const int width = code->width;
    auto dark = [&](int x, int y) {
        if (x < 0 || y < 0 || x >= width || y >= width) return false;
        return (code->data[y * width + x] & 1) != 0;
    };
    std::string out;
    for (int y = -quiet; y < width + quiet; y += 2) {
        out += "\033[30;47m";  // black on white
        for (int x = -quiet; x < width + quiet; ++x) {
            const bool top = dark(x, y), bottom = dark(x, y + 1);
            out += top && bottom ? "\u2588" : top ? "\u2580" : bottom ? "\u2584" : " ";
        }
        out += "\033[0m\n";
    }
    return out;
}

}  // namespace askhost::web
