// One message per keyword the validator reports, for the keywords validator_errors_test does
// not cover: const and one-value enums, bounds on integers and numbers, array and object sizes,
// contains, propertyNames, not, if/then/else, dependentSchemas, oneOf with several matches,
// unevaluatedItems; and how values are shown (truncated, described by type).
#include <gtest/gtest.h>

#include <string>

#include "tooluse/schema/validator.hpp"

namespace validator_keywords_test {
namespace {

using tooluse::json;
using tooluse::schema::validate_options;
using tooluse::schema::validator;

validator compile(const std::string& text) {
  auto v = validator::compile(json::parse(text));
  EXPECT_TRUE(v.has_value()) << (v ? "" : v.error().message);
  return v ? *v : *validator::compile(json(true));
}

// errors_of validates `instance` and renders the errors; it also checks that is_valid agrees.
std::string errors_of(const validator& v, const std::string& instance, validate_options o = {}) {
  json inst = json::parse(instance);
  auto errors = v.validate(inst, o);
  EXPECT_EQ(v.is_valid(inst), errors.empty()) << instance;
  return tooluse::schema::format_errors(errors);
}

TEST(validator_keywords, const_and_a_one_value_enum_name_the_only_value) {
  auto v = compile(R"({"properties": {"c": {"const": {"k": [1, 2]}}, "e": {"enum": [7]}}})");
  EXPECT_EQ(errors_of(v, R"({"c": {"k": [1, 3]}})"),
            R"(arguments.c: expected {"k":[1,2]}, got {"k":[1,3]})");
  EXPECT_EQ(errors_of(v, R"({"e": 8})"), "arguments.e: expected 7, got 8");
  EXPECT_EQ(errors_of(v, R"({"c": {"k": [1.0, 2]}, "e": 7.0})"), "");  // 1.0 equals 1
}

TEST(validator_keywords, an_enum_with_many_values_shows_twelve_and_the_count) {
  json values = json::array();
  for (int i = 0; i < 20; ++i) values.push_back("v" + std::to_string(i));
  auto v = compile(json{{"enum", values}}.dump());
  EXPECT_EQ(errors_of(v, R"("x")"),
            "arguments: expected one of \"v0\", \"v1\", \"v2\", \"v3\", \"v4\", \"v5\", \"v6\", "
            "\"v7\", \"v8\", \"v9\", \"v10\", \"v11\", ... (20 values), got \"x\"");
}

TEST(validator_keywords, a_mixed_enum_compares_by_json_value) {
  auto v = compile(R"({"enum": [1, "1", null, [true]]})");
  EXPECT_EQ(errors_of(v, "1.0"), "");
  EXPECT_EQ(errors_of(v, "null"), "");
  EXPECT_EQ(errors_of(v, "[true]"), "");
  EXPECT_EQ(errors_of(v, "[1]"), R"(arguments: expected one of 1, "1", null, [true], got [1])");
  EXPECT_EQ(errors_of(v, "false"),
            R"(arguments: expected one of 1, "1", null, [true], got false)");
}

TEST(validator_keywords, integer_and_number_bounds_say_which_they_expect) {
  auto v = compile(R"({"properties": {
      "i": {"type": "integer", "minimum": 2, "maximum": 5},
      "n": {"type": "number", "exclusiveMinimum": 0.5},
      "u": {"maximum": 1e300}}})");
  EXPECT_EQ(errors_of(v, R"({"i": 1})"), "arguments.i: expected an integer >= 2, got 1");
  EXPECT_EQ(errors_of(v, R"({"i": 6})"), "arguments.i: expected an integer <= 5, got 6");
  EXPECT_EQ(errors_of(v, R"({"n": 0.5})"), "arguments.n: expected a number > 0.5, got 0.5");
  EXPECT_EQ(errors_of(v, R"({"u": 1e301})"), "arguments.u: expected a number <= 1e+300, got 1e+301");
  EXPECT_EQ(errors_of(v, R"({"i": 5.0, "n": 0.50001, "u": 18446744073709551615})"), "");
}

TEST(validator_keywords, an_integral_float_is_an_integer_and_a_fraction_is_not) {
  auto v = compile(R"({"type": "integer"})");
  EXPECT_EQ(errors_of(v, "3.0"), "");
  EXPECT_EQ(errors_of(v, "3.5"), "arguments: expected integer, got number 3.5");
  EXPECT_EQ(errors_of(v, "true"), "arguments: expected integer, got boolean true");
  EXPECT_EQ(errors_of(v, "null"), "arguments: expected integer, got null");
  EXPECT_EQ(errors_of(v, "[]"), "arguments: expected integer, got an empty array");
  EXPECT_EQ(errors_of(v, "[1]"), "arguments: expected integer, got an array of 1 item");
  EXPECT_EQ(errors_of(v, "[1, 2]"), "arguments: expected integer, got an array of 2 items");
  EXPECT_EQ(errors_of(v, "{}"), "arguments: expected integer, got an object");
}

TEST(validator_keywords, multiple_of_is_exact_for_integers_and_tolerant_for_decimals) {
  auto v = compile(R"({"properties": {"a": {"multipleOf": 3}, "b": {"multipleOf": 0.01},
                                      "c": {"multipleOf": 1e-8}}})");
  EXPECT_EQ(errors_of(v, R"({"a": -9, "b": 19.99, "c": 12345678901234567890})"), "");
  EXPECT_EQ(errors_of(v, R"({"a": 18446744073709551615})"), "");  // 2^64-1 = 3 * 6148914691236517205
  EXPECT_EQ(errors_of(v, R"({"a": 10})"), "arguments.a: expected a multiple of 3, got 10");
  EXPECT_EQ(errors_of(v, R"({"b": 0.001})"), "arguments.b: expected a multiple of 0.01, got 0.001");
}

TEST(validator_keywords, string_lengths_use_singular_for_one) {
  auto v = compile(R"({"minLength": 1, "maxLength": 1})");
  EXPECT_EQ(errors_of(v, R"("")"), "arguments: expected at least 1 character, got 0");
  EXPECT_EQ(errors_of(v, R"("ab")"), "arguments: expected at most 1 character, got 2");
}

TEST(validator_keywords, long_strings_in_messages_are_cut_on_a_character_boundary) {
  auto v = compile(R"({"pattern": "^x"})");
  std::string long_value(58, 'a');
  long_value += "\xc3\xa9\xc3\xa9\xc3\xa9";  // é straddles the 60-byte cut
  auto errors = v.validate(json(long_value));
  ASSERT_EQ(errors.size(), 1u);
  const std::string& m = errors[0].message;
  ASSERT_GE(m.size(), 3u);
  EXPECT_EQ(m.substr(m.size() - 3), "...");
  // 1 quote + 58 'a' = 59 bytes, and the next é (2 bytes) would cross 60: it is left out whole.
  EXPECT_NE(m.find("got \"" + std::string(58, 'a') + "..."), std::string::npos) << m;
}

TEST(validator_keywords, array_sizes_and_items_false_after_prefix_items) {
  auto v = compile(R"({"properties": {
      "a": {"minItems": 1, "maxItems": 2},
      "t": {"prefixItems": [{"type": "integer"}, {"type": "string"}], "items": false}}})");
  EXPECT_EQ(errors_of(v, R"({"a": []})"), "arguments.a: expected at least 1 item, got 0");
  EXPECT_EQ(errors_of(v, R"({"a": [1, 2, 3]})"), "arguments.a: expected at most 2 items, got 3");
  EXPECT_EQ(errors_of(v, R"({"t": [1, "x", null]})"),
            "arguments.t: expected at most 2 items, got 3");
  EXPECT_EQ(errors_of(v, R"({"t": ["x"]})"), "arguments.t[0]: expected integer, got string \"x\"");
  EXPECT_EQ(errors_of(v, R"({"t": [1]})"), "");
}

TEST(validator_keywords, contains_counts_matches_against_min_and_max) {
  auto v = compile(R"({"contains": {"type": "string"}, "minContains": 2, "maxContains": 3})");
  EXPECT_EQ(errors_of(v, R"([1, "a"])"),
            "arguments: expected at least 2 items matching string, got 1");
  EXPECT_EQ(errors_of(v, R"(["a", "b", "c", "d"])"),
            "arguments: expected at most 3 items matching string, got 4");
  EXPECT_EQ(errors_of(v, R"(["a", 1, "b"])"), "");
  EXPECT_EQ(errors_of(v, R"({"not": "an array"})"), "");  // contains applies to arrays only
  auto plain = compile(R"({"contains": {"const": 5}})");
  EXPECT_EQ(errors_of(plain, "[]"), "arguments: expected at least 1 item matching 5, got 0");
  auto zero = compile(R"({"contains": {"const": 5}, "minContains": 0})");
  EXPECT_EQ(errors_of(zero, "[]"), "");
}

TEST(validator_keywords, object_sizes_are_pluralised) {
  auto v = compile(R"({"minProperties": 2, "maxProperties": 3})");
  EXPECT_EQ(errors_of(v, R"({})"), "arguments: expected at least 2 properties, got 0");
  EXPECT_EQ(errors_of(v, R"({"a": 1, "b": 2, "c": 3, "d": 4})"),
            "arguments: expected at most 3 properties, got 4");
  auto one = compile(R"({"maxProperties": 1})");
  EXPECT_EQ(errors_of(one, R"({"a": 1, "b": 2})"), "arguments: expected at most 1 property, got 2");
}

TEST(validator_keywords, property_names_give_the_name_and_the_reason) {
  auto v = compile(R"({"propertyNames": {"pattern": "^[a-z]+$", "maxLength": 5}})");
  EXPECT_EQ(errors_of(v, R"({"ok": 1, "Bad": 2})"),
            "arguments: invalid property name \"Bad\": expected a string matching "
            "\"^[a-z]+$\", got \"Bad\"");
  auto no_names = compile(R"({"propertyNames": false})");
  EXPECT_EQ(errors_of(no_names, R"({"a": 1})"),
            "arguments: invalid property name \"a\": no value is allowed here");
  EXPECT_EQ(errors_of(no_names, R"({})"), "");
}

TEST(validator_keywords, not_says_what_the_value_must_not_be) {
  auto v = compile(R"({"properties": {"a": {"not": {"type": "null"}}, "b": {"not": {"const": 0}},
                                      "c": {"not": {"minimum": 3}}}})");
  EXPECT_EQ(errors_of(v, R"({"a": null})"),
            "arguments.a: expected a value that does not match null, got null");
  EXPECT_EQ(errors_of(v, R"({"b": 0})"),
            "arguments.b: expected a value that does not match 0, got 0");
  EXPECT_EQ(errors_of(v, R"({"c": 4})"),
            "arguments.c: expected a value that does not match a value matching "
            "#/properties/c/not, got 4");
  EXPECT_EQ(errors_of(v, R"({"a": 1, "b": 1, "c": 2})"), "");
}

TEST(validator_keywords, if_then_else_applies_the_branch_the_condition_picks) {
  auto v = compile(R"({
      "if": {"properties": {"kind": {"const": "circle"}}, "required": ["kind"]},
      "then": {"required": ["radius"]},
      "else": {"required": ["width"]}})");
  EXPECT_EQ(errors_of(v, R"({"kind": "circle"})"), R"(arguments: missing required property "radius")");
  EXPECT_EQ(errors_of(v, R"({"kind": "square"})"), R"(arguments: missing required property "width")");
  EXPECT_EQ(errors_of(v, R"({"kind": "circle", "radius": 1})"), "");
  auto then_only = compile(R"({"then": {"type": "string"}})");  // no "if": then is ignored
  EXPECT_EQ(errors_of(then_only, "1"), "");
}

TEST(validator_keywords, dependent_schemas_and_draft7_dependencies) {
  auto v = compile(R"({"dependentSchemas": {"card": {"required": ["billing"]}},
                       "dependencies": {"a": ["b", "c"], "x": {"properties": {"y": {"type": "string"}}}}})");
  EXPECT_EQ(errors_of(v, R"({"card": 1})"), R"(arguments: missing required property "billing")");
  EXPECT_EQ(errors_of(v, R"({"a": 1, "b": 2})"),
            "arguments: missing property \"c\", required when \"a\" is present");
  EXPECT_EQ(errors_of(v, R"({"x": 1, "y": 2})"), "arguments.y: expected string, got integer 2");
  EXPECT_EQ(errors_of(v, R"({"y": 2})"), "");
}

TEST(validator_keywords, one_of_with_two_matches_names_them) {
  auto v = compile(R"({"oneOf": [{"type": "integer"}, {"minimum": 0}, {"type": "string"}]})");
  EXPECT_EQ(errors_of(v, "5"),
            "arguments: expected exactly one alternative of oneOf to match, but 2 do "
            "(alternatives 0 and 1)");
  EXPECT_EQ(errors_of(v, "-5"), "");
  EXPECT_EQ(errors_of(v, "0.5"), "");
}

TEST(validator_keywords, many_long_alternatives_are_summarised) {
  json any = json::array();
  for (int i = 0; i < 10; ++i) any.push_back({{"const", std::string(35, static_cast<char>('a' + i))}});
  auto v = compile(json{{"anyOf", any}}.dump());
  EXPECT_EQ(errors_of(v, "1"),
            "arguments: expected a value matching one of the 10 alternatives of anyOf, got integer 1");
}

TEST(validator_keywords, unevaluated_items_are_reported_at_their_index) {
  auto v = compile(R"({"prefixItems": [true], "unevaluatedItems": false})");
  EXPECT_EQ(errors_of(v, "[1, 2, 3]"),
            "arguments[1]: unexpected item (not allowed by the schema)\n"
            "arguments[2]: unexpected item (not allowed by the schema)");
  auto typed = compile(R"({"prefixItems": [true], "unevaluatedItems": {"type": "string"}})");
  EXPECT_EQ(errors_of(typed, R"([1, "a", 2])"), "arguments[2]: expected string, got integer 2");
}

TEST(validator_keywords, additional_properties_lists_patterns_or_none) {
  auto v = compile(R"({"properties": {"a": true}, "patternProperties": {"^x_": true},
                       "additionalProperties": false})");
  EXPECT_EQ(errors_of(v, R"({"a": 1, "x_1": 2, "b": 3})"),
            R"(arguments: unknown property "b" (allowed: a, names matching "^x_"))");
  auto none = compile(R"({"additionalProperties": false})");
  EXPECT_EQ(errors_of(none, R"({"b": 3})"), R"(arguments: unknown property "b" (allowed: none))");
  auto typed = compile(R"({"additionalProperties": {"type": "integer"}})");
  EXPECT_EQ(errors_of(typed, R"({"n": "1"})"), R"(arguments.n: expected integer, got string "1")");
}

TEST(validator_keywords, max_errors_zero_means_no_cap_and_keywords_are_reported) {
  auto v = compile(R"({"items": {"type": "string"}})");
  json many = json::array();
  for (int i = 0; i < 30; ++i) many.push_back(i);
  auto errors = v.validate(many, {.max_errors = 0});
  ASSERT_EQ(errors.size(), 30u);
  EXPECT_EQ(errors[29].path, "arguments[29]");
  EXPECT_EQ(errors[29].keyword, "type");
  EXPECT_EQ(v.validate(many).size(), 20u);  // the default cap
}

TEST(validator_keywords, paths_quote_keys_that_are_not_identifiers) {
  auto v = compile(R"({"properties": {"2x": {"type": "string"}, "a.b": {"type": "string"},
                                      "ok_1-$": {"type": "string"}}})");
  EXPECT_EQ(errors_of(v, R"({"2x": 1, "a.b": 1, "ok_1-$": 1})"),
            "arguments[\"2x\"]: expected string, got integer 1\n"
            "arguments[\"a.b\"]: expected string, got integer 1\n"
            "arguments.ok_1-$: expected string, got integer 1");
  EXPECT_EQ(errors_of(v, R"({"2x": 1})", {.root_path = ""}),
            "[\"2x\"]: expected string, got integer 1");
}

TEST(validator_keywords, schema_returns_what_was_compiled_and_format_errors_of_nothing_is_empty) {
  json schema = json::parse(R"({"type": "object", "x-custom": [1]})");
  auto v = compile(schema.dump());
  EXPECT_EQ(v.schema(), schema);
  EXPECT_EQ(tooluse::schema::format_errors({}), "");
}

TEST(validator_keywords, boolean_root_schemas) {
  auto yes = compile("true");
  auto no = compile("false");
  EXPECT_EQ(errors_of(yes, R"({"anything": [1]})"), "");
  EXPECT_EQ(errors_of(no, "null"), "arguments: no value is allowed here");
  EXPECT_EQ(no.validate(json(1))[0].keyword, "false");
}

}  // namespace
}  // namespace validator_keywords_test
