// make_gemini_schema beyond the common rewrites: which keywords survive, formats Gemini knows
// and those it gets in words, $ref siblings, single allOf merges, required names that survive,
// items and alternatives, null-only values, and where a refusal inside items is reported.
#include <gtest/gtest.h>

#include "tooluse/schema/translate.hpp"

namespace tooluse::schema {
namespace {

json gemini(const char* text) {
  auto out = make_gemini_schema(json::parse(text));
  EXPECT_TRUE(out.has_value()) << text << ": " << (out ? "" : out.error().message);
  return out ? *out : json();
}

std::string refusal(const char* text) {
  auto out = make_gemini_schema(json::parse(text));
  if (out) return "(translated) " + out->dump();
  return out.error().message;
}

TEST(gemini_edges, plain_data_keywords_are_kept_and_the_others_dropped) {
  json out = gemini(R"({"type": "object", "title": "T", "description": "D", "minProperties": 1,
      "maxProperties": 3, "additionalProperties": false, "$schema": "x", "$comment": "c",
      "properties": {"s": {"type": "string", "minLength": 1, "maxLength": 9, "pattern": "^a",
                           "default": "a", "example": "ab", "examples": ["ab"], "readOnly": true},
                     "n": {"type": "number", "minimum": 0, "maximum": 5, "exclusiveMaximum": 5,
                           "multipleOf": 0.5},
                     "a": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": true,
                           "items": {"type": "integer"}}}})");
  EXPECT_EQ(out, json::parse(R"({"type": "object", "title": "T", "description": "D",
      "minProperties": 1, "maxProperties": 3,
      "properties": {"s": {"type": "string", "minLength": 1, "maxLength": 9, "pattern": "^a",
                           "default": "a", "example": "ab"},
                     "n": {"type": "number", "minimum": 0, "maximum": 5},
                     "a": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "integer"}}}})"));
}

TEST(gemini_edges, known_formats_are_kept_and_others_go_into_the_description) {
  json out = gemini(R"({"type": "object", "properties": {
      "when": {"type": "string", "format": "date-time"},
      "day": {"type": "string", "format": "date", "description": "The day."},
      "mail": {"type": "string", "format": "email"},
      "big": {"type": "integer", "format": "int64"},
      "ratio": {"type": "number", "format": "double"},
      "odd": {"type": "string", "format": 7}}})");
  const json& p = out["properties"];
  EXPECT_EQ(p["when"], json::parse(R"({"type": "string", "format": "date-time"})"));
  EXPECT_EQ(p["day"], json::parse(R"({"type": "string", "description": "The day. Format: date."})"));
  EXPECT_EQ(p["mail"], json::parse(R"({"type": "string", "description": "Format: email."})"));
  EXPECT_EQ(p["big"]["format"], "int64");
  EXPECT_EQ(p["ratio"]["format"], "double");
  EXPECT_EQ(p["odd"], json::parse(R"({"type": "string"})"));
}

TEST(gemini_edges, a_ref_is_inlined_with_its_siblings_winning) {
  json out = gemini(R"({"type": "object", "$defs": {"unit": {"type": "string", "enum": ["c", "f"],
                                                              "description": "Unit"}},
      "properties": {"u": {"$ref": "#/$defs/unit", "description": "Temperature unit"},
                     "v": {"$ref": "#/$defs/unit"}}})");
  EXPECT_EQ(out["properties"]["u"],
            json::parse(R"({"type": "string", "description": "Temperature unit", "enum": ["c", "f"]})"));
  EXPECT_EQ(out["properties"]["v"]["description"], "Unit");
  EXPECT_FALSE(out.contains("$defs"));
}

TEST(gemini_edges, a_ref_used_twice_side_by_side_is_not_recursion) {
  json out = gemini(R"({"type": "object", "$defs": {"pt": {"type": "object", "properties": {
      "x": {"type": "number"}}}},
      "properties": {"a": {"$ref": "#/$defs/pt"}, "b": {"$ref": "#/$defs/pt"},
                     "list": {"type": "array", "items": {"$ref": "#/$defs/pt"}}}})");
  EXPECT_EQ(out["properties"]["a"], out["properties"]["b"]);
  EXPECT_EQ(out["properties"]["list"]["items"]["properties"]["x"]["type"], "number");
}

TEST(gemini_edges, a_single_all_of_is_merged_with_the_outer_keywords) {
  json out = gemini(R"({"type": "object", "properties": {"p": {"allOf": [{"type": "integer",
      "minimum": 1}], "description": "Count", "maximum": 9}}})");
  EXPECT_EQ(out["properties"]["p"],
            json::parse(R"({"type": "integer", "minimum": 1, "description": "Count", "maximum": 9})"));
  EXPECT_EQ(refusal(R"({"type": "object", "properties": {"p": {"allOf": {"type": "integer"}}}})"),
            "arguments.p: \"allOf\" with several schemas cannot be expressed for gemini; merge them");
}

TEST(gemini_edges, required_keeps_only_names_that_are_properties) {
  json out = gemini(R"({"type": "object", "properties": {"a": {"type": "string"}},
                        "required": ["a", "ghost", 3]})");
  EXPECT_EQ(out["required"], json::array({"a"}));
  json none = gemini(R"({"type": "object", "properties": {"a": {"type": "string"}},
                         "required": ["ghost"]})");
  EXPECT_FALSE(none.contains("required"));
  json empty = gemini(R"({"type": "object", "properties": {}, "required": ["a"]})");
  EXPECT_EQ(empty, json::parse(R"({"type": "object"})"));
}

TEST(gemini_edges, properties_without_a_type_make_an_object) {
  json out = gemini(R"({"properties": {"a": {"type": "boolean"}}})");
  EXPECT_EQ(out["type"], "object");
  json untyped = gemini(R"({"type": "object", "properties": {"any": {}, "yes": true}})");
  EXPECT_EQ(untyped["properties"]["any"], json::object());
  EXPECT_EQ(untyped["properties"]["yes"], json::object());
}

TEST(gemini_edges, one_of_and_any_of_branches_become_any_of) {
  json out = gemini(R"({"type": "object", "properties": {"v": {"oneOf": [{"type": "string"},
      {"type": "array", "items": {"type": "string"}}], "description": "One or many"}}})");
  EXPECT_EQ(out["properties"]["v"],
            json::parse(R"({"description": "One or many", "anyOf": [{"type": "string"},
                           {"type": "array", "items": {"type": "string"}}]})"));
}

TEST(gemini_edges, null_only_values_become_nullable_without_an_empty_enum) {
  json out = gemini(R"({"type": "object", "properties": {"n": {"const": null},
      "t": {"type": "null"}, "e": {"type": ["string", "null"], "enum": ["a", null]}}})");
  EXPECT_EQ(out["properties"]["n"], json::parse(R"({"nullable": true})"));
  EXPECT_EQ(out["properties"]["t"], json::parse(R"({"nullable": true})"));
  EXPECT_EQ(out["properties"]["e"], json::parse(R"({"nullable": true, "type": "string", "enum": ["a"]})"));
}

TEST(gemini_edges, refusals_inside_items_and_alternatives_name_their_place) {
  EXPECT_EQ(refusal(R"({"type": "object", "properties": {"list": {"type": "array", "items": false}}})"),
            "(translated) {\"type\":\"object\",\"properties\":{\"list\":{\"type\":\"array\"}}}");
  EXPECT_EQ(refusal(R"({"type": "object", "properties": {"list": {"type": "array",
      "items": {"$ref": "#/$defs/none"}}}})"),
            "arguments.list[]: $ref \"#/$defs/none\" does not resolve");
  EXPECT_EQ(refusal(R"({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, false]}}})"),
            "arguments.v: a schema that accepts nothing cannot be expressed");
  EXPECT_EQ(refusal(R"({"type": "object", "properties": {"p": 3}})"),
            "arguments.p: a schema must be an object");
  EXPECT_EQ(refusal(R"({"$ref": "#/$defs/self", "$defs": {"self": {"type": "object",
      "properties": {"next": {"$ref": "#/$defs/self"}}}}})"),
            "arguments.next: recursive $ref \"#/$defs/self\" cannot be expressed for gemini");
}

TEST(gemini_edges, export_tool_puts_the_rewritten_schema_under_parameters) {
  tool_spec spec{.name = "lookup.v2", .description = "Find things",
                 .input_schema = json::parse(R"({"type": "object", "properties": {
                     "q": {"type": ["string", "null"]}}, "additionalProperties": false})")};
  auto out = export_tool(spec, export_target::gemini);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(*out, json::parse(R"({"name": "lookup.v2", "description": "Find things",
      "parameters": {"type": "object", "properties": {"q": {"nullable": true, "type": "string"}}}})"));
}

}  // namespace
}  // namespace tooluse::schema
