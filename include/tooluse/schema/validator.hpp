#pragma once
/// \file validator.hpp
/// tooluse::schema::validator, a compiled JSON Schema (draft 2020-12): compile once, validate
/// many instances. Owned by the schema module (design/design.md, "schema").

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "tooluse/json.hpp"

namespace tooluse::schema {

/// validation_error is one reason an instance failed: where (JSON path from the root, e.g.
/// "arguments.unit"), which keyword, and a message written for a model to fix its call.
struct validation_error {
  std::string path;
  std::string keyword;
  std::string message;  ///< e.g. `expected one of "celsius", "fahrenheit", got "kelvin"`
};

struct compile_options {
  bool format_assertion = false;  ///< treat "format" as an assertion, not an annotation
};

struct validate_options {
  std::string root_path = "arguments";  ///< the name the root is reported under
  std::size_t max_errors = 20;          ///< cap on reported errors
};

namespace detail {
struct compiled_schema;
}

/// validator is an immutable compiled schema; safe to share and use from many threads.
class validator {
 public:
  /// compile compiles `schema` (an object or boolean schema).
  /// Errors: errc::schema_error naming the offending keyword and its location.
  static result<validator> compile(const json& schema, const compile_options& options = {});

  /// validate returns every error (capped, deterministic order); empty means valid.
  std::vector<validation_error> validate(const json& instance,
                                         const validate_options& options = {}) const;

  /// is_valid is validate() without building messages.
  bool is_valid(const json& instance) const;

  /// schema returns the schema this was compiled from.
  const json& schema() const;

 private:
  std::shared_ptr<const detail::compiled_schema> impl_;
};

/// format_errors renders errors one per line: "<path>: <message>".
std::string format_errors(const std::vector<validation_error>& errors);

}  // namespace tooluse::schema
