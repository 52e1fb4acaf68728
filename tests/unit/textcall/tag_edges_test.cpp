// Edge paths of the generic rules: tag blocks holding a fence or a <function=> element, tags
// that are empty or hold no call, code fences (which languages may hold calls, which stay
// code), <parameter=> values typed by every schema type, the call shapes JSON may take, and
// blocks large enough that the streaming engine rescans them only now and then.
#include <gtest/gtest.h>

#include "textcall_test_util.hpp"

namespace tooluse::textcall::tag_edges_test {
namespace {

using testing::parse_chunked;
using testing::same_parse;
using testing::streams_like_whole;

tool_schemas schemas() {
  return {{"get_time", json::parse(R"({"type":"object","properties":{"tz":{"type":"string"}}})")},
          {"count", json::parse(R"({"type":"object","properties":{"n":{"type":"integer"},
                     "on":{"type":"boolean"},"ratio":{"type":"number"},"none":{"type":"null"},
                     "list":{"type":"array"},"obj":{"type":"object"},"s":{"type":"string"},
                     "maybe":{"type":["integer","null"]},"either":{"type":["integer","string"]},
                     "nested":{"properties":{}},"seq":{"items":{}}}})")}};
}

parsed_text parsed(format f, std::string_view text, const parse_options& o = {}) {
  EXPECT_TRUE(streams_like_whole(f, text, o)) << text;
  return parse(f, text, o);
}

TEST(tag_edges, a_fenced_call_inside_a_tool_call_tag) {
  auto got = parsed(format::hermes,
                    "<tool_call>\n```json\n{\"name\": \"get_time\", \"arguments\": {\"tz\": \"UTC\"}}\n```\n"
                    "</tool_call>Done");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"tz":"UTC"})"));
  EXPECT_EQ(got.content, "Done");
  EXPECT_TRUE(got.diagnostics.empty());
}

TEST(tag_edges, a_function_element_inside_a_tool_call_tag_with_a_json_body) {
  auto got = parsed(format::hermes,
                    "<tool_call><function=get_time>{\"tz\": \"CET\"}</function></tool_call>");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"tz":"CET"})"));
  EXPECT_EQ(got.calls[0].raw_arguments, "{\"tz\": \"CET\"}");
  EXPECT_EQ(got.content, "");
}

TEST(tag_edges, an_empty_tool_call_tag_at_the_end_is_dropped_with_a_diagnostic) {
  auto got = parsed(format::hermes, "Text <tool_call>  \n");
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, "Text ");
  ASSERT_EQ(got.diagnostics.size(), 1u);
  EXPECT_EQ(got.diagnostics[0], "empty <tool_call> at the end");
}

TEST(tag_edges, a_tag_holding_prose_is_a_malformed_call_up_to_its_closing_tag) {
  auto got = parsed(format::hermes, "<tool_call>I cannot do that</tool_call> sorry");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "");
  EXPECT_TRUE(got.calls[0].arguments.is_null());
  EXPECT_EQ(got.calls[0].raw_arguments, "I cannot do that");
  EXPECT_EQ(got.content, " sorry");
  ASSERT_EQ(got.diagnostics.size(), 1u);
  EXPECT_EQ(got.diagnostics[0], "malformed call: the call did not parse");
}

TEST(tag_edges, an_unclosed_tag_holding_broken_json_takes_the_rest_of_the_text) {
  auto got = parsed(format::hermes, "<tool_call>{'name': 'get_time', 'arguments': {'tz': ");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  EXPECT_TRUE(got.calls[0].arguments.is_null());
  EXPECT_EQ(got.calls[0].raw_arguments, "{'name': 'get_time', 'arguments': {'tz':");
}

TEST(tag_edges, weak_tags_hold_calls_but_leave_anything_else_as_content) {
  auto call = parsed(format::hermes, "<tools>[{\"name\": \"get_time\", \"arguments\": {}}]</tools>");
  ASSERT_EQ(call.calls.size(), 1u);
  EXPECT_EQ(call.content, "");
  auto prose = parsed(format::hermes, "<response>It is late.</response>");
  EXPECT_TRUE(prose.calls.empty());
  EXPECT_EQ(prose.content, "<response>It is late.</response>");
  EXPECT_TRUE(prose.diagnostics.empty());
  auto empty = parsed(format::hermes, "<json>");
  EXPECT_TRUE(empty.calls.empty());
  EXPECT_EQ(empty.content, "<json>");
  EXPECT_TRUE(empty.diagnostics.empty());
}

TEST(tag_edges, a_function_element_with_a_bad_name_is_content) {
  auto got = parsed(format::functionary_v31, "<function=>{}</function> and <function=a b>{}");
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, "<function=>{}</function> and <function=a b>{}");
}

TEST(tag_edges, a_function_element_cut_off_in_its_name_is_content) {
  auto got = parsed(format::functionary_v31, "see <function=get_ti");
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, "see <function=get_ti");
}

TEST(tag_edges, an_unclosed_function_element_takes_the_rest_as_its_body) {
  auto got = parsed(format::functionary_v31, "<function=get_time>{\"tz\": \"UTC\"}  ");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"tz":"UTC"})"));
  auto empty = parsed(format::functionary_v31, "<function=get_time>");
  ASSERT_EQ(empty.calls.size(), 1u);
  EXPECT_EQ(empty.calls[0].arguments, json::object());
}

TEST(tag_edges, parameters_mixed_with_other_text_are_malformed) {
  auto got = parsed(format::qwen3_coder,
                    "<tool_call><function=get_time><parameter=tz>UTC</parameter> junk</function></tool_call>");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  EXPECT_TRUE(got.calls[0].arguments.is_null());
  EXPECT_EQ(got.calls[0].raw_arguments, "<parameter=tz>UTC</parameter> junk");
  ASSERT_EQ(got.diagnostics.size(), 1u);
  EXPECT_EQ(got.diagnostics[0], "malformed call to \"get_time\": its arguments did not parse");
}

TEST(tag_edges, a_parameter_tag_without_its_closing_bracket_is_malformed) {
  auto got = parsed(format::qwen3_coder, "<function=get_time><parameter=tz</function>");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_TRUE(got.calls[0].arguments.is_null());
}

TEST(tag_edges, parameter_values_are_typed_by_every_schema_type) {
  parse_options o{.schemas = schemas()};
  auto got = parsed(format::qwen3_coder,
                    "<function=count>"
                    "<parameter=n>\n4.0\n</parameter><parameter=on>False</parameter>"
                    "<parameter=ratio>1e3</parameter><parameter=none>None</parameter>"
                    "<parameter=list>[1, 'two']</parameter><parameter=obj>{'k': True}</parameter>"
                    "<parameter=s>42</parameter><parameter=maybe>5</parameter>"
                    "<parameter=either>6</parameter><parameter=nested>{}</parameter>"
                    "<parameter=seq>(1,)</parameter><parameter=other>7</parameter>"
                    "</function>",
                    o);
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].arguments,
            json::parse(R"({"n":4,"on":false,"ratio":1000.0,"none":null,"list":[1,"two"],
                            "obj":{"k":true},"s":"42","maybe":5,"either":"6","nested":{},
                            "seq":[1],"other":"7"})"));
}

TEST(tag_edges, values_that_do_not_fit_their_type_stay_strings) {
  parse_options o{.schemas = schemas()};
  auto got = parsed(format::qwen3_coder,
                    "<function=count><parameter=n>4.5</parameter><parameter=on>yes</parameter>"
                    "<parameter=ratio>1.5 kg</parameter><parameter=none>nil</parameter>"
                    "<parameter=list>{}</parameter><parameter=obj>[]</parameter></function>",
                    o);
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].arguments,
            json::parse(R"({"n":4.5,"on":"yes","ratio":"1.5 kg","none":"nil","list":"{}","obj":"[]"})"));
}

TEST(fence_edges, a_python_fence_holds_a_call_list) {
  auto got = parsed(format::fenced_json, "```python\n[get_time(tz='UTC')]\n```");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"tz":"UTC"})"));
  EXPECT_EQ(got.content, "");
}

TEST(fence_edges, a_tool_call_fence_holds_several_objects) {
  auto got = parsed(format::fenced_json,
                    "```tool_call\n{\"name\": \"a\", \"arguments\": {}}\n{\"name\": \"b\"}\n```");
  ASSERT_EQ(got.calls.size(), 2u);
  EXPECT_EQ(got.calls[0].name, "a");
  EXPECT_EQ(got.calls[1].name, "b");
  EXPECT_EQ(got.calls[1].arguments, json::object());
}

TEST(fence_edges, a_json_fence_holding_data_stays_content) {
  const std::string text = "```json\n{\"temperature\": 21}\n```";
  auto got = parsed(format::fenced_json, text);
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, text);
}

TEST(fence_edges, code_in_another_language_streams_as_content_through_its_close) {
  const std::string text = "```cpp\nint a[2] = {1, 2};\n```\n[after]";
  auto got = parsed(format::hermes, text);
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, text);
}

TEST(fence_edges, a_fence_whose_language_line_has_symbols_is_plain_text) {
  auto got = parsed(format::fenced_json, "``` <not a fence>\n{\"name\": \"a\"}\n```");
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, "``` <not a fence>\n{\"name\": \"a\"}\n```");
}

TEST(fence_edges, an_unclosed_fence_with_a_call_is_parsed_at_the_end) {
  auto got = parsed(format::fenced_json, "```json\n[{\"name\": \"get_time\", \"arguments\": {}}]\n");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  auto bare = parsed(format::fenced_json, "```json");
  EXPECT_TRUE(bare.calls.empty());
  EXPECT_EQ(bare.content, "```json");
}

TEST(json_shapes, an_openai_tool_call_with_string_arguments) {
  auto got = parsed(format::json,
                    R"({"id": "x", "type": "function", "function": {"name": "get_time", "arguments": "{\"tz\": \"UTC\"}"}})");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"tz":"UTC"})"));
}

TEST(json_shapes, string_arguments_that_are_blank_mean_no_arguments) {
  auto got = parsed(format::json, R"({"name": "get_time", "arguments": "  "})");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].arguments, json::object());
}

TEST(json_shapes, arguments_that_are_not_an_object_make_the_call_malformed) {
  auto text_args = parsed(format::json, R"({"name": "get_time", "arguments": "tz=UTC"})");
  ASSERT_EQ(text_args.calls.size(), 1u);
  EXPECT_TRUE(text_args.calls[0].arguments.is_null());
  EXPECT_EQ(text_args.calls[0].raw_arguments, "tz=UTC");
  auto list_args = parsed(format::json, R"({"name": "get_time", "arguments": [1, 2]})");
  ASSERT_EQ(list_args.calls.size(), 1u);
  EXPECT_TRUE(list_args.calls[0].arguments.is_null());
  EXPECT_EQ(list_args.calls[0].raw_arguments, "[1,2]");
  ASSERT_EQ(list_args.diagnostics.size(), 1u);
  EXPECT_EQ(list_args.diagnostics[0], "malformed call to \"get_time\": its arguments did not parse");
}

TEST(json_shapes, an_empty_name_an_empty_list_or_a_list_with_data_is_content) {
  for (std::string text : {R"({"name": "", "arguments": {}})", "[]",
                           R"([{"name": "a"}, 3])", R"({"tool_calls": [3]})"}) {
    auto got = parsed(format::json, text);
    EXPECT_TRUE(got.calls.empty()) << text;
    EXPECT_EQ(got.content, text);
  }
}

TEST(json_shapes, several_objects_in_a_row_after_a_tag_are_separate_calls) {
  auto got = parsed(format::hermes,
                    "<tool_call>{\"name\": \"a\"}, {\"name\": \"b\"}; [{\"name\": \"c\"}]</tool_call>");
  ASSERT_EQ(got.calls.size(), 3u);
  EXPECT_EQ(got.calls[0].name, "a");
  EXPECT_EQ(got.calls[1].name, "b");
  EXPECT_EQ(got.calls[2].name, "c");
  EXPECT_EQ(got.content, "");
}

TEST(pythonic_edges, vendor_python_markers_are_dropped_around_the_list) {
  auto got = parsed(format::pythonic, "<|python_start|>[get_time(tz=\"UTC\")]<|python_end|>");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.content, "");
}

TEST(pythonic_edges, a_known_call_inside_a_line_is_content) {
  parse_options o{.schemas = schemas()};
  auto got = parsed(format::pythonic, "Try get_time(tz=\"UTC\") yourself.", o);
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, "Try get_time(tz=\"UTC\") yourself.");
  auto line = parsed(format::pythonic, "Try this:\nget_time(tz=\"UTC\")", o);
  ASSERT_EQ(line.calls.size(), 1u);
  EXPECT_EQ(line.content, "Try this:\n");
}

TEST(pythonic_edges, a_call_list_cut_off_at_the_end_is_content) {
  auto got = parsed(format::pythonic, "[get_time(tz='UTC'), get_ti");
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, "[get_time(tz='UTC'), get_ti");
}

TEST(engine_edges, a_large_call_streamed_in_small_chunks_parses_as_the_whole_text) {
  // Blocks past 4 KiB are rescanned only when they have grown by an eighth; the result must
  // not depend on it.
  std::string big(20000, 'x');
  for (std::size_t i = 0; i < big.size(); i += 97) big[i] = '[';
  std::string text = "Before <tool_call>{\"name\": \"get_time\", \"arguments\": {\"tz\": \"" + big +
                     "\"}}</tool_call> after";
  auto whole = parse(format::hermes, text);
  ASSERT_EQ(whole.calls.size(), 1u);
  EXPECT_EQ(whole.calls[0].arguments["tz"], big);
  EXPECT_EQ(whole.content, "Before  after");
  for (std::size_t size : {1u, 7u, 64u, 1000u, 5000u})
    EXPECT_TRUE(same_parse(parse_chunked(format::hermes, text, size), whole)) << size;
}

TEST(engine_edges, a_large_unterminated_call_streamed_is_released_at_finish) {
  std::string text = "<tool_call>{\"name\": \"get_time\", \"arguments\": {\"tz\": \"" +
                     std::string(9000, 'y');
  auto whole = parse(format::hermes, text);
  ASSERT_EQ(whole.calls.size(), 1u);
  EXPECT_TRUE(whole.calls[0].arguments.is_null());
  EXPECT_TRUE(same_parse(parse_chunked(format::hermes, text, 100), whole));
}

TEST(engine_edges, moving_a_parser_by_assignment_keeps_its_state) {
  stream_parser a(format::hermes);
  EXPECT_EQ(a.feed("Hi <tool_").content, "Hi ");
  stream_parser b(format::json);
  b = std::move(a);
  auto d = b.feed("call>{\"name\": \"f\"}</tool_call>");
  ASSERT_EQ(d.calls.size(), 1u);
  EXPECT_EQ(d.calls[0].name, "f");
  EXPECT_TRUE(b.finish().empty());
}

}  // namespace
}  // namespace tooluse::textcall
