// export_tool / export_tools details: a root without "type" gets one, a type union with
// "object" passes, empty descriptions and annotations are left out, Responses always says
// whether it is strict, provider names given by the caller are checked, and empty lists keep
// their shape.
#include <gtest/gtest.h>

#include "tooluse/schema/translate.hpp"

namespace tooluse::schema {
namespace {

tool_spec spec(std::string name, json schema = json::parse(R"({"properties": {"q": {"type": "string"}}})")) {
  return {.name = std::move(name), .input_schema = std::move(schema)};
}

TEST(export_edges, a_root_without_type_gets_object_and_empty_fields_are_left_out) {
  auto openai = export_tool(spec("s"), export_target::openai);
  ASSERT_TRUE(openai) << openai.error().message;
  EXPECT_EQ(*openai, json::parse(R"({"type": "function", "function": {"name": "s",
      "parameters": {"properties": {"q": {"type": "string"}}, "type": "object"}}})"));
  auto anthropic = export_tool(spec("s"), export_target::anthropic);
  ASSERT_TRUE(anthropic);
  EXPECT_FALSE(anthropic->contains("description"));
  EXPECT_EQ((*anthropic)["input_schema"]["type"], "object");
  auto mcp = export_tool(spec("s"), export_target::mcp);
  ASSERT_TRUE(mcp);
  EXPECT_EQ(*mcp, json::parse(R"({"name": "s", "inputSchema": {"properties": {"q": {"type": "string"}},
                                                                "type": "object"}})"));
}

TEST(export_edges, a_type_union_with_object_is_an_object_root_and_others_are_not) {
  auto nullable = export_tool(spec("s", json::parse(R"({"type": ["object", "null"]})")), export_target::mcp);
  ASSERT_TRUE(nullable) << nullable.error().message;
  auto array = export_tool(spec("s", json::parse(R"({"type": "array"})")), export_target::mcp);
  ASSERT_FALSE(array);
  EXPECT_EQ(array.error().code, errc::invalid_argument);
  EXPECT_EQ(array.error().message,
            "tool \"s\": the input schema must be an object schema (\"type\": \"object\")");
  EXPECT_FALSE(export_tool(spec("s", json(true)), export_target::openai));
}

TEST(export_edges, mcp_keeps_title_output_schema_and_annotations) {
  tool_spec t = spec("weather");
  t.title = "Weather";
  t.description = "Forecasts";
  t.output_schema = json::parse(R"({"type": "object"})");
  t.annotations = json::parse(R"({"readOnlyHint": true})");
  auto out = export_tool(t, export_target::mcp);
  ASSERT_TRUE(out);
  EXPECT_EQ((*out)["title"], "Weather");
  EXPECT_EQ((*out)["description"], "Forecasts");
  EXPECT_EQ((*out)["outputSchema"], json::parse(R"({"type": "object"})"));
  EXPECT_EQ((*out)["annotations"], json::parse(R"({"readOnlyHint": true})"));
  t.annotations = json::object();
  EXPECT_FALSE(export_tool(t, export_target::mcp)->contains("annotations"));
}

TEST(export_edges, responses_always_says_whether_it_is_strict) {
  auto loose = export_tool(spec("s"), export_target::responses);
  ASSERT_TRUE(loose);
  EXPECT_EQ((*loose)["strict"], false);
  EXPECT_EQ((*loose)["type"], "function");
  EXPECT_EQ((*loose)["name"], "s");
  EXPECT_FALSE((*loose)["parameters"].contains("additionalProperties"));
  tool_spec strict = spec("s");
  strict.strict = true;
  auto tight = export_tool(strict, export_target::responses);
  ASSERT_TRUE(tight) << tight.error().message;
  EXPECT_EQ((*tight)["strict"], true);
  EXPECT_EQ((*tight)["parameters"]["additionalProperties"], false);
  auto refused = export_tool(spec("s", json::parse(R"({"type": "object", "properties": {
      "m": {"type": "object", "additionalProperties": {"type": "string"}}}})")), export_target::openai_strict);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message.rfind("tool \"s\": arguments.m: ", 0), 0u) << refused.error().message;
}

TEST(export_edges, a_provider_name_from_the_caller_must_satisfy_the_target) {
  auto mapped = export_tool(spec("math.add"), export_target::openai, "math_add");
  ASSERT_TRUE(mapped) << mapped.error().message;
  EXPECT_EQ((*mapped)["function"]["name"], "math_add");
  auto wrong = export_tool(spec("x"), export_target::anthropic, "bad name");
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().message,
            "tool name \"bad name\" is not accepted by anthropic; map it with "
            "tooluse::schema::name_map (export_tools does this)");
  EXPECT_TRUE(export_tool(spec("math.add"), export_target::gemini));
  EXPECT_TRUE(export_tool(spec(std::string(128, 'm')), export_target::mcp));
  EXPECT_FALSE(export_tool(spec(std::string(65, 'g')), export_target::gemini));
}

TEST(export_edges, empty_lists_keep_their_shape) {
  auto none = export_tools({}, export_target::openai);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->tools, json::array());
  EXPECT_EQ(none->names.size(), 0u);
  auto gemini = export_tools({}, export_target::gemini);
  ASSERT_TRUE(gemini);
  EXPECT_EQ(gemini->tools, json::parse(R"([{"functionDeclarations": []}])"));
}

TEST(export_edges, export_tools_renames_only_what_the_target_refuses) {
  auto out = export_tools({spec("math.add"), spec("search")}, export_target::anthropic);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->tools[0]["name"], "math_add");
  EXPECT_EQ(out->tools[1]["name"], "search");
  EXPECT_EQ(out->names.original_name("math_add"), "math.add");
  auto mcp = export_tools({spec("math.add")}, export_target::mcp);
  ASSERT_TRUE(mcp);
  EXPECT_EQ(mcp->tools[0]["name"], "math.add");
  EXPECT_FALSE(mcp->names.renamed());
}

}  // namespace
}  // namespace tooluse::schema
