// BFCL's AST checker rules, each on a small hand-made entry: what passes, and the error type
// BFCL gives what does not (eval_checker/checker.py at de8307b4).
#include <gtest/gtest.h>

#include "eval/checker.hpp"
#include "tooluse/eval/py_value.hpp"

namespace tooluse::eval::detail {
namespace {

py_value pv(const char* text) { return py_value::from_json(json::parse(text)); }

const char* area_fn = R"({"name": "geo.area", "parameters": {"type": "dict", "properties": {
  "base": {"type": "integer"}, "height": {"type": "float"}, "unit": {"type": "string"},
  "dims": {"type": "array", "items": {"type": "integer"}}, "opts": {"type": "dict"}},
  "required": ["base"]}})";
const char* area_answer = R"({"geo.area": {"base": [10], "height": [5.0], "unit": ["cm", ""],
  "dims": [[1, 2], ""], "opts": [{"fast": [true]}, ""]}})";

check_result check(const char* output, check_options o = {}) {
  return ast_check(pv(area_fn), pv(output), pv(area_answer), "simple", o);
}

TEST(eval_checker, a_matching_call_passes_with_bfcl_allowances) {
  // int for float, case and punctuation in strings, optional parameters left out
  EXPECT_TRUE(check(R"([{"geo.area": {"base": 10, "height": 5}}])").valid);
  EXPECT_TRUE(check(R"([{"geo.area": {"base": 10, "height": 5.0, "unit": "C.M"}}])").valid);
  EXPECT_TRUE(check(R"([{"geo.area": {"base": 10, "height": 5, "dims": [1, 2], "opts": {"fast": true}}}])").valid);
}

TEST(eval_checker, each_failure_has_bfcl_error_type) {
  EXPECT_EQ(check(R"([{"area": {"base": 10, "height": 5}}])").error_type, "simple_function_checker:wrong_func_name");
  EXPECT_EQ(check(R"([{"geo.area": {"height": 5}}])").error_type, "simple_function_checker:missing_required");
  EXPECT_EQ(check(R"([{"geo.area": {"base": 10, "height": 5, "color": 1}}])").error_type,
            "simple_function_checker:unexpected_param");
  EXPECT_EQ(check(R"([{"geo.area": {"base": 10}}])").error_type, "simple_function_checker:missing_optional");
  EXPECT_EQ(check(R"([{"geo.area": {"base": 10.0, "height": 5}}])").error_type, "type_error:simple");
  EXPECT_EQ(check(R"([{"geo.area": {"base": true, "height": 5}}])").error_type, "type_error:simple");
  EXPECT_EQ(check(R"([{"geo.area": {"base": 11, "height": 5}}])").error_type, "value_error:others");
  EXPECT_EQ(check(R"([{"geo.area": {"base": 10, "height": 5, "unit": "mm"}}])").error_type, "value_error:string");
  EXPECT_EQ(check(R"([{"geo.area": {"base": 10, "height": 5, "dims": [2, 1]}}])").error_type, "value_error:list/tuple");
  // BFCL quirk: the optional marker "" among the answers lets the nested type check pass, so a
  // wrongly typed element is reported by the list comparison.
  EXPECT_EQ(check(R"([{"geo.area": {"base": 10, "height": 5, "dims": [1, "x"]}}])").error_type, "value_error:list/tuple");
  EXPECT_EQ(check(R"([{"geo.area": {"base": 10, "height": 5, "opts": {"fast": false}}}])").error_type,
            "value_error:dict_value");
  EXPECT_EQ(check(R"([{"geo.area": {"base": 10, "height": 5}}, {"geo.area": {"base": 10, "height": 5}}])").error_type,
            "simple_function_checker:wrong_count");
}

TEST(eval_checker, the_message_names_the_parameter_and_the_answers) {
  auto r = check(R"([{"geo.area": {"base": 11, "height": 5}}])");
  ASSERT_FALSE(r.valid);
  EXPECT_EQ(r.error[0], "Invalid value for parameter 'base': 11. Expected one of [10].");
}

TEST(eval_checker, dots_become_underscores_only_for_models_whose_api_forbids_dots) {
  EXPECT_FALSE(check(R"([{"geo_area": {"base": 10, "height": 5}}])").valid);
  EXPECT_TRUE(check(R"([{"geo_area": {"base": 10, "height": 5}}])", {language::python, true}).valid);
}

TEST(eval_checker, parallel_calls_match_in_any_order) {
  const char* fn = R"({"name": "play", "parameters": {"type": "dict", "properties": {"artist": {"type": "string"}},
    "required": ["artist"]}})";
  const char* answer = R"({"play_1": {"artist": ["Taylor Swift"]}, "play_2": {"artist": ["Maroon 5"]}})";
  auto ok = ast_check(pv(fn), pv(R"([{"play": {"artist": "maroon 5"}}, {"play": {"artist": "Taylor Swift"}}])"),
                      pv(answer), "parallel_function", {});
  EXPECT_TRUE(ok.valid);
  auto missing = ast_check(pv(fn), pv(R"([{"play": {"artist": "Adele"}}, {"play": {"artist": "Taylor Swift"}}])"),
                           pv(answer), "parallel_function", {});
  EXPECT_EQ(missing.error_type, "parallel_function_checker_no_order:cannot_find_match");
  auto count = ast_check(pv(fn), pv(R"([{"play": {"artist": "Taylor Swift"}}])"), pv(answer), "parallel_function", {});
  EXPECT_EQ(count.error_type, "parallel_function_checker_no_order:wrong_count");
}

TEST(eval_checker, standardize_string_drops_what_bfcl_drops) {
  EXPECT_EQ(standardize_string("April 1, 2024"), "april12024");
  EXPECT_EQ(standardize_string("New_York-City/*^"), "newyorkcity");
  EXPECT_EQ(standardize_string("it's"), "it\"s");
}

TEST(eval_py_value, equality_follows_python) {
  EXPECT_EQ(py_value::integer(1), py_value::boolean(true));
  EXPECT_EQ(py_value::integer(1), py_value::floating(1.0));
  EXPECT_FALSE(py_value::list({py_value::integer(1)}) == py_value::tuple({py_value::integer(1)}));
  EXPECT_EQ(pv(R"({"a": 1, "b": [1, 2]})"), pv(R"({"b": [1.0, 2], "a": true})"));
  EXPECT_FALSE(pv(R"({"a": 1})") == pv(R"({"a": 1, "b": 2})"));
  EXPECT_EQ(py_value::set({py_value::integer(1), py_value::integer(2)}),
            py_value::set({py_value::integer(2), py_value::integer(1), py_value::integer(1)}));
}

TEST(eval_py_value, repr_follows_cpython) {
  EXPECT_EQ(pv(R"({"a": [1, 2.5, null, true, "it's"]})").repr(), R"({'a': [1, 2.5, None, True, "it's"]})");
  EXPECT_EQ(py_float_repr(1e16), "1e+16");
  EXPECT_EQ(py_float_repr(1e-5), "1e-05");
  EXPECT_EQ(py_float_repr(0.0001), "0.0001");
  EXPECT_EQ(py_float_repr(123456789012345.0), "123456789012345.0");
  EXPECT_EQ(py_float_repr(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(py_value::tuple({py_value::integer(1)}).repr(), "(1,)");
  EXPECT_EQ(py_str_repr("a\nb\\'\""), R"('a\nb\\\'"')");
  EXPECT_EQ(py_value::string("x").str(), "x");
  EXPECT_EQ(py_value::boolean(false).str(), "False");
}

}  // namespace
}  // namespace tooluse::eval::detail
