// The OpenAI Chat Completions adapter end to end through its transport: the exact request it
// sends (headers, URL, body), the JSON answer and the SSE stream decoded, and the failures it
// reports (no choices, a stream without finish_reason, an error event, an oversized event).
#include "tooluse/llm/openai_chat.hpp"

#include <gtest/gtest.h>

#include "llm_test_util.hpp"

namespace tooluse::llm {
namespace {

using testing::json_answer;
using testing::script;
using testing::sse_answer;
using testing::sse_data;
using testing::weather_tool;

json chunk(const json& delta, const json& finish = nullptr) {
  return {{"id", "c-1"},
          {"model", "gpt-x"},
          {"choices", json::array({{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}})}};
}

class openai_chat_test : public ::testing::Test {
 protected:
  script net;
  openai_chat model{{.base_url = "http://api.test/v1/",
                     .api_key = "sk-secret",
                     .model = "gpt-x",
                     .retry = {.max_retries = 0},
                     .extra_headers = {{"OpenAI-Organization", "org-1"}},
                     .transport = net.transport()}};
};

TEST(openai_chat_setup, refuses_an_empty_base_url_or_model) {
  EXPECT_THROW(openai_chat({.model = "m"}), std::invalid_argument);
  EXPECT_THROW(openai_chat({.base_url = "http://x"}), std::invalid_argument);
  EXPECT_EQ(openai_chat({.base_url = "http://x", .model = "m"}).name(), "openai");
}

TEST_F(openai_chat_test, sends_json_to_chat_completions_with_the_key_and_extra_headers) {
  net.push(json_answer(json::parse(
      R"({"id":"r1","model":"gpt-x","choices":[{"message":{"content":"hi"},"finish_reason":"stop"}]})")));
  auto r = model.complete({.messages = {message::user("hello")}});
  ASSERT_TRUE(r) << r.error().message;
  auto req = net.requests().at(0);
  EXPECT_EQ(req.method, "POST");
  EXPECT_EQ(req.url, "http://api.test/v1/chat/completions");  // one slash despite the base's
  EXPECT_EQ(testing::header_of(req, "authorization"), "Bearer sk-secret");
  EXPECT_EQ(testing::header_of(req, "content-type"), "application/json");
  EXPECT_EQ(testing::header_of(req, "openai-organization"), "org-1");
  EXPECT_EQ(testing::header_of(req, "accept"), "");  // only streams ask for SSE
  EXPECT_EQ(json::parse(req.body),
            json::parse(R"({"model":"gpt-x","messages":[{"role":"user","content":"hello"}]})"));
  EXPECT_EQ(r->reply.text(), "hi");
  EXPECT_EQ(r->id, "r1");
  EXPECT_EQ(r->model, "gpt-x");
  EXPECT_EQ(r->usage.requests, 1);
}

TEST_F(openai_chat_test, encodes_images_as_image_url_parts) {
  message m{
      .role = role::user,
      .content = {content_part::text_part("what is it?"),
                  {.type = content_part::kind::image, .data = "QUJD", .mime_type = "image/png"},
                  {.type = content_part::kind::image, .url = "https://img.test/a.jpg"}}};
  auto body = model.encode_request({.messages = {m}});
  ASSERT_TRUE(body);
  EXPECT_EQ((*body)["messages"][0]["content"], json::parse(R"([
      {"type":"text","text":"what is it?"},
      {"type":"image_url","image_url":{"url":"data:image/png;base64,QUJD"}},
      {"type":"image_url","image_url":{"url":"https://img.test/a.jpg"}}])"));
}

TEST_F(openai_chat_test, encodes_assistant_calls_reasoning_extras_and_tool_messages) {
  tool_call call = tool_call::from_text("call_1", "geo.weather", R"({"city":"Oslo"})");
  message a = message::assistant("let me check");
  a.tool_calls = {call};
  a.reasoning = "need weather";
  a.extras["openai"] = {{"refusal", nullptr}};
  message img_result{.role = role::tool,
                     .content = {content_part::text_part("map:"),
                                 {.type = content_part::kind::image,
                                  .data = "QUJDRA==",
                                  .mime_type = "image/png"}},
                     .tool_call_id = "call_1",
                     .tool_name = "geo.weather"};
  message already_error = message::tool_result(call, tooluse::tool_result::error("error: no city"));
  auto body =
      model.encode_request({.messages = {message::system("sys"), a, img_result, already_error},
                            .tools = {weather_tool()}});
  ASSERT_TRUE(body) << body.error().message;
  EXPECT_EQ((*body)["messages"][0], json::parse(R"({"role":"system","content":"sys"})"));
  EXPECT_EQ((*body)["messages"][1], json::parse(R"({"role":"assistant","content":"let me check",
      "reasoning_content":"need weather",
      "tool_calls":[{"id":"call_1","type":"function",
                     "function":{"name":"geo_weather","arguments":"{\"city\":\"Oslo\"}"}}],
      "refusal":null})"));
  // Images cannot go in a tool message: they are named in the text instead.
  EXPECT_EQ((*body)["messages"][2]["content"], "map:\n[image image/png, 8 base64 bytes not shown]");
  // A message that already starts with "error" is not prefixed twice.
  EXPECT_EQ((*body)["messages"][3]["content"], "error: no city");
}

TEST_F(openai_chat_test, assistant_without_text_sends_null_content_and_no_reasoning_without_calls) {
  message a = message::assistant("");
  a.reasoning = "thinking only";
  auto body = model.encode_request({.messages = {a}});
  ASSERT_TRUE(body);
  EXPECT_EQ((*body)["messages"][0], json::parse(R"({"role":"assistant","content":null})"));
}

TEST_F(openai_chat_test, tool_choice_parallel_limits_and_stream_options) {
  chat_request req{.messages = {message::user("x")}, .tools = {weather_tool()}};
  auto body = [&] { return *model.encode_request(req); };
  EXPECT_FALSE(body().contains("tool_choice"));  // auto is the default, not sent
  req.choice = tool_choice::parse("none");
  EXPECT_EQ(body()["tool_choice"], "none");
  req.choice = tool_choice::parse("any");
  EXPECT_EQ(body()["tool_choice"], "required");
  req.parallel_tool_calls = false;
  req.max_tokens = 64;
  req.temperature = 0.5;
  req.stream = true;
  json b = body();
  EXPECT_EQ(b["parallel_tool_calls"], false);
  EXPECT_EQ(b["max_tokens"], 64);
  EXPECT_EQ(b["temperature"], 0.5);
  EXPECT_EQ(b["stream"], true);
  EXPECT_EQ(b["stream_options"], json::parse(R"({"include_usage":true})"));
  // Required with allowed tools keeps the mode; a named choice wins over the allowed list.
  req.allowed_tools = {"geo.weather"};
  EXPECT_EQ(body()["tool_choice"]["allowed_tools"]["mode"], "required");
  req.choice = tool_choice::parse("geo.weather");
  EXPECT_EQ(body()["tool_choice"],
            json::parse(R"({"type":"function","function":{"name":"geo_weather"}})"));
}

TEST_F(openai_chat_test, no_tools_means_no_tool_fields_even_with_a_choice) {
  auto body = model.encode_request({.messages = {message::user("x")},
                                    .choice = tool_choice::parse("required"),
                                    .parallel_tool_calls = true});
  ASSERT_TRUE(body);
  EXPECT_FALSE(body->contains("tools"));
  EXPECT_FALSE(body->contains("tool_choice"));
  EXPECT_FALSE(body->contains("parallel_tool_calls"));
}

TEST_F(openai_chat_test, strict_mode_error_names_the_tool_and_nothing_is_sent) {
  tool loose{.name = "loose",
             .description = "d",
             .input_schema = json::parse(R"({"type":"object","properties":{"anything":{}}})")};
  auto r = model.complete({.messages = {message::user("x")}, .tools = {loose}, .strict = true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::unsupported);
  EXPECT_EQ(r.error().message.rfind("tool \"loose\": ", 0), 0u) << r.error().message;
  EXPECT_NE(r.error().message.find("give it a type"), std::string::npos) << r.error().message;
  EXPECT_TRUE(net.requests().empty());
}

TEST_F(openai_chat_test, decodes_calls_maps_names_back_and_strips_strict_nulls) {
  net.push(json_answer(json::parse(R"({"choices":[{"message":{"content":null,"tool_calls":[
      {"id":"c1","type":"function","function":{"name":"geo_weather","arguments":"{\"city\":\"Rome\",\"unit\":null}"}},
      {"id":"c2","type":"function","function":{"name":"geo_weather","arguments":{"city":"Paris"}}},
      {"id":"c3","type":"function","function":{"name":"geo_weather","arguments":"{\"city\":"}}]},
      "finish_reason":"tool_calls"}],
      "usage":{"prompt_tokens":30,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":20}}})")));
  auto r =
      model.complete({.messages = {message::user("x")}, .tools = {weather_tool()}, .strict = true});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->finish, finish_reason::tool_calls);
  EXPECT_TRUE(r->reply.content.empty());
  ASSERT_EQ(r->reply.tool_calls.size(), 3u);
  EXPECT_EQ(r->reply.tool_calls[0].name, "geo.weather");
  EXPECT_EQ(r->reply.tool_calls[0].arguments, json::parse(R"({"city":"Rome"})"));
  // Arguments sent as an object instead of a string are accepted as their JSON text.
  EXPECT_EQ(r->reply.tool_calls[1].raw_arguments, R"({"city":"Paris"})");
  // Unparsable arguments keep their raw text and parse to null.
  EXPECT_EQ(r->reply.tool_calls[2].raw_arguments, R"({"city":)");
  EXPECT_TRUE(r->reply.tool_calls[2].arguments.is_null());
  EXPECT_EQ(r->usage.input_tokens, 30);
  EXPECT_EQ(r->usage.output_tokens, 7);
  EXPECT_EQ(r->usage.cache_read_tokens, 20);
}

TEST_F(openai_chat_test, reads_reasoning_tokens_from_the_answer_and_the_stream_usage) {
  const json use = json::parse(R"({"prompt_tokens":30,"completion_tokens":70,
      "prompt_tokens_details":{"cached_tokens":20,"audio_tokens":0},
      "completion_tokens_details":{"reasoning_tokens":64,"audio_tokens":0,
                                   "accepted_prediction_tokens":0,"rejected_prediction_tokens":0}})");
  net.push(json_answer(
      {{"choices", json::parse(R"([{"message":{"content":"ok"},"finish_reason":"stop"}])")},
       {"usage", use}}));
  net.push(sse_answer({sse_data(chunk({{"content", "ok"}}, "stop")),
                       sse_data({{"choices", json::array()}, {"usage", use}}), "data: [DONE]\n\n"}));
  for (bool stream : {false, true}) {
    auto r = model.complete({.messages = {message::user("x")}, .stream = stream});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->usage.input_tokens, 30);
    EXPECT_EQ(r->usage.output_tokens, 70);
    EXPECT_EQ(r->usage.cache_read_tokens, 20);
    EXPECT_EQ(r->usage.reasoning_tokens, 64) << "stream " << stream;
    EXPECT_EQ(r->usage.requests, 1);
  }
}

TEST_F(openai_chat_test, maps_every_finish_reason) {
  struct row {
    const char* raw;
    finish_reason want;
  };
  for (auto [raw, want] :
       {row{"stop", finish_reason::stop}, row{"tool_calls", finish_reason::tool_calls},
        row{"function_call", finish_reason::tool_calls}, row{"length", finish_reason::length},
        row{"content_filter", finish_reason::content_filter},
        row{"insufficient_system_resource", finish_reason::other}}) {
    net.push(
        json_answer({{"choices", {{{"message", {{"content", "x"}}}, {"finish_reason", raw}}}}}));
    auto r = model.complete({.messages = {message::user("x")}});
    ASSERT_TRUE(r) << raw;
    EXPECT_EQ(r->finish, want) << raw;
    EXPECT_EQ(r->raw_finish, raw);
  }
  // A missing or null finish_reason reads as "stop".
  net.push(
      json_answer({{"choices", {{{"message", {{"content", "x"}}}, {"finish_reason", nullptr}}}}}));
  auto r = model.complete({.messages = {message::user("x")}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->raw_finish, "stop");
}

TEST_F(openai_chat_test, an_answer_without_choices_is_a_protocol_error_quoting_it) {
  net.push(json_answer(json::parse(R"({"object":"chat.completion","choices":[]})")));
  auto r = model.complete({.messages = {message::user("x")}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_EQ(
      r.error().message,
      R"(openai: response has no choices[0].message: {"object":"chat.completion","choices":[]})");
  net.push({.chunks = {"<html>gateway</html>"}});
  r = model.complete({.messages = {message::user("x")}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_EQ(r.error().message.rfind("openai: response is not JSON: ", 0), 0u) << r.error().message;
}

TEST_F(openai_chat_test, stream_assembles_fragments_split_anywhere_and_reports_progress) {
  std::string stream =
      sse_data(chunk({{"role", "assistant"}, {"content", ""}})) +
      sse_data(chunk({{"reasoning", "hmm"}})) + sse_data(chunk({{"content", "It is "}})) +
      sse_data(chunk({{"content", "sunny."}})) +
      sse_data(chunk(
          {{"tool_calls",
            json::parse(
                R"([{"index":1,"id":"b","function":{"name":"geo_weather","arguments":""}}])")}})) +
      sse_data(chunk(
          {{"tool_calls",
            json::parse(
                R"([{"index":0,"id":"a","function":{"name":"geo_weather","arguments":"{\"ci"}}])")}})) +
      sse_data(
          chunk({{"tool_calls",
                  json::parse(R"([{"index":1,"function":{"arguments":"{\"city\":\"B\"}"}}])")}})) +
      sse_data(chunk({{"tool_calls",
                       json::parse(R"([{"index":0,"function":{"arguments":"ty\":\"A\"}"}}])")}})) +
      sse_data(chunk(json::object(), "tool_calls")) +
      sse_data({{"choices", json::array()},
                {"usage", {{"prompt_tokens", 11}, {"completion_tokens", 4}}}}) +
      "data: [DONE]\n\n";
  // Cut the stream into 7-byte pieces so events and UTF-8-free JSON are split mid-token.
  std::vector<std::string> pieces;
  for (size_t i = 0; i < stream.size(); i += 7) pieces.push_back(stream.substr(i, 7));
  net.push(sse_answer(pieces));
  std::string text, reasoning;
  std::vector<std::string> started;
  auto r = model.complete(
      {.messages = {message::user("x")}, .tools = {weather_tool()}, .stream = true},
      {.on_text = [&](std::string_view s) { text += s; },
       .on_reasoning = [&](std::string_view s) { reasoning += s; },
       .on_tool_call_start = [&](const std::string& id,
                                 const std::string& name) { started.push_back(id + ":" + name); }});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(testing::header_of(net.requests()[0], "accept"), "text/event-stream");
  EXPECT_EQ(text, "It is sunny.");
  EXPECT_EQ(reasoning, "hmm");
  EXPECT_EQ(r->reply.text(), "It is sunny.");
  EXPECT_EQ(r->reply.reasoning, "hmm");
  EXPECT_EQ(started, (std::vector<std::string>{"b:geo.weather", "a:geo.weather"}));
  // Calls come out in index order, not arrival order.
  ASSERT_EQ(r->reply.tool_calls.size(), 2u);
  EXPECT_EQ(r->reply.tool_calls[0].id, "a");
  EXPECT_EQ(r->reply.tool_calls[0].arguments, json::parse(R"({"city":"A"})"));
  EXPECT_EQ(r->reply.tool_calls[1].arguments, json::parse(R"({"city":"B"})"));
  EXPECT_EQ(r->usage.input_tokens, 11);
  EXPECT_EQ(r->id, "c-1");
  EXPECT_EQ(r->model, "gpt-x");
  EXPECT_EQ(r->finish, finish_reason::tool_calls);
}

TEST_F(openai_chat_test, stream_ignores_other_choices) {
  json other = {
      {"choices", {{{"index", 1}, {"delta", {{"content", "NO"}}}, {"finish_reason", "stop"}}}}};
  net.push(sse_answer({sse_data(other), sse_data(chunk({{"content", "yes"}}, "stop"))}));
  auto r = model.complete({.messages = {message::user("x")}, .stream = true});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->reply.text(), "yes");
}

TEST_F(openai_chat_test, stream_without_finish_reason_is_a_protocol_error) {
  net.push(sse_answer({sse_data(chunk({{"content", "half an ans"}})), "data: [DONE]\n\n"}));
  auto r = model.complete({.messages = {message::user("x")}, .stream = true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_NE(r.error().message.find("no finish_reason"), std::string::npos) << r.error().message;
}

TEST_F(openai_chat_test, stream_error_event_and_garbage_event_are_reported) {
  net.push(sse_answer({sse_data(chunk({{"content", "a"}})),
                       sse_data(json::parse(R"({"error":{"message":"server overloaded"}})"))}));
  auto r = model.complete({.messages = {message::user("x")}, .stream = true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::http_error);
  EXPECT_EQ(r.error().message, "openai: error in stream: server overloaded");

  net.push(sse_answer({"data: {not json\n\n", sse_data(chunk({}, "stop"))}));
  r = model.complete({.messages = {message::user("x")}, .stream = true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_EQ(r.error().message, "openai: stream event is not JSON: {not json");
}

TEST(openai_chat_limits, an_oversized_stream_event_names_the_provider_option) {
  script net;
  openai_chat model({.base_url = "http://x/v1",
                     .model = "m",
                     .max_event_bytes = 64,
                     .retry = {.max_retries = 0},
                     .transport = net.transport()});
  net.push(sse_answer({"data: " + std::string(100, 'x'), "\n\n", sse_data(chunk({}, "stop"))}));
  auto r = model.complete({.messages = {message::user("x")}, .stream = true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::limit_exceeded);
  EXPECT_EQ(r.error().message.rfind("openai: ", 0), 0u) << r.error().message;
  EXPECT_NE(r.error().message.find("llm::provider_options::max_event_bytes"), std::string::npos)
      << r.error().message;
}

TEST(openai_chat_limits, price_turns_usage_into_cost_with_the_cached_rate) {
  script net;
  openai_chat model(
      {.base_url = "http://x/v1",
       .model = "m",
       .price = price{.input_per_mtok = 2, .output_per_mtok = 8, .cached_input_per_mtok = 0.5},
       .transport = net.transport()});
  net.push(
      json_answer(json::parse(R"({"choices":[{"message":{"content":"ok"},"finish_reason":"stop"}],
      "usage":{"prompt_tokens":1000000,"completion_tokens":250000,"prompt_tokens_details":{"cached_tokens":400000}}})")));
  auto r = model.complete({.messages = {message::user("x")}});
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->usage.cost, 0.6 * 2 + 0.4 * 0.5 + 0.25 * 8);
}

}  // namespace
}  // namespace tooluse::llm
