// Rendering edge cases: TypeScript types for every schema shape, tool blocks of the families the
// API tests do not spell out, calls whose arguments did not parse (rendered as {}), Python
// literals with control characters and nesting, and the exact text of each family's calls.
#include <gtest/gtest.h>

#include "textcall_test_util.hpp"

namespace tooluse::textcall::render_edges_test {
namespace {

tool_call call(std::string name, json args) {
  tool_call c;
  c.name = std::move(name);
  c.raw_arguments = dump_json(args);
  c.arguments = std::move(args);
  return c;
}

tool_call broken(std::string name) {
  tool_call c;
  c.name = std::move(name);
  c.raw_arguments = "{oops";
  c.arguments = nullptr;
  return c;
}

TEST(render_edges, typescript_types_for_every_schema_shape) {
  std::vector<tool> tools = {{.name = "shapes",
                              .input_schema = json::parse(R"({"type":"object","properties":{
        "n":{"type":"null"}, "o":{"type":"object"}, "b":{"type":"boolean"},
        "any":{}, "list":{"type":"array"}, "grid":{"type":"array","items":{"type":"array","items":{"type":"string"}}},
        "num":{"type":["number","null"]}, "ints":{"enum":[1,2]}, "empty":{"enum":[]},
        "guess":{"properties":{"x":{}}}},"required":["b","grid"]})")},
                             {.name = "bare", .input_schema = json::object()}};
  std::string ns = render_tools(format::harmony, tools);
  EXPECT_EQ(ns,
            "# Tools\n\n## functions\n\nnamespace functions {\n\n"
            "type shapes = (_: {\n"
            "n?: null,\no?: object,\nb: boolean,\nany?: any,\nlist?: any[],\ngrid: string[][],\n"
            "num?: number,\nints?: 1 | 2,\nempty?: any,\nguess?: object,\n"
            "}) => any;\n\n"
            "type bare = (_: {\n}) => any;\n\n"
            "} // namespace functions");
}

TEST(render_edges, qwen3_coder_leaves_out_unknown_types_and_absent_required) {
  std::string block = render_tools(
      format::qwen3_coder,
      {{.name = "f", .description = "does f",
        .input_schema = json::parse(R"({"type":"object","properties":{"x":{"description":"free"}}})")}});
  EXPECT_NE(block.find("<parameter>\n<name>x</name>\n<description>free</description>\n</parameter>\n"
                       "</parameters>\n</function>\n</tools>"),
            std::string::npos)
      << block;
  EXPECT_EQ(block.find("<required>"), std::string::npos);
  EXPECT_EQ(block.find("<type>"), std::string::npos);
}

TEST(render_edges, the_remaining_families_announce_their_own_syntax) {
  std::vector<tool> tools = {{.name = "get_time", .description = "Time in a zone",
                              .input_schema = json::parse(R"({"type":"object","properties":{"tz":{"type":"string"}}})")}};
  const std::string fn = R"({"name":"get_time","description":"Time in a zone","parameters":{"type":"object","properties":{"tz":{"type":"string"}}}})";
  std::string v31 = render_tools(format::functionary_v31, tools);
  EXPECT_EQ(v31.rfind("You have access to the following functions:\n\nUse the function 'get_time' to "
                      "'Time in a zone'\n" + fn + "\n\n", 0), 0u)
      << v31;
  EXPECT_NE(v31.find("<function=example_function_name>"), std::string::npos);
  std::string ds = render_tools(format::deepseek, tools);
  EXPECT_EQ(ds.rfind("## Tools\n\n### Function\n\nYou have the following functions available:\n\n- `get_time`:\n```json\n{", 0), 0u) << ds;
  EXPECT_NE(ds.find("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>FUNCTION_NAME"), std::string::npos);
  std::string cr = render_tools(format::command_r7b, tools);
  EXPECT_EQ(cr.rfind("## Available Tools\n", 0), 0u);
  EXPECT_NE(cr.find("\"name\": \"get_time\""), std::string::npos) << cr;
  EXPECT_NE(cr.find("<|START_ACTION|>[{\"tool_call_id\": \"0\""), std::string::npos);
  std::string granite = render_tools(format::granite, tools);
  EXPECT_NE(granite.find("Write each call as <function_call> {\"name\": ..., \"arguments\": {...}}\n"), std::string::npos);
  std::string py = render_tools(format::pythonic, tools);
  EXPECT_NE(py.find("[func_name1(params_name1=params_value1"), std::string::npos);
  EXPECT_NE(py.find("\"name\": \"get_time\""), std::string::npos) << py;
  std::string fenced = render_tools(format::fenced_json, tools);
  EXPECT_EQ(fenced.rfind("You can call these functions:\n[\n", 0), 0u) << fenced;
}

TEST(render_edges, calls_whose_arguments_did_not_parse_are_written_with_empty_arguments) {
  const std::vector<tool_call> calls = {broken("f")};
  EXPECT_EQ(render_calls(format::hermes, calls), "<tool_call>\n{\"name\":\"f\",\"arguments\":{}}\n</tool_call>");
  EXPECT_EQ(render_calls(format::pythonic, calls), "[f()]");
  EXPECT_EQ(render_calls(format::json, calls), R"({"name":"f","arguments":{}})");
  EXPECT_EQ(render_calls(format::mistral, calls), R"([TOOL_CALLS][{"name":"f","arguments":{}}])");
  EXPECT_EQ(render_calls(format::llama3, calls), R"(<|python_tag|>{"name":"f","parameters":{}})");
  EXPECT_EQ(render_calls(format::functionary_v31, calls), "<function=f>{}</function>");
  EXPECT_EQ(render_calls(format::functionary_v32, calls), ">>>f\n{}");
  EXPECT_EQ(render_calls(format::qwen3_coder, calls), "<tool_call>\n<function=f>\n</function>\n</tool_call>");
  EXPECT_EQ(render_calls(format::harmony, calls),
            "<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{}<|call|>");
  EXPECT_NE(render_calls(format::command_r7b, calls).find("\"parameters\": {}"), std::string::npos);
  // and each reads back as a call without arguments
  for (format f : all_formats()) {
    auto back = parse(f, render_calls(f, calls));
    ASSERT_EQ(back.calls.size(), 1u) << to_string(f);
    EXPECT_EQ(back.calls[0].name, "f") << to_string(f);
    EXPECT_EQ(back.calls[0].arguments, json::object()) << to_string(f);
  }
}

TEST(render_edges, python_literals_escape_control_characters_and_nest) {
  auto c = call("f", json::parse(R"({"s":"a\"b\\c\n\r\t\u0001é","n":null,"t":true,"x":false,
                                    "l":[1,2.5,[]],"d":{"k":{"q":"v"}}})"));
  std::string text = render_calls(format::pythonic, {c});
  EXPECT_EQ(text,
            "[f(s=\"a\\\"b\\\\c\\n\\r\\t\\x01é\", n=None, t=True, x=False, "
            "l=[1, 2.5, []], d={\"k\": {\"q\": \"v\"}})]");
  auto back = parse(format::pythonic, text);
  ASSERT_EQ(back.calls.size(), 1u);
  EXPECT_EQ(back.calls[0].arguments, c.arguments);
}

TEST(render_edges, several_calls_are_joined_the_way_each_family_separates_them) {
  const std::vector<tool_call> calls = {call("a", {{"x", 1}}), call("b", json::object())};
  EXPECT_EQ(render_calls(format::llama3, calls),
            R"(<|python_tag|>{"name":"a","parameters":{"x":1}}<|eom_id|><|python_tag|>{"name":"b","parameters":{}})");
  EXPECT_EQ(render_calls(format::granite, calls),
            "<function_call> {\"name\":\"a\",\"arguments\":{\"x\":1}}\n<function_call> {\"name\":\"b\",\"arguments\":{}}");
  EXPECT_EQ(render_calls(format::functionary_v32, calls), ">>>a\n{\"x\":1}>>>b\n{}");
  EXPECT_EQ(render_calls(format::json, calls),
            R"([{"name":"a","arguments":{"x":1}},{"name":"b","arguments":{}}])");
  EXPECT_EQ(render_calls(format::fenced_json, calls),
            "```json\n[{\"name\":\"a\",\"arguments\":{\"x\":1}},{\"name\":\"b\",\"arguments\":{}}]\n```");
  std::string cr = render_calls(format::command_r7b, calls);
  EXPECT_NE(cr.find("\"tool_call_id\": \"1\""), std::string::npos) << cr;
  std::string ds = render_calls(format::deepseek, calls);
  EXPECT_EQ(ds.rfind("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>a\n```json\n{\"x\":1}\n```<｜tool▁call▁end｜>", 0), 0u);
  EXPECT_TRUE(ds.ends_with("<｜tool▁call▁end｜><｜tool▁calls▁end｜>"));
  std::string q = render_calls(format::qwen3_coder, {call("a", {{"s", "text"}, {"n", 2}})});
  EXPECT_EQ(q, "<tool_call>\n<function=a>\n<parameter=s>\ntext\n</parameter>\n<parameter=n>\n2\n</parameter>\n"
               "</function>\n</tool_call>");
  EXPECT_EQ(render_calls(format::auto_detect, calls), render_calls(format::hermes, calls));
  EXPECT_EQ(render_calls(format::hermes, {}), "");
}

TEST(render_edges, results_of_families_without_their_own_turn_name_the_tool) {
  for (format f : {format::json, format::fenced_json, format::granite, format::functionary_v31,
                   format::functionary_v32}) {
    EXPECT_EQ(render_result(f, "calc", "4"), "Result of calc:\n4") << to_string(f);
  }
  EXPECT_EQ(render_result(format::qwen3_coder, "calc", "4"), "<tool_response>\n4\n</tool_response>");
  EXPECT_EQ(render_result(format::auto_detect, "calc", "4"), "<tool_response>\n4\n</tool_response>");
}

TEST(render_edges, to_string_of_a_value_outside_the_enum_is_unknown) {
  EXPECT_EQ(to_string(static_cast<format>(999)), "unknown");
}

TEST(render_edges, tools_from_json_edge_shapes) {
  auto not_object = tools_from_json(json::parse(R"([{"name":"a"}, 5])"));
  ASSERT_FALSE(not_object);
  EXPECT_EQ(not_object.error().message,
            "tool definition #1 has no \"name\" string; give each tool a name");
  auto fn_not_object = tools_from_json(json::parse(R"([{"name":"a","function":"x"}])"));
  ASSERT_TRUE(fn_not_object) << fn_not_object.error().message;
  EXPECT_EQ((*fn_not_object)[0].name, "a");
  auto single_openai = tools_from_json(json::parse(R"({"function":{"name":"g","parameters":{"type":"object"}}})"));
  ASSERT_TRUE(single_openai);
  ASSERT_EQ(single_openai->size(), 1u);
  EXPECT_EQ((*single_openai)[0].name, "g");
  EXPECT_EQ((*single_openai)[0].input_schema, json::parse(R"({"type":"object"})"));
  auto nameless = tools_from_json(json::parse(R"({"name":3})"));
  ASSERT_FALSE(nameless);
  EXPECT_EQ(nameless.error().message, "tool definition #0 has no \"name\" string; give each tool a name");
  auto schemas = schemas_of(*single_openai);
  ASSERT_EQ(schemas.count("g"), 1u);
  EXPECT_EQ(schemas["g"], json::parse(R"({"type":"object"})"));
}

}  // namespace
}  // namespace tooluse::textcall
