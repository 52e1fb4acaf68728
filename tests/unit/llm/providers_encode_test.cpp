// The Responses and Gemini encoders, the price catalog and cost arithmetic, allowed tools on
// Chat Completions, Anthropic usage normalization and native tool search.
#include <gtest/gtest.h>

#include "llm/anthropic_wire.hpp"
#include "llm/gemini_wire.hpp"
#include "tooluse/llm/anthropic_messages.hpp"
#include "tooluse/llm/gemini.hpp"
#include "tooluse/llm/openai_chat.hpp"
#include "tooluse/llm/openai_responses.hpp"
#include "tooluse/llm/prices.hpp"

namespace tooluse::llm::providers_encode_test {
namespace {

tool dotted_tool() {
  return {.name = "math.add",
          .description = "Add",
          .input_schema = json::parse(
              R"({"type":"object","properties":{"a":{"type":"number"}},"required":["a"],
                  "additionalProperties":false})")};
}

chat_request conversation() {
  tool_call call = tool_call::from_text("c1", "math.add", R"({"a":1})");
  message assistant = message::assistant("");
  assistant.tool_calls = {call};
  return {.messages = {message::system("be brief"), message::user("add"), assistant,
                       message::tool_result(call, tooluse::tool_result::error("bad"))},
          .tools = {dotted_tool()}};
}

TEST(responses_encode, maps_names_instructions_calls_and_outputs) {
  openai_responses model({.base_url = "http://x/v1", .model = "m"});
  auto req = conversation();
  req.strict = true;
  req.max_tokens = 100;
  auto body = model.encode_request(req);
  ASSERT_TRUE(body) << body.error().message;
  EXPECT_EQ((*body)["instructions"], "be brief");
  EXPECT_EQ((*body)["max_output_tokens"], 100);
  EXPECT_EQ((*body)["tools"][0]["name"], "math_add");
  EXPECT_EQ((*body)["tools"][0]["strict"], true);
  EXPECT_EQ((*body)["input"], json::parse(R"([{"role":"user","content":"add"},
      {"type":"function_call","call_id":"c1","name":"math_add","arguments":"{\"a\":1}"},
      {"type":"function_call_output","call_id":"c1","output":"Error: bad"}])"));
}

TEST(responses_encode, named_choice_and_allowed_tools) {
  openai_responses model({.base_url = "http://x/v1", .model = "m"});
  auto req = conversation();
  req.choice = tool_choice::parse("math.add");
  EXPECT_EQ((*model.encode_request(req))["tool_choice"],
            json::parse(R"({"type":"function","name":"math_add"})"));
  req.choice = {};
  req.allowed_tools = {"math.add"};
  EXPECT_EQ((*model.encode_request(req))["tool_choice"],
            json::parse(R"({"type":"allowed_tools","mode":"auto",
                             "tools":[{"type":"function","name":"math_add"}]})"));
}

TEST(gemini_encode, contents_roles_function_responses_and_tool_config) {
  gemini model({.base_url = "http://x", .model = "g"});
  auto req = conversation();
  req.choice = tool_choice::parse("required");
  auto body = model.encode_request(req);
  ASSERT_TRUE(body) << body.error().message;
  EXPECT_EQ((*body)["systemInstruction"], json::parse(R"({"parts":[{"text":"be brief"}]})"));
  EXPECT_EQ((*body)["tools"][0]["functionDeclarations"][0]["name"], "math.add");
  EXPECT_FALSE((*body)["tools"][0]["functionDeclarations"][0]["parameters"].contains(
      "additionalProperties"));
  EXPECT_EQ((*body)["toolConfig"], json::parse(R"({"functionCallingConfig":{"mode":"ANY"}})"));
  // The made-up call id (no API id) stays off the wire.
  EXPECT_EQ((*body)["contents"], json::parse(R"([{"role":"user","parts":[{"text":"add"}]},
      {"role":"model","parts":[{"functionCall":{"name":"math.add","args":{"a":1}}}]},
      {"role":"user","parts":[{"functionResponse":{"name":"math.add","response":{"error":"bad"}}}]}])"));
}

TEST(gemini_decode, reads_calls_thoughts_usage_and_keeps_the_parts) {
  json body = json::parse(R"({"candidates":[{"content":{"role":"model","parts":[
      {"text":"hmm","thought":true},
      {"functionCall":{"name":"math.add","args":{"a":2}},"thoughtSignature":"SIG"}]},
      "finishReason":"STOP"}],
      "usageMetadata":{"promptTokenCount":100,"candidatesTokenCount":10,"thoughtsTokenCount":5,
                       "cachedContentTokenCount":40}})");
  auto names = schema::name_map::build({"math.add"}, schema::gemini_name_rule);
  auto out = detail::gemini_decode(body, names);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->finish, finish_reason::tool_calls);
  EXPECT_EQ(out->reply.reasoning, "hmm");
  ASSERT_EQ(out->reply.tool_calls.size(), 1u);
  EXPECT_EQ(out->reply.tool_calls[0].arguments, json::parse(R"({"a":2})"));
  EXPECT_EQ(out->usage.input_tokens, 100);
  EXPECT_EQ(out->usage.output_tokens, 15);  // thinking is billed as output
  EXPECT_EQ(out->usage.cache_read_tokens, 40);
  // Replayed exactly, signature included.
  auto contents = detail::gemini_contents({out->reply}, names);
  EXPECT_EQ(contents[0]["parts"], body["candidates"][0]["content"]["parts"]);
  price p{.input_per_mtok = 1, .output_per_mtok = 10, .cached_input_per_mtok = 0.1};
  EXPECT_NEAR(cost_of(out->usage, p), (60 * 1 + 40 * 0.1 + 15 * 10) / 1e6, 1e-15);
}

TEST(price_catalog, builtin_has_models_and_matches_dated_names_by_prefix) {
  const auto& c = price_catalog::builtin();
  EXPECT_GT(c.size(), 10u);
  auto mini = c.find("gpt-4.1-mini-2025-04-14");
  ASSERT_TRUE(mini);
  EXPECT_DOUBLE_EQ(mini->input_per_mtok, 0.4);
  auto full = c.find("gpt-4.1");
  ASSERT_TRUE(full);
  EXPECT_DOUBLE_EQ(full->output_per_mtok, 8.0);
  EXPECT_TRUE(c.find("models/gemini-2.5-flash"));
  EXPECT_FALSE(c.find("gpt-4.10"));
  EXPECT_FALSE(c.find("unknown-model"));
}

TEST(price_catalog, overrides_merge_and_bad_entries_are_named) {
  auto c = price_catalog::builtin();
  auto mine = price_catalog::parse(R"({"models":{"gpt-4.1":{"input":9,"output":9},
                                                  "local-llm":{"input":0,"output":0}}})");
  ASSERT_TRUE(mine) << mine.error().message;
  c.merge(*mine);
  EXPECT_DOUBLE_EQ(c.find("gpt-4.1")->input_per_mtok, 9);
  EXPECT_TRUE(c.find("local-llm"));
  auto bad = price_catalog::parse(R"({"models":{"x":{"input":"cheap","output":1}}})");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("model \"x\""), std::string::npos) << bad.error().message;
}

TEST(openai_encode, allowed_tools_keep_the_tool_list) {
  openai_chat model({.base_url = "http://x/v1", .model = "m"});
  auto req = conversation();
  req.allowed_tools = {"math.add"};
  auto body = model.encode_request(req);
  ASSERT_TRUE(body);
  EXPECT_EQ((*body)["tool_choice"], json::parse(R"({"type":"allowed_tools","allowed_tools":
      {"mode":"auto","tools":[{"type":"function","function":{"name":"math_add"}}]}})"));
}

TEST(anthropic_usage, input_tokens_include_cache_reads_and_writes) {
  usage u;
  detail::anthropic_usage(json::parse(R"({"input_tokens":10,"cache_read_input_tokens":100,
      "cache_creation_input_tokens":50,"output_tokens":7})"),
                          u);
  EXPECT_EQ(u.input_tokens, 160);
  EXPECT_EQ(u.cache_read_tokens, 100);
  EXPECT_EQ(u.cache_write_tokens, 50);
  price p{.input_per_mtok = 3,
          .output_per_mtok = 15,
          .cached_input_per_mtok = 0.3,
          .cache_write_per_mtok = 3.75};
  EXPECT_NEAR(cost_of(u, p), (10 * 3 + 100 * 0.3 + 50 * 3.75 + 7 * 15) / 1e6, 1e-15);
}

TEST(anthropic_encode, native_tool_search_defers_tools_and_echoes_server_blocks) {
  anthropic_messages model({.base_url = "http://x", .model = "m"});
  auto req = conversation();
  req.tools.push_back({.name = "calc", .description = "c"});
  req.deferred_tools = {"math.add"};
  req.native_tool_search = "bm25";
  auto body = model.encode_request(req);
  ASSERT_TRUE(body);
  EXPECT_EQ((*body)["tools"][0]["type"], "tool_search_tool_bm25_20251119");
  EXPECT_EQ((*body)["tools"][1]["defer_loading"], true);
  EXPECT_FALSE((*body)["tools"][2].contains("defer_loading"));
  json answer = json::parse(R"({"content":[
      {"type":"server_tool_use","id":"srv1","name":"tool_search_tool_bm25","input":{"query":"add"}},
      {"type":"tool_search_tool_result","tool_use_id":"srv1","content":{"type":"tool_search_tool_search_result",
       "tool_references":[{"type":"tool_reference","tool_name":"math_add"}]}},
      {"type":"tool_use","id":"t1","name":"math_add","input":{"a":1}}],"stop_reason":"tool_use"})");
  auto names = schema::name_map::build({"math.add"}, schema::anthropic_name_rule);
  auto decoded = detail::anthropic_decode(answer, names);
  ASSERT_TRUE(decoded);
  ASSERT_EQ(decoded->reply.tool_calls.size(), 1u);
  EXPECT_EQ(decoded->reply.tool_calls[0].name, "math.add");
  auto replay = detail::anthropic_messages_json({decoded->reply}, names);
  EXPECT_EQ(replay[0]["content"], answer["content"]);
}

}  // namespace
}  // namespace tooluse::llm
