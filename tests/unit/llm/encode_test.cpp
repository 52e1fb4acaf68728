#include <gtest/gtest.h>

#include "llm/wire_common.hpp"
#include "support/fake_llm_server.hpp"
#include "tooluse/llm/anthropic_messages.hpp"
#include "tooluse/llm/openai_chat.hpp"

namespace tooluse::llm::encode_test {
namespace {

tool dotted_tool() {
  return {.name = "math.add", .description = "Add",
          .input_schema = json::parse(
              R"({"type":"object","properties":{"a":{"type":"number"}},"required":["a"]})")};
}

chat_request conversation() {
  tool_call call = tool_call::from_text("c1", "math.add", R"({"a":1})");
  message assistant = message::assistant("");
  assistant.tool_calls = {call};
  return {.messages = {message::system("be brief"), message::user("add"), assistant,
                       message::tool_result(call, tooluse::tool_result::error("bad"))},
          .tools = {dotted_tool()},
          .choice = tool_choice::parse("math.add")};
}

TEST(openai_encode, maps_dotted_names_and_sends_errors_as_text) {
  openai_chat model({.base_url = "http://x/v1", .model = "m"});
  auto body = model.encode_request(conversation());
  ASSERT_TRUE(body) << body.error().message;
  EXPECT_EQ((*body)["tools"][0]["function"]["name"], "math_add");
  EXPECT_EQ((*body)["tool_choice"]["function"]["name"], "math_add");
  EXPECT_EQ((*body)["messages"][2]["tool_calls"][0]["function"]["name"], "math_add");
  EXPECT_EQ((*body)["messages"][3],
            json::parse(R"({"role":"tool","tool_call_id":"c1","content":"Error: bad"})"));
}

TEST(openai_encode, strict_mode_sends_a_strict_schema) {
  openai_chat model({.base_url = "http://x/v1", .model = "m"});
  auto req = conversation();
  req.strict = true;
  auto body = model.encode_request(req);
  ASSERT_TRUE(body) << body.error().message;
  EXPECT_EQ((*body)["tools"][0]["function"]["strict"], true);
  EXPECT_EQ((*body)["tools"][0]["function"]["parameters"]["additionalProperties"], false);
}

TEST(anthropic_encode, puts_system_on_top_and_flags_error_results) {
  anthropic_messages model({.base_url = "http://x", .model = "m"});
  auto body = model.encode_request(conversation());
  ASSERT_TRUE(body) << body.error().message;
  EXPECT_EQ((*body)["system"], "be brief");
  EXPECT_EQ((*body)["max_tokens"], 4096);
  EXPECT_EQ((*body)["tool_choice"], json::parse(R"({"type":"tool","name":"math_add"})"));
  EXPECT_EQ((*body)["messages"][1]["content"][0]["name"], "math_add");
  EXPECT_EQ((*body)["messages"][2],
            json::parse(R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"bad","is_error":true}]})"));
}

TEST(retry_delay, honours_retry_after_and_caps_it) {
  retry_policy p{.max_retries = 3, .initial_delay = std::chrono::milliseconds(100),
                 .max_delay = std::chrono::milliseconds(5000)};
  EXPECT_EQ(detail::retry_delay(p, 0, {{"Retry-After", "2"}}).count(), 2000);
  EXPECT_EQ(detail::retry_delay(p, 0, {{"retry-after-ms", "250"}}).count(), 250);
  EXPECT_EQ(detail::retry_delay(p, 0, {{"Retry-After", "3600"}}).count(), 5000);
  auto backoff = detail::retry_delay(p, 2, {}).count();
  EXPECT_GE(backoff, 400);
  EXPECT_LE(backoff, 500);
}

TEST(openai_chat, reports_401_with_the_provider_message) {
  tooluse::testing::fake_llm_server server;
  server.push(tooluse::testing::error_response(401, "Incorrect API key provided"));
  openai_chat model({.base_url = server.url("/v1"), .api_key = "k", .model = "m"});
  auto r = model.complete({.messages = {message::user("hi")}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::http_error);
  EXPECT_NE(r.error().message.find("HTTP 401"), std::string::npos);
  EXPECT_NE(r.error().message.find("Incorrect API key provided (check the API key)"),
            std::string::npos) << r.error().message;
}

TEST(openai_chat, assembles_streamed_reasoning_text_and_usage_with_price) {
  tooluse::testing::fake_llm_server server;
  server.push(tooluse::testing::openai_response({.text = "hello", .input_tokens = 1000000,
                                        .output_tokens = 500000, .reasoning = "think"}, true));
  openai_chat model({.base_url = server.url("/v1"), .model = "m",
                     .price = llm::price{.input_per_mtok = 2, .output_per_mtok = 8}});
  std::string reasoning;
  auto r = model.complete({.messages = {message::user("hi")}, .stream = true},
                          {.on_reasoning = [&](std::string_view s) { reasoning += s; }});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->reply.text(), "hello");
  EXPECT_EQ(r->reply.reasoning, "think");
  EXPECT_EQ(reasoning, "think");
  EXPECT_DOUBLE_EQ(r->usage.cost, 6.0);
}

TEST(openai_chat, cancellation_stops_a_slow_request) {
  tooluse::testing::fake_llm_server server;
  auto slow = tooluse::testing::openai_response({.text = "late"}, false);
  slow.delay = std::chrono::milliseconds(3000);
  server.push(slow);
  openai_chat model({.base_url = server.url("/v1"), .model = "m"});
  std::stop_source stop;
  stop.request_stop();
  auto r = model.complete({.messages = {message::user("hi")}}, {}, stop.get_token());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::cancelled);
}

}  // namespace
}  // namespace tooluse::llm
