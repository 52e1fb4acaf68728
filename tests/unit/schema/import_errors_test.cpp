// Importing foreign tool definitions: the fields each form may get wrong are named in the
// error, forms are told apart by their fields, and name maps for rules without '_' still give
// names the rule accepts.
#include <gtest/gtest.h>

#include <string>

#include "tooluse/schema/import.hpp"
#include "tooluse/schema/name_map.hpp"

namespace tooluse::schema {
namespace {

std::string import_error(const json& d) {
  auto t = import_tool(d);
  if (t) return "(imported)";
  EXPECT_EQ(t.error().code, errc::invalid_argument);
  return t.error().message;
}

TEST(import_errors, each_wrong_field_is_named) {
  EXPECT_EQ(import_error(json::parse(R"({"inputSchema": {"type": "object"}})")),
            "tool definition: missing \"name\"");
  EXPECT_EQ(import_error(json::parse(R"({"name": 3, "inputSchema": {"type": "object"}})")),
            "tool definition: \"name\" must be a string");
  EXPECT_EQ(import_error(json::parse(R"({"name": "a", "description": [], "inputSchema": {}})")),
            "tool definition: \"description\" must be a string");
  EXPECT_EQ(import_error(json::parse(R"({"name": "a", "inputSchema": "object"})")),
            "tool \"a\": \"inputSchema\" must be an object schema");
  EXPECT_EQ(import_error(json::parse(R"({"name": "a", "title": 1, "inputSchema": {}})")),
            "tool definition: \"title\" must be a string");
  EXPECT_EQ(import_error(json::parse(R"({"name": "a", "input_schema": true})")),
            "tool \"a\": \"input_schema\" must be an object schema");
  EXPECT_EQ(import_error(json::parse(R"({"type": "function", "function": {"parameters": {}}})")),
            "tool definition: missing \"name\"");
}

TEST(import_errors, a_non_object_is_refused_with_its_type) {
  auto t = detect_tool_format(json::array());
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message, "a tool definition must be a JSON object, got array");
  auto direct = import_tool(json("x"), tool_format::mcp);
  ASSERT_FALSE(direct);
  EXPECT_EQ(direct.error().message, "a tool definition must be a JSON object");
  auto chat = import_tool(json::parse(R"({"function": "f"})"), tool_format::openai_chat);
  ASSERT_FALSE(chat);
  EXPECT_EQ(chat.error().message, "openai tool: missing \"function\" object");
  auto unknown = detect_tool_format(json::parse(R"({"name": "a", "x": 1, "y": 2, "z": 3})"));
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("not a tool definition"), std::string::npos);
}

TEST(import_errors, a_tool_with_only_a_name_and_description_is_an_mcp_tool_without_input) {
  auto t = import_tool(json::parse(R"({"name": "ping", "description": "Checks the server"})"));
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->name, "ping");
  EXPECT_EQ(t->description, "Checks the server");
  EXPECT_EQ(t->input_schema, json::parse(R"({"type": "object", "properties": {}})"));
  EXPECT_FALSE(t->output_schema.has_value());
}

TEST(import_errors, an_mcp_title_may_come_from_the_annotations) {
  auto t = import_tool(json::parse(R"({"name": "a", "inputSchema": {"type": "object"},
                                       "annotations": {"title": "Nice A", "readOnlyHint": true}})"));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->title, "Nice A");
  auto own = import_tool(json::parse(R"({"name": "a", "title": "Own", "inputSchema": {},
                                         "annotations": {"title": "Other"}})"));
  ASSERT_TRUE(own);
  EXPECT_EQ(own->title, "Own");
  auto not_object = import_tool(json::parse(R"({"name": "a", "inputSchema": {},
                                                "annotations": [1]})"));
  ASSERT_TRUE(not_object);
  EXPECT_EQ(not_object->annotations, json::object());  // ignored, not an error
}

TEST(import_errors, gemini_parameters_json_schema_is_taken_as_it_is) {
  json d = json::parse(R"({"name": "g", "parametersJsonSchema":
      {"type": "object", "properties": {"n": {"type": "integer"}}, "nullable": true}})");
  EXPECT_EQ(detect_tool_format(d), tool_format::openai_function);
  auto t = import_tool(d);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->input_schema, d["parametersJsonSchema"]);  // no OpenAPI normalisation
}

TEST(import_errors, openapi_spelling_is_normalised_in_items_and_any_of) {
  auto t = import_tool(json::parse(R"({"name": "g", "parameters": {"type": "OBJECT", "properties": {
      "list": {"type": "ARRAY", "items": {"type": "STRING", "nullable": true}},
      "either": {"anyOf": [{"type": "NUMBER"}, {"type": "BOOLEAN"}]},
      "plain": {"type": "STRING", "nullable": false, "description": "Kept AS IS"}}}})"));
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->input_schema, json::parse(R"({"type": "object", "properties": {
      "list": {"type": "array", "items": {"type": ["string", "null"]}},
      "either": {"anyOf": [{"type": "number"}, {"type": "boolean"}]},
      "plain": {"type": "string", "description": "Kept AS IS"}}})"));
}

TEST(import_errors, bfcl_is_detected_in_nested_properties_and_items) {
  EXPECT_EQ(detect_tool_format(json::parse(R"({"name": "a", "parameters": {"type": "object",
      "properties": {"x": {"type": "float"}}}})")), tool_format::bfcl);
  EXPECT_EQ(detect_tool_format(json::parse(R"({"name": "a", "parameters": {"type": "object",
      "properties": {"x": {"type": "array", "items": {"type": "String"}}}}})")), tool_format::bfcl);
  EXPECT_EQ(detect_tool_format(json::parse(R"({"name": "a", "parameters": {"type": "OBJECT",
      "properties": {"x": {"type": "INTEGER"}}}})")), tool_format::openai_function);
  auto bad = import_tool(json::parse(R"({"name": "f", "parameters": {"type": "dict",
      "properties": {"x": {"type": "quaternion"}}}})"));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("tool \"f\": ", 0), 0u) << bad.error().message;
  auto no_params = import_tool(json::parse(R"({"name": "f"})"), tool_format::bfcl);
  ASSERT_TRUE(no_params) << no_params.error().message;
  EXPECT_EQ(no_params->input_schema["type"], "object");
}

TEST(import_errors, lists_of_mixed_forms_and_their_wrappers) {
  json mixed = json::parse(R"([
      {"name": "m", "inputSchema": {"type": "object"}},
      {"type": "function", "function": {"name": "c", "parameters": {"type": "object"}}},
      {"type": "function", "name": "r", "parameters": {"type": "object"}, "strict": true},
      {"name": "a", "input_schema": {"type": "object"}},
      {"name": "b", "parameters": {"type": "dict", "properties": {}}}])");
  auto all = import_tools(mixed);
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 5u);
  EXPECT_EQ((*all)[2].name, "r");
  EXPECT_TRUE((*all)[2].strict);
  auto snake = import_tools(json::parse(R"({"function_declarations": [{"name": "x", "parameters": {}}]})"));
  ASSERT_TRUE(snake) << snake.error().message;
  EXPECT_EQ(snake->at(0).name, "x");
  auto bfcl_entry = import_tools(json::parse(
      R"({"id": "simple_1", "function": [{"name": "f", "parameters": {"type": "dict", "properties": {}}}]})"));
  ASSERT_TRUE(bfcl_entry) << bfcl_entry.error().message;
  EXPECT_EQ(bfcl_entry->at(0).name, "f");
  auto one = import_tools(json::parse(R"({"name": "solo", "input_schema": {}})"));
  ASSERT_TRUE(one);
  EXPECT_EQ(one->size(), 1u);
  auto bad_one = import_tools(json("x"));
  ASSERT_FALSE(bad_one);
  EXPECT_EQ(bad_one.error().message, "a tool definition must be a JSON object, got string");
  auto bad_group = import_tools(json::parse(R"([{"functionDeclarations": [{"name": 1, "parameters": {}}]}])"));
  ASSERT_FALSE(bad_group);
  EXPECT_NE(bad_group.error().message.find("\"name\" must be a string"), std::string::npos);
}

TEST(import_errors, format_names_are_snake_case) {
  EXPECT_EQ(to_string(tool_format::mcp), "mcp");
  EXPECT_EQ(to_string(tool_format::openai_chat), "openai_chat");
  EXPECT_EQ(to_string(tool_format::openai_responses), "openai_responses");
  EXPECT_EQ(to_string(tool_format::openai_function), "openai_function");
  EXPECT_EQ(to_string(tool_format::anthropic), "anthropic");
  EXPECT_EQ(to_string(tool_format::bfcl), "bfcl");
}

TEST(name_map_rules, a_rule_without_underscore_uses_its_first_extra_character) {
  name_rule dashes{"-", 64};
  auto names = name_map::build({"math.add", "a b"}, dashes);
  EXPECT_EQ(names.provider_name("math.add"), "math-add");
  EXPECT_EQ(names.provider_name("a b"), "a-b");
  EXPECT_EQ(names.original_name("math-add"), "math.add");
}

TEST(name_map_rules, a_rule_of_letters_and_digits_only_replaces_with_x) {
  name_rule plain{"", 12};
  name_map names(plain);
  EXPECT_EQ(names.add("a.b"), "axb");
  std::string long_one = names.add("a_very_long_tool_name");
  EXPECT_EQ(long_one.size(), 12u);
  EXPECT_TRUE(matches_name_rule(long_one, plain)) << long_one;
  EXPECT_EQ(names.original_name(long_one), "a_very_long_tool_name");
  EXPECT_EQ(names.size(), 2u);
  EXPECT_EQ(names.rule().max_length, 12u);
}

TEST(name_map_rules, a_valid_name_added_after_its_sanitized_twin_gets_a_hash) {
  name_map names(openai_name_rule);
  EXPECT_EQ(names.add("a.b"), "a_b");
  std::string twin = names.add("a_b");  // taken by "a.b": this order is why build() exists
  EXPECT_NE(twin, "a_b");
  EXPECT_EQ(twin.rfind("a_b_", 0), 0u);
  EXPECT_EQ(twin.size(), 12u);
  EXPECT_EQ(names.original_name(twin), "a_b");
  EXPECT_TRUE(names.renamed());
  name_map empty;
  EXPECT_FALSE(empty.renamed());
  EXPECT_EQ(empty.size(), 0u);
}

TEST(name_map_rules, names_of_only_forbidden_characters_and_empty_names_do_not_collide) {
  auto names = name_map::build({"", "tool", "...", "..."}, openai_name_rule);
  EXPECT_EQ(names.size(), 3u);
  EXPECT_EQ(names.provider_name("tool"), "tool");
  EXPECT_EQ(names.provider_name("..."), "___");
  std::string empty = *names.provider_name("");
  EXPECT_NE(empty, "tool");
  EXPECT_TRUE(matches_name_rule(empty, openai_name_rule));
  EXPECT_EQ(names.original_name(empty), "");
}

}  // namespace
}  // namespace tooluse::schema
