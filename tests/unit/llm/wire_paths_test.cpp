// Provider answers are decoded through their wire types (src/llm/*_wire.hpp, TOOLUSE_WIRE):
// a field of the wrong type is an errc::protocol_error whose message names the provider and
// the field's path (`openai: the answer has a field of an unexpected type:
// response.choices[0].message.tool_calls[1].id: expected string, got integer 3`), streamed or
// not; fields a newer API adds are ignored.
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

const std::string shape = "the answer has a field of an unexpected type: ";

template <class Provider>
class wire_paths : public ::testing::Test {
 protected:
  script net;
  Provider model{{.base_url = "http://x/v1",
                  .model = "m",
                  .retry = {.max_retries = 0},
                  .transport = net.transport()}};
  tool t{.name = "t",
         .description = "d",
         .input_schema = json::parse(R"({"type":"object","properties":{}})")};

  // answer sends `body` as the JSON answer and returns the error message ("" on success).
  std::string answer(const char* body) {
    net.push(json_answer(json::parse(body)));
    return message_of(model.complete({.messages = {message::user("x")}, .tools = {t}}));
  }
  std::string stream(const std::vector<const char*>& events) {
    std::vector<std::string> chunks;
    for (const char* e : events) chunks.push_back(sse_data(json::parse(e)));
    net.push(sse_answer(chunks));
    return message_of(
        model.complete({.messages = {message::user("x")}, .tools = {t}, .stream = true}));
  }
  result<chat_response> ok(const char* body) {
    net.push(json_answer(json::parse(body)));
    return model.complete({.messages = {message::user("x")}, .tools = {t}});
  }

 private:
  static std::string message_of(const result<chat_response>& r) {
    if (r) return "";
    EXPECT_EQ(r.error().code, errc::protocol_error) << r.error().message;
    return r.error().message;
  }
};

using openai_paths = wire_paths<openai_chat>;
using anthropic_paths = wire_paths<anthropic_messages>;
using responses_paths = wire_paths<openai_responses>;
using gemini_paths = wire_paths<gemini>;

TEST_F(openai_paths, a_wrong_type_in_a_nested_array_names_its_path) {
  EXPECT_EQ(answer(R"({"choices":[{"message":{"tool_calls":[
                {"id":"a","function":{"name":"t","arguments":"{}"}},
                {"id":3,"function":{"name":"t"}}]}}]})"),
            "openai: " + shape +
                "response.choices[0].message.tool_calls[1].id: expected string, got integer 3");
  EXPECT_EQ(answer(R"({"choices":[{"message":{"content":"x"}}],
                       "usage":{"prompt_tokens":1,"prompt_tokens_details":{"cached_tokens":"2"}}})"),
            "openai: " + shape +
                "response.usage.prompt_tokens_details.cached_tokens: expected integer, got "
                "string \"2\"");
  EXPECT_EQ(answer(R"({"choices":[{"message":{"tool_calls":{"id":"a"}}}]})"),
            "openai: " + shape + "response.choices[0].message.tool_calls: expected array, got object");
}

TEST_F(openai_paths, a_stream_chunk_of_the_wrong_shape_names_the_chunk_path) {
  EXPECT_EQ(stream({R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":["t"]}}]}}]})",
                    R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})"}),
            "openai: " + shape +
                "chunk.choices[0].delta.tool_calls[0].function.name: expected string, got array");
  EXPECT_EQ(stream({R"({"choices":[{"index":0,"delta":{},"finish_reason":7}]})"}),
            "openai: " + shape + "chunk.choices[0].finish_reason: expected string, got integer 7");
}

TEST_F(openai_paths, unknown_fields_and_nulls_are_ignored_and_lenient_shapes_kept) {
  auto r = ok(R"({"id":"c1","model":"m","system_fingerprint":"fp","service_tier":{"new":1},
                  "choices":[{"index":0,"logprobs":null,"message":{"role":"assistant",
                    "content":null,"refusal":null,"annotations":[],"reasoning_content":null,
                    "tool_calls":[{"id":"a","type":"function","extra":true,
                      "function":{"name":"t","arguments":{"k":1}}}]},
                    "finish_reason":null}],
                  "usage":{"prompt_tokens":3,"completion_tokens":2,"prompt_tokens_details":null,
                           "completion_tokens_details":{"reasoning_tokens":1}}})");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->reply.tool_calls.size(), 1u);
  EXPECT_EQ(r->reply.tool_calls[0].arguments, json::parse(R"({"k":1})"));  // object arguments
  EXPECT_EQ(r->raw_finish, "stop");                                         // null finish
  EXPECT_EQ(r->usage.input_tokens, 3);
  EXPECT_EQ(r->id, "c1");
}

TEST_F(anthropic_paths, wrong_types_name_the_block_and_the_event) {
  EXPECT_EQ(answer(R"({"content":[{"type":"text","text":"a"},{"type":"tool_use","id":"u","name":5}],
                       "stop_reason":"tool_use"})"),
            "anthropic: " + shape + "response.content[1].name: expected string, got integer 5");
  EXPECT_EQ(answer(R"({"content":[],"usage":{"input_tokens":1.5}})"),
            "anthropic: " + shape + "response.usage.input_tokens: expected integer, got number 1.5");
  EXPECT_EQ(stream({R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"u","name":"t"}})",
                    R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":{}}})",
                    R"({"type":"message_stop"})"}),
            "anthropic: " + shape + "event.delta.partial_json: expected string, got object");
  EXPECT_EQ(stream({R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":[1]}})",
                    R"({"type":"message_stop"})"}),
            "anthropic: " + shape + "event.content_block.id: expected string, got array");
}

TEST_F(anthropic_paths, unknown_fields_and_block_types_are_ignored) {
  auto r = ok(R"({"id":"msg","type":"message","role":"assistant","model":"m","container":null,
                  "content":[{"type":"text","text":"hi","citations":null},
                             {"type":"new_block_kind","payload":{"x":1}}],
                  "stop_reason":"end_turn","stop_sequence":null,
                  "usage":{"input_tokens":2,"output_tokens":1,"cache_creation_input_tokens":null,
                           "server_tool_use":{"web_search_requests":0}}})");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->reply.text(), "hi");
  EXPECT_EQ(r->usage.input_tokens, 2);
  EXPECT_EQ(r->reply.extras["anthropic"]["content"][1]["payload"]["x"], 1);  // echoed as sent
}

TEST_F(responses_paths, wrong_types_name_the_output_item_and_the_event) {
  EXPECT_EQ(answer(R"({"status":"completed","output":[{"type":"message","content":[
                       {"type":"output_text","text":"a"},{"type":"output_text","text":false}]}]})"),
            "openai-responses: " + shape +
                "response.output[0].content[1].text: expected string, got boolean false");
  EXPECT_EQ(answer(R"({"status":"completed","output":[],"usage":{"output_tokens_details":[]}})"),
            "openai-responses: " + shape +
                "response.usage.output_tokens_details: expected object, got array");
  EXPECT_EQ(stream({R"({"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":{}}})"}),
            "openai-responses: " + shape + "event.item.call_id: expected string, got object");
}

TEST_F(responses_paths, unknown_fields_and_item_kinds_are_ignored) {
  auto r = ok(R"({"id":"r","object":"response","status":"completed","model":"m","store":true,
                  "output":[{"type":"web_search_call","id":"ws","status":"completed"},
                            {"type":"message","id":"m1","role":"assistant","content":[
                              {"type":"output_text","text":"hi","annotations":[]}]}],
                  "usage":{"input_tokens":4,"output_tokens":1,"total_tokens":5}})");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->reply.text(), "hi");
  EXPECT_EQ(r->usage.input_tokens, 4);
  EXPECT_EQ(r->finish, finish_reason::stop);
}

TEST_F(gemini_paths, wrong_types_name_the_part_and_the_chunk) {
  EXPECT_EQ(answer(R"({"candidates":[{"content":{"parts":[{"text":"a"},
                       {"functionCall":{"name":"t","id":9}}]},"finishReason":"STOP"}]})"),
            "gemini: " + shape +
                "response.candidates[0].content.parts[1].functionCall.id: expected string, got "
                "integer 9");
  EXPECT_EQ(answer(R"({"candidates":[{"content":{"parts":[]}}],"usageMetadata":{"thoughtsTokenCount":-1.5}})"),
            "gemini: " + shape +
                "response.usageMetadata.thoughtsTokenCount: expected integer, got number -1.5");
  EXPECT_EQ(stream({R"({"candidates":[{"content":{"parts":[{"text":"x","thought":"no"}]},"finishReason":"STOP"}]})"}),
            "gemini: " + shape +
                "chunk.candidates[0].content.parts[0].thought: expected boolean, got string \"no\"");
}

TEST_F(gemini_paths, unknown_fields_and_part_kinds_are_ignored) {
  auto r = ok(R"({"candidates":[{"content":{"role":"model","parts":[
                    {"text":"hi","thoughtSignature":"sig"},{"executableCode":{"code":"1"}},
                    {"functionCall":{"name":"t","args":[1]}}]},
                  "finishReason":"STOP","safetyRatings":[],"index":0}],
                  "usageMetadata":{"promptTokenCount":2,"promptTokensDetails":[]},
                  "modelVersion":"g","responseId":"id1","sdkHttpResponse":{}})");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->reply.text(), "hi");
  ASSERT_EQ(r->reply.tool_calls.size(), 1u);
  EXPECT_EQ(r->reply.tool_calls[0].arguments, json::object());  // args not an object: {}
  EXPECT_EQ(r->reply.tool_calls[0].id, "gemini_call_0");
  EXPECT_EQ(r->reply.extras["gemini"]["parts"][0]["thoughtSignature"], "sig");  // echoed
  EXPECT_EQ(r->model, "g");
}

}  // namespace
}  // namespace tooluse::llm
