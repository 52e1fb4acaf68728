#pragma once
// write_compact (json_dump.cpp): dump_json's compact writer.
#include <string>
#include <string_view>

#include "tooluse/json.hpp"

namespace tooluse::detail {

/// write_compact appends `v` to `out` exactly as nlohmann's dump(-1, ' ', false, replace)
/// writes it; false when `v` holds what it leaves to nlohmann (a string that is not valid
/// UTF-8, binary, a discarded value), and then `out` holds a partial text.
bool write_compact(const json& v, std::string& out);
/// write_compact_string is write_compact of a JSON string holding `s`.
bool write_compact_string(std::string_view s, std::string& out);

}  // namespace tooluse::detail
