// tooluse::schema::validator: the public face of the compiler and the evaluator.
#include "tooluse/schema/validator.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "schema/evaluator.hpp"
#include "schema/validator_access.hpp"

namespace tooluse::schema {

namespace {

// json_depth measures nesting without recursion, so a hostile schema is rejected before anything
// (copying included) recurses over it.
std::size_t json_depth(const json& root, std::size_t stop_above) {
  std::vector<std::pair<const json*, std::size_t>> stack{{&root, 1}};
  std::size_t deepest = 0;
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    if (deepest > stop_above) break;
    if (node->is_structured())
      for (const auto& child : *node) stack.emplace_back(&child, depth + 1);
  }
  return deepest;
}

}  // namespace

result<validator> validator::compile(const json& schema, const compile_options& options) {
  // A subschema level takes at most a few JSON levels ("properties" -> name -> schema).
  const std::size_t json_limit = options.max_depth * 4 + 16;
  if (json_depth(schema, json_limit) > json_limit)
    return fail(errc::schema_error, "the schema nests more than " +
                                        std::to_string(options.max_depth) +
                                        " levels deep; flatten it (use $defs and $ref) or raise "
                                        "compile_options::max_depth");
  auto impl = std::make_shared<detail::compiled_schema>();
  impl->schema = schema;
  if (auto st = detail::compile_into(*impl, options); !st) return fail(st.error());
  validator v;
  v.impl_ = std::move(impl);
  return v;
}

namespace {

// reused_stacks lends an evaluator the path and scope stacks its thread used last, so that a
// validation (one per tool call) allocates neither; they go back, emptied, when it is done. A
// validation inside a validation gets empty ones of its own.
class reused_stacks {
 public:
  explicit reused_stacks(detail::evaluator& e) : e_(e) {
    e_.path.swap(spare().path);
    e_.scope.swap(spare().scope);
  }
  ~reused_stacks() {
    e_.path.clear();
    e_.scope.clear();
    spare().path.swap(e_.path);
    spare().scope.swap(e_.scope);
  }
  reused_stacks(const reused_stacks&) = delete;
  reused_stacks& operator=(const reused_stacks&) = delete;

 private:
  struct stacks {
    std::vector<detail::path_segment> path;
    std::vector<const detail::resource*> scope;
  };
  static stacks& spare() {
    thread_local stacks s;
    return s;
  }
  detail::evaluator& e_;
};

}  // namespace

std::vector<validation_error> validator::validate(const json& instance,
                                                  const validate_options& options) const {
  std::vector<validation_error> errors;
  detail::evaluator e{.errors = &errors,
                      .max_errors = options.max_errors,
                      .root_path = options.root_path,
                      .max_depth = impl_->max_depth * 8};
  reused_stacks stacks(e);
  if (!e.eval(*impl_->root, instance, nullptr) && errors.empty())
    errors.push_back({options.root_path, "", "the value does not match the schema"});
  return errors;
}

bool validator::is_valid(const json& instance) const {
  detail::evaluator e{.max_depth = impl_->max_depth * 8};
  reused_stacks stacks(e);
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
