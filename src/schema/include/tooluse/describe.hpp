#pragma once
/// \file describe.hpp
/// TOOLUSE_DESCRIBE and TOOLUSE_DESCRIBE_ENUM: describe a struct's fields (or an enum's values)
/// once, and get its JSON Schema (tooluse::schema_for), its JSON conversions (tooluse::decode,
/// tooluse::encode, and nlohmann's to_json/from_json) and typed tools (tooluse::add_tool).
///
/// Example:
///   struct weather_args {
///     std::string city;
///     std::optional<std::string> unit;
///     int days = 1;
///   };
///   TOOLUSE_DESCRIBE(weather_args,
///     (city, "City name, e.g. \"Paris\"", tooluse::min_length(1)),
///     (unit, "Temperature unit", tooluse::one_of({"celsius", "fahrenheit"})),
///     (days, "Forecast days", tooluse::minimum(1), tooluse::maximum(16)))
///
///   enum class unit { celsius, fahrenheit };
///   TOOLUSE_DESCRIBE_ENUM(unit, (celsius, "celsius"), (fahrenheit, "fahrenheit"))
///
/// Rules: use the macro at namespace scope, in the namespace of the type (the generated
/// functions are found by argument-dependent lookup). Each entry is
/// `(member, "description", constraints...)`; the description may be omitted: `(member)`.
/// A field is required unless it is a std::optional, has tooluse::default_value(...), or has
/// a member initializer different from its type's zero value (`int days = 1;`);
/// tooluse::required() forces it. The generated from_json throws std::invalid_argument with the
/// path of the mismatch; prefer tooluse::decode, which returns a result.

#include <stdexcept>

#include "tooluse/enum_names.hpp"
#include "tooluse/schema/codec.hpp"
#include "tooluse/schema/constraints.hpp"
#include "tooluse/schema/infer.hpp"

namespace tooluse::detail {
template <class T>
void from_json_or_throw(const json& j, T& out) {
  auto r = tooluse::decode<T>(j, "$");
  if (!r) throw std::invalid_argument(r.error().message);
  out = std::move(*r);
}
}  // namespace tooluse::detail

// The FOR_EACH machinery and TOOLUSE_DETAIL_ENUM_ENTRY are enum_names.hpp's.
#define TOOLUSE_DETAIL_FIELD(entry) TOOLUSE_DETAIL_FIELD_IMPL entry
#define TOOLUSE_DETAIL_FIELD_IMPL(member, ...) \
  ::tooluse::detail::make_field(#member, &tooluse_self_::member __VA_OPT__(, ) __VA_ARGS__)
#define TOOLUSE_DETAIL_WIRE_FIELD(entry) TOOLUSE_DETAIL_WIRE_FIELD_IMPL entry
#define TOOLUSE_DETAIL_WIRE_FIELD_IMPL(member, ...) \
  ::tooluse::detail::make_wire_field(#member, &tooluse_self_::member __VA_OPT__(, ) __VA_ARGS__)

#define TOOLUSE_DETAIL_CONVERSIONS(T)                                          \
  [[maybe_unused]] inline void to_json(::tooluse::json& j, const T& value) {   \
    j = ::tooluse::encode(value);                                              \
  }                                                                            \
  [[maybe_unused]] inline void from_json(const ::tooluse::json& j, T& value) { \
    ::tooluse::detail::from_json_or_throw(j, value);                           \
  }

// TOOLUSE_DETAIL_DESCRIBE defines T's describing function (its info, made once by `make` from
// T's name and each entry through `entry`) and its nlohmann conversions.
#define TOOLUSE_DETAIL_DESCRIBE(T, name, make, entry, ...)                                   \
  [[maybe_unused]] inline const auto& tooluse_describe(::tooluse::detail::describe_tag<T>) { \
    using tooluse_self_ = T;                                                                 \
    static const auto info = make<T>(name TOOLUSE_DETAIL_FOR_EACH(entry, __VA_ARGS__));      \
    return info;                                                                             \
  }                                                                                          \
  TOOLUSE_DETAIL_CONVERSIONS(T)

/// TOOLUSE_DESCRIBE(T, (member, "description", constraints...), ...) describes struct T's
/// fields, in the order given (the schema's property order).
#define TOOLUSE_DESCRIBE(T, ...)                                                            \
  TOOLUSE_DETAIL_DESCRIBE(T, #T, ::tooluse::detail::make_struct_info, TOOLUSE_DETAIL_FIELD, \
                          __VA_ARGS__)

/// TOOLUSE_WIRE(T, (member), (member, "wireName", constraints...), (member, tooluse::other_fields))
/// declares a wire type: a protocol message (MCP, JSON-RPC, provider) rather than tool
/// arguments. Same decode/encode/schema_for as TOOLUSE_DESCRIBE, with three differences:
/// properties the type does not declare are ignored, not refused (a newer peer may send
/// them); the optional second item is the wire name when it differs from the member's
/// (`(meta, "_meta")`, `(mime_type, "mimeType")`); and a tooluse::json member marked
/// tooluse::other_fields collects the undeclared properties and gives them back on encode.
/// Required fields follow TOOLUSE_DESCRIBE's rule (std::optional fields are optional).
/// Example:
///   struct call_params {
///     std::string name;
///     std::optional<tooluse::json> arguments;
///     std::optional<tooluse::json> meta;
///   };
///   TOOLUSE_WIRE(call_params, (name), (arguments), (meta, "_meta"))
///   auto p = tooluse::decode<call_params>(params, "params");
///   // {"name":3} -> `params.name: expected string, got integer 3`
#define TOOLUSE_WIRE(T, ...)                                                                   \
  TOOLUSE_DETAIL_DESCRIBE(T, #T, ::tooluse::detail::make_wire_info, TOOLUSE_DETAIL_WIRE_FIELD, \
                          __VA_ARGS__)

/// TOOLUSE_DESCRIBE_ENUM(E, (enumerator, "wire name"), ...) maps enum E to a JSON string
/// enum; `(enumerator)` alone uses the enumerator's spelling as the wire name.
#define TOOLUSE_DESCRIBE_ENUM(E, ...)                                                           \
  TOOLUSE_DETAIL_DESCRIBE(E, #E, ::tooluse::detail::make_enum_table, TOOLUSE_DETAIL_ENUM_ENTRY, \
                          __VA_ARGS__)
