// Parallel caps seen from the queue (a per-tool cap across separate calls, a batch cap), a
// cached result that spends no budget, and a timed-out running call counted by the circuit
// breaker. Handlers block on gates or their stop token; policy time is a manual_clock.
#include <atomic>
#include <future>

#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;
using namespace std::chrono_literals;

// held registers `name` (with `extra` settings) that blocks on `g` and counts its starts.
void add_held(tool_registry& r, tool extra, gate& g, counter& started, counter& finished) {
  r.add(std::move(extra), [&g, &started, &finished](const json&, call_context&) {
    started.add();
    g.wait();
    finished.add();
    return tool_result::text("released");
  });
}

TEST(executor_caps, a_tool_cap_holds_calls_from_separate_submits_in_the_queue) {
  tool_registry reg;
  gate g;
  counter started, finished;
  add_held(reg, {.name = "single", .max_parallel = 1}, g, started, finished);
  executor ex(reg, {.max_threads = 4});
  auto first = ex.submit(make_call("single"));
  started.wait_for(1);
  auto second = ex.submit(make_call("single"));
  // Free workers exist, but the tool's cap keeps the second call waiting.
  EXPECT_EQ(ex.stats().queued, 1u);
  EXPECT_EQ(started.value(), 1);
  g.open();
  EXPECT_EQ(first.get().all_text(), "released");
  EXPECT_EQ(second.get().all_text(), "released");
  EXPECT_EQ(started.value(), 2);
  finished.wait_for(2);
}

TEST(executor_caps, a_batch_cap_holds_the_rest_of_the_batch_in_the_queue) {
  tool_registry reg;
  gate g;
  counter started, finished;
  add_held(reg, {.name = "held"}, g, started, finished);
  executor ex(reg, {.max_threads = 4});
  // The last call names no tool: it is refused while the batch is admitted, in call order, so
  // its end event says that the three before it are queued or running.
  std::vector<tool_call> calls = {
      make_call("held", json::object(), "a"), make_call("held", json::object(), "b"),
      make_call("held", json::object(), "c"), make_call("nope", json::object(), "m")};
  counter admitted;
  run_options o{.max_parallel = 1, .on_event = [&](const call_event& e) {
                  if (e.kind == event_kind::end && e.call && e.call->name == "nope") admitted.add();
                }};
  auto results = std::async(std::launch::async, [&] { return ex.run_all(calls, o); });
  admitted.wait_for(1);
  started.wait_for(1);
  EXPECT_EQ(ex.stats().queued, 2u);
  // Another batch without a cap is not held back by this one.
  auto other = ex.submit(make_call("held", json::object(), "d"));
  started.wait_for(2);
  g.open();
  auto out = results.get();
  ASSERT_EQ(out.size(), 4u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out[i].all_text(), "released");
  EXPECT_EQ(out[3].all_text().rfind("unknown tool \"nope\"", 0), 0u);
  EXPECT_EQ(other.get().all_text(), "released");
  finished.wait_for(4);
}

TEST(executor_cache_budget, a_cached_result_spends_no_budget_and_says_it_was_cached) {
  tool_registry reg;
  std::atomic<int> runs{0};
  tool def{.name = "lookup", .input_schema = int_schema("i"), .cost_per_call = 1.0};
  def.annotations.read_only = true;
  reg.add(def, [&](const json& a, call_context&) {
    ++runs;
    return tool_result::text("value " + std::to_string(a["i"].get<int>()));
  });
  std::vector<std::pair<bool, int>> ends;  // (cached, attempts) of every end event
  executor ex(reg, {.cache = {.capacity = 8, .ttl = 60s}, .on_event = [&](const call_event& e) {
                      if (e.kind == event_kind::end) ends.emplace_back(e.cached, e.attempts);
                    }});
  auto budget = std::make_shared<run_budget>(budget_limits{.max_calls = 1, .max_cost = 1.0});
  EXPECT_EQ(ex.call(make_call("lookup", {{"i", 1}}), {.budget = budget}).all_text(), "value 1");
  tool_result again = ex.call(make_call("lookup", {{"i", 1}}), {.budget = budget});
  EXPECT_FALSE(again.is_error) << again.all_text();
  EXPECT_EQ(again.all_text(), "value 1");
  EXPECT_EQ(again.meta.value("cached", false), true);
  EXPECT_EQ(runs.load(), 1);
  EXPECT_EQ(budget->calls_used(), 1u);
  EXPECT_DOUBLE_EQ(budget->cost_used(), 1.0);
  // A different argument is not cached, and the budget is spent: refused, not run.
  tool_result other = ex.call(make_call("lookup", {{"i", 2}}), {.budget = budget});
  EXPECT_TRUE(other.is_error);
  EXPECT_EQ(other.all_text().rfind("budget exceeded", 0), 0u);
  EXPECT_EQ(runs.load(), 1);
  EXPECT_EQ(ends, (std::vector<std::pair<bool, int>>{{false, 1}, {true, 0}, {false, 0}}));
}

TEST(executor_breaker_timeouts, a_running_call_that_times_out_counts_as_a_failure) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  counter stopped;
  reg.add({.name = "slow", .timeout = 50ms}, [&](const json&, call_context& ctx) {
    std::promise<void> p;
    std::stop_callback cb(ctx.stop, [&] { p.set_value(); });
    p.get_future().wait();  // until the deadline requests stop
    stopped.add();
    return tool_result::text("too late");
  });
  executor ex(reg, {.breaker = {.failure_threshold = 1, .open_for = 1000ms}, .time = time});
  tool_result r = ex.call(make_call("slow"));
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.meta.value("timeout", false), true);
  EXPECT_NE(r.all_text().find("tool \"slow\" timed out after 50 ms; it may still finish"),
            std::string::npos)
      << r.all_text();
  stopped.wait_for(1);
  EXPECT_EQ(ex.breaker("slow"), breaker_state::open);
  tool_result refused = ex.call(make_call("slow"));
  EXPECT_NE(refused.all_text().find("temporarily unavailable"), std::string::npos);
  EXPECT_EQ(stopped.value(), 1);  // the refused call never ran
}

}  // namespace
}  // namespace tooluse::exec
