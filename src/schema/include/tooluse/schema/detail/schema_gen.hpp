#pragma once
/// \file schema_gen.hpp
/// Internals of schema_for<T>(): JSON Schema generation from C++ types and described structs.

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "tooluse/schema/detail/field.hpp"

namespace tooluse::detail {

/// schema_context tracks the described structs being generated, so a recursive type becomes a
/// "$ref" into "$defs" instead of an endless schema.
struct schema_context {
  std::vector<std::string_view> stack;  ///< names of the structs being generated, outermost first
  std::vector<std::string> referenced;  ///< names referenced recursively (need a $defs entry)
  json defs = json::object();
};

template <class T>
json schema_of(schema_context& ctx);

/// field_meta is what decoding and schema generation need to know about one field.
struct field_meta {
  bool required = true;
  std::optional<json> default_value;  ///< from default_value() or the member initializer
};

template <class T, class M>
field_meta compute_field_meta(const field_info<T, M>& f);

/// meta_of returns the per-field metadata of a described struct, computed once.
template <class T>
const std::vector<field_meta>& meta_of() {
  static const std::vector<field_meta> meta = [] {
    std::vector<field_meta> out;
    std::apply([&](const auto&... f) { (out.push_back(compute_field_meta(f)), ...); },
               tooluse_describe(describe_tag<T>{}).fields);
    return out;
  }();
  return meta;
}

template <class T>
json encode_value(const T& v);

template <class T, class M>
field_meta compute_field_meta(const field_info<T, M>& f) {
  field_meta m;
  m.required = !is_optional<M>::value;
  bool force_required = false;
  for (const auto& c : f.constraints) {
    if (c.keyword == "default") m.default_value = c.value;
    if (c.keyword.empty()) force_required = true;
  }
  // A member initializer that differs from the type's zero value (`int days = 1;`) is a
  // default; one equal to it (`std::string city;`, `double a = 0;`) is not distinguishable
  // from "no initializer", so that field stays required.
  if constexpr (std::is_default_constructible_v<T> && deep_equality_comparable<M>()) {
    if (!m.default_value) {
      static const T defaults{};
      const M& d = defaults.*(f.member);
      if (!(d == M{})) m.default_value = encode_value(d);
    }
  }
  if (m.default_value) m.required = false;
  if (force_required) m.required = true;
  return m;
}

inline bool is_array_schema(const json& s) {
  return s.is_object() && s.value("type", json()) == "array" && s.contains("items");
}
inline bool is_map_schema(const json& s) {
  return s.is_object() && s.value("type", json()) == "object" &&
         s.contains("additionalProperties") && s["additionalProperties"].is_object();
}

/// keyword_fits tells whether a value keyword makes sense on `s` (a minLength on an integer
/// field is a mistake in the description, reported at registration).
inline bool keyword_fits(const std::string& keyword, const json& s) {
  std::string type = s.is_object() ? s.value("type", std::string()) : std::string();
  if (type.empty()) return true;  // json, $ref: anything goes
  if (keyword == "minLength" || keyword == "maxLength" || keyword == "pattern" ||
      keyword == "format")
    return type == "string";
  if (keyword == "minimum" || keyword == "maximum" || keyword == "exclusiveMinimum" ||
      keyword == "exclusiveMaximum" || keyword == "multipleOf")
    return type == "integer" || type == "number";
  return true;
}

/// apply_constraint adds one constraint to a field schema. Value keywords go down into array
/// items and map values. Throws std::invalid_argument when the keyword does not fit the type.
inline void apply_constraint(json& s, const field_constraint& c, std::string_view field) {
  using where = field_constraint::target;
  if (c.keyword.empty()) return;
  if (c.where == where::field) {
    s[c.keyword] = c.value;
    return;
  }
  if (c.where == where::array) {
    if (!s.is_object() || s.value("type", json()) != "array")
      throw std::invalid_argument("field \"" + std::string(field) + "\": " + c.keyword +
                                  " needs an array field (std::vector, std::set, std::array)");
    s[c.keyword] = c.value;
    return;
  }
  if (is_array_schema(s)) return apply_constraint(s["items"], c, field);
  if (is_map_schema(s)) return apply_constraint(s["additionalProperties"], c, field);
  if (!keyword_fits(c.keyword, s))
    throw std::invalid_argument("field \"" + std::string(field) + "\": " + c.keyword +
                                " does not apply to a field of type " + s.value("type", "?"));
  s[c.keyword] = c.value;
}

/// field_schema builds one property: the type's schema with "description" right after "type",
/// then the constraints in the order given, then the default.
template <class T, class M>
json field_schema(const field_info<T, M>& f, const field_meta& meta, schema_context& ctx) {
  json type_schema = schema_of<M>(ctx);
  json s = json::object();
  if (type_schema.contains("type")) s["type"] = type_schema["type"];
  if (!f.description.empty()) s["description"] = std::string(f.description);
  for (auto& [k, v] : type_schema.items())
    if (k != "type") s[k] = v;
  for (const auto& c : f.constraints) apply_constraint(s, c, f.name);
  if (meta.default_value && !s.contains("default")) s["default"] = *meta.default_value;
  return s;
}

template <class T>
json struct_schema(schema_context& ctx) {
  const auto& info = tooluse_describe(describe_tag<T>{});
  std::string_view name = info.name;
  if (std::find(ctx.stack.begin(), ctx.stack.end(), name) != ctx.stack.end()) {
    if (name == ctx.stack.front()) return json{{"$ref", "#"}};
    if (std::find(ctx.referenced.begin(), ctx.referenced.end(), name) == ctx.referenced.end())
      ctx.referenced.emplace_back(name);
    return json{{"$ref", "#/$defs/" + std::string(name)}};
  }
  ctx.stack.push_back(name);
  const auto& meta = meta_of<T>();
  json props = json::object();
  json required = json::array();
  std::size_t i = 0;
  auto add = [&](const auto& f) {
    const field_meta& m = meta[i++];
    if (f.rest) return;  // a wire type's catch-all: not a property
    props[std::string(f.name)] = field_schema(f, m, ctx);
    if (m.required) required.push_back(std::string(f.name));
  };
  std::apply([&](const auto&... f) { (add(f), ...); }, info.fields);
  ctx.stack.pop_back();
  json s = {{"type", "object"}, {"properties", std::move(props)}};
  if (!required.empty()) s["required"] = std::move(required);
  if (!info.open) s["additionalProperties"] = false;
  auto ref = std::find(ctx.referenced.begin(), ctx.referenced.end(), name);
  if (ref != ctx.referenced.end() && !ctx.stack.empty()) {
    ctx.defs[std::string(name)] = std::move(s);
    return json{{"$ref", "#/$defs/" + std::string(name)}};
  }
  return s;
}

template <class I>
json integer_schema() {
  json s = {{"type", "integer"}};
  // 64-bit bounds are left out: they are noise to a model, and decoding still rejects values
  // outside the type's range with a clear message.
  if constexpr (std::is_unsigned_v<I>) s["minimum"] = 0;
  if constexpr (sizeof(I) < 8) {
    if constexpr (std::is_signed_v<I>) s["minimum"] = std::numeric_limits<I>::min();
    s["maximum"] = std::numeric_limits<I>::max();
  }
  return s;
}

template <class E>
json enum_schema() {
  json values = json::array();
  for (const auto& [value, wire] : tooluse_describe(describe_tag<E>{}).values)
    values.push_back(std::string(wire));
  return {{"type", "string"}, {"enum", std::move(values)}};
}

template <class T>
json schema_of(schema_context& ctx) {
  if constexpr (std::is_same_v<T, std::string>) {
    return {{"type", "string"}};
  } else if constexpr (std::is_same_v<T, bool>) {
    return {{"type", "boolean"}};
  } else if constexpr (std::is_same_v<T, json>) {
    return json::object();
  } else if constexpr (is_integer_v<T>) {
    return integer_schema<T>();
  } else if constexpr (std::is_floating_point_v<T>) {
    return {{"type", "number"}};
  } else if constexpr (is_optional<T>::value) {
    return schema_of<typename T::value_type>(ctx);
  } else if constexpr (is_std_array<T>::value) {
    constexpr std::size_t n = std::tuple_size_v<T>;
    return {{"type", "array"},
            {"items", schema_of<typename T::value_type>(ctx)},
            {"minItems", n},
            {"maxItems", n}};
  } else if constexpr (is_set<T>::value) {
    return {{"type", "array"},
            {"items", schema_of<typename T::value_type>(ctx)},
            {"uniqueItems", true}};
  } else if constexpr (is_sequence<T>::value) {
    return {{"type", "array"}, {"items", schema_of<typename T::value_type>(ctx)}};
  } else if constexpr (is_string_map<T>::value) {
    return {{"type", "object"}, {"additionalProperties", schema_of<typename T::mapped_type>(ctx)}};
  } else if constexpr (described_enum<T>) {
    return enum_schema<T>();
  } else if constexpr (described_struct<T>) {
    return struct_schema<T>(ctx);
  } else {
    static_assert(dependent_false<T>,
                  "tooluse::schema_for: no JSON Schema for this type; describe it with "
                  "TOOLUSE_DESCRIBE / TOOLUSE_DESCRIBE_ENUM, or use tooluse::json");
    return {};
  }
}

}  // namespace tooluse::detail
