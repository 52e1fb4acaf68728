#pragma once
// json_simd: what parse_json (json_parse.cpp) and json_reader (json_view.cpp) share about
// documents simdjson parsed. Private to core.
#include <cstddef>
#include <optional>
#include <string_view>

#include <simdjson.h>

#include "tooluse/json.hpp"

namespace tooluse::detail {

/// simd_max_bytes: larger documents go straight to nlohmann, so the parser each thread keeps
/// (about ten times the largest document it parsed) stays under a megabyte.
inline constexpr std::size_t simd_max_bytes = 64 * 1024;

/// has_minus_zero: the text has a "-0" that may be a number token, not a part of one ("-05" is
/// invalid). simdjson reads "-0" as the integer 0, which nlohmann keeps signed.
bool has_minus_zero(std::string_view text);

/// json_from_simd builds `e`, a value `depth` containers deep in a document simdjson parsed, as
/// parse_json builds it in its document under `limits`; nullopt when it cannot (a limit, or a
/// float -0.0). The document must hold no "-0" integer (has_minus_zero).
std::optional<json> json_from_simd(simdjson::dom::element e, std::size_t depth, const json_limits& limits);

}  // namespace tooluse::detail
