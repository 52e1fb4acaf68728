#pragma once
/// \file infer.hpp
/// tooluse::schema_for<T>(), the JSON Schema of a C++ type, generated at compile time from the
/// type and, for structs and enums, from their TOOLUSE_DESCRIBE / TOOLUSE_DESCRIBE_ENUM.
///
/// Type mapping (docs/tools.md has the full table):
///   std::string -> string; bool -> boolean; integers -> integer (types narrower than 64 bits
///   carry their range as minimum/maximum, unsigned ones minimum 0); float, double -> number;
///   described enum -> string with "enum"; std::optional<T> -> T, not required;
///   std::vector/list/deque<T> -> array; std::set<T> -> array with uniqueItems;
///   std::array<T, N> -> array with minItems = maxItems = N; std::map<std::string, T> ->
///   object with additionalProperties; described struct -> object with additionalProperties
///   false (inline; a recursive struct becomes a "$ref" into "$defs"); tooluse::json -> {}.

#include "tooluse/schema/detail/schema_gen.hpp"

namespace tooluse {

/// schema_for returns the JSON Schema of T. Types without a mapping fail to compile with a
/// message naming TOOLUSE_DESCRIBE.
/// Throws std::invalid_argument if a described field carries a constraint that does not fit
/// its type (e.g. min_length on an integer).
/// Example:
///   struct add_args { double a = 0; double b = 0; };
///   TOOLUSE_DESCRIBE(add_args, (a, "first addend"), (b, "second addend"))
///   tooluse::json s = tooluse::schema_for<add_args>();  // {"type":"object",...}
template <class T>
json schema_for() {
  detail::schema_context ctx;
  json s = detail::schema_of<T>(ctx);
  if (!ctx.defs.empty()) s["$defs"] = std::move(ctx.defs);
  return s;
}

}  // namespace tooluse
