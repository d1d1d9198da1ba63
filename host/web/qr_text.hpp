// A URL as a QR code a phone can read off the terminal (libqrencode).
#pragma once

#include <string>
#include <string_view>

namespace askhost::web {

// The code drawn with Unicode half blocks, two rows of modules to a line, black on white whatever
// the terminal's colours (ANSI colours set and reset on each line), with a quiet zone. "" when the
// text does not fit a QR code.
std::string qr_text(std::string_view text);

}  // namespace askhost::web
