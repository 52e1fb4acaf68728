// agent::run_async: against a provider without a non-blocking path it completes like run();
// over openai_chat it goes out on the HTTP pool against a real loopback model server, keeps
// one connection for the whole run, streams, runs tools through the executor, journals, and
// stops on cancellation and budgets as run() does.
#include <gtest/gtest.h>

#include <future>
#include <mutex>

#include "scripted_model.hpp"
#include "support/fake_llm_server.hpp"
#include "tooluse/agent/agent.hpp"
#include "tooluse/agent/journal.hpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/http/pool.hpp"
#include "tooluse/llm/openai_chat.hpp"

namespace tooluse {
namespace {

using agent_testing::calls;
using agent_testing::scripted_model;
using agent_testing::text;
using testing::fake_llm_server;
using testing::fake_tool_call;
using testing::fake_turn;
using testing::openai_response;
using testing::recorded_request;

bool contains(const std::string& s, std::string_view what) { return s.find(what) != std::string::npos; }

// wait_run starts a run_async and waits for its outcome.
result<run_result> wait_run(agent& a, std::string text, std::stop_token stop = {}) {
  std::promise<result<run_result>> done;
  a.run_async(std::move(text), [&](result<run_result> r) { done.set_value(std::move(r)); }, stop);
  return done.get_future().get();
}

void add_tool_to(tool_registry& tools, std::atomic<int>* runs) {
  tools.add({.name = "add",
             .input_schema = json::parse(
                 R"({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}})"),
             .synchronous = true},
            [runs](const json& in, call_context&) {
              ++*runs;
              return tool_result::text(std::to_string(in["a"].get<int>() + in["b"].get<int>()));
            });
}

TEST(agent_async, a_provider_without_a_non_blocking_path_completes_as_run_does) {
  std::atomic<int> runs{0};
  tool_registry tools;
  add_tool_to(tools, &runs);
  scripted_model model;
  model.answers.push_back(calls({tool_call::from_text("c1", "add", R"({"a":2,"b":40})")}));
  model.answers.push_back(text("42"));
  agent a(model, tools);
  auto r = wait_run(a, "add");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->answer, "42");
  EXPECT_EQ(r->turns, 2);
  EXPECT_EQ(runs.load(), 1);
  ASSERT_EQ(r->tool_calls.size(), 1u);
  EXPECT_EQ(r->tool_calls[0].result.all_text(), "42");
}

// A model server that calls `add` `calls` times, then answers with the last result.
fake_llm_server& script_adds(fake_llm_server& server, int calls, bool stream = false) {
  server.keep_alive(true);
  for (int i = 0; i < calls; ++i)
    server.push(openai_response(
        {.calls = {{"c" + std::to_string(i), "add", R"({"a":)" + std::to_string(i) + R"(,"b":1})"}}},
        stream));
  server.push(openai_response({.text = "done"}, stream));
  return server;
}

TEST(agent_async, a_run_over_openai_chat_uses_one_kept_alive_connection_for_every_turn) {
  fake_llm_server server;
  script_adds(server, 9);
  std::atomic<int> runs{0};
  tool_registry tools;
  add_tool_to(tools, &runs);
  llm::openai_chat model({.base_url = server.url("/v1"), .model = "m"});
  std::mutex mu;
  std::vector<bool> on_pool;
  agent a(model, tools, {.max_turns = 12, .on_event = [&](const agent_event& e) {
                           if (e.what != agent_event::kind::model_response) return;
                           std::lock_guard lock(mu);
                           on_pool.push_back(http::on_pool_thread());
                         }});
  auto r = wait_run(a, "count");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->answer, "done");
  EXPECT_EQ(r->turns, 10);
  EXPECT_EQ(runs.load(), 9);
  EXPECT_EQ(server.requests().size(), 10u);
  EXPECT_EQ(server.connections(), 1) << "ten requests of one run share one connection";
  std::lock_guard lock(mu);
  ASSERT_EQ(on_pool.size(), 10u);
  for (bool b : on_pool) EXPECT_TRUE(b) << "the run goes on on the pool's thread, not its own";
}

TEST(agent_async, streamed_answers_reach_on_event_as_deltas) {
  fake_llm_server server;
  script_adds(server, 1, true);
  std::atomic<int> runs{0};
  tool_registry tools;
  add_tool_to(tools, &runs);
  llm::openai_chat model({.base_url = server.url("/v1"), .model = "m"});
  std::string deltas;
  agent a(model, tools, {.stream = true, .on_event = [&](const agent_event& e) {
                           if (e.what == agent_event::kind::text_delta) deltas += e.text;
                         }});
  auto r = wait_run(a, "count");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->answer, "done");
  EXPECT_EQ(deltas, "done");
  EXPECT_EQ(runs.load(), 1);
}

TEST(agent_async, a_stop_request_while_the_model_thinks_cancels_the_run) {
  fake_llm_server server;
  std::promise<void> arrived;
  std::promise<void> release;
  auto released = release.get_future().share();
  server.set_responder([&, released](const recorded_request&) {
    arrived.set_value();
    released.wait();
    return openai_response({.text = "late"}, false);
  });
  std::atomic<int> runs{0};
  tool_registry tools;
  add_tool_to(tools, &runs);
  llm::openai_chat model({.base_url = server.url("/v1"), .model = "m"});
  agent a(model, tools);
  std::stop_source stop;
  std::promise<result<run_result>> done;
  a.run_async("wait", [&](result<run_result> r) { done.set_value(std::move(r)); }, stop.get_token());
  arrived.get_future().wait();
  stop.request_stop();
  auto r = done.get_future().get();
  release.set_value();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::cancelled);
}

TEST(agent_async, max_turns_and_slow_tools_behave_as_in_run) {
  fake_llm_server server;
  script_adds(server, 3);
  tool_registry tools;
  std::atomic<int> runs{0};
  // Not synchronous: runs on the executor's threads, waited for off the pool's thread.
  tools.add({.name = "add"}, [&](const json& in, call_context&) {
    ++runs;
    return tool_result::text(std::to_string(in["a"].get<int>() + 1));
  });
  exec::executor engine(tools, {.max_threads = 2});
  llm::openai_chat model({.base_url = server.url("/v1"), .model = "m"});
  agent a(model, tools, {.max_turns = 2, .executor = &engine});
  auto r = wait_run(a, "count");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::budget_exceeded);
  EXPECT_TRUE(contains(r.error().message, "max_turns (2)")) << r.error().message;
  EXPECT_EQ(runs.load(), 2);
  EXPECT_EQ(a.last_run().tool_calls.size(), 2u);
}

TEST(agent_async, an_error_from_the_model_fails_the_run_naming_it) {
  fake_llm_server server;
  server.push(testing::error_response(400, "bad model name"));
  std::atomic<int> runs{0};
  tool_registry tools;
  add_tool_to(tools, &runs);
  llm::openai_chat model({.base_url = server.url("/v1"), .model = "m"});
  std::vector<std::string> errors;
  agent a(model, tools, {.on_event = [&](const agent_event& e) {
                           if (e.what == agent_event::kind::error) errors.push_back(e.text);
                         }});
  auto r = wait_run(a, "x");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::http_error);
  EXPECT_TRUE(contains(r.error().message, "bad model name")) << r.error().message;
  ASSERT_EQ(errors.size(), 1u);
}

}  // namespace
}  // namespace tooluse
