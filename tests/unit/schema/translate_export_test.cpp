#include <gtest/gtest.h>

#include "tooluse/schema/translate.hpp"

namespace tooluse::schema {
namespace {

tool_spec factorial() {
  return {.name = "math.factorial",
          .title = "Factorial",
          .description = "Calculate n!",
          .input_schema = json::parse(R"({"$schema":"https://json-schema.org/draft/2020-12/schema",
            "type":"object","properties":{"number":{"type":"integer","minimum":0}},
            "required":["number"],"additionalProperties":false})"),
          .annotations = {{"readOnlyHint", true}}};
}

TEST(translate_export, every_target_has_its_shape) {
  auto all = export_tools({factorial()}, export_target::openai);
  ASSERT_TRUE(all) << all.error().message;
  const json& chat = all->tools[0];
  EXPECT_EQ(chat["type"], "function");
  EXPECT_EQ(chat["function"]["name"], "math_factorial");
  EXPECT_EQ(chat["function"]["parameters"]["required"], json({"number"}));
  EXPECT_FALSE(chat["function"].contains("strict"));
  EXPECT_EQ(all->names.original_name("math_factorial"), "math.factorial");

  auto strict = export_tool(factorial(), export_target::openai_strict, "math_factorial");
  ASSERT_TRUE(strict) << strict.error().message;
  EXPECT_EQ((*strict)["function"]["strict"], true);
  EXPECT_FALSE((*strict)["function"]["parameters"].contains("$schema"));

  auto responses = export_tool(factorial(), export_target::responses, "math_factorial");
  ASSERT_TRUE(responses);
  EXPECT_EQ(*responses, json::parse(R"({"type":"function","name":"math_factorial",
    "description":"Calculate n!","parameters":)" + dump_json(factorial().input_schema) +
                                    R"(,"strict":false})"));

  auto anthropic = export_tool(factorial(), export_target::anthropic, "math_factorial");
  ASSERT_TRUE(anthropic);
  EXPECT_EQ((*anthropic)["input_schema"], factorial().input_schema);

  auto mcp = export_tool(factorial(), export_target::mcp);
  ASSERT_TRUE(mcp);
  EXPECT_EQ((*mcp)["name"], "math.factorial");
  EXPECT_EQ((*mcp)["title"], "Factorial");
  EXPECT_EQ((*mcp)["annotations"]["readOnlyHint"], true);
  EXPECT_EQ((*mcp)["inputSchema"], factorial().input_schema);
}

TEST(translate_export, responses_strict_flag_applies_the_strict_schema) {
  tool_spec t = factorial();
  t.strict = true;
  auto r = export_tool(t, export_target::responses, "f");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)["strict"], true);
  EXPECT_EQ((*r)["parameters"]["additionalProperties"], false);
  EXPECT_FALSE((*r)["parameters"].contains("$schema"));
}

TEST(translate_export, forbidden_name_without_mapping_is_an_error) {
  auto r = export_tool(factorial(), export_target::openai);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::invalid_argument);
  EXPECT_NE(r.error().message.find("name_map"), std::string::npos);
}

TEST(translate_export, non_object_root_is_an_error) {
  tool_spec t{.name = "x", .input_schema = {{"type", "string"}}};
  for (auto target : {export_target::openai, export_target::anthropic, export_target::gemini,
                      export_target::mcp}) {
    auto r = export_tool(t, target);
    ASSERT_FALSE(r) << to_string(target);
    EXPECT_NE(r.error().message.find("object schema"), std::string::npos);
  }
}

TEST(translate_export, gemini_gets_declarations_in_one_group) {
  auto all = export_tools({factorial(), {.name = "noop", .description = "Nothing"}},
                          export_target::gemini);
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->tools.size(), 1u);
  const json& decls = all->tools[0]["functionDeclarations"];
  ASSERT_EQ(decls.size(), 2u);
  EXPECT_EQ(decls[0]["name"], "math.factorial");
  EXPECT_EQ(decls[0]["parameters"],
            json::parse(R"({"type":"object","properties":{"number":{"type":"integer",
              "minimum":0}},"required":["number"]})"));
  EXPECT_FALSE(decls[1].contains("parameters"));
}

TEST(translate_export, gemini_schema_rewrites_what_gemini_rejects) {
  json schema = json::parse(R"({
    "type": "object", "additionalProperties": false,
    "$defs": {"unit": {"type": "string", "enum": ["c", "f"]}},
    "properties": {
      "unit": {"$ref": "#/$defs/unit"},
      "mode": {"const": "fast"},
      "label": {"type": ["string", "null"], "format": "email"},
      "level": {"type": "integer", "enum": [1, 2], "exclusiveMinimum": 0},
      "either": {"oneOf": [{"type": "string"}, {"type": "number"}]}
    },
    "required": ["unit", "ghost"]
  })");
  auto g = make_gemini_schema(schema);
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ(*g, json::parse(R"({
    "type": "object",
    "properties": {
      "unit": {"type": "string", "enum": ["c", "f"]},
      "mode": {"enum": ["fast"], "type": "string"},
      "label": {"nullable": true, "type": "string", "description": "Format: email."},
      "level": {"type": "integer", "description": "Allowed values: 1, 2."},
      "either": {"anyOf": [{"type": "string"}, {"type": "number"}]}
    },
    "required": ["unit"]
  })"));
}

TEST(translate_export, gemini_rejects_recursive_refs) {
  json schema = json::parse(R"({"type":"object","properties":{"node":{"$ref":"#/$defs/n"}},
    "$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}}})");
  auto g = make_gemini_schema(schema);
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().message,
            "arguments.node.next: recursive $ref \"#/$defs/n\" cannot be expressed for gemini");
}

TEST(translate_export, target_names_parse) {
  for (auto t : {export_target::openai, export_target::openai_strict, export_target::responses,
                 export_target::anthropic, export_target::gemini, export_target::mcp})
    EXPECT_EQ(parse_export_target(to_string(t)), t);
  auto bad = parse_export_target("claude");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("openai-strict"), std::string::npos);
}

}  // namespace
}  // namespace tooluse::schema
