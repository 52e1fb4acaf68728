// Compiling: a schema_error for each keyword given a value of the wrong kind, and reference
// resolution: $id bases, $anchor, JSON pointers with escapes and percent-encoding, refs into
// arrays, refs that point at something that is not a schema, and the max_depth option.
#include <gtest/gtest.h>

#include <string>

#include "tooluse/schema/validator.hpp"

namespace {

using tooluse::errc;
using tooluse::json;
using tooluse::schema::validator;

std::string compile_error(const std::string& text) {
  auto v = validator::compile(json::parse(text));
  if (v) return "(compiled)";
  EXPECT_EQ(v.error().code, errc::schema_error) << text;
  return v.error().message;
}

validator compile(const std::string& text, tooluse::schema::compile_options o = {}) {
  auto v = validator::compile(json::parse(text), o);
  EXPECT_TRUE(v.has_value()) << text << ": " << (v ? "" : v.error().message);
  return v ? *v : *validator::compile(json(false));
}

TEST(compile_keywords, each_keyword_names_what_it_expected) {
  const std::pair<const char*, const char*> k_cases[] = {
      {R"({"$ref": 3})", "keyword \"$ref\" at #: expected a string, got integer 3"},
      {R"({"$dynamicRef": true})", "keyword \"$dynamicRef\" at #: expected a string, got boolean true"},
      {R"({"allOf": []})", "keyword \"allOf\" at #: expected a non-empty array of schemas, got an empty array"},
      {R"({"anyOf": {}})", "keyword \"anyOf\" at #: expected a non-empty array of schemas, got an object"},
      {R"({"not": "x"})", "keyword \"not\" at #: expected a schema (object or boolean), got string \"x\""},
      {R"({"items": 1})", "keyword \"items\" at #: expected a schema (object or boolean), got integer 1"},
      {R"({"enum": "a"})", "keyword \"enum\" at #: expected an array, got string \"a\""},
      {R"({"minimum": "1"})", "keyword \"minimum\" at #: expected a number, got string \"1\""},
      {R"({"maxLength": 1.5})", "keyword \"maxLength\" at #: expected a non-negative integer, got number 1.5"},
      {R"({"minItems": -1})", "keyword \"minItems\" at #: expected a non-negative integer, got integer -1"},
      {R"({"maxContains": null})", "keyword \"maxContains\" at #: expected a non-negative integer, got null"},
      {R"({"uniqueItems": 1})", "keyword \"uniqueItems\" at #: expected a boolean, got integer 1"},
      {R"({"pattern": 5})", "keyword \"pattern\" at #: expected a string, got integer 5"},
      {R"({"type": []})", "keyword \"type\" at #: expected at least one type"},
      {R"({"type": ["string", 1]})",
       "keyword \"type\" at #: expected one of null, boolean, integer, number, string, array, object; got 1"},
      {R"({"required": ["a", 1]})", "keyword \"required\" at #: expected an array of strings, found integer 1"},
      {R"({"dependentRequired": []})", "keyword \"dependentRequired\" at #: expected an object, got an empty array"},
      {R"({"dependentRequired": {"a": "b"}})",
       "keyword \"dependentRequired\" at #: expected an array of strings, got string \"b\""},
      {R"({"properties": []})", "keyword \"properties\" at #: expected an object of schemas, got an empty array"},
      {R"({"dependentSchemas": {"a": 1}})", "keyword \"dependentSchemas\" at #: \"a\" must be a schema, got integer 1"},
      {R"({"dependencies": {"a": [1]}})", "keyword \"dependencies\" at #: expected an array of strings, found integer 1"},
      {R"({"multipleOf": -2})", "keyword \"multipleOf\" at #: expected a number greater than 0"},
  };
  for (const auto& [schema, message] : k_cases) EXPECT_EQ(compile_error(schema), message) << schema;
}

TEST(compile_keywords, locations_follow_the_path_through_subschemas) {
  EXPECT_EQ(compile_error(R"({"items": {"properties": {"a": {"anyOf": [true, {"minLength": -1}]}}}})"),
            "keyword \"minLength\" at #/items/properties/a/anyOf/1: expected a non-negative integer, "
            "got integer -1");
  std::string via_ref = compile_error(R"({"$defs": {"x": {"type": "nope"}}, "$ref": "#/$defs/x"})");
  EXPECT_EQ(via_ref.rfind("keyword \"type\" at ", 0), 0u) << via_ref;
  EXPECT_NE(via_ref.find("$defs/x: expected one of null, boolean"), std::string::npos) << via_ref;
}

TEST(compile_keywords, large_counts_and_integral_floats_are_accepted) {
  auto v = compile(R"({"maxLength": 3.0, "minItems": 0, "maxItems": 1e30})");
  EXPECT_TRUE(v.is_valid(json("abc")));
  EXPECT_FALSE(v.is_valid(json("abcd")));
  EXPECT_TRUE(v.is_valid(json::array({1, 2, 3})));
}

TEST(compile_refs, pointers_with_escapes_and_percent_encoding) {
  auto v = compile(R"({"$defs": {"a/b": {"type": "integer"}, "c~d": {"type": "string"},
                                 "e f": {"type": "boolean"}},
                       "properties": {"x": {"$ref": "#/$defs/a~1b"}, "y": {"$ref": "#/$defs/c~0d"},
                                      "z": {"$ref": "#/$defs/e%20f"}}})");
  EXPECT_TRUE(v.is_valid(json::parse(R"({"x": 1, "y": "s", "z": true})")));
  EXPECT_FALSE(v.is_valid(json::parse(R"({"x": "1"})")));
  EXPECT_FALSE(v.is_valid(json::parse(R"({"y": 1})")));
  EXPECT_FALSE(v.is_valid(json::parse(R"({"z": 1})")));
}

TEST(compile_refs, refs_into_arrays_and_sibling_properties) {
  auto v = compile(R"({"prefixItems": [{"type": "string"}, {"$ref": "#/prefixItems/0"}],
                       "properties": {"a": {"type": "integer"}, "b": {"$ref": "#/properties/a"}}})");
  EXPECT_TRUE(v.is_valid(json::parse(R"(["x", "y"])")));
  EXPECT_FALSE(v.is_valid(json::parse(R"(["x", 1])")));
  EXPECT_FALSE(v.is_valid(json::parse(R"({"b": "x"})")));
}

TEST(compile_refs, a_ref_to_something_that_is_not_a_schema_is_named) {
  EXPECT_EQ(compile_error(R"({"$defs": {"n": 5}, "$ref": "#/$defs/n"})"),
            "$ref \"#/$defs/n\" at # points at integer, not a schema");
  EXPECT_EQ(compile_error(R"({"required": ["a"], "$ref": "#/required"})"),
            "$ref \"#/required\" at # points at array, not a schema");
  EXPECT_EQ(compile_error(R"({"$ref": "#/$defs/missing/deeper"})"),
            "$ref \"#/$defs/missing/deeper\" at # does not resolve (looked for "
            "\"tooluse:///schema.json#/$defs/missing/deeper\")");
}

TEST(compile_refs, ids_change_the_base_and_anchors_name_subschemas) {
  auto v = compile(R"({"$id": "https://example.com/root.json",
      "$defs": {"pos": {"$id": "positive.json", "type": "integer", "minimum": 1},
                "named": {"$anchor": "short", "type": "string", "maxLength": 2}},
      "properties": {"p": {"$ref": "positive.json"},
                     "q": {"$ref": "https://example.com/positive.json"},
                     "s": {"$ref": "#short"}}})");
  EXPECT_TRUE(v.is_valid(json::parse(R"({"p": 1, "q": 2, "s": "ab"})")));
  EXPECT_FALSE(v.is_valid(json::parse(R"({"p": 0})")));
  EXPECT_FALSE(v.is_valid(json::parse(R"({"q": -1})")));
  EXPECT_FALSE(v.is_valid(json::parse(R"({"s": "abc"})")));
  EXPECT_EQ(compile_error(R"({"$ref": "#nowhere"})"),
            "$ref \"#nowhere\" at # does not resolve (looked for \"tooluse:///schema.json#nowhere\")");
}

TEST(compile_refs, the_base_uri_option_resolves_relative_refs_through_the_resolver) {
  std::vector<std::string> asked;
  auto v = compile(R"({"$ref": "common.json#/$defs/id"})",
                   {.base_uri = "https://schemas.test/tools/main.json",
                    .resolve = [&](const std::string& uri) -> std::optional<json> {
                      asked.push_back(uri);
                      if (uri == "https://schemas.test/tools/common.json")
                        return json::parse(R"({"$defs": {"id": {"type": "string", "pattern": "^id-"}}})");
                      return std::nullopt;
                    }});
  EXPECT_EQ(asked, std::vector<std::string>{"https://schemas.test/tools/common.json"});
  EXPECT_TRUE(v.is_valid(json("id-7")));
  EXPECT_FALSE(v.is_valid(json("x")));
}

TEST(compile_refs, max_depth_bounds_schemas_and_instances) {
  std::string schema = "true";
  for (int i = 0; i < 10; ++i) schema = R"({"items": )" + schema + "}";
  auto shallow = validator::compile(json::parse(schema), {.max_depth = 5});
  ASSERT_FALSE(shallow.has_value());
  EXPECT_NE(shallow.error().message.find("nests more than 5 levels"), std::string::npos)
      << shallow.error().message;
  auto tree = compile(R"({"type": "array", "items": {"$ref": "#"}})", {.max_depth = 8});
  json deep = json::array();
  for (int i = 0; i < 50; ++i) deep = json::array({deep});  // validation allows 8 * max_depth
  auto errors = tree.validate(deep);
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].message.find("nests too deeply to validate (more than 64 levels"), std::string::npos)
      << errors[0].message;
  EXPECT_FALSE(tree.is_valid(deep));
  EXPECT_TRUE(tree.is_valid(json::parse("[[]]")));
}

TEST(compile_refs, unknown_keywords_are_annotations_and_old_drafts_items_arrays_work) {
  auto v = compile(R"({"x-ui": {"widget": "slider"}, "items": [{"type": "integer"}],
                       "additionalItems": {"type": "string"}})");
  EXPECT_TRUE(v.is_valid(json::parse(R"([1, "a", "b"])")));
  EXPECT_FALSE(v.is_valid(json::parse(R"([1, 2])")));
  EXPECT_FALSE(v.is_valid(json::parse(R"(["a"])")));
}

}  // namespace
