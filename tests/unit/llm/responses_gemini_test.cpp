// The OpenAI Responses and Gemini adapters through their transports: URLs and headers, the
// decoding of finished, incomplete and failed answers, their event streams, and what goes back
// on the next turn (output items, model parts, function response ids).
#include <gtest/gtest.h>

#include "llm_test_util.hpp"
#include "tooluse/llm/gemini.hpp"
#include "tooluse/llm/openai_responses.hpp"

namespace tooluse::llm {
namespace {

using testing::json_answer;
using testing::script;
using testing::sse_answer;
using testing::sse_data;

tool lookup_tool() {
  return {.name = "db.lookup",
          .description = "Look up",
          .input_schema = json::parse(
              R"({"type":"object","properties":{"key":{"type":"string"}},"required":["key"]})")};
}

// ---- Responses ----

class responses_test : public ::testing::Test {
 protected:
  script net;
  openai_responses model{{.base_url = "http://api.test/v1",
                          .api_key = "sk",
                          .model = "o-x",
                          .retry = {.max_retries = 0},
                          .transport = net.transport()}};
};

TEST(responses_setup, refuses_an_empty_base_url_or_model) {
  EXPECT_THROW(openai_responses({.model = "m"}), std::invalid_argument);
  EXPECT_THROW(openai_responses({.base_url = "http://x"}), std::invalid_argument);
  EXPECT_EQ(openai_responses({.base_url = "http://x", .model = "m"}).name(), "openai-responses");
}

TEST_F(responses_test, decodes_reasoning_text_calls_and_usage_and_echoes_the_output) {
  json output = json::parse(R"([
      {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Think."}],"encrypted_content":"ENC"},
      {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Checking"},{"type":"refusal","refusal":"x"}]},
      {"type":"function_call","id":"fc_1","call_id":"call_1","name":"db_lookup","arguments":"{\"key\":\"k\"}"}])");
  net.push(json_answer({{"id", "resp_1"},
                        {"model", "o-x"},
                        {"status", "completed"},
                        {"output", output},
                        {"usage", json::parse(R"({"input_tokens":50,"output_tokens":20,
                            "input_tokens_details":{"cached_tokens":10},"output_tokens_details":{"reasoning_tokens":12}})")}}));
  auto r = model.complete({.messages = {message::user("go")}, .tools = {lookup_tool()}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(net.requests()[0].url, "http://api.test/v1/responses");
  EXPECT_EQ(testing::header_of(net.requests()[0], "authorization"), "Bearer sk");
  EXPECT_EQ(r->finish, finish_reason::tool_calls);
  EXPECT_EQ(r->raw_finish, "completed");
  EXPECT_EQ(r->reply.text(), "Checking");
  EXPECT_EQ(r->reply.reasoning, "Think.");
  ASSERT_EQ(r->reply.tool_calls.size(), 1u);
  EXPECT_EQ(r->reply.tool_calls[0].id, "call_1");
  EXPECT_EQ(r->reply.tool_calls[0].name, "db.lookup");
  EXPECT_EQ(r->usage.cache_read_tokens, 10);
  EXPECT_EQ(r->usage.reasoning_tokens, 12);
  EXPECT_EQ(r->usage.requests, 1);
  EXPECT_EQ(r->id, "resp_1");
  // The next request replays the output items verbatim, then the function output.
  auto body = model.encode_request(
      {.messages = {message::user("go"), r->reply,
                    message::tool_result(r->reply.tool_calls[0], tooluse::tool_result::text("v"))},
       .tools = {lookup_tool()}});
  ASSERT_TRUE(body);
  json want = json::array({json::parse(R"({"role":"user","content":"go"})")});
  for (const auto& item : output) want.push_back(item);
  want.push_back(json::parse(R"({"type":"function_call_output","call_id":"call_1","output":"v"})"));
  EXPECT_EQ((*body)["input"], want);
}

TEST_F(responses_test, builds_items_from_a_neutral_message_and_input_parts_for_images) {
  message a = message::assistant("sure");
  a.tool_calls = {tool_call::from_text("c9", "db.lookup", "")};
  message u{
      .role = role::user,
      .content = {content_part::text_part("see"),
                  {.type = content_part::kind::image, .data = "QQ==", .mime_type = "image/gif"}}};
  auto body = model.encode_request(
      {.messages = {u, a}, .tools = {lookup_tool()}, .parallel_tool_calls = false});
  ASSERT_TRUE(body);
  EXPECT_EQ((*body)["input"], json::parse(R"([
      {"role":"user","content":[{"type":"input_text","text":"see"},{"type":"input_image","image_url":"data:image/gif;base64,QQ=="}]},
      {"role":"assistant","content":"sure"},
      {"type":"function_call","call_id":"c9","name":"db_lookup","arguments":"{}"}])"));
  EXPECT_EQ((*body)["parallel_tool_calls"], false);
  EXPECT_FALSE(body->contains("tool_choice"));
  EXPECT_EQ((*body)["tools"][0],
            json::parse(R"({"type":"function","name":"db_lookup","description":"Look up",
      "parameters":{"type":"object","properties":{"key":{"type":"string"}},"required":["key"]},
      "strict":false})"))
      << (*body)["tools"][0].dump();
}

TEST_F(responses_test, incomplete_and_failed_responses) {
  struct row {
    const char* reason;
    finish_reason want;
  };
  for (auto [reason, want] :
       {row{"max_output_tokens", finish_reason::length},
        row{"content_filter", finish_reason::content_filter}, row{"other", finish_reason::other}}) {
    net.push(json_answer({{"status", "incomplete"},
                          {"incomplete_details", {{"reason", reason}}},
                          {"output", json::array()}}));
    auto r = model.complete({.messages = {message::user("x")}});
    ASSERT_TRUE(r) << reason;
    EXPECT_EQ(r->finish, want) << reason;
    EXPECT_EQ(r->raw_finish, reason);
  }
  net.push(json_answer(json::parse(
      R"({"status":"failed","output":[],"error":{"code":"server_error","message":"model crashed"}})")));
  auto r = model.complete({.messages = {message::user("x")}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::http_error);
  EXPECT_EQ(r.error().message, "openai-responses: the response failed: model crashed");
  net.push(json_answer(json::parse(R"({"status":"completed"})")));
  r = model.complete({.messages = {message::user("x")}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_EQ(r.error().message,
            R"(openai-responses: response has no output array: {"status":"completed"})");
}

TEST_F(responses_test, stream_uses_completed_output_and_reports_deltas) {
  std::string text, reasoning;
  std::vector<std::string> started;
  json done_call = json::parse(
      R"({"type":"function_call","id":"fc","call_id":"call_7","name":"db_lookup","arguments":"{\"key\":\"z\"}"})");
  net.push(sse_answer(
      {sse_data(json::parse(R"({"type":"response.created","response":{"id":"r"}})"),
                "response.created"),
       sse_data(json::parse(R"({"type":"response.reasoning_summary_text.delta","delta":"hm"})")),
       sse_data(
           json::parse(R"({"type":"response.output_text.delta","output_index":1,"delta":"Hi"})")),
       sse_data(
           {{"type", "response.output_item.added"},
            {"output_index", 2},
            {"item",
             json::parse(
                 R"({"type":"function_call","call_id":"call_7","name":"db_lookup","arguments":""})")}}),
       sse_data(json::parse(
           R"({"type":"response.function_call_arguments.delta","output_index":2,"delta":"{\"key\""})")),
       sse_data(
           {{"type", "response.completed"},
            {"response",
             {{"id", "r"},
              {"status", "completed"},
              {"output",
               json::array(
                   {json::parse(
                        R"({"type":"message","content":[{"type":"output_text","text":"Hi"}]})"),
                    done_call})},
              {"usage", {{"input_tokens", 9}, {"output_tokens", 2}}}}}}),
       "data: [DONE]\n\n"}));
  auto r = model.complete(
      {.messages = {message::user("x")}, .tools = {lookup_tool()}, .stream = true},
      {.on_text = [&](std::string_view s) { text += s; },
       .on_reasoning = [&](std::string_view s) { reasoning += s; },
       .on_tool_call_start = [&](const std::string& id,
                                 const std::string& name) { started.push_back(id + ":" + name); }});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text, "Hi");
  EXPECT_EQ(reasoning, "hm");
  EXPECT_EQ(started, std::vector<std::string>{"call_7:db.lookup"});
  ASSERT_EQ(r->reply.tool_calls.size(), 1u);
  EXPECT_EQ(r->reply.tool_calls[0].arguments, json::parse(R"({"key":"z"})"));
  EXPECT_EQ(r->usage.input_tokens, 9);
}

TEST_F(responses_test, stream_with_empty_final_output_uses_the_streamed_items) {
  net.push(sse_answer(
      {sse_data(
           {{"type", "response.output_item.added"},
            {"output_index", 0},
            {"item",
             json::parse(
                 R"({"type":"function_call","call_id":"c1","name":"db_lookup","arguments":""})")}}),
       sse_data(json::parse(
           R"({"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"key\":"})")),
       sse_data(json::parse(
           R"({"type":"response.function_call_arguments.delta","output_index":0,"delta":"\"a\"}"})")),
       sse_data(json::parse(
           R"({"type":"response.completed","response":{"status":"completed","output":[]}})"))}));
  auto r =
      model.complete({.messages = {message::user("x")}, .tools = {lookup_tool()}, .stream = true});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->reply.tool_calls.size(), 1u);
  EXPECT_EQ(r->reply.tool_calls[0].arguments, json::parse(R"({"key":"a"})"));
  EXPECT_EQ(r->reply.extras["openai_responses"]["output"][0]["arguments"], R"({"key":"a"})");
}

TEST_F(responses_test, stream_failures) {
  net.push(
      sse_answer({sse_data(json::parse(R"({"type":"response.output_text.delta","delta":"x"})"))}));
  auto r = model.complete({.messages = {message::user("x")}, .stream = true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_NE(r.error().message.find("(no response.completed)"), std::string::npos)
      << r.error().message;

  net.push(
      sse_answer({sse_data(json::parse(R"({"type":"error","message":"rate limit in stream"})"))}));
  r = model.complete({.messages = {message::user("x")}, .stream = true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::http_error);
  EXPECT_EQ(r.error().message, "openai-responses: error in stream: rate limit in stream");

  net.push(sse_answer({sse_data(json::parse(
      R"({"type":"response.failed","response":{"status":"failed","output":[{"type":"message","content":[]}],"error":{"message":"boom"}}})"))}));
  r = model.complete({.messages = {message::user("x")}, .stream = true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "openai-responses: the response failed: boom");
}

// ---- Gemini ----

class gemini_test : public ::testing::Test {
 protected:
  script net;
  gemini model{{.base_url = "http://g.test/",
                .api_key = "gk",
                .model = "models/gemini-x",
                .retry = {.max_retries = 0},
                .transport = net.transport()}};
};

json candidate(const json& parts, const std::string& finish = "STOP") {
  return {{"candidates",
           {{{"content", {{"role", "model"}, {"parts", parts}}}, {"finishReason", finish}}}}};
}

TEST(gemini_setup, refuses_an_empty_base_url_or_model) {
  EXPECT_THROW(gemini({.model = "m"}), std::invalid_argument);
  EXPECT_THROW(gemini({.base_url = "http://x"}), std::invalid_argument);
}

TEST_F(gemini_test, urls_key_header_and_generation_config) {
  net.push(json_answer(candidate(json::parse(R"([{"text":"ok"}])"))));
  auto r = model.complete({.messages = {message::user("x")}, .max_tokens = 50, .temperature = 0.2});
  ASSERT_TRUE(r) << r.error().message;
  auto req = net.requests()[0];
  EXPECT_EQ(req.url, "http://g.test/v1beta/models/gemini-x:generateContent");  // "models/" dropped
  EXPECT_EQ(testing::header_of(req, "x-goog-api-key"), "gk");
  EXPECT_EQ(testing::header_of(req, "authorization"), "");
  EXPECT_EQ(json::parse(req.body)["generationConfig"],
            json::parse(R"({"maxOutputTokens":50,"temperature":0.2})"));
  EXPECT_EQ(r->finish, finish_reason::stop);

  net.push(sse_answer({sse_data(candidate(json::parse(R"([{"text":"ok"}])")))}));
  r = model.complete({.messages = {message::user("x")}, .stream = true});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(net.requests()[1].url,
            "http://g.test/v1beta/models/gemini-x:streamGenerateContent?alt=sse");
  EXPECT_EQ(testing::header_of(net.requests()[1], "accept"), "text/event-stream");
}

TEST_F(gemini_test, tool_config_table) {
  chat_request req{.messages = {message::user("x")}, .tools = {lookup_tool()}};
  auto config = [&] { return (*model.encode_request(req)).value("toolConfig", json()); };
  EXPECT_TRUE(config().is_null());  // AUTO is the default and not sent
  req.choice = tool_choice::parse("none");
  EXPECT_EQ(config(), json::parse(R"({"functionCallingConfig":{"mode":"NONE"}})"));
  req.choice = tool_choice::parse("db.lookup");
  EXPECT_EQ(
      config(),
      json::parse(
          R"({"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["db.lookup"]}})"));
  req.choice = {};
  req.allowed_tools = {"db.lookup"};
  EXPECT_EQ(
      config(),
      json::parse(
          R"({"functionCallingConfig":{"mode":"VALIDATED","allowedFunctionNames":["db.lookup"]}})"));
  req.choice = tool_choice::parse("required");
  EXPECT_EQ(
      config(),
      json::parse(
          R"({"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["db.lookup"]}})"));
  req.choice = tool_choice::parse("none");
  EXPECT_EQ(config(), json::parse(R"({"functionCallingConfig":{"mode":"NONE"}})"));
}

TEST_F(gemini_test, user_images_and_function_response_ids_only_when_the_api_gave_them) {
  message u{
      .role = role::user,
      .content = {{.type = content_part::kind::image, .data = "QQ==", .mime_type = "image/png"},
                  {.type = content_part::kind::image,
                   .mime_type = "application/pdf",
                   .url = "gs://b/x.pdf"}}};
  message model_turn = message::assistant("");
  model_turn.extras["gemini"]["parts"] = json::parse(
      R"([{"functionCall":{"id":"api-1","name":"db.lookup","args":{"key":"a"}},"thoughtSignature":"T"},
          {"functionCall":{"name":"db.lookup","args":{"key":"b"}}}])");
  model_turn.tool_calls = {tool_call::from_text("api-1", "db.lookup", R"({"key":"a"})"),
                           tool_call::from_text("gemini_call_1", "db.lookup", R"({"key":"b"})")};
  auto body = model.encode_request(
      {.messages = {u, model_turn,
                    message::tool_result(model_turn.tool_calls[0], tooluse::tool_result::text("A")),
                    message::tool_result(model_turn.tool_calls[1],
                                         tooluse::tool_result::error("no b"))},
       .tools = {lookup_tool()}});
  ASSERT_TRUE(body) << body.error().message;
  EXPECT_EQ((*body)["contents"], json::parse(R"([
      {"role":"user","parts":[{"inlineData":{"mimeType":"image/png","data":"QQ=="}},
                              {"fileData":{"mimeType":"application/pdf","fileUri":"gs://b/x.pdf"}}]},
      {"role":"model","parts":[{"functionCall":{"id":"api-1","name":"db.lookup","args":{"key":"a"}},"thoughtSignature":"T"},
                               {"functionCall":{"name":"db.lookup","args":{"key":"b"}}}]},
      {"role":"user","parts":[{"functionResponse":{"name":"db.lookup","response":{"result":"A"},"id":"api-1"}},
                              {"functionResponse":{"name":"db.lookup","response":{"error":"no b"}}}]}])"));
}

TEST_F(gemini_test, finish_reasons_and_made_up_ids) {
  struct row {
    const char* raw;
    finish_reason want;
  };
  for (auto [raw, want] :
       {row{"STOP", finish_reason::stop}, row{"MAX_TOKENS", finish_reason::length},
        row{"SAFETY", finish_reason::content_filter},
        row{"RECITATION", finish_reason::content_filter},
        row{"MALFORMED_FUNCTION_CALL", finish_reason::other}}) {
    net.push(json_answer(candidate(json::parse(R"([{"text":"t"}])"), raw)));
    auto r = model.complete({.messages = {message::user("x")}});
    ASSERT_TRUE(r) << raw;
    EXPECT_EQ(r->finish, want) << raw;
  }
  net.push(json_answer(candidate(json::parse(
      R"([{"functionCall":{"name":"db.lookup","args":{"key":"1"}}},{"functionCall":{"name":"db.lookup","args":"bad"}}])"))));
  auto r = model.complete({.messages = {message::user("x")}, .tools = {lookup_tool()}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->finish, finish_reason::tool_calls);  // STOP with calls
  ASSERT_EQ(r->reply.tool_calls.size(), 2u);
  EXPECT_EQ(r->reply.tool_calls[0].id, "gemini_call_0");
  EXPECT_EQ(r->reply.tool_calls[1].id, "gemini_call_1");
  EXPECT_EQ(r->reply.tool_calls[1].arguments, json::object());  // non-object args read as {}
}

TEST_F(gemini_test, a_blocked_prompt_names_the_feedback) {
  net.push(json_answer(json::parse(R"({"promptFeedback":{"blockReason":"SAFETY"}})")));
  auto r = model.complete({.messages = {message::user("x")}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_EQ(
      r.error().message.rfind(
          R"(gemini: response has no candidates (prompt blocked: {"blockReason":"SAFETY"}))", 0),
      0u)
      << r.error().message;
}

TEST_F(gemini_test, stream_merges_text_keeps_calls_and_reads_the_last_usage) {
  std::string text, reasoning;
  std::vector<std::string> started;
  net.push(sse_answer(
      {sse_data(candidate(json::parse(R"([{"text":"Let ","thought":true}])"), "")),
       sse_data(candidate(json::parse(R"([{"text":"me.","thought":true}])"), "")),
       sse_data(candidate(json::parse(R"([{"text":"The "}])"), "")),
       sse_data(candidate(json::parse(R"([{"text":"answer"}])"), "")),
       sse_data(candidate(
           json::parse(
               R"([{"functionCall":{"id":"f1","name":"db.lookup","args":{"key":"k"}},"thoughtSignature":"SIG"}])"),
           "")),
       sse_data({{"candidates",
                  {{{"content", {{"role", "model"}, {"parts", json::parse(R"([{"text":""}])")}}},
                    {"finishReason", "STOP"}}}},
                 {"usageMetadata", {{"promptTokenCount", 7}, {"candidatesTokenCount", 3}}},
                 {"modelVersion", "gemini-x-001"},
                 {"responseId", "rid"}})}));
  auto r = model.complete(
      {.messages = {message::user("x")}, .tools = {lookup_tool()}, .stream = true},
      {.on_text = [&](std::string_view s) { text += s; },
       .on_reasoning = [&](std::string_view s) { reasoning += s; },
       .on_tool_call_start = [&](const std::string& id,
                                 const std::string& name) { started.push_back(id + ":" + name); }});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text, "The answer");
  EXPECT_EQ(reasoning, "Let me.");
  EXPECT_EQ(started, std::vector<std::string>{"f1:db.lookup"});
  EXPECT_EQ(r->reply.extras["gemini"]["parts"],
            json::parse(R"([{"text":"Let me.","thought":true},{"text":"The answer"},
      {"functionCall":{"id":"f1","name":"db.lookup","args":{"key":"k"}},"thoughtSignature":"SIG"}])"));
  EXPECT_EQ(r->reply.tool_calls.at(0).id, "f1");
  EXPECT_EQ(r->usage.input_tokens, 7);
  EXPECT_EQ(r->model, "gemini-x-001");
  EXPECT_EQ(r->id, "rid");
}

TEST_F(gemini_test, stream_failures) {
  net.push(sse_answer({sse_data(candidate(json::parse(R"([{"text":"no end"}])"), ""))}));
  auto r = model.complete({.messages = {message::user("x")}, .stream = true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_NE(r.error().message.find("(no finishReason)"), std::string::npos) << r.error().message;
  net.push(sse_answer(
      {sse_data(json::parse(R"({"error":{"code":429,"message":"Resource exhausted"}})"))}));
  r = model.complete({.messages = {message::user("x")}, .stream = true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::http_error);
  EXPECT_EQ(r.error().message, "gemini: error in stream: Resource exhausted");
}

}  // namespace
}  // namespace tooluse::llm
