#pragma once
/// \file text.hpp
/// Small text helpers the parsers of several modules share: hexadecimal digits and UTF-8.

#include <string>

namespace tooluse {

/// hex_value is the value of the hexadecimal digit `c` (0-9, a-f, A-F), or -1.
int hex_value(char c) noexcept;

/// append_utf8 appends the code point `cp` to `out` in UTF-8 (one to four bytes).
void append_utf8(std::string& out, char32_t cp);

}  // namespace tooluse
