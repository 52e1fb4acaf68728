#include "tooluse/agent/agent.hpp"

#include <gtest/gtest.h>

#include "scripted_model.hpp"

namespace tooluse {
namespace {

using agent_testing::call;
using agent_testing::calls;
using agent_testing::scripted_model;
using agent_testing::text;

TEST(agent, repeated_identical_calls_are_not_run_again) {
  tool_registry tools;
  int runs = 0;
  tools.add({.name = "ping"}, [&](const json&, call_context&) {
    ++runs;
    return tool_result::text("pong");
  });
  scripted_model model;
  for (int i = 0; i < 3; ++i) model.answers.push_back(calls({tool_call::from_text("c", "ping", "{}")}));
  model.answers.push_back(text("done"));
  agent a(model, tools, {.loop_limit = 2});
  auto r = a.run("go");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(runs, 2);
  ASSERT_EQ(r->tool_calls.size(), 3u);
  EXPECT_TRUE(r->tool_calls[2].result.is_error);
  EXPECT_NE(r->tool_calls[2].result.all_text().find("already called \"ping\""), std::string::npos);
}

TEST(agent, unparsable_arguments_return_the_schema_without_running) {
  tool_registry tools;
  tools.add({.name = "add", .input_schema = json::parse(R"({"type":"object","properties":{"a":{"type":"number"}}})")},
            [](const json&, call_context&) { return tool_result::text("ran"); });
  scripted_model model;
  model.answers.push_back(calls({tool_call::from_text("c", "add", "{\"a\":")}));
  model.answers.push_back(text("ok"));
  agent a(model, tools);
  auto r = a.run("go");
  ASSERT_TRUE(r);
  auto msg = r->tool_calls[0].result.all_text();
  EXPECT_TRUE(r->tool_calls[0].result.is_error);
  EXPECT_NE(msg.find("not valid JSON"), std::string::npos);
  EXPECT_NE(msg.find(R"("properties":{"a":{"type":"number"}})"), std::string::npos) << msg;
}

TEST(agent, events_follow_every_step_in_order) {
  tool_registry tools;
  tools.add({.name = "ping"}, [](const json&, call_context&) { return tool_result::text("pong"); });
  scripted_model model;
  model.answers.push_back(calls({tool_call::from_text("c", "ping", "{}")}));
  model.answers.push_back(text("done"));
  std::vector<std::string> seen;
  agent a(model, tools, {.on_event = [&](const agent_event& e) {
                           seen.emplace_back(to_string(e.what));
                         }});
  ASSERT_TRUE(a.run("go"));
  EXPECT_EQ(seen, (std::vector<std::string>{"model_request", "model_response", "tool_call",
                                            "tool_result", "model_request", "model_response",
                                            "answer"}));
  EXPECT_EQ(model.requests[1].messages.size(), 3u);
}

TEST(agent, cancellation_before_a_turn_stops_the_run) {
  tool_registry tools;
  scripted_model model;
  model.answers.push_back(text("never"));
  agent a(model, tools);
  std::stop_source stop;
  stop.request_stop();
  auto r = a.run("go", stop.get_token());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::cancelled);
  EXPECT_TRUE(model.requests.empty());
}

TEST(agent, cost_budget_stops_the_run) {
  tool_registry tools;
  tools.add({.name = "ping"}, [](const json&, call_context&) { return tool_result::text("pong"); });
  scripted_model model;
  auto c = calls({tool_call::from_text("c", "ping", "{}")});
  c.usage.cost = 0.6;
  model.answers.push_back(c);
  model.answers.push_back(c);
  agent a(model, tools, {.max_cost = 1.0});
  auto r = a.run("go");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::budget_exceeded);
  EXPECT_NE(r.error().message.find("max_cost"), std::string::npos);
}

}  // namespace
}  // namespace tooluse
