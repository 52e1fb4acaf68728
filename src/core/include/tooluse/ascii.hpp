#pragma once
// ASCII text helpers that do not depend on the C locale's mood: case folding of protocol words
// (header names, JSON Schema type names, host names), never of user text.

#include <string>
#include <string_view>

namespace tooluse {

/// ascii_lower returns `s` with A-Z turned into a-z; every other byte (UTF-8 included) is kept.
inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace tooluse
