#pragma once
/// \file constraints.hpp
/// Per-field constraints for TOOLUSE_DESCRIBE: each becomes a JSON Schema keyword on the field.
/// Example:
///   TOOLUSE_DESCRIBE(weather_args,
///     (city, "City name", tooluse::min_length(1)),
///     (days, "Forecast days", tooluse::minimum(1), tooluse::maximum(16)))
///
/// Where a keyword lands: string and number keywords (min_length, pattern, minimum, one_of...)
/// apply to the value; on a std::vector / std::set / std::map field they apply to its items
/// (values), while min_items / max_items / unique_items apply to the array itself.

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/json.hpp"

namespace tooluse {

/// field_constraint is one constraint on a described field (made by the functions below).
struct field_constraint {
  /// target says which schema the keyword belongs to.
  enum class target {
    field,  ///< the field's own schema (default, examples, deprecated)
    value,  ///< the scalar value: for arrays and maps, their items
    array,  ///< the array itself (minItems, maxItems, uniqueItems)
  };
  std::string keyword;  ///< JSON Schema keyword; empty for the "required" marker
  json value;
  target where = target::value;
};

namespace detail {
/// number_keyword makes the constraints that set one numeric keyword to the caller's number,
/// kept in its own type (an integer bound stays an integer in the schema). One object per
/// keyword below, as they differ in nothing else.
struct number_keyword {
  const char* keyword;
  template <class N>
  field_constraint operator()(N n) const {
    return {keyword, json(n), field_constraint::target::value};
  }
};
}  // namespace detail

/// minimum(n) sets "minimum" (inclusive lower bound) on a number or integer field.
inline constexpr detail::number_keyword minimum{"minimum"};
/// maximum(n) sets "maximum" (inclusive upper bound).
inline constexpr detail::number_keyword maximum{"maximum"};
/// exclusive_minimum(n) sets "exclusiveMinimum": the value must be greater than n.
inline constexpr detail::number_keyword exclusive_minimum{"exclusiveMinimum"};
/// exclusive_maximum(n) sets "exclusiveMaximum": the value must be less than n.
inline constexpr detail::number_keyword exclusive_maximum{"exclusiveMaximum"};
/// multiple_of(n) sets "multipleOf".
inline constexpr detail::number_keyword multiple_of{"multipleOf"};

/// min_length sets "minLength" (in Unicode code points) on a string field.
inline field_constraint min_length(std::size_t n) {
  return {"minLength", json(n), field_constraint::target::value};
}
/// max_length sets "maxLength" (in Unicode code points) on a string field.
inline field_constraint max_length(std::size_t n) {
  return {"maxLength", json(n), field_constraint::target::value};
}
/// pattern sets "pattern", an ECMA-262 regular expression the string must match (unanchored).
inline field_constraint pattern(std::string_view regex) {
  return {"pattern", json(std::string(regex)), field_constraint::target::value};
}
/// format sets "format" (e.g. "date", "email", "uri"), an annotation unless the validator
/// is compiled with format assertion.
inline field_constraint format(std::string_view name) {
  return {"format", json(std::string(name)), field_constraint::target::value};
}

/// one_of restricts a string field to the given values ("enum").
inline field_constraint one_of(std::initializer_list<std::string_view> values) {
  json a = json::array();
  for (auto v : values) a.push_back(std::string(v));
  return {"enum", std::move(a), field_constraint::target::value};
}
/// one_of restricts an integer field to the given values ("enum").
inline field_constraint one_of(std::initializer_list<long long> values) {
  json a = json::array();
  for (auto v : values) a.push_back(v);
  return {"enum", std::move(a), field_constraint::target::value};
}
/// one_of restricts a string field to the given values, known at run time.
inline field_constraint one_of(const std::vector<std::string>& values) {
  return {"enum", json(values), field_constraint::target::value};
}

/// min_items sets "minItems" on an array field.
inline field_constraint min_items(std::size_t n) {
  return {"minItems", json(n), field_constraint::target::array};
}
/// max_items sets "maxItems" on an array field.
inline field_constraint max_items(std::size_t n) {
  return {"maxItems", json(n), field_constraint::target::array};
}
/// unique_items sets "uniqueItems": true on an array field.
inline field_constraint unique_items() {
  return {"uniqueItems", json(true), field_constraint::target::array};
}

/// examples sets "examples" on the field, e.g. examples({"Paris", "Tokyo"}).
inline field_constraint examples(json values) {
  if (!values.is_array()) values = json::array({std::move(values)});
  return {"examples", std::move(values), field_constraint::target::field};
}
/// default_value sets "default" and makes the field not required: a missing field is decoded
/// from this value. Use it for defaults a member initializer cannot show (e.g. `false`, `0`).
template <class V>
field_constraint default_value(const V& v) {
  return {"default", json(v), field_constraint::target::field};
}
/// deprecated sets "deprecated": true on the field.
inline field_constraint deprecated() {
  return {"deprecated", json(true), field_constraint::target::field};
}
/// required makes the field required even though its member initializer gives a default.
inline field_constraint required() { return {"", json(true), field_constraint::target::field}; }

}  // namespace tooluse
