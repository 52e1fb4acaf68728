#pragma once
// The evaluator: walks an instance against a compiled node tree. One evaluator per validate()
// call (it holds the path, the dynamic scope and the error list), so validators are shared
// between threads without locks.

#include <string>
#include <vector>

#include "schema/schema_impl.hpp"

namespace tooluse::schema::detail {

/// annotations record which members of the current object / items of the current array were
/// evaluated, for unevaluatedProperties / unevaluatedItems. Indexed by position.
struct annotations {
  std::vector<char> props;
  std::vector<char> items;
  void mark_prop(std::size_t i, std::size_t size);
  void mark_item(std::size_t i, std::size_t size);
  void merge(const annotations& other);
};

/// path_segment is one step of the instance path: a member name or an array index.
struct path_segment {
  const std::string* key = nullptr;
  std::size_t index = 0;
};

/// evaluator validates one instance. With errors == nullptr it only computes the verdict and
/// stops at the first failure.
struct evaluator {
  std::vector<validation_error>* errors = nullptr;
  std::size_t max_errors = 0;
  std::string root_path;
  std::size_t max_depth = 1024;
  std::vector<path_segment> path;
  std::vector<const resource*> scope;
  std::size_t depth = 0;

  /// eval tells whether `inst` is valid against `n`, reporting errors if collecting, and
  /// recording evaluated members/items into `ann` when it is not null.
  bool eval(const node& n, const json& inst, annotations* ann);

  /// test evaluates without reporting errors.
  bool test(const node& n, const json& inst, annotations* ann);

  /// report adds an error at the current path (if collecting and under the cap); returns false.
  bool report(std::string_view keyword, std::string message);

  /// stop tells whether evaluation may stop at the first failure.
  bool stop() const { return !errors || (max_errors && errors->size() >= max_errors); }

  std::string render_path() const;

  // Keyword groups (evaluator.cpp, evaluator_structures.cpp).
  bool eval_keywords(const node& n, const json& inst, annotations* a);
  bool eval_type_and_values(const node& n, const json& inst);
  bool eval_number(const node& n, const json& inst);
  bool eval_string(const node& n, const json& inst);
  bool eval_array(const node& n, const json& inst, annotations* a);
  bool eval_object(const node& n, const json& inst, annotations* a);
  bool eval_members(const node& n, const json& inst, annotations* a);
  bool eval_unevaluated(const node& n, const json& inst, annotations& a);
  bool eval_applicators(const node& n, const json& inst, annotations* a);
  bool eval_alternatives(const node& n, const std::vector<const node*>& branches,
                         const json& inst, annotations* a, bool exactly_one);
  void report_alternatives(std::string_view keyword, const std::vector<const node*>& branches,
                           const json& inst, std::vector<std::vector<validation_error>>& failed);
};

/// append_path appends one step to a rendered path: ".name", "[\"a b\"]" or "[2]".
void append_path(std::string& out, const path_segment& seg);

/// expectation describes what a node accepts, for merged messages: "string or null".
std::string expectation(const node& n);

}  // namespace tooluse::schema::detail
