// BFCL parameter docs: each conversion rule on its own (Java/JS names, char, any, defaults of
// None and of another type, an enum on a list, an enum that contradicts the type, duplicate
// required names, close_objects), and the errors naming where the doc is wrong.
#include <gtest/gtest.h>

#include "tooluse/schema/import.hpp"

namespace {

using tooluse::errc;
using tooluse::json;
using namespace tooluse::schema;

// property converts one BFCL property doc `doc` (as JSON text) and returns its schema.
json property(const char* doc, const bfcl_options& options = {}) {
  json params = {{"type", "dict"}, {"properties", {{"p", json::parse(doc)}}}};
  auto s = bfcl_to_json_schema(params, options);
  EXPECT_TRUE(s) << doc << ": " << (s ? "" : s.error().message);
  return s ? (*s)["properties"]["p"] : json();
}

TEST(bfcl_rules, each_type_name_maps_to_its_json_schema_type) {
  const std::pair<const char*, const char*> names[] = {
      {"HashMap", "object"}, {"Map", "object"},   {"double", "number"}, {"Float", "number"},
      {"long", "integer"},   {"short", "integer"}, {"Integer", "integer"}, {"String", "string"},
      {"str", "string"},     {"bool", "boolean"},  {"ArrayList", "array"}, {"list", "array"},
      {"tuple", "array"},
  };
  for (auto [bfcl, type] : names) {
    std::string doc = std::string(R"({"type":")") + bfcl + R"("})";
    EXPECT_EQ(property(doc.c_str())["type"], type) << bfcl;
  }
  EXPECT_EQ(property(R"({"type":"char"})"),
            json::parse(R"({"type":"string","minLength":1,"maxLength":1})"));
  EXPECT_EQ(property(R"({"type":"any","description":"anything"})"),
            json::parse(R"({"description":"anything"})"));
  EXPECT_EQ(property(R"({"description":"no type"})"), json::parse(R"({"description":"no type"})"));
}

TEST(bfcl_rules, a_none_default_makes_the_value_nullable) {
  EXPECT_EQ(property(R"({"type":"string","default":null})"),
            json::parse(R"({"type":["string","null"],"default":null})"));
  EXPECT_EQ(property(R"({"type":"string","enum":["a","b"],"default":null})"),
            json::parse(R"({"type":["string","null"],"enum":["a","b",null],"default":null})"));
  EXPECT_EQ(property(R"({"type":"any","default":null})"), json::parse(R"({"default":null})"));
}

TEST(bfcl_rules, a_default_of_another_type_is_accepted_as_that_one_value) {
  EXPECT_EQ(property(R"({"type":"integer","description":"n","default":"dontcare"})"),
            json::parse(R"({"description":"n","anyOf":[{"type":"integer"},{"const":"dontcare"}],
                            "default":"dontcare"})"));
  // A default outside the enum joins it; an integer default suits a float.
  EXPECT_EQ(property(R"({"type":"string","enum":["a"],"default":"z"})")["enum"],
            json::parse(R"(["a","z"])"));
  EXPECT_EQ(property(R"({"type":"float","default":3})"), json::parse(R"({"type":"number","default":3})"));
}

TEST(bfcl_rules, an_enum_on_a_list_constrains_its_items) {
  EXPECT_EQ(property(R"({"type":"array","enum":["x","y"]})"),
            json::parse(R"({"type":"array","items":{"enum":["x","y"]}})"));
  EXPECT_EQ(property(R"({"type":"array","items":{"type":"string"},"enum":["x"]})"),
            json::parse(R"({"type":"array","items":{"type":"string","enum":["x"]}})"));
}

TEST(bfcl_rules, an_enum_that_contradicts_the_type_decides_it) {
  EXPECT_EQ(property(R"({"type":"boolean","enum":["True","False","dontcare"]})"),
            json::parse(R"({"type":"string","enum":["True","False","dontcare"]})"));
  EXPECT_EQ(property(R"({"type":"string","enum":[1, 2.5]})")["type"], "number");
  EXPECT_EQ(property(R"({"type":"string","enum":["a", 1]})")["type"],
            json::parse(R"(["integer","string"])"));
  EXPECT_EQ(property(R"({"type":"float","enum":[1, 2]})")["type"], "number");  // integers suit
}

TEST(bfcl_rules, required_names_are_kept_once_and_objects_are_closed_unless_asked) {
  json params = json::parse(R"({"type":"dict","required":["a","a",3,"b"],"properties":{
      "a":{"type":"dict","properties":{"x":{"type":"int"}}},
      "b":{"type":"dict"}}})");
  auto closed = bfcl_to_json_schema(params);
  ASSERT_TRUE(closed) << closed.error().message;
  EXPECT_EQ((*closed)["required"], json::parse(R"(["a","b"])"));
  EXPECT_EQ((*closed)["additionalProperties"], false);
  EXPECT_EQ((*closed)["properties"]["a"]["additionalProperties"], false);
  EXPECT_FALSE((*closed)["properties"]["b"].contains("additionalProperties"));  // free-form dict
  auto open = bfcl_to_json_schema(params, {.close_objects = false});
  ASSERT_TRUE(open);
  EXPECT_FALSE(open->contains("additionalProperties"));
  EXPECT_FALSE((*open)["properties"]["a"].contains("additionalProperties"));
}

TEST(bfcl_rules, errors_name_the_place_in_the_doc) {
  auto root = bfcl_to_json_schema(json::parse(R"({"type":"string"})"));
  ASSERT_FALSE(root);
  EXPECT_EQ(root.error().code, errc::invalid_argument);
  EXPECT_EQ(root.error().message,
            "parameters: the root of a BFCL function doc must be \"dict\", got \"string\"");
  auto nested = bfcl_to_json_schema(json::parse(
      R"({"type":"dict","properties":{"a":{"type":"array","items":{"type":"complex"}}}})"));
  ASSERT_FALSE(nested);
  EXPECT_EQ(nested.error().message,
            "parameters.a[]: unknown BFCL type \"complex\"; expected dict, float, integer, string, "
            "boolean, array, tuple, any or a Java/JS type name");
  auto props = bfcl_to_json_schema(json::parse(R"({"type":"dict","properties":[]})"));
  ASSERT_FALSE(props);
  EXPECT_EQ(props.error().message, "parameters: \"properties\" must be an object");
  auto doc = bfcl_to_json_schema(json::parse(R"({"type":"dict","properties":{"a":"int"}})"));
  ASSERT_FALSE(doc);
  EXPECT_EQ(doc.error().message, "parameters.a: expected a parameter doc");
  // A root without a type is a dict; a default on the root means nothing.
  auto bare = bfcl_to_json_schema(json::parse(R"({"properties":{},"default":{}})"));
  ASSERT_TRUE(bare) << bare.error().message;
  EXPECT_EQ(*bare, json::parse(R"({"properties":{},"type":"object"})"));
}

}  // namespace
