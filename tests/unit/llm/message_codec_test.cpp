// The one JSON form of the conversation model (message_codec.hpp) and the trace form as its
// projection: the same names and meanings, with less in it.
#include <gtest/gtest.h>

#include "tooluse/llm/message_codec.hpp"

namespace message_codec_test {
namespace {

using namespace tooluse;
using namespace tooluse::llm;

message assistant_with_everything() {
  message m = message::assistant("look");
  m.content.push_back({.type = content_part::kind::image, .data = "QUJD", .mime_type = "image/png"});
  m.tool_calls = {tool_call::from_text("c1", "add", R"({"a":1})"),
                  tool_call::from_text("c2", "add", R"({"a":)")};
  m.tool_calls[0].extras = {{"thoughtSignature", "s="}};
  m.reasoning = "r";
  m.extras = {{"k", 1}};
  return m;
}

TEST(llm_message_codec, a_message_round_trips_losslessly) {
  message m = assistant_with_everything();
  auto back = decode_message(json::parse(encode_message(m).dump()));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(encode_message(*back), encode_message(m));
  EXPECT_EQ(back->content, m.content);
  EXPECT_EQ(back->tool_calls[0].extras, m.tool_calls[0].extras);
  EXPECT_TRUE(back->tool_calls[1].arguments.is_null());
  EXPECT_EQ(back->tool_calls[1].raw_arguments, R"({"a":)");
}

TEST(llm_message_codec, the_trace_form_is_a_projection_of_the_one_form) {
  message m = assistant_with_everything();
  json full = encode_message(m);
  json trace = message_to_json(m);
  EXPECT_EQ(trace["role"], full["role"]);
  EXPECT_EQ(trace["reasoning"], full["reasoning"]);
  EXPECT_EQ(trace["extras"], full["extras"]);
  EXPECT_EQ(trace["content"][0], full["content"][0]);
  EXPECT_EQ(trace["content"][1]["bytes"], 4);  // the image's size, not its data
  EXPECT_FALSE(trace["content"][1].contains("data"));
  ASSERT_EQ(trace["tool_calls"].size(), 2u);
  for (int i = 0; i < 2; ++i) {
    // "arguments" means the same in both: the parsed arguments (null when they did not parse).
    EXPECT_EQ(trace["tool_calls"][i]["arguments"], full["tool_calls"][i]["arguments"]);
    EXPECT_EQ(trace["tool_calls"][i]["id"], full["tool_calls"][i]["id"]);
  }
  EXPECT_FALSE(trace["tool_calls"][0].contains("raw_arguments"));
  EXPECT_EQ(trace["tool_calls"][1]["raw_arguments"], R"({"a":)");
  // Read back, the trace form gives the same calls.
  auto back = decode_message(trace);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->tool_calls[0].arguments, m.tool_calls[0].arguments);
  EXPECT_EQ(back->tool_calls[1].raw_arguments, m.tool_calls[1].raw_arguments);
}

TEST(llm_message_codec, a_message_without_a_known_role_is_an_error_naming_it) {
  auto none = decode_message(json::parse(R"({"content":[]})"));
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, errc::parse_error);
  EXPECT_EQ(none.error().message, "the message has no role");
  auto odd = decode_message(json::parse(R"({"role":"wizard"})"));
  ASSERT_FALSE(odd);
  EXPECT_EQ(odd.error().message, "the message has the unknown role \"wizard\"");
}

TEST(llm_message_codec, roles_and_finish_reasons_read_back_by_their_names) {
  for (auto r : {role::system, role::user, role::assistant, role::tool})
    EXPECT_EQ(role_from_name(to_string(r)), r);
  for (auto f : {finish_reason::stop, finish_reason::tool_calls, finish_reason::length,
                 finish_reason::content_filter, finish_reason::pause,
                 finish_reason::context_window, finish_reason::other})
    EXPECT_EQ(finish_from_name(to_string(f)), f);
  EXPECT_FALSE(role_from_name("developer"));
  EXPECT_FALSE(finish_from_name("end_turn"));
}

TEST(llm_message_codec, usage_keeps_every_counter_and_the_trace_form_adds_the_total) {
  usage u{.input_tokens = 10, .output_tokens = 4, .cache_read_tokens = 3,
          .reasoning_tokens = 2, .cost = 0.25, .requests = 1};
  usage back = decode_usage(encode_usage(u));
  EXPECT_EQ(back.reasoning_tokens, 2);
  EXPECT_EQ(back.cache_read_tokens, 3);
  EXPECT_EQ(back.requests, 1);
  json trace = usage_to_json(u);
  EXPECT_EQ(trace["total_tokens"], 14);
  EXPECT_EQ(trace["reasoning_tokens"], 2);
  EXPECT_FALSE(trace.contains("cache_write_tokens"));  // zero counts are left out
}

}  // namespace
}  // namespace message_codec_test
