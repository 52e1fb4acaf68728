// The streaming engine's own rules, seen through parse() and stream_parser: whitespace around
// calls, markers anchored to the start of a line or of the text (also once the buffer has been
// compacted), reasoning that never closes, a marker cut off at the very end, and diagnostics
// for every malformed call.
#include <gtest/gtest.h>

#include "textcall_test_util.hpp"

namespace tooluse::textcall {
namespace {

using testing::parse_chunked;
using testing::same_parse;
using testing::streams_like_whole;

tool_schemas schemas() {
  return {{"get_time", json::parse(R"({"type":"object","properties":{"tz":{"type":"string"}}})")}};
}

TEST(engine_rules, whitespace_between_calls_is_dropped_and_before_text_kept) {
  const std::string text =
      "<tool_call>{\"name\": \"a\"}</tool_call>\n\n<tool_call>{\"name\": \"b\"}</tool_call>\n\nDone.\n";
  auto got = parse(format::hermes, text);
  ASSERT_EQ(got.calls.size(), 2u);
  EXPECT_EQ(got.content, "\n\nDone.\n");
  EXPECT_TRUE(streams_like_whole(format::hermes, text));
  auto trailing = parse(format::hermes, "Hi <tool_call>{\"name\": \"a\"}</tool_call>  \n ");
  EXPECT_EQ(trailing.content, "Hi ");
}

TEST(engine_rules, a_line_start_call_is_found_after_the_buffer_was_compacted) {
  parse_options o{.schemas = schemas()};
  std::string text = std::string(300, 'x') + "\nget_time(tz=\"UTC\")\n" + std::string(200, 'y') +
                     " get_time(tz=\"no\")";
  auto whole = parse(format::pythonic, text, o);
  ASSERT_EQ(whole.calls.size(), 1u);
  EXPECT_EQ(whole.calls[0].arguments, json::parse(R"({"tz":"UTC"})"));
  EXPECT_EQ(whole.content, std::string(300, 'x') + "\n\n" + std::string(200, 'y') + " get_time(tz=\"no\")");
  for (std::size_t size : {1u, 2u, 5u, 17u, 64u, 299u, 301u})
    EXPECT_TRUE(same_parse(parse_chunked(format::pythonic, text, size, o), whole)) << size;
}

TEST(engine_rules, a_text_start_recipient_counts_only_at_the_very_start) {
  parse_options o{.schemas = schemas()};
  auto first = parse(format::functionary_v32, "get_time\n{\"tz\": \"A\"}", o);
  ASSERT_EQ(first.calls.size(), 1u);
  auto later = parse(format::functionary_v32, "Sure\nget_time\n{\"tz\": \"A\"}", o);
  EXPECT_TRUE(later.calls.empty());
  EXPECT_EQ(later.content, "Sure\nget_time\n{\"tz\": \"A\"}");
  EXPECT_TRUE(streams_like_whole(format::functionary_v32, "Sure\nget_time\n{\"tz\": \"A\"}", o));
  // auto does not take a bare recipient at the start (it would be ordinary prose)
  EXPECT_TRUE(parse(format::auto_detect, "get_time\n{\"tz\": \"A\"}", o).calls.empty());
}

TEST(engine_rules, reasoning_that_never_closes_is_all_reasoning) {
  auto got = parse(format::hermes, "<think>step one\nstep <tool_call>");
  EXPECT_EQ(got.reasoning, "step one\nstep <tool_call>");
  EXPECT_EQ(got.content, "");
  EXPECT_TRUE(got.calls.empty());
  EXPECT_TRUE(streams_like_whole(format::hermes, "<think>step one\nstep <tool_call>"));
}

TEST(engine_rules, in_reasoning_with_auto_detect_finds_calls_after_the_think_closes) {
  parse_options o{.in_reasoning = true};
  const std::string text = "plan</think>Ok.[TOOL_CALLS][{\"name\": \"a\", \"arguments\": {}}]";
  auto got = parse(format::auto_detect, text, o);
  EXPECT_EQ(got.reasoning, "plan");
  EXPECT_EQ(got.content, "Ok.");
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "a");
  EXPECT_TRUE(streams_like_whole(format::auto_detect, text, o));
}

TEST(engine_rules, a_stray_closing_think_is_dropped) {
  auto got = parse(format::json, "answer</think> more");
  EXPECT_EQ(got.content, "answer more");
  EXPECT_EQ(got.reasoning, "");
}

TEST(engine_rules, a_marker_cut_off_at_the_end_is_content) {
  for (format f : {format::hermes, format::mistral, format::deepseek, format::harmony, format::command_r7b}) {
    const std::string text = "Hello <tool_call";
    stream_parser p(f);
    auto d1 = p.feed("Hello ");
    auto d2 = p.feed("<tool_call");
    auto d3 = p.finish();
    EXPECT_EQ(d1.content + d2.content + d3.content, text) << to_string(f);
    EXPECT_TRUE(p.finish().empty()) << to_string(f);
    EXPECT_TRUE(p.feed("more").empty()) << to_string(f);
  }
  stream_parser held(format::hermes);
  EXPECT_EQ(held.feed("Hello <tool_").content, "Hello ");  // the possible marker is held back
  EXPECT_EQ(held.finish().content, "<tool_");
}

TEST(engine_rules, every_malformed_call_gets_its_own_diagnostic_and_id) {
  const std::string text =
      "<tool_call>{\"name\": \"a\", \"arguments\": {]}</tool_call>"
      "<tool_call>{\"name\": \"b\", \"arguments\": {}}</tool_call>"
      "<tool_call>{\"name\": \"c\", \"arguments\": 5}</tool_call>";
  auto got = parse(format::hermes, text, {.id_prefix = "id-"});
  ASSERT_EQ(got.calls.size(), 3u);
  EXPECT_EQ(got.calls[0].id, "id-0");
  EXPECT_EQ(got.calls[2].id, "id-2");
  EXPECT_TRUE(got.calls[0].arguments.is_null());
  EXPECT_EQ(got.calls[1].arguments, json::object());
  EXPECT_TRUE(got.calls[2].arguments.is_null());
  EXPECT_EQ(got.calls[2].raw_arguments, "5");
  ASSERT_EQ(got.diagnostics.size(), 2u);
  EXPECT_EQ(got.diagnostics[0], "malformed call to \"a\": the call did not parse");
  EXPECT_EQ(got.diagnostics[1], "malformed call to \"c\": its arguments did not parse");
  EXPECT_TRUE(streams_like_whole(format::hermes, text));
}

TEST(engine_rules, a_fenced_code_block_in_auto_streams_as_content_with_calls_after_it) {
  const std::string text = "```sh\necho '{\"name\": \"x\"}'\n```\n<tool_call>{\"name\": \"a\"}</tool_call>";
  auto got = parse(format::auto_detect, text);
  ASSERT_EQ(got.calls.size(), 1u);
  EXPECT_EQ(got.calls[0].name, "a");
  EXPECT_EQ(got.content, "```sh\necho '{\"name\": \"x\"}'\n```\n");
  EXPECT_TRUE(streams_like_whole(format::auto_detect, text));
}

}  // namespace
}  // namespace tooluse::textcall
