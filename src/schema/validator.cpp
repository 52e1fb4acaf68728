// tooluse::schema::validator: the public face of the compiler and the evaluator.
#include "tooluse/schema/validator.hpp"

#include "schema/evaluator.hpp"
#include "schema/validator_access.hpp"

namespace tooluse::schema {

result<validator> validator::compile(const json& schema, const compile_options& options) {
  auto impl = std::make_shared<detail::compiled_schema>();
  impl->schema = schema;
  if (auto st = detail::compile_into(*impl, options); !st) return fail(st.error());
  validator v;
  v.impl_ = std::move(impl);
  return v;
}

std::vector<validation_error> validator::validate(const json& instance,
                                                  const validate_options& options) const {
  std::vector<validation_error> errors;
  detail::evaluator e{.errors = &errors,
                      .max_errors = options.max_errors,
                      .root_path = options.root_path,
                      .max_depth = impl_->max_depth * 8};
  if (!e.eval(*impl_->root, instance, nullptr) && errors.empty())
    errors.push_back({options.root_path, "", "the value does not match the schema"});
  return errors;
}

bool validator::is_valid(const json& instance) const {
  detail::evaluator e{.max_depth = impl_->max_depth * 8};
  return e.eval(*impl_->root, instance, nullptr);
}

const json& validator::schema() const { return impl_->schema; }

std::string format_errors(const std::vector<validation_error>& errors) {
  std::string out;
  for (const auto& e : errors) {
    if (!out.empty()) out += '\n';
    out += e.path.empty() ? e.message : e.path + ": " + e.message;
  }
  return out;
}

namespace detail {
const compiled_schema& validator_access::impl(const validator& v) { return *v.impl_; }
}  // namespace detail

}  // namespace tooluse::schema
