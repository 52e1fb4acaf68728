#pragma once
/// \file json.hpp
/// tooluse::json is nlohmann::ordered_json: key order is kept, so schemas sent to models and
/// golden files are stable. JSON appears only at the edges (wire formats, schemas, arguments).

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "tooluse/result.hpp"

namespace tooluse {

using json = nlohmann::ordered_json;

/// parse_json parses `text` as one JSON value without throwing.
/// Errors: errc::parse_error with the byte offset and what was expected.
result<json> parse_json(std::string_view text);

/// dump_json serializes compactly; invalid UTF-8 is replaced rather than thrown on.
std::string dump_json(const json& value, int indent = -1);

/// type_name returns the JSON Schema name of a value's type: "null", "boolean", "integer",
/// "number", "string", "array" or "object" (a float with an integral value is "number").
std::string_view type_name(const json& value) noexcept;

/// canonical_json serializes with object keys sorted, for cache keys and comparisons.
std::string canonical_json(const json& value);

}  // namespace tooluse
