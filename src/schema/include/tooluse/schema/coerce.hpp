#pragma once
/// \file coerce.hpp
/// tooluse::schema::coerce, lenient repair of model-written arguments before validation,
/// opt-in per tool (tool::coerce_arguments). Each change is reported, so the engine can put
/// it in the result's metadata; nothing is changed silently and nothing is clamped unless
/// coerce_options::clamp says so.

#include <cstddef>
#include <string>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/schema/validator.hpp"

namespace tooluse::schema {

/// coercion is one change made to an instance: where, what it was, what it became, and the
/// rule: "string_to_number", "string_to_integer", "number_to_integer", "string_to_boolean",
/// "json_string", "wrap_in_array" or "clamp".
struct coercion {
  std::string path;  ///< e.g. "arguments.count", same form as validation_error::path
  json from;
  json to;
  std::string rule;
};

/// coerce_options: what coerce may do.
struct coerce_options {
  std::string root_path = "arguments";  ///< the name the root is reported under
  std::size_t max_errors = 20;          ///< cap on the validation errors reported
  /// clamp moves numbers outside minimum/maximum to the nearest bound (reported as "clamp").
  /// Off by default: out-of-range values are validation errors.
  bool clamp = false;
};

/// coerce_outcome is the coerced instance, the changes, and the validation errors that remain
/// (empty: the coerced instance is valid).
struct coerce_outcome {
  json value;
  std::vector<coercion> coercions;
  std::vector<validation_error> errors;

  /// valid tells whether the coerced instance satisfies the schema.
  bool valid() const { return errors.empty(); }
};

/// coerce repairs `instance` where the schema wants another type, then validates it:
///  - a numeric string where a number/integer is expected: "42" -> 42, "2.5" -> 2.5;
///  - an integral float where an integer is expected: 3.0 -> 3 (3.5 stays, and fails);
///  - "true"/"yes"/"1" and "false"/"no"/"0" (any case) where a boolean is expected;
///  - a JSON-encoded string where an object or array is expected: "{\"a\":1}" -> {"a":1};
///  - a single value where an array is expected: "x" -> ["x"];
///  - with options.clamp, a number beyond minimum/maximum -> the bound.
/// It descends through properties, patternProperties, additionalProperties, prefixItems,
/// items, $ref and allOf; for anyOf/oneOf it takes the first alternative the coerced value
/// satisfies. Values already valid are left alone. Thread-safe like validator::validate.
/// Example:
///   auto out = schema::coerce(v, json::parse(R"({"count": "3"})"));
///   // out.value == {"count": 3}; out.coercions[0].path == "arguments.count"
coerce_outcome coerce(const validator& v, json instance, const coerce_options& options = {});

/// coercions_to_json renders coercions for a tool result's metadata:
/// [{"path": "arguments.count", "from": "3", "to": 3, "rule": "string_to_integer"}].
json coercions_to_json(const std::vector<coercion>& coercions);

}  // namespace tooluse::schema
