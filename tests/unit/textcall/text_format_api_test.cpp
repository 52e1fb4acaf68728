// The textcall API around the parsers: format names and aliases, reading tool definitions in
// their usual shapes, parse options (ids, reasoning), diagnostics, the stream parser's
// contract (holding back, releasing a call when complete, finish, feeds after finish), and
// the rendered tool blocks and results of each family.
#include <gtest/gtest.h>

#include "textcall_test_util.hpp"

namespace tooluse::textcall {
namespace {

TEST(text_format_names, every_format_has_its_cli_name_and_reads_back) {
  const std::vector<std::pair<format, std::string>> names = {
      {format::hermes, "hermes"},
      {format::pythonic, "pythonic"},
      {format::json, "json"},
      {format::fenced_json, "fenced-json"},
      {format::mistral, "mistral"},
      {format::llama3, "llama3"},
      {format::granite, "granite"},
      {format::functionary_v31, "functionary-v3.1"},
      {format::functionary_v32, "functionary-v3.2"},
      {format::deepseek, "deepseek"},
      {format::qwen3_coder, "qwen3-coder"},
      {format::harmony, "harmony"},
      {format::command_r7b, "command-r7b"},
      {format::auto_detect, "auto"},
  };
  for (const auto& [f, name] : names) {
    EXPECT_EQ(to_string(f), name);
    EXPECT_EQ(parse_format(name).value(), f) << name;
  }
  auto all = all_formats();
  ASSERT_EQ(all.size(), names.size() - 1);  // auto_detect is not a concrete format
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], names[i].first);
}

TEST(text_format_names, aliases_underscores_and_case_are_accepted) {
  const std::vector<std::pair<std::string, format>> aliases = {
      {"qwen", format::hermes},           {"Qwen2.5", format::hermes},
      {"python", format::pythonic},       {"BFCL", format::pythonic},
      {"xlam", format::json},             {"fenced", format::fenced_json},
      {"fenced_json", format::fenced_json}, {"llama3.1", format::llama3},
      {"llama-3.1", format::llama3},      {"functionary", format::functionary_v32},
      {"FUNCTIONARY_V3.1", format::functionary_v31}, {"deepseek-r1", format::deepseek},
      {"deepseek_v3", format::deepseek},  {"qwen3", format::qwen3_coder},
      {"gpt-oss", format::harmony},       {"command-r", format::command_r7b},
      {"auto_detect", format::auto_detect},
  };
  for (const auto& [name, f] : aliases) {
    auto got = parse_format(name);
    ASSERT_TRUE(got) << name;
    EXPECT_EQ(*got, f) << name;
  }
}

TEST(text_format_names, an_unknown_name_lists_every_known_one) {
  for (std::string bad : {"", "hermes2", "llama 3"}) {
    auto r = parse_format(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, errc::invalid_argument);
    EXPECT_EQ(r.error().message,
              "unknown tool-call format \"" + bad +
                  "\"; use one of: hermes, pythonic, json, fenced-json, mistral, llama3, granite, "
                  "functionary-v3.1, functionary-v3.2, deepseek, qwen3-coder, harmony, "
                  "command-r7b, auto");
  }
}

TEST(tools_from_json, reads_mcp_openai_and_bfcl_entries_in_one_list) {
  auto tools = tools_from_json(json::parse(R"([
    {"name": "a", "description": "mcp", "inputSchema": {"type": "object", "properties": {"x": {}}}},
    {"type": "function", "function": {"name": "b", "description": "openai",
                                      "parameters": {"type": "object", "required": ["y"]}}},
    {"name": "c", "parameters": {"type": "object", "title": "bfcl"}},
    {"name": "d", "input_schema": {"type": "object", "title": "anthropic"}},
    {"name": "e", "description": 7, "parameters": "not a schema"}
  ])"));
  ASSERT_TRUE(tools) << tools.error().message;
  ASSERT_EQ(tools->size(), 5u);
  EXPECT_EQ((*tools)[0].name, "a");
  EXPECT_EQ((*tools)[0].description, "mcp");
  EXPECT_TRUE((*tools)[0].input_schema["properties"].contains("x"));
  EXPECT_EQ((*tools)[1].name, "b");
  EXPECT_EQ((*tools)[1].description, "openai");
  EXPECT_EQ((*tools)[1].input_schema["required"], json::array({"y"}));
  EXPECT_EQ((*tools)[2].input_schema["title"], "bfcl");
  EXPECT_EQ((*tools)[3].input_schema["title"], "anthropic");
  // A description or schema of the wrong type is left out, not fatal.
  EXPECT_EQ((*tools)[4].description, "");
  EXPECT_EQ((*tools)[4].input_schema, tool{}.input_schema);
}

TEST(tools_from_json, reads_one_entry_or_a_map_of_names_to_schemas) {
  auto one = tools_from_json(json::parse(R"({"type":"function","function":{"name":"solo"}})"));
  ASSERT_TRUE(one);
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].name, "solo");
  auto bare = tools_from_json(json::parse(R"({"name":"x","description":"d"})"));
  ASSERT_TRUE(bare);
  EXPECT_EQ((*bare)[0].description, "d");
  auto map = tools_from_json(json::parse(
      R"({"first": {"type":"object","title":"1"}, "second": {"type":"object","title":"2"}})"));
  ASSERT_TRUE(map);
  ASSERT_EQ(map->size(), 2u);
  EXPECT_EQ((*map)[0].name, "first");
  EXPECT_EQ((*map)[1].input_schema["title"], "2");
  auto schemas = schemas_of(*map);
  ASSERT_EQ(schemas.size(), 2u);
  EXPECT_EQ(schemas.at("second")["title"], "2");
}

TEST(tools_from_json, an_entry_without_a_name_is_named_by_its_index) {
  auto r = tools_from_json(json::parse(R"([{"name":"ok"}, {"description":"nameless"}])"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::invalid_argument);
  EXPECT_EQ(r.error().message, "tool definition #1 has no \"name\" string; give each tool a name");
  auto n = tools_from_json(json::parse(R"([{"name": 5}])"));
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().message, "tool definition #0 has no \"name\" string; give each tool a name");
  auto fn = tools_from_json(json::parse(R"({"function": {"description": "x"}})"));
  ASSERT_FALSE(fn);
  EXPECT_EQ(fn.error().message,
            "tool definition #0 has no \"name\" string; give each tool a name");
}

TEST(tools_from_json, anything_but_a_list_or_object_is_refused_with_its_type) {
  for (auto [text, type] : {std::pair{R"("tools")", "string"}, {"42", "integer"}, {"null", "null"}}) {
    auto r = tools_from_json(json::parse(text));
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().message,
              std::string("tool definitions must be a JSON list or object, got ") + type);
  }
}

TEST(parse_options, ids_use_the_prefix_and_count_calls_in_text_order) {
  auto out = parse(format::pythonic, "[a(x=1), b(), c(y='z')]", {.id_prefix = "r7_"});
  ASSERT_EQ(out.calls.size(), 3u);
  EXPECT_EQ(out.calls[0].id, "r7_0");
  EXPECT_EQ(out.calls[1].id, "r7_1");
  EXPECT_EQ(out.calls[2].id, "r7_2");
  EXPECT_EQ(out.calls[2].arguments, json({{"y", "z"}}));
}

TEST(parse_options, in_reasoning_reads_the_start_as_reasoning_until_think_closes) {
  const std::string text = "weighing options</think>The answer is 4.";
  auto opened = parse(format::hermes, text, {.in_reasoning = true});
  EXPECT_EQ(opened.reasoning, "weighing options");
  EXPECT_EQ(opened.content, "The answer is 4.");
  EXPECT_TRUE(testing::streams_like_whole(format::hermes, text, {.in_reasoning = true}));
  auto closed = parse(format::hermes, "no reasoning here", {.in_reasoning = true});
  EXPECT_EQ(closed.reasoning, "no reasoning here");  // never closed: all of it was reasoning
  EXPECT_EQ(closed.content, "");
}

TEST(parse_diagnostics, a_malformed_call_names_the_tool_and_keeps_its_raw_text) {
  auto out = parse(format::hermes,
                   R"(<tool_call>{"name": "get_time", "arguments": {"tz": ]}</tool_call>)");
  ASSERT_EQ(out.calls.size(), 1u);
  EXPECT_TRUE(out.calls[0].arguments.is_null());
  EXPECT_NE(out.calls[0].raw_arguments.find(R"("tz": ])"), std::string::npos)
      << out.calls[0].raw_arguments;
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0], "malformed call to \"get_time\": the call did not parse");
  // The call parses but its arguments, given as a string, do not.
  auto inner = parse(format::hermes,
                     R"(<tool_call>{"name": "get_time", "arguments": "{\"tz\": ]"}</tool_call>)");
  ASSERT_EQ(inner.calls.size(), 1u);
  EXPECT_TRUE(inner.calls[0].arguments.is_null());
  EXPECT_EQ(inner.diagnostics,
            std::vector<std::string>{"malformed call to \"get_time\": its arguments did not parse"});
}

TEST(parse_diagnostics, a_call_that_is_cut_off_is_parsed_as_far_as_it_goes) {
  auto out = parse(format::hermes, R"(Wait. <tool_call>{"name": "get_time", "arguments": {"tz": "U)");
  EXPECT_EQ(out.content, "Wait. ");
  ASSERT_EQ(out.calls.size(), 1u);
  EXPECT_EQ(out.calls[0].name, "get_time");
  EXPECT_TRUE(out.calls[0].arguments.is_null());
  EXPECT_FALSE(out.diagnostics.empty());
}

TEST(stream_parser, holds_back_only_what_may_begin_a_marker) {
  stream_parser p(format::hermes);
  auto d1 = p.feed("Hello <tool");
  EXPECT_EQ(d1.content, "Hello ");
  EXPECT_TRUE(d1.calls.empty());
  auto d2 = p.feed("box> is a word");  // "<toolbox>" cannot be a marker: released
  EXPECT_EQ(d2.content, "<toolbox> is a word");
  auto d3 = p.finish();
  EXPECT_TRUE(d3.empty());
}

TEST(stream_parser, releases_a_call_as_soon_as_its_text_is_complete) {
  stream_parser p(format::hermes, {.id_prefix = "s_"});
  auto d1 = p.feed(R"(<tool_call>{"name": "f", "arguments": {"a": 1}})");
  EXPECT_TRUE(d1.calls.empty());
  auto d2 = p.feed("</tool_call>");
  ASSERT_EQ(d2.calls.size(), 1u);
  EXPECT_EQ(d2.calls[0].id, "s_0");
  EXPECT_EQ(d2.calls[0].arguments, json({{"a", 1}}));
  auto d3 = p.feed(" bye");
  EXPECT_EQ(d3.content, " bye");
  EXPECT_TRUE(p.finish().empty());
}

TEST(stream_parser, finish_releases_an_unterminated_call_and_later_feeds_are_ignored) {
  stream_parser p(format::functionary_v31);
  EXPECT_TRUE(p.feed("<function=get_time>{\"tz\": \"CET\"}").calls.empty());
  auto end = p.finish();
  ASSERT_EQ(end.calls.size(), 1u);
  EXPECT_EQ(end.calls[0].name, "get_time");
  EXPECT_EQ(end.calls[0].arguments, json({{"tz", "CET"}}));
  EXPECT_TRUE(p.feed("more text <function=x>{}</function>").empty());
  EXPECT_TRUE(p.finish().empty());
}

TEST(stream_parser, a_moved_parser_keeps_its_state) {
  stream_parser a(format::mistral);
  EXPECT_TRUE(a.feed("[TOOL_CALLS]get_time[ARGS]{\"tz\":").calls.empty());
  stream_parser b(std::move(a));
  auto d = b.feed(" \"UTC\"}");
  auto end = b.finish();
  std::vector<tool_call> calls = d.calls;
  calls.insert(calls.end(), end.calls.begin(), end.calls.end());
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].arguments, json({{"tz", "UTC"}}));
}

TEST(stream_delta, is_empty_only_when_nothing_was_released) {
  EXPECT_TRUE(stream_delta{}.empty());
  EXPECT_FALSE(stream_delta{.content = "x"}.empty());
  EXPECT_FALSE(stream_delta{.reasoning = "r"}.empty());
  EXPECT_FALSE(stream_delta{.calls = {tool_call{}}}.empty());
  EXPECT_FALSE(stream_delta{.diagnostics = {"d"}}.empty());
}

TEST(render_result, each_family_gets_the_turn_its_template_expects) {
  const std::vector<std::pair<format, std::string>> want = {
      {format::hermes, "<tool_response>\n12:00\n</tool_response>"},
      {format::qwen3_coder, "<tool_response>\n12:00\n</tool_response>"},
      {format::auto_detect, "<tool_response>\n12:00\n</tool_response>"},
      {format::harmony,
       "<|start|>functions.get_time to=assistant<|channel|>commentary<|message|>12:00<|end|>"},
      {format::deepseek, "<｜tool▁output▁begin｜>12:00<｜tool▁output▁end｜>"},
      {format::mistral, R"([TOOL_RESULTS]{"content":"12:00"}[/TOOL_RESULTS])"},
      {format::command_r7b,
       R"(<|START_TOOL_RESULT|>[{"tool_call_id":"0","results":{"0":"12:00"}}]<|END_TOOL_RESULT|>)"},
      {format::pythonic, "Result of get_time:\n12:00"},
      {format::llama3, "Result of get_time:\n12:00"},
  };
  for (const auto& [f, text] : want) EXPECT_EQ(render_result(f, "get_time", "12:00"), text) << to_string(f);
  // A result is data: quotes in it are escaped where the turn is JSON.
  EXPECT_EQ(render_result(format::mistral, "t", "say \"hi\""),
            R"([TOOL_RESULTS]{"content":"say \"hi\""}[/TOOL_RESULTS])");
}

std::vector<tool> sample_tools() {
  return {{.name = "get_weather",
           .description = "Weather for a city",
           .input_schema = json::parse(R"({"type":"object","properties":{
               "city":{"type":"string","description":"the city"},
               "unit":{"enum":["c","f"]},
               "days":{"type":"array","items":{"type":"integer"}}},"required":["city"]})")}};
}

TEST(render_tools, the_parallel_note_follows_the_option) {
  for (format f : {format::hermes, format::json, format::llama3, format::fenced_json}) {
    std::string many = render_tools(f, sample_tools());
    std::string one = render_tools(f, sample_tools(), {.parallel = false});
    EXPECT_NE(many.find("You may call several functions in one reply.\n"), std::string::npos)
        << to_string(f);
    EXPECT_NE(one.find("Call at most one function per reply.\n"), std::string::npos)
        << to_string(f);
    EXPECT_EQ(one.find("several"), std::string::npos) << to_string(f);
  }
  EXPECT_EQ(render_tools(format::llama3, sample_tools()).rfind("Environment: ipython\n\n", 0), 0u);
  EXPECT_EQ(render_tools(format::json, sample_tools()).find("ipython"), std::string::npos);
}

TEST(render_tools, harmony_and_functionary_get_a_typescript_namespace) {
  const std::string ns =
      "namespace functions {\n\n"
      "// Weather for a city\n"
      "type get_weather = (_: {\n"
      "// the city\n"
      "city: string,\n"
      "unit?: \"c\" | \"f\",\n"
      "days?: number[],\n"
      "}) => any;\n\n"
      "} // namespace functions";
  EXPECT_EQ(render_tools(format::harmony, sample_tools()), "# Tools\n\n## functions\n\n" + ns);
  EXPECT_EQ(render_tools(format::functionary_v32, sample_tools()),
            "// Supported function definitions that should be called when necessary.\n" + ns);
}

TEST(render_tools, qwen3_coder_lists_parameters_with_types_and_required) {
  std::string block = render_tools(format::qwen3_coder, sample_tools());
  EXPECT_NE(block.find("<function>\n<name>get_weather</name>\n<description>Weather for a "
                       "city</description>\n<parameters>\n<parameter>\n<name>city</name>\n"
                       "<type>string</type>\n<description>the city</description>\n</parameter>"),
            std::string::npos)
      << block;
  EXPECT_NE(block.find("<required>[\"city\"]</required>"), std::string::npos);
  EXPECT_NE(block.find("<parameter>\n<name>days</name>\n<type>array</type>\n</parameter>"),
            std::string::npos);
}

TEST(render_tools, mistral_wraps_compact_openai_json_in_its_markers) {
  std::string block = render_tools(format::mistral, {{.name = "f", .description = "d"}});
  EXPECT_EQ(block,
            R"([AVAILABLE_TOOLS][{"type":"function","function":{"name":"f","description":"d",)"
            R"("parameters":{"type":"object","properties":{}}}}][/AVAILABLE_TOOLS])");
  EXPECT_EQ(render_tools(format::auto_detect, sample_tools()),
            render_tools(format::hermes, sample_tools()));
}

}  // namespace
}  // namespace tooluse::textcall
