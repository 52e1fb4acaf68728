// Answers of the right outline but with fields of the wrong type (a number where a string
// goes, a string where an object goes) must come back as errors naming the provider, never
// as an exception out of complete() -- streamed or not, for every adapter.
#include <gtest/gtest.h>

#include "llm_test_util.hpp"
#include "tooluse/llm/anthropic_messages.hpp"
#include "tooluse/llm/gemini.hpp"
#include "tooluse/llm/openai_chat.hpp"
#include "tooluse/llm/openai_responses.hpp"

namespace tooluse::llm {
namespace {

using testing::json_answer;
using testing::script;
using testing::sse_answer;
using testing::sse_data;

template <class Provider>
void expect_contained(const char* who, const std::vector<json>& bodies,
                      const std::vector<std::vector<std::string>>& streams) {
  script net;
  Provider model({.base_url = "http://x/v1",
                  .model = "m",
                  .retry = {.max_retries = 0},
                  .transport = net.transport()});
  tool t{.name = "t",
         .description = "d",
         .input_schema = json::parse(R"({"type":"object","properties":{}})")};
  int shape_errors = 0;  // answers refused for a field's type: the containment at work
  auto count = [&](const result<chat_response>& r) {
    if (!r && r.error().code == errc::protocol_error &&
        r.error().message.find("the answer has a field of an unexpected type") != std::string::npos)
      ++shape_errors;
  };
  for (const auto& body : bodies) {
    net.push(json_answer(body));
    result<chat_response> r = fail(errc::internal, "not run");
    EXPECT_NO_THROW(r = model.complete({.messages = {message::user("x")}, .tools = {t}}))
        << body.dump();
    count(r);
    if (!r) {
      EXPECT_EQ(r.error().message.rfind(std::string(who) + ": ", 0), 0u) << r.error().message;
    }
  }
  for (const auto& events : streams) {
    net.push(sse_answer(events));
    result<chat_response> r = fail(errc::internal, "not run");
    EXPECT_NO_THROW(
        r = model.complete({.messages = {message::user("x")}, .tools = {t}, .stream = true}))
        << events.front();
    count(r);
    if (!r) {
      EXPECT_EQ(r.error().message.rfind(std::string(who) + ": ", 0), 0u) << r.error().message;
    }
  }
  EXPECT_GT(shape_errors, 0) << who;
}

TEST(hostile_answers, openai_chat) {
  expect_contained<openai_chat>(
      "openai",
      {json::parse(R"({"model":5,"choices":[{"message":{"content":"x"},"finish_reason":"stop"}]})"),
       json::parse(R"({"id":[],"choices":[{"message":{"content":"x"}}]})"),
       json::parse(
           R"({"choices":[{"message":{"tool_calls":[{"id":7,"function":{"name":"t"}}]}}]})"),
       json::parse(
           R"({"choices":[{"message":{"tool_calls":[{"id":"a","function":{"name":["t"]}}]}}]})"),
       json::parse(R"({"choices":[{"message":{"tool_calls":[{"id":"a","function":"t"}]}}]})"),
       json::parse(R"({"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":"many"}})"),
       json::parse(R"({"choices":[{"message":{"tool_calls":["t"]}}]})")},
      {{sse_data(json::parse(
           R"({"model":5,"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]})"))},
       {sse_data(json::parse(
           R"({"choices":[{"index":"0","delta":{"content":"x"},"finish_reason":"stop"}]})"))},
       {sse_data(json::parse(
           R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":"1","function":{"name":"t"}}]},"finish_reason":"stop"}]})"))},
       {sse_data(json::parse(
           R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":"t"}]},"finish_reason":"stop"}]})"))},
       {sse_data(json::parse(R"({"choices":["x"]})")),
        sse_data(json::parse(R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})"))}});
}

TEST(hostile_answers, anthropic) {
  expect_contained<anthropic_messages>(
      "anthropic",
      {json::parse(R"({"content":[{"type":"text","text":5}],"stop_reason":"end_turn"})"),
       json::parse(R"({"content":[{"type":7}],"stop_reason":"end_turn"})"),
       json::parse(R"({"content":["text"],"stop_reason":"end_turn"})"),
       json::parse(
           R"({"content":[{"type":"tool_use","id":1,"name":"t","input":{}}],"stop_reason":"tool_use"})"),
       json::parse(R"({"content":[{"type":"thinking","thinking":["a"]}],"model":5})")},
      {{sse_data(json::parse(R"({"type":"message_start","message":"m"})")),
        sse_data(json::parse(R"({"type":"message_stop"})"))},
       {sse_data(json::parse(
            R"({"type":"content_block_start","index":"0","content_block":{"type":"text"}})")),
        sse_data(json::parse(R"({"type":"message_stop"})"))},
       {sse_data(json::parse(R"({"type":"content_block_start","index":0,"content_block":"text"})")),
        sse_data(json::parse(R"({"type":"message_stop"})"))},
       {sse_data(json::parse(
            R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":5}})")),
        sse_data(json::parse(R"({"type":"message_stop"})"))},
       {sse_data(json::parse(
            R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":5,"name":"t"}})")),
        sse_data(json::parse(R"({"type":"message_stop"})"))},
       {sse_data(json::parse(R"({"type":5})"))}});
}

TEST(hostile_answers, openai_responses) {
  expect_contained<openai_responses>(
      "openai-responses",
      {json::parse(
           R"({"status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":5}]}]})"),
       json::parse(R"({"status":5,"output":[]})"),
       json::parse(R"({"status":"completed","output":["message"]})"),
       json::parse(
           R"({"status":"completed","output":[{"type":"function_call","call_id":5,"name":"t"}]})"),
       json::parse(R"({"status":"completed","output":[{"type":"reasoning","summary":["x"]}]})"),
       json::parse(R"({"status":"incomplete","incomplete_details":{"reason":5},"output":[]})"),
       json::parse(R"({"status":"failed","error":{"message":5},"output":[]})")},
      {{sse_data(
           json::parse(R"({"type":"response.output_item.added","output_index":"0","item":{}})"))},
       {sse_data(json::parse(
           R"({"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","name":5}})"))},
       {sse_data(json::parse(
           R"({"type":"response.function_call_arguments.delta","output_index":0,"delta":5})"))},
       {sse_data(json::parse(R"({"type":"response.completed","response":"done"})"))}});
}

TEST(hostile_answers, gemini) {
  expect_contained<gemini>(
      "gemini",
      {json::parse(
           R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":5}}]},"finishReason":"STOP"}]})"),
       json::parse(
           R"({"candidates":[{"content":{"parts":[{"text":"x","thought":"yes"}]},"finishReason":"STOP"}]})"),
       json::parse(R"({"candidates":[{"content":{"parts":["x"]},"finishReason":5}]})"),
       json::parse(R"({"candidates":["x"]})"),
       json::parse(
           R"({"candidates":[{"content":{"parts":[]}}],"usageMetadata":{"promptTokenCount":"x"}})"),
       json::parse(R"({"candidates":[{"content":{"parts":[{"functionCall":"t"}]}}]})")},
      {{sse_data(json::parse(
           R"({"candidates":[{"content":{"parts":[{"text":"x","thought":1}]},"finishReason":"STOP"}]})"))},
       {sse_data(json::parse(
           R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":5}}]},"finishReason":"STOP"}]})"))},
       {sse_data(json::parse(R"({"candidates":[{"content":"x","finishReason":"STOP"}]})"))},
       {sse_data(
           json::parse(R"({"candidates":[{"content":{"parts":"x"},"finishReason":"STOP"}]})"))}});
}

}  // namespace
}  // namespace tooluse::llm
