// The Anthropic Messages adapter through its transport: headers and body of the request,
// message grouping rules (system on top, tool results together), thinking blocks echoed, the
// JSON answer and the event stream (text, thinking, input_json_delta, server tool blocks).
#include <gtest/gtest.h>

#include "llm_test_util.hpp"
#include "tooluse/llm/anthropic_messages.hpp"

namespace tooluse::llm {
namespace {

using testing::json_answer;
using testing::script;
using testing::sse_answer;
using testing::sse_data;

tool search_tool() {
  return {.name = "kb.search",
          .description = "Search",
          .input_schema = json::parse(R"({"type":"object","properties":{"q":{"type":"string"}}})")};
}

class anthropic_test : public ::testing::Test {
 protected:
  script net;
  anthropic_messages model{{.base_url = "http://api.test",
                            .api_key = "ak-secret",
                            .model = "claude-x",
                            .retry = {.max_retries = 0},
                            .transport = net.transport()}};

  // stream runs one streamed request answered by `events` (each an SSE event).
  result<chat_response> stream(std::vector<std::string> events, const stream_callbacks& cb = {},
                               std::vector<tool> tools = {search_tool()}) {
    net.push(sse_answer(std::move(events)));
    return model.complete(
        {.messages = {message::user("q")}, .tools = std::move(tools), .stream = true}, cb);
  }
};

std::string ev(const json& j) { return sse_data(j, j.value("type", "")); }

TEST(anthropic_setup, refuses_an_empty_base_url_or_model) {
  EXPECT_THROW(anthropic_messages({.model = "m"}), std::invalid_argument);
  EXPECT_THROW(anthropic_messages({.base_url = "http://x"}), std::invalid_argument);
}

TEST_F(anthropic_test, sends_to_v1_messages_with_version_and_key_headers) {
  net.push(json_answer(
      json::parse(R"({"id":"m1","model":"claude-x","content":[{"type":"text","text":"hi"}],
      "stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":1}})")));
  auto r = model.complete({.messages = {message::user("hello")}});
  ASSERT_TRUE(r) << r.error().message;
  auto req = net.requests().at(0);
  EXPECT_EQ(req.url, "http://api.test/v1/messages");
  EXPECT_EQ(testing::header_of(req, "x-api-key"), "ak-secret");
  EXPECT_EQ(testing::header_of(req, "anthropic-version"), "2023-06-01");
  EXPECT_EQ(testing::header_of(req, "authorization"), "");
  EXPECT_EQ(testing::header_of(req, "anthropic-beta"), "");  // only with tool search
  EXPECT_EQ(json::parse(req.body), json::parse(R"({"model":"claude-x","max_tokens":4096,
      "messages":[{"role":"user","content":"hello"}]})"));
  EXPECT_EQ(r->reply.text(), "hi");
  EXPECT_EQ(r->usage.input_tokens, 3);
  EXPECT_EQ(r->usage.requests, 1);
}

TEST_F(anthropic_test, joins_system_messages_and_groups_tool_results_of_a_turn) {
  tool_call c1 = tool_call::from_text("t1", "kb.search", R"({"q":"a"})");
  tool_call c2 = tool_call::from_text("t2", "kb.search", "not json");
  message a = message::assistant("looking");
  a.tool_calls = {c1, c2};
  message empty_result{.role = role::tool, .tool_call_id = "t2", .tool_name = "kb.search"};
  auto body = model.encode_request(
      {.messages = {message::system("one"), message::user("q"), message::system("two"), a,
                    message::tool_result(c1, tooluse::tool_result::text("found")), empty_result,
                    message::user("thanks")},
       .tools = {search_tool()},
       .max_tokens = 100,
       .temperature = 0.0});
  ASSERT_TRUE(body) << body.error().message;
  EXPECT_EQ((*body)["system"], "one\n\ntwo");
  EXPECT_EQ((*body)["max_tokens"], 100);
  EXPECT_EQ((*body)["temperature"], 0.0);
  EXPECT_EQ((*body)["messages"], json::parse(R"([
      {"role":"user","content":"q"},
      {"role":"assistant","content":[{"type":"text","text":"looking"},
          {"type":"tool_use","id":"t1","name":"kb_search","input":{"q":"a"}},
          {"type":"tool_use","id":"t2","name":"kb_search","input":{}}]},
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"found"},
                                {"type":"tool_result","tool_use_id":"t2","content":""}]},
      {"role":"user","content":"thanks"}])"));
  EXPECT_FALSE(body->contains("tool_choice"));
}

TEST_F(anthropic_test, images_go_as_base64_or_url_sources) {
  message m{
      .role = role::user,
      .content = {{.type = content_part::kind::image, .data = "QUJD", .mime_type = "image/jpeg"},
                  {.type = content_part::kind::image, .url = "https://i.test/x.png"}}};
  auto body = model.encode_request({.messages = {m}});
  ASSERT_TRUE(body);
  EXPECT_EQ((*body)["messages"][0]["content"], json::parse(R"([
      {"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"QUJD"}},
      {"type":"image","source":{"type":"url","url":"https://i.test/x.png"}}])"));
}

TEST_F(anthropic_test, tool_choice_table_with_parallel_control) {
  chat_request req{.messages = {message::user("x")}, .tools = {search_tool()}};
  auto choice = [&] { return (*model.encode_request(req)).value("tool_choice", json()); };
  req.parallel_tool_calls = false;
  EXPECT_EQ(choice(), json::parse(R"({"type":"auto","disable_parallel_tool_use":true})"));
  req.choice = tool_choice::parse("required");
  EXPECT_EQ(choice(), json::parse(R"({"type":"any","disable_parallel_tool_use":true})"));
  req.choice = tool_choice::parse("none");
  EXPECT_EQ(choice(), json::parse(R"({"type":"none"})"));  // nothing to disable
  req.parallel_tool_calls = true;
  req.choice = tool_choice::parse("kb.search");
  EXPECT_EQ(choice(), json::parse(R"({"type":"tool","name":"kb_search"})"));
}

TEST_F(anthropic_test, allowed_tools_narrow_the_list_itself) {
  tool other{.name = "other", .description = "o"};
  auto body = model.encode_request({.messages = {message::user("x")},
                                    .tools = {search_tool(), other},
                                    .allowed_tools = {"other"}});
  ASSERT_TRUE(body);
  ASSERT_EQ((*body)["tools"].size(), 1u);
  EXPECT_EQ((*body)["tools"][0]["name"], "other");
}

TEST_F(anthropic_test, regex_tool_search_sends_the_beta_header) {
  net.push(json_answer(json::parse(R"({"content":[],"stop_reason":"end_turn"})")));
  auto r = model.complete(
      {.messages = {message::user("x")}, .tools = {search_tool()}, .native_tool_search = "regex"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(testing::header_of(net.requests()[0], "anthropic-beta"),
            "advanced-tool-use-2025-11-20");
  EXPECT_EQ(
      net.body(0)["tools"][0],
      json::parse(R"({"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"})"));
}

TEST_F(anthropic_test, decodes_thinking_and_echoes_it_with_its_signature) {
  json content = json::parse(R"([
      {"type":"thinking","thinking":"plan","signature":"SIG=="},
      {"type":"redacted_thinking","data":"opaque"},
      {"type":"text","text":"Searching."},
      {"type":"tool_use","id":"t9","name":"kb_search","input":{"q":"z"}}])");
  net.push(json_answer({{"content", content}, {"stop_reason", "tool_use"}}));
  auto r = model.complete({.messages = {message::user("x")}, .tools = {search_tool()}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->finish, finish_reason::tool_calls);
  EXPECT_EQ(r->reply.reasoning, "plan");
  ASSERT_EQ(r->reply.tool_calls.size(), 1u);
  EXPECT_EQ(r->reply.tool_calls[0].name, "kb.search");
  EXPECT_EQ(r->reply.tool_calls[0].raw_arguments, R"({"q":"z"})");
  EXPECT_FALSE(r->reply.extras["anthropic"].contains("content"));  // no server blocks
  // Next turn: the thinking blocks go back first, unchanged.
  auto body =
      model.encode_request({.messages = {message::user("x"), r->reply}, .tools = {search_tool()}});
  ASSERT_TRUE(body);
  EXPECT_EQ((*body)["messages"][1]["content"], content);
}

TEST_F(anthropic_test, maps_every_stop_reason) {
  struct row {
    const char* raw;
    finish_reason want;
  };
  for (auto [raw, want] :
       {row{"end_turn", finish_reason::stop}, row{"stop_sequence", finish_reason::stop},
        row{"tool_use", finish_reason::tool_calls}, row{"max_tokens", finish_reason::length},
        row{"refusal", finish_reason::content_filter}, row{"pause_turn", finish_reason::pause},
        row{"model_context_window_exceeded", finish_reason::context_window},
        row{"something_new", finish_reason::other}}) {
    net.push(json_answer({{"content", json::array()}, {"stop_reason", raw}}));
    auto r = model.complete({.messages = {message::user("x")}});
    ASSERT_TRUE(r) << raw;
    EXPECT_EQ(r->finish, want) << raw;
    EXPECT_EQ(r->raw_finish, raw);
  }
}

TEST_F(anthropic_test, an_answer_without_content_is_a_protocol_error) {
  net.push(json_answer(json::parse(R"({"type":"message","content":"text"})")));
  auto r = model.complete({.messages = {message::user("x")}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_EQ(r.error().message,
            R"(anthropic: response has no content array: {"type":"message","content":"text"})");
}

TEST_F(anthropic_test, stream_assembles_text_thinking_and_tool_input_with_usage) {
  std::string text_seen, reasoning_seen;
  std::vector<std::string> started;
  auto r = stream(
      {ev(json::parse(R"({"type":"message_start","message":{"id":"msg_1","model":"claude-x",
            "usage":{"input_tokens":5,"cache_read_input_tokens":20,"output_tokens":1}}})")),
       ev(json::parse(
           R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}})")),
       ev(json::parse(
           R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"let me "}})")),
       ev(json::parse(
           R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"see"}})")),
       ev(json::parse(
           R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"S1"}})")),
       ev(json::parse(
           R"({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}})")),
       ev(json::parse(
           R"({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello"}})")),
       "event: ping\ndata: {\"type\":\"ping\"}\n\n",
       ev(json::parse(
           R"({"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t1","name":"kb_search","input":{}}})")),
       ev(json::parse(
           R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"q\":"}})")),
       ev(json::parse(
           R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"\"cats\"}"}})")),
       ev(json::parse(
           R"({"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"t2","name":"kb_search","input":{}}})")),
       ev(json::parse(
           R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":42}})")),
       ev(json::parse(R"({"type":"message_stop"})"))},
      {.on_text = [&](std::string_view s) { text_seen += s; },
       .on_reasoning = [&](std::string_view s) { reasoning_seen += s; },
       .on_tool_call_start = [&](const std::string& id,
                                 const std::string& name) { started.push_back(id + ":" + name); }});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_seen, "Hello");
  EXPECT_EQ(reasoning_seen, "let me see");
  EXPECT_EQ(started, (std::vector<std::string>{"t1:kb.search", "t2:kb.search"}));
  EXPECT_EQ(r->id, "msg_1");
  EXPECT_EQ(r->reply.text(), "Hello");
  EXPECT_EQ(r->reply.reasoning, "let me see");
  EXPECT_EQ(r->reply.extras["anthropic"]["thinking_blocks"],
            json::parse(R"([{"type":"thinking","thinking":"let me see","signature":"S1"}])"));
  ASSERT_EQ(r->reply.tool_calls.size(), 2u);
  EXPECT_EQ(r->reply.tool_calls[0].arguments, json::parse(R"({"q":"cats"})"));
  EXPECT_EQ(r->reply.tool_calls[1].raw_arguments, "{}");  // no input deltas: empty input
  EXPECT_EQ(r->usage.input_tokens, 25);
  EXPECT_EQ(r->usage.cache_read_tokens, 20);
  EXPECT_EQ(r->usage.output_tokens, 42);  // message_delta's count replaces message_start's
  EXPECT_EQ(r->finish, finish_reason::tool_calls);
}

TEST_F(anthropic_test, stream_keeps_server_tool_blocks_once_each_for_the_echo) {
  auto r = stream(
      {ev(json::parse(
           R"({"type":"message_start","message":{"id":"m","usage":{"input_tokens":1}}})")),
       ev(json::parse(
           R"({"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srv1","name":"tool_search_tool_bm25","input":{}}})")),
       ev(json::parse(
           R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"search\"}"}})")),
       ev(json::parse(
           R"({"type":"content_block_start","index":1,"content_block":{"type":"tool_search_tool_result","tool_use_id":"srv1","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"kb_search"}]}}})")),
       ev(json::parse(
           R"({"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t1","name":"kb_search","input":{}}})")),
       ev(json::parse(
           R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"q\":\"a\"}"}})")),
       ev(json::parse(
           R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":3}})")),
       ev(json::parse(R"({"type":"message_stop"})"))});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->reply.tool_calls.size(), 1u);
  // The turn goes back exactly as the JSON answer would have listed it: three blocks.
  EXPECT_EQ(r->reply.extras["anthropic"]["content"], json::parse(R"([
      {"type":"server_tool_use","id":"srv1","name":"tool_search_tool_bm25","input":{"query":"search"}},
      {"type":"tool_search_tool_result","tool_use_id":"srv1","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"kb_search"}]}},
      {"type":"tool_use","id":"t1","name":"kb_search","input":{"q":"a"}}])"));
}

TEST_F(anthropic_test, stream_without_message_stop_is_a_protocol_error) {
  auto r = stream(
      {ev(json::parse(R"({"type":"message_start","message":{"id":"m"}})")),
       ev(json::parse(
           R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})")),
       ev(json::parse(
           R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"cut"}})"))});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_NE(r.error().message.find("(no message_stop)"), std::string::npos) << r.error().message;
}

TEST_F(anthropic_test, stream_error_event_and_garbage_are_reported) {
  auto r = stream(
      {ev(json::parse(R"({"type":"message_start","message":{"id":"m"}})")),
       ev(json::parse(
           R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"))});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::http_error);
  EXPECT_EQ(r.error().message, "anthropic: error in stream: Overloaded");
  r = stream({"event: message_start\ndata: [[[\n\n"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_EQ(r.error().message, "anthropic: stream event is not JSON: [[[");
}

TEST_F(anthropic_test, stream_with_broken_tool_input_keeps_the_raw_text) {
  auto r = stream(
      {ev(json::parse(
           R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"kb_search","input":{}}})")),
       ev(json::parse(
           R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"q\": tru"}})")),
       ev(json::parse(R"({"type":"message_delta","delta":{"stop_reason":"max_tokens"}})"))});
  ASSERT_TRUE(r) << r.error().message;  // message_delta with a stop reason is enough
  EXPECT_EQ(r->finish, finish_reason::length);
  ASSERT_EQ(r->reply.tool_calls.size(), 1u);
  EXPECT_EQ(r->reply.tool_calls[0].raw_arguments, R"({"q": tru)");
  EXPECT_TRUE(r->reply.tool_calls[0].arguments.is_null());
}

}  // namespace
}  // namespace tooluse::llm
