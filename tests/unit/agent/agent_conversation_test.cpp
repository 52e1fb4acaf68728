// The agent's conversation and options against a scripted model: what each request carries,
// how the history grows over runs and resets, how calls the registry cannot run are answered,
// how the loop detector tells arguments apart, and the trace JSON of every event kind.
#include "tooluse/agent/agent.hpp"

#include <gtest/gtest.h>

#include "scripted_model.hpp"

namespace tooluse {
namespace {

using agent_testing::call;
using agent_testing::calls;
using agent_testing::scripted_model;
using agent_testing::text;

struct agent_conversation : ::testing::Test {
  tool_registry tools;
  scripted_model model;
  int echo_runs = 0;
  void SetUp() override {
    tools.add({.name = "echo",
               .description = "Echoes its text",
               .input_schema = json::parse(R"({"type": "object", "properties": {"text": {"type": "string"}},
                                               "required": ["text"]})")},
              [this](const json& args, call_context&) {
                ++echo_runs;
                return tool_result::text("echo: " + args.value("text", std::string()));
              });
  }
};

TEST_F(agent_conversation, each_request_carries_the_options_and_every_tool) {
  model.answers.push_back(text("hi"));
  agent a(model, tools, {.system = "Be brief.", .parallel_tool_calls = false, .strict = true,
                         .max_tokens = 123, .temperature = 0.25});
  ASSERT_TRUE(a.run("hello"));
  ASSERT_EQ(model.requests.size(), 1u);
  const auto& req = model.requests[0];
  ASSERT_EQ(req.messages.size(), 2u);
  EXPECT_EQ(req.messages[0].role, llm::role::system);
  EXPECT_EQ(req.messages[0].text(), "Be brief.");
  EXPECT_EQ(req.messages[1].role, llm::role::user);
  EXPECT_EQ(req.messages[1].text(), "hello");
  EXPECT_EQ(req.parallel_tool_calls, false);
  EXPECT_TRUE(req.strict);
  EXPECT_EQ(req.max_tokens, 123);
  EXPECT_EQ(req.temperature, 0.25);
  ASSERT_EQ(req.tools.size(), 1u);
  EXPECT_EQ(req.tools[0].name, "echo");
  EXPECT_TRUE(req.allowed_tools.empty());
}

TEST_F(agent_conversation, history_grows_over_runs_and_reset_keeps_only_the_system_prompt) {
  model.answers.push_back(calls({call("c1", "echo", R"({"text": "a"})")}));
  model.answers.push_back(text("first"));
  model.answers.push_back(text("second"));
  agent a(model, tools, {.system = "sys"});
  auto first = a.run("one");
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->answer, "first");
  EXPECT_EQ(first->turns, 2);
  ASSERT_EQ(a.history().size(), 5u);  // system, user, assistant(calls), tool, assistant
  EXPECT_EQ(a.history()[3].role, llm::role::tool);
  EXPECT_EQ(a.history()[3].tool_call_id, "c1");
  EXPECT_EQ(a.history()[3].text(), "echo: a");
  auto second = a.run("two");
  ASSERT_TRUE(second);
  EXPECT_EQ(second->answer, "second");
  EXPECT_EQ(second->turns, 1);
  EXPECT_TRUE(second->tool_calls.empty());
  EXPECT_EQ(model.requests[2].messages.size(), 6u);  // the whole first run, then "two"
  EXPECT_EQ(a.history().size(), 7u);
  a.reset();
  ASSERT_EQ(a.history().size(), 1u);
  EXPECT_EQ(a.history()[0].text(), "sys");
}

TEST_F(agent_conversation, without_a_system_prompt_the_history_starts_with_the_user) {
  model.answers.push_back(text("ok"));
  agent a(model, tools);
  ASSERT_TRUE(a.run("q"));
  EXPECT_EQ(a.history().front().role, llm::role::user);
  a.reset();
  EXPECT_TRUE(a.history().empty());
}

TEST_F(agent_conversation, an_unknown_tool_is_answered_with_an_error_and_the_run_goes_on) {
  model.answers.push_back(calls({call("c1", "nope", "{}"), call("c2", "echo", R"({"text": "x"})")}));
  model.answers.push_back(text("done"));
  agent a(model, tools);
  auto r = a.run("go");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->tool_calls.size(), 2u);
  EXPECT_TRUE(r->tool_calls[0].result.is_error);
  EXPECT_NE(r->tool_calls[0].result.all_text().find("nope"), std::string::npos)
      << r->tool_calls[0].result.all_text();
  EXPECT_FALSE(r->tool_calls[1].result.is_error);
  EXPECT_EQ(r->tool_calls[1].turn, 1);
  const auto& second = model.requests[1].messages;
  ASSERT_EQ(second.size(), 4u);
  EXPECT_EQ(second[2].tool_call_id, "c1");
  EXPECT_TRUE(second[2].is_error);
  EXPECT_EQ(second[3].tool_call_id, "c2");
  EXPECT_EQ(echo_runs, 1);
}

TEST_F(agent_conversation, invalid_arguments_are_a_tool_error_the_model_can_fix) {
  model.answers.push_back(calls({call("c1", "echo", R"({"txt": "x"})")}));
  model.answers.push_back(calls({call("c2", "echo", R"({"text": "x"})")}));
  model.answers.push_back(text("fixed"));
  agent a(model, tools);
  auto r = a.run("go");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->tool_calls.size(), 2u);
  EXPECT_TRUE(r->tool_calls[0].result.is_error);
  EXPECT_NE(r->tool_calls[0].result.all_text().find("text"), std::string::npos);
  EXPECT_FALSE(r->tool_calls[1].result.is_error);
  EXPECT_EQ(r->tool_calls[1].turn, 2);
  EXPECT_EQ(echo_runs, 1);
}

TEST_F(agent_conversation, the_loop_detector_tells_different_arguments_apart) {
  for (const char* t : {"a", "b", "a"})
    model.answers.push_back(calls({call("c", "echo", std::string(R"({"text": ")") + t + "\"}")}));
  model.answers.push_back(calls({call("c", "echo", R"({"text": "a"})")}));
  model.answers.push_back(text("done"));
  agent a(model, tools, {.loop_limit = 2});
  auto r = a.run("go");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->tool_calls.size(), 4u);
  EXPECT_FALSE(r->tool_calls[2].result.is_error);  // "a" twice is within the limit
  EXPECT_TRUE(r->tool_calls[3].result.is_error);   // the third "a" is not run
  EXPECT_NE(r->tool_calls[3].result.all_text().find("2 times"), std::string::npos);
  EXPECT_NE(r->tool_calls[3].result.all_text().find("Its last result was: echo: a"), std::string::npos)
      << r->tool_calls[3].result.all_text();
  EXPECT_EQ(echo_runs, 3);
}

TEST_F(agent_conversation, the_loop_count_is_kept_across_runs_until_reset) {
  model.answers.push_back(calls({call("c", "echo", R"({"text": "z"})")}));
  model.answers.push_back(text("one"));
  model.answers.push_back(calls({call("c", "echo", R"({"text": "z"})")}));
  model.answers.push_back(text("two"));
  model.answers.push_back(calls({call("c", "echo", R"({"text": "z"})")}));
  model.answers.push_back(text("three"));
  agent a(model, tools, {.loop_limit = 1});
  ASSERT_TRUE(a.run("1"));
  auto second = a.run("2");
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->tool_calls[0].result.is_error);
  a.reset();
  auto third = a.run("3");
  ASSERT_TRUE(third);
  EXPECT_FALSE(third->tool_calls[0].result.is_error);
  EXPECT_EQ(echo_runs, 2);
}

TEST_F(agent_conversation, a_failed_run_keeps_its_progress_in_last_run) {
  model.answers.push_back(calls({call("c1", "echo", R"({"text": "a"})")}));
  model.answers.push_back(fail(errc::network_error, "provider down"));
  agent a(model, tools);
  auto r = a.run("go");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::network_error);
  EXPECT_EQ(r.error().message, "provider down");
  EXPECT_EQ(a.last_run().turns, 2);
  ASSERT_EQ(a.last_run().tool_calls.size(), 1u);
  EXPECT_EQ(a.last_run().tool_calls[0].result.all_text(), "echo: a");
}

TEST_F(agent_conversation, the_answer_event_carries_the_runs_total_usage) {
  auto first = calls({call("c1", "echo", R"({"text": "a"})")});
  first.usage.input_tokens = 10;
  first.usage.output_tokens = 2;
  model.answers.push_back(first);
  model.answers.push_back(text("done", 30, 5));
  std::vector<agent_event> events;
  agent a(model, tools, {.on_event = [&](const agent_event& e) { events.push_back(e); }});
  auto r = a.run("go");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->usage.input_tokens, 40);
  EXPECT_EQ(r->usage.output_tokens, 7);
  ASSERT_FALSE(events.empty());
  const auto& answer = events.back();
  EXPECT_EQ(answer.what, agent_event::kind::answer);
  EXPECT_EQ(answer.text, "done");
  EXPECT_EQ(answer.usage.total_tokens(), 47);
  EXPECT_EQ(answer.turn, 2);
  EXPECT_EQ(events[0].what, agent_event::kind::model_request);
  EXPECT_EQ(events[0].messages, 1u);
  auto result_event = std::find_if(events.begin(), events.end(),
                                   [](const auto& e) { return e.what == agent_event::kind::tool_result; });
  ASSERT_NE(result_event, events.end());
  ASSERT_TRUE(result_event->result.has_value());
  EXPECT_EQ(result_event->result->all_text(), "echo: a");
  EXPECT_EQ(result_event->call->id, "c1");
}

TEST_F(agent_conversation, a_provider_error_is_reported_as_an_error_event) {
  model.answers.push_back(fail(errc::rate_limited, "slow down"));
  std::vector<std::string> kinds;
  std::string error_text;
  agent a(model, tools, {.on_event = [&](const agent_event& e) {
                           kinds.emplace_back(to_string(e.what));
                           if (e.what == agent_event::kind::error) error_text = e.text;
                         }});
  ASSERT_FALSE(a.run("go"));
  EXPECT_EQ(kinds, (std::vector<std::string>{"model_request", "error"}));
  EXPECT_EQ(error_text, "slow down");
}

TEST(agent_event_json, every_kind_renders_its_own_fields) {
  using kind = agent_event::kind;
  EXPECT_EQ(agent_event_to_json({.what = kind::model_request, .turn = 1, .messages = 3}),
            json::parse(R"({"event": "model_request", "turn": 1, "messages": 3})"));
  EXPECT_EQ(agent_event_to_json({.what = kind::reasoning_delta, .turn = 2, .text = "hmm"}),
            json::parse(R"({"event": "reasoning_delta", "turn": 2, "text": "hmm"})"));
  EXPECT_EQ(agent_event_to_json({.what = kind::error, .turn = 4, .text = "boom"}),
            json::parse(R"({"event": "error", "turn": 4, "text": "boom"})"));
  agent_event response{.what = kind::model_response, .turn = 1, .text = "stop",
                       .duration = std::chrono::milliseconds(12), .model = "m-1"};
  json r = agent_event_to_json(response);
  EXPECT_EQ(r["finish"], "stop");
  EXPECT_EQ(r["ms"], 12);
  EXPECT_EQ(r["model"], "m-1");
  EXPECT_TRUE(r.contains("usage"));
  EXPECT_FALSE(r.contains("message"));
  agent_event bad_call{.what = kind::tool_call, .turn = 1, .call = call("c9", "echo", "{oops")};
  EXPECT_EQ(agent_event_to_json(bad_call),
            json::parse(R"({"event": "tool_call", "turn": 1, "id": "c9", "name": "echo", "arguments": "{oops"})"));
  agent_event done{.what = kind::tool_result, .turn = 1, .call = call("c9", "echo", R"({"a": 1})"),
                   .result = tool_result::error("failed"), .duration = std::chrono::milliseconds(3)};
  EXPECT_EQ(agent_event_to_json(done),
            json::parse(R"({"event": "tool_result", "turn": 1, "id": "c9", "name": "echo",
                            "arguments": {"a": 1}, "result": "failed", "is_error": true, "ms": 3})"));
  for (auto k : {kind::model_request, kind::text_delta, kind::reasoning_delta, kind::model_response,
                 kind::tool_call, kind::tool_result, kind::answer, kind::error})
    EXPECT_EQ(agent_event_to_json({.what = k})["event"], std::string(to_string(k)));
}

}  // namespace
}  // namespace tooluse
