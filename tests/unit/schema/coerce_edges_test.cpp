// coerce at its edges: number text that JSON does not allow, numbers too big to be exact,
// boolean words in any case, type unions, wrapping null, fractional clamps, whitespace around
// JSON strings, and the reported paths under a custom root.
#include <gtest/gtest.h>

#include "tooluse/schema/coerce.hpp"

namespace {

using tooluse::json;
using tooluse::schema::coerce;
using tooluse::schema::validator;

validator compile(const char* text) {
  auto v = validator::compile(json::parse(text));
  EXPECT_TRUE(v.has_value()) << text;
  return v ? *v : *validator::compile(json(true));
}

TEST(coerce_edges, number_text_follows_json_grammar_and_must_be_finite) {
  auto v = compile(R"({"properties": {"n": {"type": "number"}, "i": {"type": "integer"}}})");
  EXPECT_EQ(coerce(v, json{{"i", "-0"}}).value["i"], json(0));
  EXPECT_EQ(coerce(v, json{{"i", "1.0"}}).value["i"], json(1));
  for (const char* text : {"007", "+1", "1.", ".5", "0x10", "1e400", " 1", "1_000", "NaN", "Infinity"}) {
    auto out = coerce(v, json{{"n", text}});
    EXPECT_TRUE(out.coercions.empty()) << text;
    EXPECT_EQ(out.value["n"], json(text)) << text;
    EXPECT_FALSE(out.valid()) << text;
  }
}

TEST(coerce_edges, integral_floats_beyond_exact_range_are_left_as_they_are) {
  auto v = compile(R"({"properties": {"i": {"type": "integer"}}})");
  auto big = coerce(v, json::parse(R"({"i": 1e16})"));
  EXPECT_TRUE(big.coercions.empty());
  EXPECT_TRUE(big.value["i"].is_number_float());
  EXPECT_TRUE(big.valid());  // still an integer by JSON Schema's rule
  auto small = coerce(v, json::parse(R"({"i": -42.0})"));
  ASSERT_EQ(small.coercions.size(), 1u);
  EXPECT_EQ(small.value["i"], json(-42));
}

TEST(coerce_edges, boolean_words_in_any_case_and_digits) {
  auto v = compile(R"({"properties": {"b": {"type": "boolean"}}})");
  for (const char* word : {"TRUE", "Yes", "1"}) EXPECT_EQ(coerce(v, json{{"b", word}}).value["b"], true) << word;
  for (const char* word : {"False", "NO", "0"}) EXPECT_EQ(coerce(v, json{{"b", word}}).value["b"], false) << word;
  for (const char* word : {"y", "on", "2", ""}) {
    auto out = coerce(v, json{{"b", word}});
    EXPECT_TRUE(out.coercions.empty()) << word;
    EXPECT_FALSE(out.valid()) << word;
  }
  auto number = coerce(v, json::parse(R"({"b": 1})"));  // a number is not a word
  EXPECT_TRUE(number.coercions.empty());
  EXPECT_FALSE(number.valid());
}

TEST(coerce_edges, a_union_of_integer_and_boolean_reads_digits_as_numbers) {
  auto v = compile(R"({"properties": {"x": {"type": ["integer", "boolean"]}}})");
  auto out = coerce(v, json{{"x", "1"}});
  EXPECT_EQ(out.value["x"], json(1));
  EXPECT_EQ(out.coercions.at(0).rule, "string_to_integer");
  EXPECT_EQ(coerce(v, json{{"x", "yes"}}).value["x"], json(true));
}

TEST(coerce_edges, null_is_wrapped_where_only_an_array_is_allowed) {
  auto v = compile(R"({"properties": {"a": {"type": "array", "items": {"type": "string"}}}})");
  auto out = coerce(v, json::parse(R"({"a": null})"));
  EXPECT_EQ(out.value["a"], json::parse("[null]"));
  EXPECT_EQ(out.coercions.at(0).rule, "wrap_in_array");
  EXPECT_FALSE(out.valid());  // the null item is still reported
  EXPECT_EQ(out.errors.at(0).path, "arguments.a[0]");
}

TEST(coerce_edges, json_strings_may_have_surrounding_whitespace) {
  auto v = compile(R"({"properties": {"o": {"type": "object"}, "a": {"type": "array"}}})");
  auto out = coerce(v, json{{"o", "  {\"k\": 1}\n"}, {"a", "\t[1, 2] "}});
  EXPECT_TRUE(out.valid());
  EXPECT_EQ(out.value, json::parse(R"({"o": {"k": 1}, "a": [1, 2]})"));
  auto broken = coerce(v, json{{"o", "{\"k\": }"}});
  EXPECT_FALSE(broken.valid());
  EXPECT_EQ(broken.value["o"], json("{\"k\": }"));
}

TEST(coerce_edges, clamps_to_fractional_bounds_and_through_refs) {
  auto v = compile(R"({"$defs": {"pct": {"type": "number", "minimum": 0.5, "maximum": 99.5}},
                       "properties": {"p": {"$ref": "#/$defs/pct"}, "q": {"$ref": "#/$defs/pct"}}})");
  auto out = coerce(v, json::parse(R"({"p": 0, "q": "120"})"), {.clamp = true});
  EXPECT_TRUE(out.valid()) << tooluse::schema::format_errors(out.errors);
  EXPECT_EQ(out.value["p"], json(0.5));
  EXPECT_EQ(out.value["q"], json(99.5));
  ASSERT_EQ(out.coercions.size(), 3u);  // clamp p; string_to_number q; clamp q
  EXPECT_EQ(out.coercions[1].rule, "string_to_number");
  EXPECT_EQ(out.coercions[2].from, json(120));
}

TEST(coerce_edges, paths_use_the_custom_root_and_an_empty_list_renders_empty) {
  auto v = compile(R"({"properties": {"list": {"type": "array", "items": {"type": "integer"}}}})");
  auto out = coerce(v, json::parse(R"({"list": ["1", 2, "3"]})"), {.root_path = "input"});
  ASSERT_EQ(out.coercions.size(), 2u);
  EXPECT_EQ(out.coercions[0].path, "input.list[0]");
  EXPECT_EQ(out.coercions[1].path, "input.list[2]");
  EXPECT_EQ(tooluse::schema::coercions_to_json({}), json::array());
  auto none = coerce(v, json::parse(R"({"list": [1]})"));
  EXPECT_TRUE(none.coercions.empty());
  EXPECT_TRUE(none.valid());
}

}  // namespace
