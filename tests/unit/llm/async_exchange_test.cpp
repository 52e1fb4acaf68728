// complete_async against complete for the four HTTP adapters, on real loopback HTTP: the same
// answer (text, tool calls, reasoning, usage, finish), whole and streamed, the same deltas to
// the callbacks, the same request on the wire, and the same errors (429, 500, an answer that is
// not JSON, a stream event that is not JSON), with the answer arriving on the pool's thread.
#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <mutex>
#include <thread>

#include "support/fake_llm_server.hpp"
#include "tooluse/llm/anthropic_messages.hpp"
#include "tooluse/llm/gemini.hpp"
#include "tooluse/llm/openai_chat.hpp"
#include "tooluse/llm/openai_responses.hpp"

namespace async_exchange_test {
namespace {

using namespace tooluse;
using namespace tooluse::llm;
namespace t = tooluse::testing;

// adapter is one provider under test: how to make it and how its API renders a turn.
struct adapter {
  std::string name;
  std::function<std::unique_ptr<provider>(provider_options)> make;
  std::function<t::scripted_response(const t::fake_turn&, bool)> render;
};

std::vector<adapter> adapters() {
  return {
      {"openai", [](provider_options o) { return std::make_unique<openai_chat>(std::move(o)); },
       t::openai_response},
      {"anthropic",
       [](provider_options o) { return std::make_unique<anthropic_messages>(std::move(o)); },
       t::anthropic_response},
      {"gemini", [](provider_options o) { return std::make_unique<gemini>(std::move(o)); },
       t::gemini_response},
      {"openai-responses",
       [](provider_options o) { return std::make_unique<openai_responses>(std::move(o)); },
       t::responses_response},
  };
}

tool lookup_tool() {
  return {.name = "db.lookup",
          .description = "Look up a key",
          .input_schema = json::parse(
              R"({"type":"object","properties":{"key":{"type":"string"}},"required":["key"]})")};
}

chat_request ask(bool stream) {
  return {.messages = {message::system("Be brief."), message::user("find k")},
          .tools = {lookup_tool()},
          .stream = stream};
}

// seen is everything one call produced: the answer or the error, the deltas, and whether the
// answer came on the calling thread.
struct seen {
  json answer;
  std::vector<std::string> deltas;
  bool on_caller_thread = false;
};

json summary(const result<chat_response>& r) {
  if (!r) return {{"error", r.error().message}, {"code", static_cast<int>(r.error().code)}};
  return {{"reply", message_to_json(r->reply)},
          {"finish", std::string(to_string(r->finish))},
          {"raw_finish", r->raw_finish},
          {"usage", usage_to_json(r->usage)},
          {"model", r->model},
          {"id", r->id}};
}

stream_callbacks recorder(seen& s, std::mutex& mu) {
  return {.on_text =
              [&](std::string_view d) {
                std::lock_guard lock(mu);
                s.deltas.push_back("text:" + std::string(d));
              },
          .on_reasoning =
              [&](std::string_view d) {
                std::lock_guard lock(mu);
                s.deltas.push_back("reasoning:" + std::string(d));
              },
          .on_tool_call_start =
              [&](const std::string& id, const std::string& name) {
                std::lock_guard lock(mu);
                s.deltas.push_back("call:" + id + ":" + name);
              }};
}

seen blocking(provider& p, const chat_request& req) {
  seen s;
  std::mutex mu;
  s.answer = summary(p.complete(req, recorder(s, mu)));
  return s;
}

seen async(provider& p, const chat_request& req) {
  seen s;
  std::mutex mu;
  std::promise<std::pair<json, bool>> answered;
  auto caller = std::this_thread::get_id();
  p.complete_async(req, recorder(s, mu), {}, [&](result<chat_response> r) {
    answered.set_value({summary(r), std::this_thread::get_id() == caller});
  });
  auto [answer, on_caller] = answered.get_future().get();
  std::lock_guard lock(mu);
  s.answer = std::move(answer);
  s.on_caller_thread = on_caller;
  return s;
}

provider_options options(const t::fake_llm_server& server) {
  return {.base_url = server.url("/v1"),
          .api_key = "sk-test",
          .model = "m",
          .retry = {.max_retries = 0},
          .price = price{.input_per_mtok = 1, .output_per_mtok = 2}};
}

// same_both_ways answers the blocking and the asynchronous call with `response` and expects
// the same outcome and the same request on the wire.
void same_both_ways(const adapter& a, const t::scripted_response& response, bool stream,
                    json* answer = nullptr) {
  SCOPED_TRACE(a.name + (stream ? " streamed" : " whole"));
  t::fake_llm_server server;
  server.push(response);
  server.push(response);
  auto p = a.make(options(server));
  seen sync = blocking(*p, ask(stream));
  seen async_ = async(*p, ask(stream));
  EXPECT_EQ(async_.answer, sync.answer);
  EXPECT_EQ(async_.deltas, sync.deltas);
  EXPECT_FALSE(async_.on_caller_thread) << "complete_async answered on the calling thread";
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[1].target, reqs[0].target);
  EXPECT_EQ(reqs[1].body, reqs[0].body);
  if (answer) *answer = sync.answer;
}

TEST(llm_async_exchange, a_whole_answer_with_a_tool_call_is_the_same_both_ways) {
  t::fake_turn turn{.text = "Looking",
                    .calls = {{.id = "call_1", .name = "db_lookup", .arguments = R"({"key":"k"})"}},
                    .input_tokens = 12,
                    .output_tokens = 7};
  for (const auto& a : adapters()) {
    json answer;
    same_both_ways(a, a.render(turn, false), false, &answer);
    ASSERT_TRUE(answer.contains("reply")) << a.name << ": " << answer.dump();
    EXPECT_EQ(answer["reply"]["tool_calls"].size(), 1u) << a.name;
    EXPECT_EQ(answer["usage"]["input_tokens"], 12) << a.name;
    EXPECT_EQ(answer["usage"]["requests"], 1) << a.name;
  }
}

TEST(llm_async_exchange, a_streamed_answer_with_a_tool_call_is_the_same_both_ways) {
  t::fake_turn turn{.text = "Looking it up",
                    .calls = {{.id = "call_2", .name = "db_lookup", .arguments = R"({"key":"q"})"}},
                    .reasoning = "Need the key."};
  for (const auto& a : adapters()) {
    json answer;
    same_both_ways(a, a.render(turn, true), true, &answer);
    ASSERT_TRUE(answer.contains("reply")) << a.name << ": " << answer.dump();
    ASSERT_EQ(answer["reply"]["tool_calls"].size(), 1u) << a.name;
    EXPECT_EQ(answer["finish"], "tool_calls") << a.name;
  }
}

TEST(llm_async_exchange, a_plain_streamed_text_answer_is_the_same_both_ways) {
  for (const auto& a : adapters()) same_both_ways(a, a.render({.text = "Hello there"}, true), true);
}

TEST(llm_async_exchange, http_errors_are_named_the_same_both_ways) {
  for (const auto& a : adapters()) {
    for (int status : {429, 500}) {
      json answer;
      same_both_ways(a, t::error_response(status, "try later"), false, &answer);
      ASSERT_TRUE(answer.contains("error")) << a.name;
      EXPECT_NE(answer["error"].get<std::string>().find("HTTP " + std::to_string(status)),
                std::string::npos)
          << answer.dump();
      EXPECT_EQ(answer["code"], static_cast<int>(status == 429 ? errc::rate_limited
                                                               : errc::http_error));
    }
  }
}

TEST(llm_async_exchange, an_answer_that_is_not_json_is_named_the_same_both_ways) {
  for (const auto& a : adapters()) {
    json answer;
    t::scripted_response garbage{.body = "<html>oops</html>"};
    same_both_ways(a, garbage, false, &answer);
    ASSERT_TRUE(answer.contains("error")) << a.name;
    EXPECT_EQ(answer["error"].get<std::string>().rfind(a.name + ": response is not JSON", 0), 0u)
        << answer.dump();
    t::scripted_response bad_event{.headers = {{"Content-Type", "text/event-stream"}},
                                   .chunks = {"data: {not json\n\n"}};
    same_both_ways(a, bad_event, true, &answer);
    ASSERT_TRUE(answer.contains("error")) << a.name;
    EXPECT_EQ(answer["error"].get<std::string>(),
              a.name + ": stream event is not JSON: {not json");
  }
}

}  // namespace
}  // namespace async_exchange_test
