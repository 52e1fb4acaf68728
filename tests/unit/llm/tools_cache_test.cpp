// The adapters translate and serialise a request's tools once and reuse them while the next
// requests carry the same tools (llm/exchange.hpp, tools_cache): what goes on the wire is
// byte for byte the body encode_request describes, a changed tool or setting is translated
// again, and answers are decoded with the settings of their own request.
#include <gtest/gtest.h>

#include <memory>

#include "llm_test_util.hpp"
#include "tooluse/llm/anthropic_messages.hpp"
#include "tooluse/llm/gemini.hpp"
#include "tooluse/llm/openai_chat.hpp"
#include "tooluse/llm/openai_responses.hpp"

namespace tooluse::llm::tools_cache_test {
namespace {

using testing::json_answer;
using testing::script;
using testing::weather_tool;

// A whole answer each provider accepts: text only.
json text_answer(const std::string& provider) {
  if (provider == "openai")
    return json::parse(R"({"choices":[{"message":{"content":"ok"},"finish_reason":"stop"}]})");
  if (provider == "openai-responses")
    return json::parse(R"({"status":"completed","output":[{"type":"message","role":"assistant",
        "content":[{"type":"output_text","text":"ok"}]}]})");
  if (provider == "anthropic")
    return json::parse(R"({"content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn"})");
  return json::parse(R"({"candidates":[{"content":{"parts":[{"text":"ok"}]},
      "finishReason":"STOP"}]})");
}

std::unique_ptr<http_adapter> make(const std::string& provider, script& net) {
  provider_options o{.base_url = "http://api.test/v1",
                     .model = "m",
                     .retry = {.max_retries = 0},
                     .transport = net.transport()};
  if (provider == "openai") return std::make_unique<openai_chat>(o);
  if (provider == "openai-responses") return std::make_unique<openai_responses>(o);
  if (provider == "anthropic") return std::make_unique<anthropic_messages>(o);
  return std::make_unique<gemini>(o);
}

class tools_cache_test : public ::testing::TestWithParam<std::string> {};

TEST_P(tools_cache_test, every_request_sends_the_bytes_encode_request_describes) {
  script net;
  auto model = make(GetParam(), net);
  chat_request req{.messages = {message::system("be brief"), message::user("weather?")},
                   .tools = {weather_tool()}};
  for (int turn = 0; turn < 3; ++turn) {
    net.push(json_answer(text_answer(GetParam())));
    auto r = model->complete(req);
    ASSERT_TRUE(r) << r.error().message;
    auto body = model->encode_request(req);
    ASSERT_TRUE(body) << body.error().message;
    EXPECT_EQ(net.requests().at(turn).body, dump_json(*body)) << "turn " << turn;
    req.messages.push_back(message::assistant("ok"));
    req.messages.push_back(message::user("and tomorrow?"));
  }
}

TEST_P(tools_cache_test, a_changed_tool_is_translated_again) {
  script net;
  auto model = make(GetParam(), net);
  chat_request req{.messages = {message::user("weather?")}, .tools = {weather_tool()}};
  net.push(json_answer(text_answer(GetParam())));
  ASSERT_TRUE(model->complete(req));
  req.tools[0].input_schema["properties"]["days"] = {{"type", "integer"}};
  req.tools[0].description = "Weather for a city, some days ahead";
  net.push(json_answer(text_answer(GetParam())));
  ASSERT_TRUE(model->complete(req));
  std::string second = net.requests().at(1).body;
  EXPECT_EQ(second, dump_json(*model->encode_request(req)));
  EXPECT_NE(second.find("some days ahead"), std::string::npos) << second;
  EXPECT_NE(second.find("\"days\""), std::string::npos) << second;
  EXPECT_NE(net.requests().at(0).body, second);
}

INSTANTIATE_TEST_SUITE_P(providers, tools_cache_test,
                         ::testing::Values("openai", "openai-responses", "anthropic", "gemini"));

// Strict mode changes both the tools sent and how an answer's arguments are read (the nulls a
// strict schema forces are dropped): each request is decoded with its own setting.
TEST(tools_cache, each_answer_is_decoded_with_its_own_requests_strictness) {
  script net;
  openai_chat model({.base_url = "http://api.test/v1",
                     .model = "m",
                     .retry = {.max_retries = 0},
                     .transport = net.transport()});
  json answer = json::parse(R"({"choices":[{"message":{"content":null,"tool_calls":[
      {"id":"c1","type":"function","function":{"name":"geo_weather",
       "arguments":"{\"city\":\"Rome\",\"unit\":null}"}}]},"finish_reason":"tool_calls"}]})");
  chat_request req{.messages = {message::user("x")}, .tools = {weather_tool()}, .strict = true};
  for (bool strict : {true, false, true}) {
    req.strict = strict;
    net.push(json_answer(answer));
    auto r = model.complete(req);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->reply.tool_calls.size(), 1u);
    json expected = strict ? json::parse(R"({"city":"Rome"})")
                           : json::parse(R"({"city":"Rome","unit":null})");
    EXPECT_EQ(r->reply.tool_calls[0].arguments, expected) << "strict " << strict;
    json sent = net.body(net.requests().size() - 1);
    EXPECT_EQ(sent["tools"][0]["function"].contains("strict"), strict);
  }
}

}  // namespace
}  // namespace tooluse::llm::tools_cache_test
