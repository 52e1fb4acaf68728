#pragma once
// Helpers shared by the translate_*.cpp and import_*.cpp files (private to the schema module).

#include <string>
#include <string_view>

#include "tooluse/json.hpp"

namespace tooluse::schema::detail {

/// child_path appends a property name to a reported path: "arguments" + "unit".
inline std::string child_path(const std::string& path, std::string_view key) {
  return path + "." + std::string(key);
}

/// resolve_local_ref resolves "#", "#/$defs/x", "#/definitions/x" or any local JSON pointer
/// against `root`; nullptr if it does not resolve or is not local.
const json* resolve_local_ref(const json& root, std::string_view ref);

/// accepts_null tells whether `schema` certainly admits null (type, enum, const or an anyOf/oneOf
/// branch says so, or the schema has no type constraint at all). $ref targets are resolved
/// against `root`, one level.
bool accepts_null(const json& schema, const json& root, int depth = 0);

/// has_type tells whether `schema`'s "type" (string or array) includes `type`.
bool has_type(const json& schema, std::string_view type);

/// is_object_schema tells whether `schema` describes objects (type object or has properties).
bool is_object_schema(const json& schema);

/// resolve_if_ref follows a $ref (one level) if `schema` is a reference; else returns schema.
const json& resolve_if_ref(const json& schema, const json& root);

}  // namespace tooluse::schema::detail
