#pragma once
// Lenient scanners for the values models write: JSON with single quotes, trailing commas and
// Python literals, and Python call lists. Each scan tells apart "complete", "could still become
// valid with more text" (incomplete) and "cannot be valid" (invalid), which is what the
// streaming engine needs to decide how long to hold text back.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/json.hpp"

namespace tooluse::textcall::detail {

enum class scan_state { done, incomplete, invalid };

/// value_scan is the outcome of scanning one value starting at a position.
struct value_scan {
  scan_state state = scan_state::invalid;
  json value;
  std::size_t end = 0;  ///< one past the value when done
};

/// scan_value reads one lenient JSON / Python literal value at `pos` (leading spaces skipped).
/// python: also accepts tuples, True/False/None and triple-quoted strings.
value_scan scan_value(std::string_view s, std::size_t pos, bool python);

/// skip_space returns the first position at or after `pos` that is not ASCII whitespace.
std::size_t skip_space(std::string_view s, std::size_t pos);

/// is_name_char tells whether `c` may appear in a (dotted) tool name.
bool is_name_char(char c);

/// py_call is one call of a Python call list.
struct py_call {
  std::string name;
  json arguments;          ///< object; null when an argument did not parse
  std::vector<json> positional;  ///< positional arguments, mapped later by schema
  std::string raw;         ///< the argument text between the parentheses
};

/// call_list_scan is the outcome of scanning a Python call list.
struct call_list_scan {
  scan_state state = scan_state::invalid;
  std::vector<py_call> calls;
  std::size_t end = 0;
};

/// scan_call_list reads "[f(a=1), g(b='x')]" at `pos` (bracketed = true) or one bare call
/// "f(a=1)" (bracketed = false). Invalid as soon as the text cannot be a call list.
call_list_scan scan_call_list(std::string_view s, std::size_t pos, bool bracketed);

/// find_name_field finds a "name" string field in text that failed to parse, for diagnostics.
std::string find_name_field(std::string_view text);

}  // namespace tooluse::textcall::detail
