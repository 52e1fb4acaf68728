// Error messages written for a model: path, what was expected, what was found; all errors at
// once, capped, in a deterministic order.
#include <gtest/gtest.h>

#include "tooluse/schema/validator.hpp"

namespace validator_errors_test {
namespace {

using tooluse::json;
using tooluse::schema::validate_options;
using tooluse::schema::validator;

validator compile(const char* text) {
  auto v = validator::compile(json::parse(text));
  EXPECT_TRUE(v.has_value()) << (v ? "" : v.error().message);
  return *v;
}

std::string errors_of(const validator& v, const char* instance, validate_options o = {}) {
  return tooluse::schema::format_errors(v.validate(json::parse(instance), o));
}

const char* k_weather = R"({
  "type": "object",
  "properties": {
    "city": {"type": "string", "minLength": 1},
    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    "days": {"type": "integer", "minimum": 1, "maximum": 14},
    "items": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}},
              "required": ["name"]}}
  },
  "required": ["city"],
  "additionalProperties": false
})";

TEST(validator_errors, enum_violation_names_path_and_values) {
  auto v = compile(k_weather);
  EXPECT_EQ(errors_of(v, R"({"city": "Paris", "unit": "kelvin"})"),
            R"(arguments.unit: expected one of "celsius", "fahrenheit", got "kelvin")");
}

TEST(validator_errors, wrong_type_shows_the_value) {
  auto v = compile(k_weather);
  EXPECT_EQ(errors_of(v, R"({"city": "Paris", "days": "3"})"),
            R"(arguments.days: expected integer, got string "3")");
}

TEST(validator_errors, missing_required_property) {
  auto v = compile(k_weather);
  EXPECT_EQ(errors_of(v, R"({})"), R"(arguments: missing required property "city")");
}

TEST(validator_errors, unknown_property_lists_allowed_ones) {
  auto v = compile(k_weather);
  EXPECT_EQ(errors_of(v, R"({"city": "Oslo", "foo": 1})"),
            R"(arguments: unknown property "foo" (allowed: city, unit, days, items))");
}

TEST(validator_errors, nested_array_paths) {
  auto v = compile(k_weather);
  EXPECT_EQ(errors_of(v, R"({"city": "Oslo", "items": [{"name": "a"}, {"name": "b"}, {"name": 3}]})"),
            R"(arguments.items[2].name: expected string, got integer 3)");
}

TEST(validator_errors, all_errors_at_once_in_a_deterministic_order) {
  auto v = compile(k_weather);
  const char* bad = R"({"unit": "kelvin", "days": 0, "zzz": true})";
  std::string expected =
      "arguments: missing required property \"city\"\n"
      "arguments.unit: expected one of \"celsius\", \"fahrenheit\", got \"kelvin\"\n"
      "arguments.days: expected an integer >= 1, got 0\n"
      "arguments: unknown property \"zzz\" (allowed: city, unit, days, items)";
  EXPECT_EQ(errors_of(v, bad), expected);
  EXPECT_EQ(errors_of(v, bad), expected);
}

TEST(validator_errors, errors_are_capped) {
  auto v = compile(R"({"type": "array", "items": {"type": "string"}})");
  auto errors = v.validate(json::parse("[1,2,3,4,5,6,7,8,9,10]"), {.max_errors = 3});
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[2].path, "arguments[2]");
  EXPECT_EQ(errors[2].keyword, "type");
}

TEST(validator_errors, root_path_is_configurable_and_odd_keys_are_quoted) {
  auto v = compile(R"({"properties": {"a b": {"type": "string"}}})");
  EXPECT_EQ(errors_of(v, R"({"a b": 1})", {.root_path = "input"}),
            R"(input["a b"]: expected string, got integer 1)");
}

TEST(validator_errors, string_numbers_and_arrays) {
  auto v = compile(R"({"properties": {
      "s": {"type": "string", "minLength": 3, "maxLength": 4, "pattern": "^[a-z]+$"},
      "n": {"type": "number", "exclusiveMaximum": 10, "multipleOf": 0.5},
      "a": {"type": "array", "minItems": 2, "uniqueItems": true}}})");
  EXPECT_EQ(errors_of(v, R"({"s": "AB"})"),
            "arguments.s: expected at least 3 characters, got 2\n"
            "arguments.s: expected a string matching \"^[a-z]+$\", got \"AB\"");
  EXPECT_EQ(errors_of(v, R"({"n": 10.25})"),
            "arguments.n: expected a number < 10, got 10.25\n"
            "arguments.n: expected a multiple of 0.5, got 10.25");
  EXPECT_EQ(errors_of(v, R"({"a": [1]})"), "arguments.a: expected at least 2 items, got 1");
  EXPECT_EQ(errors_of(v, R"({"a": [1, 2, 1]})"),
            "arguments.a: expected unique items, but items 0 and 2 are equal");
}

TEST(validator_errors, lengths_count_code_points) {
  auto v = compile(R"({"type": "string", "maxLength": 2})");
  EXPECT_TRUE(v.is_valid(json("\xc3\xa9\xf0\x9f\x98\x80")));  // é😀: 2 code points, 6 bytes
  EXPECT_FALSE(v.is_valid(json("abc")));
}

TEST(validator_errors, nullable_alternatives_merge_into_one_message) {
  auto v = compile(R"({"properties": {"x": {"anyOf": [{"type": "string"}, {"type": "null"}]}}})");
  EXPECT_EQ(errors_of(v, R"({"x": 3})"), "arguments.x: expected string or null, got integer 3");
}

TEST(validator_errors, alternatives_report_the_closest_branch) {
  auto v = compile(R"({"oneOf": [
      {"type": "object", "properties": {"kind": {"const": "a"}, "n": {"type": "integer"}},
       "required": ["kind"]},
      {"type": "string"}]})");
  EXPECT_EQ(errors_of(v, R"({"kind": "a", "n": "x"})"),
            "arguments.n: expected integer, got string \"x\"");
}

TEST(validator_errors, format_is_an_annotation_unless_asserted) {
  json schema = json::parse(R"({"type": "string", "format": "date"})");
  EXPECT_TRUE(validator::compile(schema)->is_valid(json("not a date")));
  auto strict = validator::compile(schema, {.format_assertion = true});
  ASSERT_TRUE(strict.has_value());
  EXPECT_FALSE(strict->is_valid(json("2024-02-30")));
  EXPECT_TRUE(strict->is_valid(json("2024-02-29")));
  EXPECT_EQ(tooluse::schema::format_errors(strict->validate(json("May 1st"))),
            "arguments: expected date (YYYY-MM-DD), got \"May 1st\"");
}

TEST(validator_errors, unevaluated_properties_name_the_property) {
  auto v = compile(R"({"allOf": [{"properties": {"a": true}}], "unevaluatedProperties": false})");
  EXPECT_TRUE(v.is_valid(json::parse(R"({"a": 1})")));
  EXPECT_EQ(errors_of(v, R"({"a": 1, "b": 2})"), R"(arguments: unknown property "b")");
}

TEST(validator_errors, false_schema_and_dependent_required) {
  auto v = compile(R"({"properties": {"x": false}, "dependentRequired": {"a": ["b"]}})");
  EXPECT_EQ(errors_of(v, R"({"x": 1, "a": 1})"),
            "arguments: missing property \"b\", required when \"a\" is present\n"
            "arguments.x: no value is allowed here");
}

}  // namespace
}  // namespace validator_errors_test
