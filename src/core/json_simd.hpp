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

/// has_minus_zero: the text has a "-0" that may be a number token: not after a letter or digit
/// ("2026-07-28", "1e-0"), and not the start of "-0.5" or "-0e1" ("-05" is invalid). It may be
/// inside a string; the caller then merely takes the slow way. simdjson reads "-0" as the
/// integer 0, which nlohmann keeps signed (and "0" unsigned).
bool has_minus_zero(std::string_view text);

/// json_from_simd builds `e`, a value `depth` containers deep in a document simdjson parsed, as
/// parse_json builds it in its document under `limits`; nullopt when it cannot (a limit, or a
/// float -0.0). `saw_zero` is set when it built an integer zero, which is parse_json's only when
/// the document has no "-0" token (has_minus_zero).
std::optional<json> json_from_simd(simdjson::dom::element e, std::size_t depth, const json_limits& limits,
                                   bool& saw_zero);

}  // namespace tooluse::detail
