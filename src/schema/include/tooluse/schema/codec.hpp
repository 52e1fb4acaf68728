#pragma once
/// \file codec.hpp
/// tooluse::decode and tooluse::encode: JSON <-> C++ for every type schema_for<T>() maps
/// (described structs and enums, strings, numbers, optionals, containers, string maps).

#include <string>

#include "tooluse/schema/detail/codec_impl.hpp"

namespace tooluse {

/// decode converts `j` to T. Missing optional fields keep T{}'s value, fields with a default
/// take it, and null means "absent" for std::optional fields.
/// Errors: errc::invalid_argument with the JSON path of the first mismatch, written for a model:
/// `arguments.days: expected integer, got string "three"`,
/// `arguments: missing required property "city"`,
/// `arguments: unknown property "citty"; expected: city, unit, days`.
/// Constraints other than types (minimum, pattern, ...) are the validator's job.
template <class T>
result<T> decode(const json& j, std::string root = "arguments") {
  static_assert(std::is_default_constructible_v<T>, "tooluse::decode: T must be default-constructible");
  T out{};
  if (auto st = detail::decode_value(j, out, root); !st) return fail(std::move(st.error()));
  return out;
}

/// encode converts `value` to JSON; absent optionals are left out of objects.
template <class T>
json encode(const T& value) {
  return detail::encode_value(value);
}

}  // namespace tooluse
