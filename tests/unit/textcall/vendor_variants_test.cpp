// Vendor-token formats in the variants the hand-written cases do not show: several Llama 3.1
// built-in calls, JSON lists after <|python_tag|>, Functionary's python and "all" sections,
// Mistral markers with nothing or something odd after them, Command R7B plans. Each text is
// parsed whole and in chunks of every size.
#include <gtest/gtest.h>

#include "textcall_test_util.hpp"

namespace tooluse::textcall {
namespace {

using testing::streams_like_whole;

struct call_want {
  std::string name;
  std::string arguments;  // JSON text; "null" for a malformed call
};

void expect_parse(format f, const std::string& text, const std::vector<call_want>& calls,
                  const std::string& content, bool diagnostic = false) {
  SCOPED_TRACE(std::string(to_string(f)) + ": " + text);
  auto out = parse(f, text);
  ASSERT_EQ(out.calls.size(), calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(out.calls[i].name, calls[i].name);
    EXPECT_EQ(out.calls[i].arguments, json::parse(calls[i].arguments)) << dump_json(out.calls[i].arguments);
    EXPECT_EQ(out.calls[i].id, "call_" + std::to_string(i));
  }
  EXPECT_EQ(out.content, content);
  EXPECT_EQ(!out.diagnostics.empty(), diagnostic);
  EXPECT_TRUE(streams_like_whole(f, text));
}

TEST(vendor_variants, llama3_builtin_calls_separated_by_semicolons) {
  expect_parse(format::llama3,
               "<|python_tag|>brave_search.call(query=\"a\"); wolfram_alpha.call(query=\"b\")<|eom_id|>",
               {{"brave_search", R"({"query":"a"})"}, {"wolfram_alpha", R"({"query":"b"})"}}, "");
}

TEST(vendor_variants, llama3_json_list_after_the_tag) {
  expect_parse(format::llama3,
               "<|python_tag|>[{\"name\": \"a\", \"parameters\": {}}, {\"name\": \"b\", \"parameters\": {\"x\": 1}}]<|eom_id|>",
               {{"a", "{}"}, {"b", R"({"x":1})"}}, "");
}

TEST(vendor_variants, llama3_tag_with_nothing_after_it_is_dropped) {
  expect_parse(format::llama3, "Thinking...<|python_tag|>", {}, "Thinking...");
  expect_parse(format::llama3, "Answer.<|eot_id|>", {}, "Answer.");
}

TEST(vendor_variants, llama3_bare_json_answer_without_the_tag) {
  expect_parse(format::llama3, "{\"name\": \"get_time\", \"parameters\": {\"tz\": \"UTC\"}}",
               {{"get_time", R"({"tz":"UTC"})"}}, "");
}

TEST(vendor_variants, functionary_v32_python_code_and_the_all_channel) {
  expect_parse(format::functionary_v32, ">>>python\nprint(1)\n", {{"python", R"({"code":"print(1)\n"})"}}, "");
  expect_parse(format::functionary_v32, ">>>all\nHello there", {}, "Hello there");
  expect_parse(format::functionary_v32, ">>>all\nLooking.>>>python\nx = 1",
               {{"python", R"({"code":"x = 1"})"}}, "Looking.");
  expect_parse(format::functionary_v32, ">>>get_time\n{\"tz\": \"CET\"}>>>get_time\n{}",
               {{"get_time", R"({"tz":"CET"})"}, {"get_time", "{}"}}, "");
}

TEST(vendor_variants, functionary_v31_function_tags_with_content_between) {
  expect_parse(format::functionary_v31,
               "A<function=get_time>{\"tz\": \"A\"}</function> and B<function=get_time>{}</function>.",
               {{"get_time", R"({"tz":"A"})"}, {"get_time", "{}"}}, "A and B.");
}

TEST(vendor_variants, mistral_markers_with_nothing_or_something_odd_after_them) {
  expect_parse(format::mistral, "Done.[TOOL_CALLS]", {}, "Done.");
  expect_parse(format::mistral, "[TOOL_CALLS] [{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"k\": [1]}}]",
               {{"a", "{}"}, {"b", R"({"k":[1]})"}}, "");
  expect_parse(format::mistral, "[TOOL_CALLS]get_time[ARGS]{}[TOOL_CALLS]get_time[ARGS]{\"tz\": \"X\"}</s>",
               {{"get_time", "{}"}, {"get_time", R"({"tz":"X"})"}}, "");
}

TEST(vendor_variants, command_r7b_plans_and_several_actions) {
  expect_parse(format::command_r7b,
               "<|START_THINKING|>Two lookups.<|END_THINKING|><|START_ACTION|>[{\"tool_call_id\": \"0\", "
               "\"tool_name\": \"get_time\", \"parameters\": {\"tz\": \"A\"}}, {\"tool_call_id\": \"1\", "
               "\"tool_name\": \"get_time\", \"parameters\": {\"tz\": \"B\"}}]<|END_ACTION|>",
               {{"get_time", R"({"tz":"A"})"}, {"get_time", R"({"tz":"B"})"}}, "");
  auto thinking = parse(format::command_r7b, "<|START_THINKING|>Two lookups.<|END_THINKING|>Plain answer.");
  EXPECT_EQ(thinking.reasoning, "Two lookups.");
  EXPECT_EQ(thinking.content, "Plain answer.");
}

TEST(vendor_variants, harmony_channels_keep_analysis_apart_from_the_final_answer) {
  std::string text =
      "<|channel|>analysis<|message|>Check time.<|end|><|start|>assistant<|channel|>commentary "
      "to=functions.get_time <|constrain|>json<|message|>{\"tz\": \"UTC\"}<|call|>";
  auto out = parse(format::harmony, text);
  ASSERT_EQ(out.calls.size(), 1u);
  EXPECT_EQ(out.calls[0].name, "get_time");
  EXPECT_EQ(out.reasoning, "Check time.");
  EXPECT_EQ(out.content, "");
  EXPECT_TRUE(streams_like_whole(format::harmony, text));
}

TEST(vendor_variants, the_same_texts_are_found_by_auto) {
  for (const auto& [f, text] : std::vector<std::pair<format, std::string>>{
           {format::llama3, "<|python_tag|>brave_search.call(query=\"a\")<|eom_id|>"},
           {format::mistral, "[TOOL_CALLS]get_time[ARGS]{}"},
           {format::command_r7b, "<|START_ACTION|>[{\"tool_name\": \"get_time\", \"parameters\": {}}]<|END_ACTION|>"},
           {format::functionary_v31, "<function=get_time>{}</function>"}}) {
    auto direct = parse(f, text);
    auto via_auto = parse(format::auto_detect, text);
    ASSERT_EQ(via_auto.calls.size(), direct.calls.size()) << text;
    EXPECT_EQ(via_auto.calls[0].name, direct.calls[0].name) << text;
  }
}

}  // namespace
}  // namespace tooluse::textcall
