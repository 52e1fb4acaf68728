// Coercion: each rule, each change reported, out-of-range values never clamped unless asked.
#include <gtest/gtest.h>

#include "tooluse/schema/coerce.hpp"

namespace coerce_test {
namespace {

using tooluse::json;
using tooluse::schema::coerce;
using tooluse::schema::validator;

validator compile(const char* text) {
  auto v = validator::compile(json::parse(text));
  EXPECT_TRUE(v.has_value()) << (v ? "" : v.error().message);
  return *v;
}

const char* k_schema = R"({
  "type": "object",
  "properties": {
    "count": {"type": "integer", "minimum": 1, "maximum": 10},
    "ratio": {"type": "number"},
    "verbose": {"type": "boolean"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "options": {"type": "object", "properties": {"depth": {"type": "integer"}}},
    "ids": {"type": "array", "items": {"type": "integer"}},
    "name": {"type": "string"},
    "maybe": {"anyOf": [{"type": "integer"}, {"type": "null"}]}
  },
  "additionalProperties": false
})";

TEST(coerce, numeric_strings_become_numbers) {
  auto out = coerce(compile(k_schema), json::parse(R"({"count": "3", "ratio": "2.5"})"));
  EXPECT_TRUE(out.valid()) << tooluse::schema::format_errors(out.errors);
  EXPECT_EQ(out.value, json::parse(R"({"count": 3, "ratio": 2.5})"));
  ASSERT_EQ(out.coercions.size(), 2u);
  EXPECT_EQ(out.coercions[0].path, "arguments.count");
  EXPECT_EQ(out.coercions[0].from, json("3"));
  EXPECT_EQ(out.coercions[0].to, json(3));
  EXPECT_EQ(out.coercions[0].rule, "string_to_integer");
  EXPECT_EQ(out.coercions[1].rule, "string_to_number");
}

TEST(coerce, integral_float_becomes_integer_but_fraction_fails) {
  auto v = compile(k_schema);
  auto out = coerce(v, json::parse(R"({"count": 3.0})"));
  EXPECT_TRUE(out.valid());
  EXPECT_TRUE(out.value["count"].is_number_integer());
  EXPECT_EQ(out.coercions.at(0).rule, "number_to_integer");
  auto bad = coerce(v, json::parse(R"({"count": 3.5})"));
  EXPECT_FALSE(bad.valid());
  EXPECT_TRUE(bad.coercions.empty());
  EXPECT_EQ(tooluse::schema::format_errors(bad.errors),
            "arguments.count: expected integer, got number 3.5");
}

TEST(coerce, boolean_words) {
  auto v = compile(k_schema);
  for (const char* word : {"true", "yes", "1", "TRUE", "Yes"})
    EXPECT_EQ(coerce(v, json{{"verbose", word}}).value["verbose"], json(true)) << word;
  for (const char* word : {"false", "no", "0", "No"})
    EXPECT_EQ(coerce(v, json{{"verbose", word}}).value["verbose"], json(false)) << word;
  auto bad = coerce(v, json{{"verbose", "maybe"}});
  EXPECT_FALSE(bad.valid());
  EXPECT_EQ(bad.value["verbose"], json("maybe"));
}

TEST(coerce, json_encoded_strings_become_objects_and_arrays) {
  auto out = coerce(compile(k_schema),
                    json{{"options", R"({"depth": "2"})"}, {"tags", R"(["a", "b"])"}});
  EXPECT_TRUE(out.valid()) << tooluse::schema::format_errors(out.errors);
  EXPECT_EQ(out.value, json::parse(R"({"options": {"depth": 2}, "tags": ["a", "b"]})"));
  ASSERT_EQ(out.coercions.size(), 3u);
  EXPECT_EQ(out.coercions[0].rule, "json_string");
  EXPECT_EQ(out.coercions[1].path, "arguments.options.depth");
}

TEST(coerce, single_value_becomes_one_element_array) {
  auto out = coerce(compile(k_schema), json::parse(R"({"tags": "x", "ids": "7"})"));
  EXPECT_TRUE(out.valid()) << tooluse::schema::format_errors(out.errors);
  EXPECT_EQ(out.value, json::parse(R"({"tags": ["x"], "ids": [7]})"));
  EXPECT_EQ(out.coercions[0].rule, "wrap_in_array");
  EXPECT_EQ(out.coercions.back().path, "arguments.ids[0]");
}

TEST(coerce, out_of_range_is_an_error_not_clamped) {
  auto v = compile(k_schema);
  auto out = coerce(v, json::parse(R"({"count": "50"})"));
  EXPECT_FALSE(out.valid());
  EXPECT_EQ(out.value["count"], json(50));
  EXPECT_EQ(tooluse::schema::format_errors(out.errors),
            "arguments.count: expected an integer <= 10, got 50");
  auto clamped = coerce(v, json::parse(R"({"count": "50"})"), {.clamp = true});
  EXPECT_TRUE(clamped.valid());
  EXPECT_EQ(clamped.value["count"], json(10));
  EXPECT_EQ(clamped.coercions.back().rule, "clamp");
  EXPECT_EQ(clamped.coercions.back().from, json(50));
}

TEST(coerce, valid_values_and_strings_are_left_alone) {
  auto v = compile(k_schema);
  json in = json::parse(R"({"name": "42", "count": 4, "maybe": null})");
  auto out = coerce(v, in);
  EXPECT_TRUE(out.valid());
  EXPECT_EQ(out.value, in);
  EXPECT_TRUE(out.coercions.empty());
}

TEST(coerce, alternatives_pick_the_branch_that_fits) {
  auto out = coerce(compile(k_schema), json::parse(R"({"maybe": "12"})"));
  EXPECT_TRUE(out.valid()) << tooluse::schema::format_errors(out.errors);
  EXPECT_EQ(out.value["maybe"], json(12));
}

TEST(coerce, follows_refs) {
  auto v = compile(R"({"$defs": {"n": {"type": "integer"}}, "type": "object",
                       "properties": {"a": {"$ref": "#/$defs/n"}}})");
  auto out = coerce(v, json::parse(R"({"a": "5"})"));
  EXPECT_TRUE(out.valid());
  EXPECT_EQ(out.value["a"], json(5));
}

TEST(coerce, rejects_non_numbers_and_overflow) {
  auto v = compile(k_schema);
  for (const char* text : {"3 apples", "1e400", "0x10", "", " 3"}) {
    auto out = coerce(v, json{{"ratio", text}});
    EXPECT_FALSE(out.valid()) << text;
    EXPECT_TRUE(out.coercions.empty()) << text;
  }
}

TEST(coerce, coercions_render_for_metadata) {
  auto out = coerce(compile(k_schema), json::parse(R"({"count": "3"})"));
  EXPECT_EQ(tooluse::schema::coercions_to_json(out.coercions),
            json::parse(R"([{"path": "arguments.count", "from": "3", "to": 3,
                             "rule": "string_to_integer"}])"));
}

}  // namespace
}  // namespace coerce_test
