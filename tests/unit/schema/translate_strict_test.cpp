#include <gtest/gtest.h>

#include "tooluse/schema/translate.hpp"
#include "tooluse/schema/validator.hpp"

namespace tooluse::schema {
namespace {

json weather_schema() {
  return json::parse(R"({
    "type": "object",
    "properties": {
      "location": {"type": "string", "description": "City"},
      "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
      "when": {"type": "object", "properties": {"day": {"type": "integer"}}}
    },
    "required": ["location"]
  })");
}

TEST(translate_strict, optional_properties_become_required_and_nullable) {
  auto s = make_strict_schema(weather_schema());
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ((*s)["required"], json({"location", "unit", "when"}));
  EXPECT_EQ((*s)["additionalProperties"], false);
  EXPECT_EQ((*s)["properties"]["location"]["type"], "string");
  EXPECT_EQ((*s)["properties"]["unit"]["type"], json({"string", "null"}));
  EXPECT_EQ((*s)["properties"]["unit"]["enum"], json({"celsius", "fahrenheit", nullptr}));
  EXPECT_FALSE((*s)["properties"]["unit"].contains("default"));
  const json& when = (*s)["properties"]["when"];
  EXPECT_EQ(when["type"], json({"object", "null"}));
  EXPECT_EQ(when["additionalProperties"], false);
  EXPECT_EQ(when["required"], json({"day"}));
  EXPECT_EQ(when["properties"]["day"]["type"], json({"integer", "null"}));
}

TEST(translate_strict, unsupported_keyword_is_named_with_its_path) {
  json schema = weather_schema();
  schema["properties"]["when"]["patternProperties"] = {{"^x", {{"type", "string"}}}};
  auto s = make_strict_schema(schema);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::unsupported);
  EXPECT_EQ(s.error().message,
            "arguments.when: \"patternProperties\" is not supported by openai strict mode");
}

TEST(translate_strict, drop_unsupported_removes_the_keyword) {
  json schema = weather_schema();
  schema["properties"]["location"]["minLength"] = 2;
  ASSERT_FALSE(make_strict_schema(schema));
  auto s = make_strict_schema(schema, {.drop_unsupported = true});
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_FALSE((*s)["properties"]["location"].contains("minLength"));
}

TEST(translate_strict, free_form_objects_and_root_anyof_are_rejected) {
  json schema = weather_schema();
  schema["properties"]["extra"] = {{"type", "object"}};
  auto s = make_strict_schema(schema);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("arguments.extra"), std::string::npos);
  json open = {{"type", "object"}, {"additionalProperties", true}};
  ASSERT_FALSE(make_strict_schema(open));
  json any_root = {{"type", "object"}, {"anyOf", json::array({{{"required", {"a"}}}})}};
  ASSERT_FALSE(make_strict_schema(any_root));
  ASSERT_FALSE(make_strict_schema(json{{"type", "string"}}));
}

TEST(translate_strict, refs_kept_oneof_becomes_anyof_const_becomes_enum) {
  json schema = json::parse(R"({
    "type": "object",
    "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}},
                        "required": ["x"]}},
    "properties": {
      "at": {"$ref": "#/$defs/point"},
      "shape": {"oneOf": [{"const": "circle"}, {"type": "integer"}]}
    },
    "required": ["at", "shape"]
  })");
  auto s = make_strict_schema(schema);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ((*s)["properties"]["at"], json({{"$ref", "#/$defs/point"}}));
  EXPECT_EQ((*s)["$defs"]["point"]["additionalProperties"], false);
  EXPECT_EQ((*s)["properties"]["shape"]["anyOf"][0], json({{"enum", {"circle"}}}));
  EXPECT_FALSE((*s)["properties"]["shape"].contains("oneOf"));
}

TEST(translate_strict, optional_ref_gets_a_null_branch) {
  json schema = json::parse(R"({
    "type": "object", "$defs": {"n": {"type": "number"}},
    "properties": {"v": {"$ref": "#/$defs/n", "description": "a value"}}
  })");
  auto s = make_strict_schema(schema);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ((*s)["properties"]["v"],
            json::parse(R"({"description":"a value","anyOf":[{"$ref":"#/$defs/n"},{"type":"null"}]})"));
}

TEST(translate_strict, arguments_round_trip_through_the_strict_form) {
  json schema = weather_schema();
  json args = {{"location", "Paris"}, {"when", {{"day", 3}}}};
  json strict_args = to_strict_arguments(schema, args);
  EXPECT_EQ(strict_args, json::parse(R"({"location":"Paris","when":{"day":3},"unit":null})"));
  auto strict = make_strict_schema(schema);
  ASSERT_TRUE(strict);
  auto v = validator::compile(*strict);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_TRUE(v->validate(strict_args).empty()) << format_errors(v->validate(strict_args));
  EXPECT_EQ(from_strict_arguments(schema, strict_args), args);
}

TEST(translate_strict, null_kept_where_the_original_accepts_it) {
  json schema = {{"type", "object"},
                 {"properties", {{"x", {{"type", json({"string", "null"})}}}}}};
  json args = {{"x", nullptr}};
  EXPECT_EQ(from_strict_arguments(schema, args), args);
}

TEST(translate_strict, malformed_schemas_are_errors_not_exceptions) {
  for (const char* text :
       {R"({"type":"object","properties":[1]})", R"({"type":"object","required":[1],
         "properties":{"a":{"type":"string","enum":3}}})",
        R"({"type":"object","properties":{"a":{"$ref":"#/%zz/x"}}})",
        R"({"type":"object","properties":{"a":{"$ref":"#/properties/99999999999999"}}})",
        R"({"type":"object","properties":{"a":{"anyOf":{"x":1}}}})"}) {
    json schema = json::parse(text);
    EXPECT_NO_THROW({
      auto s = make_strict_schema(schema);
      auto g = make_gemini_schema(schema);
      (void)s;
      (void)g;
    }) << text;
  }
}

}  // namespace
}  // namespace tooluse::schema
