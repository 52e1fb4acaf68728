#pragma once
/// \file validator.hpp
/// tooluse::schema::validator, a compiled JSON Schema (draft 2020-12): compile once, validate
/// many instances. Owned by the schema module (design/design.md, "schema").

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
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

/// remote_resolver returns the schema document found at an absolute URI (without fragment),
/// or std::nullopt. It is called while compiling, never while validating, and never with a
/// URI the schema itself defines ($id). tooluse never fetches anything from the network.
using remote_resolver = std::function<std::optional<json>(const std::string& uri)>;

/// compile_options: how a schema is compiled. Example:
///   auto v = validator::compile(schema, {.format_assertion = true});
struct compile_options {
  bool format_assertion = false;  ///< treat "format" as an assertion, not an annotation
  /// base_uri is the root's URI when it has no "$id" (relative $id/$ref resolve against it).
  std::string base_uri = "tooluse:///schema.json";
  /// resolve supplies documents for $ref to URIs outside the schema (e.g. a registry of
  /// remote schemas). The 2020-12 metaschema is built in. Unset: such a $ref is an error.
  remote_resolver resolve;
  std::size_t max_depth = 128;  ///< nesting limit for subschemas and for validated instances
};

/// validate_options: how errors are reported.
struct validate_options {
  std::string root_path = "arguments";  ///< the name the root is reported under
  std::size_t max_errors = 20;          ///< cap on reported errors (0: no cap)
};

namespace detail {
struct compiled_schema;
struct validator_access;
}

/// validator is an immutable compiled schema; safe to share and use from many threads.
class validator {
 public:
  /// compile compiles `schema` (an object or boolean schema, draft 2020-12) into a native
  /// tree: $ref/$dynamicRef are resolved, patterns translated to RE2, so validation does
  /// no JSON lookups. Unknown keywords are ignored (annotations).
  /// Errors: errc::schema_error naming the offending keyword and its location, e.g. a pattern
  /// using lookahead or backreferences, a $ref that does not resolve, "minLength": -1.
  static result<validator> compile(const json& schema, const compile_options& options = {});

  /// validate returns every error (capped, deterministic order); empty means valid.
  /// Thread-safe: a validator may be used by many threads at once.
  std::vector<validation_error> validate(const json& instance,
                                         const validate_options& options = {}) const;

  /// is_valid is validate() without building messages.
  bool is_valid(const json& instance) const;

  /// schema returns the schema this was compiled from.
  const json& schema() const;

 private:
  friend struct detail::validator_access;
  std::shared_ptr<const detail::compiled_schema> impl_;
};

/// format_errors renders errors one per line: "<path>: <message>".
std::string format_errors(const std::vector<validation_error>& errors);

}  // namespace tooluse::schema
