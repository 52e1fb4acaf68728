#include <gtest/gtest.h>

#include "tooluse/schema/import.hpp"

namespace tooluse::schema {
namespace {

const json params = json::parse(R"({"type":"object","properties":{"q":{"type":"string"}}})");

TEST(translate_import, detects_every_form) {
  EXPECT_EQ(detect_tool_format({{"name", "a"}, {"inputSchema", params}}), tool_format::mcp);
  EXPECT_EQ(detect_tool_format({{"type", "function"},
                                {"function", {{"name", "a"}, {"parameters", params}}}}),
            tool_format::openai_chat);
  EXPECT_EQ(detect_tool_format({{"type", "function"}, {"name", "a"}, {"parameters", params}}),
            tool_format::openai_responses);
  EXPECT_EQ(detect_tool_format({{"name", "a"}, {"input_schema", params}}),
            tool_format::anthropic);
  EXPECT_EQ(detect_tool_format({{"name", "a"}, {"parameters", params}}),
            tool_format::openai_function);
  EXPECT_EQ(detect_tool_format({{"name", "a"}, {"parameters", {{"type", "dict"}}}}),
            tool_format::bfcl);
  auto bad = detect_tool_format({{"hello", 1}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, errc::invalid_argument);
}

TEST(translate_import, imports_fields_of_each_form) {
  auto mcp = import_tool(json::parse(R"({"name":"w","title":"Weather","description":"d",
    "inputSchema":{"type":"object"},"outputSchema":{"type":"object"},
    "annotations":{"readOnlyHint":true}})"));
  ASSERT_TRUE(mcp);
  EXPECT_EQ(mcp->title, "Weather");
  EXPECT_TRUE(mcp->output_schema);
  EXPECT_EQ(mcp->annotations["readOnlyHint"], true);

  auto chat = import_tool(json::parse(R"({"type":"function","function":{"name":"f",
    "description":"d","parameters":{"type":"object"},"strict":true}})"));
  ASSERT_TRUE(chat);
  EXPECT_EQ(chat->name, "f");
  EXPECT_TRUE(chat->strict);

  auto anthropic = import_tool({{"name", "a"}, {"description", "x"}, {"input_schema", params}});
  ASSERT_TRUE(anthropic);
  EXPECT_EQ(anthropic->input_schema, params);
}

TEST(translate_import, gemini_openapi_spelling_is_normalized) {
  auto g = import_tool(json::parse(R"({"name":"g","parameters":{"type":"OBJECT",
    "properties":{"n":{"type":"INTEGER","nullable":true}}}})"));
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ(g->input_schema,
            json::parse(R"({"type":"object","properties":{"n":{"type":["integer","null"]}}})"));
}

TEST(translate_import, bfcl_types_become_json_schema) {
  auto s = bfcl_to_json_schema(json::parse(R"({"type":"dict","properties":{
    "x":{"type":"float","description":"x"},
    "pt":{"type":"tuple","items":{"type":"float"}},
    "any":{"type":"any"},
    "m":{"type":"HashMap"},
    "c":{"type":"char"},
    "ids":{"type":"ArrayList","items":{"type":"long"}},
    "opt":{"type":"string","default":null,"enum":["a","b"]},
    "flag":{"type":"boolean","enum":["True","False","dontcare"]},
    "tags":{"type":"array","items":{"type":"string"},"enum":["s","m"]},
    "nested":{"type":"dict","properties":{"a":{"type":"integer"}},"required":["a"]}},
    "required":["x","x"],"optional":["any"]})"));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(*s, json::parse(R"({"type":"object","properties":{
    "x":{"type":"number","description":"x"},
    "pt":{"type":"array","items":{"type":"number"}},
    "any":{},
    "m":{"type":"object"},
    "c":{"type":"string","minLength":1,"maxLength":1},
    "ids":{"type":"array","items":{"type":"integer"}},
    "opt":{"type":["string","null"],"enum":["a","b",null],"default":null},
    "flag":{"type":"string","enum":["True","False","dontcare"]},
    "tags":{"type":"array","items":{"type":"string","enum":["s","m"]}},
    "nested":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],
              "additionalProperties":false}},
    "required":["x"],"additionalProperties":false})"));
}

TEST(translate_import, unknown_bfcl_type_is_named) {
  auto s = bfcl_to_json_schema(json::parse(R"({"type":"dict","properties":{
    "x":{"type":"complex"}}})"));
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("parameters.x: unknown BFCL type \"complex\""),
            std::string::npos);
}

TEST(translate_import, lists_and_wrappers_are_accepted) {
  json gemini = json::parse(R"([{"functionDeclarations":[{"name":"a","parameters":{"type":"object"}},
    {"name":"b","parameters":{"type":"object"}}]}])");
  auto g = import_tools(gemini);
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ(g->size(), 2u);
  json mcp_list = {{"tools", json::array({{{"name", "a"}, {"inputSchema", params}}})}};
  auto m = import_tools(mcp_list);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at(0).name, "a");
  auto bad = import_tools(json::array({{{"name", "a"}, {"inputSchema", params}}, 3}));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("tool 1: ", 0), 0u);
}

}  // namespace
}  // namespace tooluse::schema
