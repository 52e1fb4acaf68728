// The agent loop against a scripted model: what each request carries (choice on the first turn
// only, allowed tools per turn, tools offered through search), how the loop ends (answer,
// pause_turn resent, max_turns, token and cost budgets, truncated tool calls, provider errors),
// the limits on calls and result sizes, and the conversation it keeps.
#include <gtest/gtest.h>

#include "scripted_model.hpp"
#include "tooluse/agent/agent.hpp"

namespace tooluse {
namespace {

using agent_testing::call;
using agent_testing::calls;
using agent_testing::scripted_model;
using agent_testing::text;

struct agent_loop : ::testing::Test {
  tool_registry tools;
  scripted_model model;
  void SetUp() override {
    tools.add({.name = "echo",
               .description = "Echo the text back",
               .input_schema =
                   json::parse(R"({"type":"object","properties":{"text":{"type":"string"}}})")},
              [](const json& a, call_context&) { return tool_result::text(a.value("text", "")); });
  }
};

TEST(agent_setup, refuses_a_zero_turn_or_loop_limit) {
  tool_registry tools;
  scripted_model model;
  EXPECT_THROW(agent(model, tools, {.max_turns = 0}), std::invalid_argument);
  EXPECT_THROW(agent(model, tools, {.loop_limit = 0}), std::invalid_argument);
}

TEST_F(agent_loop, results_go_back_in_call_order_with_their_ids) {
  model.answers.push_back(calls({call("a", "echo", R"({"text":"one"})"), call("b", "nope"),
                                 call("c", "echo", R"({"text":"three"})")}));
  model.answers.push_back(text("done"));
  agent a(model, tools, {.system = "be brief"});
  auto r = a.run("go");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->answer, "done");
  EXPECT_EQ(r->turns, 2);
  const auto& h = a.history();
  ASSERT_EQ(h.size(), 7u);  // system, user, assistant, 3 tool results, answer
  EXPECT_EQ(h[0].role, llm::role::system);
  EXPECT_EQ(h[1].text(), "go");
  EXPECT_EQ(h[3].tool_call_id, "a");
  EXPECT_EQ(h[3].text(), "one");
  EXPECT_EQ(h[4].tool_call_id, "b");
  EXPECT_TRUE(h[4].is_error);  // an unknown tool is a result the model sees
  EXPECT_NE(h[4].text().find("nope"), std::string::npos) << h[4].text();
  EXPECT_EQ(h[5].tool_call_id, "c");
  EXPECT_EQ(h[5].text(), "three");
  ASSERT_EQ(r->tool_calls.size(), 3u);
  EXPECT_EQ(r->tool_calls[2].turn, 1);
  // The second request carried all of it.
  EXPECT_EQ(model.requests[1].messages.size(), 6u);
}

TEST_F(agent_loop, a_forced_choice_applies_to_the_first_request_only) {
  model.answers.push_back(calls({call("a", "echo")}));
  model.answers.push_back(text("ok"));
  agent a(model, tools,
          {.choice = llm::tool_choice::parse("echo"),
           .parallel_tool_calls = false,
           .strict = true,
           .max_tokens = 77,
           .temperature = 0.1});
  ASSERT_TRUE(a.run("go"));
  EXPECT_EQ(model.requests[0].choice, llm::tool_choice::parse("echo"));
  EXPECT_EQ(model.requests[1].choice, llm::tool_choice{});
  for (const auto& req : model.requests) {
    EXPECT_EQ(req.parallel_tool_calls, std::optional<bool>(false));
    EXPECT_TRUE(req.strict);
    EXPECT_EQ(req.max_tokens, std::optional<int>(77));
    EXPECT_EQ(req.temperature, std::optional<double>(0.1));
    ASSERT_EQ(req.tools.size(), 1u);
    EXPECT_EQ(req.tools[0].name, "echo");
  }
}

TEST_F(agent_loop, allowed_tools_per_turn_narrow_without_changing_the_list) {
  tools.add({.name = "other"}, [](const json&, call_context&) { return tool_result::text("x"); });
  model.answers.push_back(calls({call("a", "echo")}));
  model.answers.push_back(text("ok"));
  agent a(model, tools, {.allowed_tools = {"echo"}, .allowed_tools_for = [](int turn) {
                           return turn == 1 ? std::vector<std::string>{"other", "missing"}
                                            : std::vector<std::string>{};
                         }});
  ASSERT_TRUE(a.run("go"));
  EXPECT_EQ(model.requests[0].tools.size(), 2u);
  EXPECT_EQ(model.requests[0].allowed_tools, std::vector<std::string>{"other"});  // unknown dropped
  EXPECT_TRUE(model.requests[1].allowed_tools.empty());
}

TEST_F(agent_loop, max_turns_fails_with_the_limit_and_keeps_partial_progress) {
  for (int i = 0; i < 3; ++i)
    model.answers.push_back(
        calls({call("c" + std::to_string(i), "echo", R"({"text":")" + std::to_string(i) + "\"}")}));
  std::vector<std::string> errors;
  agent a(model, tools, {.max_turns = 2, .on_event = [&](const agent_event& e) {
                           if (e.what == agent_event::kind::error) errors.push_back(e.text);
                         }});
  auto r = a.run("go");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::budget_exceeded);
  EXPECT_EQ(r.error().message,
            "agent: max_turns (2) reached without a final answer; raise --max-turns or simplify "
            "the task");
  EXPECT_EQ(errors, std::vector<std::string>{r.error().message});
  EXPECT_EQ(a.last_run().turns, 2);
  EXPECT_EQ(a.last_run().tool_calls.size(), 2u);
  EXPECT_EQ(model.requests.size(), 2u);
}

TEST_F(agent_loop, pause_turn_is_sent_again_and_length_during_calls_is_an_error) {
  model.answers.push_back(text("thinking...", llm::finish_reason::pause));
  model.answers.push_back(text("final"));
  agent a(model, tools);
  auto r = a.run("go");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->answer, "final");
  EXPECT_EQ(model.requests.size(), 2u);
  EXPECT_EQ(model.requests[1].messages.back().text(), "thinking...");

  auto cut = calls({call("x", "echo", R"({"text":"abc)")});
  cut.finish = llm::finish_reason::length;
  model.answers.push_back(cut);
  r = a.run("again");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_EQ(r.error().message,
            "agent: the model hit its output token limit while writing tool-call arguments, so "
            "they are truncated; raise max_tokens");
  EXPECT_TRUE(a.last_run().tool_calls.empty());  // nothing ran
}

TEST_F(agent_loop, a_length_answer_without_calls_is_the_answer) {
  model.answers.push_back(text("partial answer", llm::finish_reason::length));
  agent a(model, tools);
  auto r = a.run("go");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->answer, "partial answer");
  EXPECT_EQ(r->finish, llm::finish_reason::length);
}

TEST_F(agent_loop, token_budget_names_what_was_used) {
  model.answers.push_back(calls({call("a", "echo")}, {.input_tokens = 900, .output_tokens = 200}));
  agent a(model, tools, {.max_total_tokens = 1000});
  auto r = a.run("go");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::budget_exceeded);
  EXPECT_EQ(
      r.error().message,
      "agent: the run used 1100 tokens, over max_total_tokens 1000; raise the budget to continue");
  EXPECT_EQ(a.last_run().usage.requests, 1);
}

TEST_F(agent_loop, max_cost_with_a_price_stops_before_an_expensive_first_request) {
  agent a(
      model, tools,
      {.max_cost = 0.000001, .price = llm::price{.input_per_mtok = 1000, .output_per_mtok = 1000}});
  auto r = a.run(std::string(4000, 'x'));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::budget_exceeded);
  EXPECT_EQ(
      r.error().message.rfind("agent: stopped before request 1: the run has spent $0.000000 of its "
                              "$0.000001 budget (max_cost) and the next request would cost about $",
                              0),
      0u)
      << r.error().message;
  EXPECT_TRUE(model.requests.empty());
}

TEST_F(agent_loop, calls_past_the_per_turn_limit_are_answered_not_run) {
  int runs = 0;
  tools.add({.name = "count"}, [&](const json&, call_context&) {
    ++runs;
    return tool_result::text("counted");
  });
  model.answers.push_back(calls({call("1", "count", R"({"n":1})"), call("2", "count", R"({"n":2})"),
                                 call("3", "count", R"({"n":3})")}));
  model.answers.push_back(text("ok"));
  agent a(model, tools, {.max_tool_calls_per_turn = 2});
  auto r = a.run("go");
  ASSERT_TRUE(r);
  EXPECT_EQ(runs, 2);
  ASSERT_EQ(r->tool_calls.size(), 3u);
  const auto& third = r->tool_calls[2].result;
  EXPECT_TRUE(third.is_error);
  EXPECT_EQ(third.all_text().rfind("not run: ", 0), 0u) << third.all_text();
  EXPECT_NE(third.all_text().find("agent_options::max_tool_calls_per_turn"), std::string::npos);
  EXPECT_NE(third.all_text().find("Ask for fewer calls at a time."), std::string::npos);
}

TEST_F(agent_loop, big_results_are_cut_with_a_note_naming_the_limit) {
  tools.add({.name = "big"}, [](const json&, call_context&) {
    tool_result r = tool_result::text(std::string(100, 'a'));
    r.content.push_back(text_content{std::string(50, 'b')});
    return r;
  });
  model.answers.push_back(calls({call("1", "big")}));
  model.answers.push_back(text("ok"));
  agent a(model, tools, {.max_tool_result_bytes = 60});
  auto r = a.run("go");
  ASSERT_TRUE(r);
  const auto& res = r->tool_calls[0].result;
  ASSERT_EQ(res.content.size(), 2u);  // the first block cut, the second dropped, the note
  EXPECT_EQ(std::get<text_content>(res.content[0]).text, std::string(60, 'a'));
  const auto& note = std::get<text_content>(res.content[1]).text;
  EXPECT_EQ(note.rfind("[result cut: ", 0), 0u) << note;
  EXPECT_NE(note.find("agent_options::max_tool_result_bytes"), std::string::npos) << note;
  EXPECT_EQ(res.meta["truncated"],
            json::parse(R"({"limit":"agent_options::max_tool_result_bytes","bytes":150})"));
  // What the model sees is the cut result.
  EXPECT_EQ(a.history()[2].content.size(), 2u);
}

TEST_F(agent_loop, a_provider_error_fails_the_run_with_its_message) {
  model.answers.push_back(calls({call("a", "echo")}));
  model.answers.push_back(
      fail(errc::rate_limited, "openai: HTTP 429 from http://x after 3 retries: slow"));
  std::vector<agent_event::kind> kinds;
  agent a(model, tools, {.on_event = [&](const agent_event& e) { kinds.push_back(e.what); }});
  auto r = a.run("go");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::rate_limited);
  EXPECT_EQ(r.error().message, "openai: HTTP 429 from http://x after 3 retries: slow");
  EXPECT_EQ(kinds.back(), agent_event::kind::error);
  EXPECT_EQ(a.last_run().tool_calls.size(), 1u);
  EXPECT_EQ(a.last_run().turns, 2);
}

TEST_F(agent_loop, usage_is_summed_over_the_run_and_reset_keeps_the_system_prompt) {
  model.answers.push_back(
      calls({call("a", "echo")}, {.input_tokens = 10, .output_tokens = 2, .cost = 0.5}));
  model.answers.push_back(text("ok"));
  model.answers.back()->usage = {.input_tokens = 20, .output_tokens = 3, .cost = 0.25};
  llm::usage at_answer;
  agent a(model, tools, {.system = "sys", .on_event = [&](const agent_event& e) {
                           if (e.what == agent_event::kind::answer) at_answer = e.usage;
                         }});
  auto r = a.run("go");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->usage.input_tokens, 30);
  EXPECT_EQ(r->usage.output_tokens, 5);
  EXPECT_DOUBLE_EQ(r->usage.cost, 0.75);
  EXPECT_EQ(r->usage.requests, 2);
  EXPECT_EQ(at_answer.total_tokens(), 35);
  a.reset();
  ASSERT_EQ(a.history().size(), 1u);
  EXPECT_EQ(a.history()[0].text(), "sys");
}

TEST_F(agent_loop, streamed_text_becomes_text_delta_events) {
  model.stream_text = {"he", "llo"};
  model.answers.push_back(text("hello"));
  std::string deltas;
  agent a(model, tools, {.stream = true, .on_event = [&](const agent_event& e) {
                           if (e.what == agent_event::kind::text_delta) deltas += e.text;
                         }});
  ASSERT_TRUE(a.run("go"));
  EXPECT_TRUE(model.requests[0].stream);
  EXPECT_EQ(deltas, "hello");
}

TEST_F(agent_loop, a_custom_runner_replaces_the_executor) {
  std::vector<std::string> ran;
  model.answers.push_back(calls({call("a", "echo", R"({"text":"x"})"), call("b", "anything")}));
  model.answers.push_back(text("ok"));
  agent a(model, tools, {.runner = [&](std::span<const tool_call> cs, std::stop_token) {
            std::vector<tool_result> out;
            for (const auto& c : cs) {
              ran.push_back(c.id);
              out.push_back(tool_result::text("ran " + c.name));
            }
            return out;
          }});
  auto r = a.run("go");
  ASSERT_TRUE(r);
  EXPECT_EQ(ran, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r->tool_calls[1].result.all_text(), "ran anything");
}

TEST_F(agent_loop, tool_search_offers_the_search_tool_then_loads_what_it_found) {
  for (const char* name : {"send_email", "read_calendar", "create_invoice", "delete_file"})
    tools.add({.name = name, .description = std::string("Tool to ") + name},
              [](const json&, call_context&) { return tool_result::text("done"); });
  model.answers.push_back(calls({call("s1", "search_tools", R"({"query":"email"})")}));
  model.answers.push_back(calls({call("s2", "search_tools", R"({"text":"no query"})")}));
  model.answers.push_back(calls({call("e1", "send_email")}));
  model.answers.push_back(text("sent"));
  agent a(
      model, tools,
      {.tool_search = {
           .use = tool_search_options::mode::always, .always_loaded = {"echo"}, .max_results = 1}});
  auto r = a.run("mail bob");
  ASSERT_TRUE(r) << r.error().message;
  auto names = [](const llm::chat_request& req) {
    std::vector<std::string> out;
    for (const auto& t : req.tools) out.push_back(t.name);
    return out;
  };
  EXPECT_EQ(names(model.requests[0]), (std::vector<std::string>{"echo", "search_tools"}));
  EXPECT_NE(model.requests[0].tools[1].description.find("Search the 4 tools"), std::string::npos)
      << model.requests[0].tools[1].description;
  EXPECT_EQ(r->tool_calls[0].result.all_text(),
            "Loaded 1 tools; call them directly:\n- send_email: Tool to send_email\n");
  EXPECT_EQ(names(model.requests[1]),
            (std::vector<std::string>{"echo", "send_email", "search_tools"}));
  EXPECT_TRUE(r->tool_calls[1].result.is_error);
  EXPECT_EQ(r->tool_calls[1].result.all_text(),
            R"("search_tools" needs {"query": "keywords"}, e.g. {"query": "send email"})");
  EXPECT_EQ(r->tool_calls[2].result.all_text(), "done");
  // A new conversation forgets what was loaded.
  a.reset();
  model.answers.push_back(text("hi"));
  ASSERT_TRUE(a.run("hello"));
  EXPECT_EQ(names(model.requests.back()), (std::vector<std::string>{"echo", "search_tools"}));
}

TEST_F(agent_loop, native_tool_search_on_anthropic_defers_all_but_the_always_loaded) {
  scripted_model anthropic("anthropic");
  tools.add({.name = "more"}, [](const json&, call_context&) { return tool_result::text("x"); });
  anthropic.answers.push_back(text("ok"));
  agent a(
      anthropic, tools,
      {.tool_search = {
           .use = tool_search_options::mode::native, .threshold = 1, .always_loaded = {"echo"}}});
  ASSERT_TRUE(a.run("go"));
  const auto& req = anthropic.requests[0];
  EXPECT_EQ(req.tools.size(), 2u);
  EXPECT_EQ(req.deferred_tools, std::vector<std::string>{"more"});
  EXPECT_EQ(req.native_tool_search, "bm25");
  // Below the threshold, native mode sends everything plainly.
  tool_registry few;
  few.add({.name = "only"}, [](const json&, call_context&) { return tool_result::text("x"); });
  anthropic.answers.push_back(text("ok"));
  agent b(anthropic, few,
          {.tool_search = {.use = tool_search_options::mode::native, .threshold = 5}});
  ASSERT_TRUE(b.run("go"));
  EXPECT_TRUE(anthropic.requests.back().deferred_tools.empty());
  EXPECT_TRUE(anthropic.requests.back().native_tool_search.empty());
}

TEST(agent_events, json_lines_name_the_event_and_carry_its_fields) {
  agent_event e{.what = agent_event::kind::tool_result,
                .turn = 2,
                .call = tool_call::from_text("c1", "echo", R"({"text":"x"})"),
                .result = tool_result::text("x"),
                .duration = std::chrono::milliseconds(12)};
  EXPECT_EQ(agent_event_to_json(e), json::parse(R"({"event":"tool_result","turn":2,"id":"c1",
      "name":"echo","arguments":{"text":"x"},"result":"x","is_error":false,"ms":12})"));
  // Arguments that did not parse are shown as the model wrote them.
  agent_event bad{.what = agent_event::kind::tool_call,
                  .turn = 1,
                  .call = tool_call::from_text("c2", "echo", "{oops")};
  EXPECT_EQ(agent_event_to_json(bad)["arguments"], "{oops");
  agent_event answer{.what = agent_event::kind::answer,
                     .turn = 3,
                     .text = "done",
                     .usage = {.input_tokens = 1, .output_tokens = 2}};
  EXPECT_EQ(agent_event_to_json(answer), json::parse(R"({"event":"answer","turn":3,"text":"done",
      "usage":{"input_tokens":1,"output_tokens":2,"total_tokens":3,"cost":0.0}})"));
  for (auto k : {agent_event::kind::model_request, agent_event::kind::text_delta,
                 agent_event::kind::reasoning_delta, agent_event::kind::model_response,
                 agent_event::kind::tool_call, agent_event::kind::tool_result,
                 agent_event::kind::answer, agent_event::kind::error}) {
    agent_event any{.what = k, .turn = 1};
    EXPECT_EQ(agent_event_to_json(any)["event"], to_string(k));
  }
}

}  // namespace
}  // namespace tooluse
