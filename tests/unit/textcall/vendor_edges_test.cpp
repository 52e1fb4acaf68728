// Edge paths of the vendor-token and tag parsers: the variants and broken shapes the format
// cases do not reach (DeepSeek without a separator, harmony messages to the user, Mistral
// call ids, fenced bodies inside tags, empty tags at the end, code fences that are code). Each
// text is also checked streamed in every chunk size, since the scans decide on partial text.
#include <gtest/gtest.h>

#include "textcall_test_util.hpp"

namespace tooluse::textcall::vendor_edges_test {
namespace {

using testing::streams_like_whole;

tool_schemas schemas() {
  return {{"get_time", json::parse(R"({"type":"object","properties":{"tz":{"type":"string"}}})")},
          {"count", json::parse(R"({"type":"object","properties":{"n":{"type":"integer"},
                     "on":{"type":"boolean"},"ratio":{"type":"number"},"none":{"type":"null"},
                     "list":{"type":"array"},"obj":{"type":"object"},"s":{"type":"string"}}})")}};
}

// parsed checks the whole-text parse against every chunking and returns it.
parsed_text parsed(format f, std::string_view text, const parse_options& o = {}) {
  EXPECT_TRUE(streams_like_whole(f, text, o)) << text;
  return parse(f, text, o);
}

TEST(deepseek_edges, a_call_without_the_separator_is_malformed_and_named_from_its_json) {
  auto got = parsed(format::deepseek,
                    "<｜tool▁call▁begin｜>{\"name\": \"get_time\", \"x\": 1}<｜tool▁call▁end｜>after");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  EXPECT_TRUE(got.calls[0].arguments.is_null());
  EXPECT_EQ(got.calls[0].raw_arguments, "{\"name\": \"get_time\", \"x\": 1}");
  ASSERT_EQ(got.diagnostics.size(), 1u);
  EXPECT_EQ(got.diagnostics[0], "malformed call to \"get_time\": no tool separator");
  EXPECT_EQ(got.content, "after");
}

TEST(deepseek_edges, a_function_call_without_arguments_has_an_empty_object) {
  auto got = parsed(format::deepseek,
                    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n"
                    "<｜tool▁call▁end｜><｜tool▁calls▁end｜>");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  EXPECT_EQ(got.calls[0].arguments, json::object());
  EXPECT_TRUE(got.diagnostics.empty());
  EXPECT_EQ(got.content, "");
}

TEST(deepseek_edges, unfenced_json_after_the_name_and_trailing_spaces_in_the_name) {
  auto got = parsed(format::deepseek,
                    "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time \r\n{\"tz\": \"UTC\"}"
                    "<｜tool▁call▁end｜>");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"tz":"UTC"})"));
}

TEST(deepseek_edges, a_call_cut_off_before_its_end_token_is_parsed_at_the_end) {
  auto got = parsed(format::deepseek, "<｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{\"tz\": \"CET\"}");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"tz":"CET"})"));
  auto broken = parsed(format::deepseek, "<｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{\"tz\": ");
  ASSERT_EQ(broken.calls.size(), 1u);
  EXPECT_TRUE(broken.calls[0].arguments.is_null());
  ASSERT_EQ(broken.diagnostics.size(), 1u);
  EXPECT_EQ(broken.diagnostics[0], "malformed call to \"get_time\": the arguments did not parse");
}

TEST(deepseek_edges, end_of_sentence_and_stray_list_markers_are_dropped) {
  auto got = parsed(format::deepseek, "Done.<｜end▁of▁sentence｜>");
  EXPECT_EQ(got.content, "Done.");
  EXPECT_TRUE(got.calls.empty());
}

TEST(harmony_edges, a_message_to_the_user_or_all_is_content_not_a_call) {
  for (std::string to : {"user", "all"}) {
    auto got = parsed(format::harmony,
                      "<|start|>assistant<|channel|>final to=" + to + "<|message|>Hi there.<|end|>");
    EXPECT_TRUE(got.calls.empty()) << to;
    EXPECT_EQ(got.content, "Hi there.") << to;
    EXPECT_EQ(got.reasoning, "") << to;
  }
}

TEST(harmony_edges, a_call_ended_by_the_next_message_keeps_that_message) {
  auto got = parsed(format::harmony,
                    "<|channel|>commentary to=functions.get_time<|message|>{\"tz\": \"UTC\"}"
                    "<|start|>assistant<|channel|>final<|message|>Noon.<|return|>");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"tz":"UTC"})"));
  EXPECT_EQ(got.content, "Noon.");
}

TEST(harmony_edges, a_recipient_without_the_functions_prefix_keeps_its_name) {
  auto got = parsed(format::harmony,
                    "<|channel|>commentary to=browser.search<|message|>{\"q\": 1}<|call|>");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "browser.search");
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"q":1})"));
}

TEST(harmony_edges, a_call_cut_off_at_the_end_is_parsed_as_far_as_it_goes) {
  auto whole = parsed(format::harmony, "<|channel|>commentary to=functions.get_time<|message|>{}");
  ASSERT_EQ(whole.calls.size(), 1u);
  EXPECT_EQ(whole.calls[0].arguments, json::object());
  auto cut = parsed(format::harmony, "<|channel|>commentary to=functions.get_time<|message|>{\"tz\"");
  ASSERT_EQ(cut.calls.size(), 1u);
  EXPECT_TRUE(cut.calls[0].arguments.is_null());
  EXPECT_EQ(cut.calls[0].raw_arguments, "{\"tz\"");
  ASSERT_EQ(cut.diagnostics.size(), 1u);
  EXPECT_EQ(cut.diagnostics[0], "malformed call to \"get_time\": the arguments did not parse");
}

TEST(harmony_edges, a_header_that_never_reaches_its_message_is_content) {
  auto got = parsed(format::harmony, "<|channel|>analysis but no message");
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, "<|channel|>analysis but no message");
}

TEST(harmony_edges, analysis_stopped_by_a_new_channel_switches_to_the_final_answer) {
  auto got = parsed(format::harmony,
                    "<|channel|>analysis<|message|>think<|channel|>final<|message|>answer");
  EXPECT_EQ(got.reasoning, "think");
  EXPECT_EQ(got.content, "answer");
}

TEST(mistral_edges, a_name_without_args_is_content) {
  auto got = parsed(format::mistral, "[TOOL_CALLS]get_time and more text");
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, "[TOOL_CALLS]get_time and more text");
}

TEST(mistral_edges, a_call_id_without_args_is_content) {
  auto got = parsed(format::mistral, "[TOOL_CALLS]get_time[CALL_ID]abc");
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, "[TOOL_CALLS]get_time[CALL_ID]abc");
}

TEST(mistral_edges, a_broken_list_is_one_malformed_call_up_to_the_next_marker) {
  auto got = parsed(format::mistral,
                    "[TOOL_CALLS][{\"name\": \"get_time\", \"arguments\": {\"tz\": ]"
                    "[TOOL_CALLS]get_time[ARGS]{\"tz\": \"CET\"}");
  ASSERT_EQ(got.calls.size(), 2u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  EXPECT_TRUE(got.calls[0].arguments.is_null());
  EXPECT_EQ(got.calls[0].raw_arguments, "[{\"name\": \"get_time\", \"arguments\": {\"tz\": ]");
  EXPECT_EQ(got.calls[1].arguments, json::parse(R"({"tz":"CET"})"));
  ASSERT_EQ(got.diagnostics.size(), 1u);
  EXPECT_EQ(got.diagnostics[0], "malformed call to \"get_time\": the arguments did not parse");
  EXPECT_EQ(got.calls[0].id, "call_0");
  EXPECT_EQ(got.calls[1].id, "call_1");
}

TEST(mistral_edges, a_list_of_data_that_is_not_calls_is_malformed) {
  auto got = parsed(format::mistral, "[TOOL_CALLS][1, 2, 3]");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "");
  EXPECT_TRUE(got.calls[0].arguments.is_null());
  ASSERT_EQ(got.diagnostics.size(), 1u);
  EXPECT_EQ(got.diagnostics[0], "malformed call: the arguments did not parse");
}

TEST(functionary_edges, a_known_tool_name_at_the_start_calls_it_without_the_arrows) {
  parse_options o{.schemas = schemas()};
  auto got = parsed(format::functionary_v32, "count\n{\"n\": 2}>>>all\nThat is it.", o);
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "count");
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"n":2})"));
  EXPECT_EQ(got.content, "That is it.");
}

TEST(functionary_edges, arrows_without_a_name_and_newline_stay_content) {
  auto got = parsed(format::functionary_v32, "a >>> b and >>>get_time{}");
  EXPECT_TRUE(got.calls.empty());
  EXPECT_EQ(got.content, "a >>> b and >>>get_time{}");
}

TEST(functionary_edges, python_code_runs_until_the_next_recipient) {
  auto got = parsed(format::functionary_v32, ">>>python\nprint(2)\n>>>get_time\n{}");
  ASSERT_EQ(got.calls.size(), 2u);
  EXPECT_EQ(got.calls[0].name, "python");
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"code":"print(2)\n"})"));
  EXPECT_EQ(got.calls[1].name, "get_time");
  EXPECT_EQ(got.calls[1].arguments, json::object());
}

TEST(functionary_edges, v31_python_tag_reads_code_to_the_end) {
  auto got = parsed(format::functionary_v31, "<|python_tag|>import os\nos.getcwd()");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "code_interpreter");
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"j({"code":"import os\nos.getcwd()"})j"));
}

TEST(llama3_edges, builtin_call_arguments_are_typed_by_the_schema) {
  parse_options o{.schemas = schemas()};
  auto got = parsed(format::llama3, "<|python_tag|>count.call(n=\"7\", on=\"True\")<|eom_id|>", o);
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "count");
  EXPECT_EQ(got.calls[0].arguments, json::parse(R"({"n":7,"on":true})"));
}

TEST(llama3_edges, a_builtin_call_with_broken_arguments_is_malformed) {
  auto got = parsed(format::llama3, "<|python_tag|>wolfram_alpha.call(query=)<|eom_id|>");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "wolfram_alpha");
  EXPECT_TRUE(got.calls[0].arguments.is_null());
  EXPECT_EQ(got.calls[0].raw_arguments, "query=");
}

TEST(llama3_edges, a_broken_json_call_after_the_tag_is_named_by_its_name_field) {
  auto got = parsed(format::llama3, "<|python_tag|>{\"name\": \"get_time\", \"parameters\": {]}<|eot_id|>");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "get_time");
  EXPECT_TRUE(got.calls[0].arguments.is_null());
  EXPECT_EQ(got.calls[0].raw_arguments, "{\"name\": \"get_time\", \"parameters\": {]}");
}

TEST(command_r7b_edges, an_action_cut_off_at_the_end_is_parsed_as_far_as_it_goes) {
  auto whole = parsed(format::command_r7b,
                      "<|START_ACTION|>[{\"tool_name\": \"get_time\", \"parameters\": {}}]");
  ASSERT_EQ(whole.calls.size(), 1u);
  EXPECT_EQ(whole.calls[0].arguments, json::object());
  auto cut = parsed(format::command_r7b, "<|START_ACTION|>[{\"tool_name\": \"get_time\", \"par");
  ASSERT_EQ(cut.calls.size(), 1u);
  EXPECT_EQ(cut.calls[0].name, "get_time");
  EXPECT_TRUE(cut.calls[0].arguments.is_null());
  ASSERT_EQ(cut.diagnostics.size(), 1u);
  EXPECT_EQ(cut.diagnostics[0], "malformed call to \"get_time\": the action did not parse");
}

TEST(command_r7b_edges, text_after_the_actions_inside_the_block_makes_it_malformed) {
  auto got = parsed(format::command_r7b,
                    "<|START_ACTION|>[{\"tool_name\": \"get_time\", \"parameters\": {}}] oops<|END_ACTION|>");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_TRUE(got.calls[0].arguments.is_null());
  EXPECT_EQ(got.content, "");
}

TEST(command_r7b_edges, thinking_cut_off_is_all_reasoning) {
  auto got = parsed(format::command_r7b, "<|START_THINKING|>still thinking");
  EXPECT_EQ(got.reasoning, "still thinking");
  EXPECT_EQ(got.content, "");
}

TEST(stream_values, several_call_values_after_a_vendor_marker_stream_like_the_whole_text) {
  // A second value still arriving must be waited for, not left to later rules as content.
  const std::vector<std::pair<format, std::string>> texts = {
      {format::mistral, "[TOOL_CALLS]{\"name\": \"a\", \"arguments\": {}} {\"name\": \"b\", \"arguments\": {}}"},
      {format::llama3, "<|python_tag|>{\"name\": \"a\", \"parameters\": {}}; {\"name\": \"b\", \"parameters\": {}}"},
      {format::granite, "<function_call> {\"name\": \"a\", \"arguments\": {}}, [{\"name\": \"b\", \"arguments\": {}}]"},
  };
  for (const auto& [f, text] : texts) {
    auto got = parsed(f, text);
    ASSERT_EQ(got.calls.size(), 2u) << text;
    EXPECT_EQ(got.calls[0].name, "a");
    EXPECT_EQ(got.calls[1].name, "b");
    EXPECT_EQ(got.content, "") << text;
  }
}

TEST(stream_values, data_after_a_call_ends_the_calls_and_stays_content) {
  auto got = parsed(format::mistral, "[TOOL_CALLS]{\"name\": \"a\", \"arguments\": {}} [1, 2]");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.content, " [1, 2]");
}

}  // namespace
}  // namespace tooluse::textcall
