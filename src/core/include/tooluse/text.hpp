#pragma once
/// \file text.hpp
/// Small text helpers the parsers of several modules share: hexadecimal digits, UTF-8, ASCII case,
/// Python string literals.

#include <string>
#include <string_view>

namespace tooluse {

/// hex_value is the value of the hexadecimal digit `c` (0-9, a-f, A-F), or -1.
int hex_value(char c) noexcept;

/// append_utf8 appends the code point `cp` to `out` in UTF-8 (one to four bytes).
void append_utf8(std::string& out, char32_t cp);

/// ascii_lower returns `s` with A-Z turned into a-z and every other byte (UTF-8 included) kept:
/// case folding of protocol words (header names, JSON Schema type names, host names), never of
/// a person's text, and independent of the C locale.
std::string ascii_lower(std::string_view s);

/// python_quoted writes `s` as a Python string literal between `quote`s (' or "), escaped as
/// Python's repr() escapes: the quote, the backslash, \n \r \t, and other control bytes and DEL
/// as \xNN. Other bytes, UTF-8 included, are kept: the literal is read back as the same text.
std::string python_quoted(std::string_view s, char quote);

}  // namespace tooluse
