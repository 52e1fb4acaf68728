#pragma once
// BFCL's AST checker (eval_checker/checker.py at de8307b4, the code that scored the
// 2024-08-11 leaderboard), rule for rule: names, required / unexpected / optional parameters,
// type checks with BFCL's "variable" allowance, string normalisation, dict and list-of-dict
// answers, order-free matching for the parallel and multiple categories. Each failure carries
// BFCL's error_type and its message, so a reader can compare them with BFCL's score files.

#include <optional>
#include <string>
#include <string_view>

#include "eval/decode_error.hpp"
#include "tooluse/eval/py_value.hpp"
#include "tooluse/json.hpp"

namespace tooluse::eval::detail {

enum class language { python, java, javascript };

struct check_result {
  bool valid = true;
  json error = json::array();      ///< messages (strings; for parallel matching also objects)
  std::string error_type;          ///< e.g. "type_error:simple", empty when valid
  bool is_variable = false;        ///< type_checker only
};

struct check_options {
  language lang = language::python;
  /// The model's handler turned dots of function names into underscores (BFCL's
  /// UNDERSCORE_TO_DOT list: OpenAI, Mistral, Gemini... in FC mode).
  bool underscore_to_dot = false;
};

/// ast_checker(func_description, model_output, possible_answer, language, test_category).
/// `model_output` is the decoded list of {name: {param: value}}; `function` the question's
/// "function" field and `possible_answer` its "ground_truth", both as py_value (from_json).
/// Throws decode_error where BFCL's checker itself would raise (e.g. a type it cannot convert).
check_result ast_check(const py_value& function, const py_value& model_output, const py_value& possible_answer,
                       std::string_view test_category, const check_options& options);

/// checked runs `check` (an ast_check); where BFCL's checker itself would raise, and so stop the
/// whole run, the answer counts as wrong instead: "The checker cannot compare this <what>: ..."
/// with error_type "checker_error".
template <class Check>
check_result checked(std::string_view what, Check check) {
  try {
    return check();
  } catch (const decode_error& e) {
    check_result verdict;
    verdict.valid = false;
    verdict.error = json::array(
        {"The checker cannot compare this " + std::string(what) + ": " + std::string(e.what())});
    verdict.error_type = "checker_error";
    return verdict;
  }
}

/// standardize_string: drops ` ,./-_*^`, lowercases, turns ' into ".
std::string standardize_string(std::string_view s);

}  // namespace tooluse::eval::detail
