// Bootstrap validator: checks the schema's shape and the instance's root type and required
// properties only. Replaced by the full draft 2020-12 engine (issue: JSON Schema engine).
#include "tooluse/schema/validator.hpp"

namespace tooluse::schema {
namespace detail {
struct compiled_schema {
  json schema;
};
}  // namespace detail

result<validator> validator::compile(const json& schema, const compile_options&) {
  if (!schema.is_object() && !schema.is_boolean())
    return fail(errc::schema_error, "a schema must be an object or a boolean, got " +
                                        std::string(type_name(schema)));
  validator v;
  v.impl_ = std::make_shared<detail::compiled_schema>(detail::compiled_schema{schema});
  return v;
}

std::vector<validation_error> validator::validate(const json& instance,
                                                  const validate_options& options) const {
  std::vector<validation_error> errors;
  const json& s = impl_->schema;
  if (s.is_boolean()) {
    if (!s.get<bool>()) errors.push_back({options.root_path, "false", "no value is allowed"});
    return errors;
  }
  if (s.value("type", "") == "object") {
    if (!instance.is_object()) {
      errors.push_back({options.root_path, "type",
                        "expected object, got " + std::string(type_name(instance))});
      return errors;
    }
    if (auto it = s.find("required"); it != s.end() && it->is_array())
      for (const auto& r : *it)
        if (r.is_string() && !instance.contains(r.get<std::string>()))
          errors.push_back({options.root_path, "required",
                            "missing required property \"" + r.get<std::string>() + "\""});
  }
  return errors;
}

bool validator::is_valid(const json& instance) const { return validate(instance).empty(); }

const json& validator::schema() const { return impl_->schema; }

std::string format_errors(const std::vector<validation_error>& errors) {
  std::string out;
  for (const auto& e : errors) {
    if (!out.empty()) out += '\n';
    out += e.path + ": " + e.message;
  }
  return out;
}

}  // namespace tooluse::schema
