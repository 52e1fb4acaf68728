// Rate limits and budgets.
#include <thread>

#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;
using namespace std::chrono_literals;

int count_ok(const std::vector<tool_result>& results) {
  int n = 0;
  for (const auto& r : results) n += r.is_error ? 0 : 1;
  return n;
}

TEST(rate_limiter, admits_exactly_n_per_window_under_concurrency) {
  auto time = std::make_shared<manual_clock>();
  rate_limiter limiter(time);
  const rate_limit limit{.calls = 7, .window = 1000ms};
  std::atomic<int> admitted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i)
        if (!limiter.try_acquire("k", limit)) ++admitted;
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(admitted.load(), 7);
  auto retry = limiter.try_acquire("k", limit);
  ASSERT_TRUE(retry);
  EXPECT_EQ(*retry, 1000ms);
  time->advance(400ms);
  EXPECT_EQ(*limiter.try_acquire("k", limit), 600ms);
  EXPECT_FALSE(limiter.try_acquire("other", limit));  // keys are independent
  time->advance(600ms);
  int again = 0;
  for (int i = 0; i < 20; ++i) again += limiter.try_acquire("k", limit) ? 0 : 1;
  EXPECT_EQ(again, 7);
}

TEST(executor_rate_limit, batch_admits_exactly_the_limit_and_says_when_to_retry) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  add_echo(reg, {.name = "limited", .rate = {.calls = 5, .window = 1000ms}});
  executor ex(reg, {.max_threads = 8, .time = time});
  std::vector<tool_call> calls;
  for (int i = 0; i < 20; ++i) calls.push_back(make_call("limited", {{"i", i}}));
  auto results = ex.run_all(calls, {.session = "alice"});
  EXPECT_EQ(count_ok(results), 5);
  for (const auto& r : results) {
    if (!r.is_error) continue;
    EXPECT_EQ(r.all_text(),
              "rate limit of tool \"limited\" reached for session \"alice\": at most 5 calls per "
              "1000 ms; retry after 1000 ms");
    EXPECT_EQ(r.meta["retry_after_ms"], 1000);
  }
  // Another session has its own window; the same session waits for the window to pass.
  EXPECT_EQ(count_ok(ex.run_all(calls, {.session = "bob"})), 5);
  EXPECT_EQ(count_ok(ex.run_all(calls, {.session = "alice"})), 0);
  time->advance(1000ms);
  EXPECT_EQ(count_ok(ex.run_all(calls, {.session = "alice"})), 5);
}

TEST(executor_rate_limit, concurrent_batches_share_the_window) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  add_echo(reg, {.name = "limited", .rate = {.calls = 9, .window = 60000ms}});
  executor ex(reg, {.max_threads = 8, .time = time});
  std::vector<tool_call> calls(6, make_call("limited", {{"i", 1}}));
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) threads.emplace_back([&] { ok += count_ok(ex.run_all(calls)); });
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok.load(), 9);
}

TEST(executor_rate_limit, waits_up_to_the_bound_for_a_slot) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  add_echo(reg, {.name = "limited", .rate = {.calls = 1, .window = 1000ms}});
  executor ex(reg, {.time = time});
  EXPECT_FALSE(ex.call(make_call("limited", {{"i", 1}})).is_error);
  // 1000 ms wait allowed: the call sleeps (on the manual clock) and then runs.
  EXPECT_FALSE(ex.call(make_call("limited", {{"i", 2}}), {.rate_limit_wait = 1000ms}).is_error);
  ASSERT_EQ(time->sleeps().size(), 1u);
  EXPECT_EQ(time->sleeps()[0], 1000ms);
  // 500 ms is not enough: refused at once.
  EXPECT_TRUE(ex.call(make_call("limited", {{"i", 3}}), {.rate_limit_wait = 500ms}).is_error);
  EXPECT_EQ(time->sleeps().size(), 1u);
}

TEST(executor_budget, max_calls_stops_at_the_limit) {
  tool_registry reg;
  add_echo(reg);
  executor ex(reg);
  auto budget = std::make_shared<run_budget>(budget_limits{.max_calls = 3});
  std::vector<tool_call> calls;
  for (int i = 0; i < 5; ++i) calls.push_back(make_call("echo", {{"i", i}}));
  auto results = ex.run_all(calls, {.budget = budget});
  for (int i = 0; i < 3; ++i) EXPECT_EQ(results[i].all_text(), std::to_string(i));
  for (int i = 3; i < 5; ++i)
    EXPECT_EQ(results[i].all_text(),
              "budget exceeded: this run may make at most 3 tool calls and all have been used; "
              "answer with what you have");
  EXPECT_EQ(budget->calls_used(), 3u);
  // The budget spans batches of the same run.
  EXPECT_TRUE(ex.call(make_call("echo", {{"i", 9}}), {.budget = budget}).is_error);
}

TEST(executor_budget, cost_counts_cost_per_call_and_reported_cost) {
  tool_registry reg;
  reg.add({.name = "paid", .cost_per_call = 0.25}, [](const json&, call_context&) {
    tool_result r = tool_result::text("ok");
    r.meta["cost"] = 0.25;  // e.g. tokens the tool spent upstream
    return r;
  });
  executor ex(reg);
  auto budget = std::make_shared<run_budget>(budget_limits{.max_cost = 1.0});
  tool_result first = ex.call(make_call("paid"), {.budget = budget});
  EXPECT_FALSE(first.is_error);
  EXPECT_DOUBLE_EQ(first.cost, 0.5);
  EXPECT_DOUBLE_EQ(budget->cost_used(), 0.5);
  EXPECT_FALSE(ex.call(make_call("paid"), {.budget = budget}).is_error);
  tool_result refused = ex.call(make_call("paid"), {.budget = budget});
  EXPECT_TRUE(refused.is_error);
  EXPECT_EQ(refused.all_text(),
            "budget exceeded: this call would cost 0.25 and the run has spent 1 of its 1; answer "
            "with what you have");
  EXPECT_DOUBLE_EQ(budget->cost_used(), 1.0);
}

// A reservation comes back when the call does not run after all: refused by its rate limit or
// circuit breaker, or cancelled while it waited for a worker.
TEST(executor_budget, calls_that_do_not_run_give_their_reservation_back) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  add_echo(reg, {.name = "limited", .rate = {.calls = 1, .window = 1000ms}, .cost_per_call = 0.5});
  executor ex(reg, {.time = time});
  auto budget = std::make_shared<run_budget>(budget_limits{.max_calls = 2, .max_cost = 1.0});
  EXPECT_FALSE(ex.call(make_call("limited", {{"i", 1}}), {.budget = budget}).is_error);
  for (int i = 0; i < 3; ++i) {
    tool_result limited = ex.call(make_call("limited", {{"i", 2}}), {.budget = budget});
    EXPECT_NE(limited.all_text().find("rate limit of tool \"limited\""), std::string::npos)
        << limited.all_text();
  }
  EXPECT_EQ(budget->calls_used(), 1u);  // three refusals spent nothing
  EXPECT_DOUBLE_EQ(budget->cost_used(), 0.5);
  time->advance(1000ms);
  // The second call of the budget is still there for a call that can run.
  EXPECT_FALSE(ex.call(make_call("limited", {{"i", 3}}), {.budget = budget}).is_error);
  EXPECT_EQ(budget->calls_used(), 2u);
  EXPECT_DOUBLE_EQ(budget->cost_used(), 1.0);
}

TEST(executor_budget, an_open_circuit_spends_no_budget) {
  tool_registry reg;
  reg.add({.name = "flaky"}, [](const json&, call_context&) { return tool_result::error("down"); });
  executor ex(reg, {.breaker = {.failure_threshold = 1, .open_for = 60000ms}});
  auto budget = std::make_shared<run_budget>(budget_limits{.max_calls = 5});
  EXPECT_EQ(ex.call(make_call("flaky"), {.budget = budget}).all_text(), "down");
  ASSERT_EQ(ex.breaker("flaky"), breaker_state::open);
  tool_result refused = ex.call(make_call("flaky"), {.budget = budget});
  EXPECT_NE(refused.all_text().find("temporarily unavailable"), std::string::npos)
      << refused.all_text();
  EXPECT_EQ(budget->calls_used(), 1u);
}

TEST(executor_budget, a_call_cancelled_in_the_queue_spends_no_budget) {
  tool_registry reg;
  gate hold;
  counter started, finished;
  reg.add({.name = "held"}, [&](const json&, call_context&) {
    started.add();
    hold.wait();
    finished.add();
    return tool_result::text("ran");
  });
  executor ex(reg, {.max_threads = 1, .max_abandoned = 0});
  auto budget = std::make_shared<run_budget>(budget_limits{.max_calls = 10});
  std::stop_source stop;
  std::vector<tool_call> calls = {make_call("held", json::object(), "a"),
                                  make_call("held", json::object(), "b"),
                                  make_call("held", json::object(), "c")};
  std::vector<tool_result> results;
  std::thread runner(
      [&] { results = ex.run_all(calls, {.stop = stop.get_token(), .budget = budget}); });
  // One worker: "a" runs and holds it, so "b" and "c", admitted after it on the runner's
  // thread, end up waiting in the queue.
  started.wait_for(1);
  while (ex.stats().queued < 2) std::this_thread::yield();
  EXPECT_EQ(budget->calls_used(), 3u);
  stop.request_stop();
  runner.join();
  // "a" was given up on when the stop came; its handler outlives the batch, so let it return
  // before `hold` and `finished` go away.
  hold.open();
  finished.wait_for(1);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(budget->calls_used(), 1u);  // only "a" started
}

}  // namespace
}  // namespace tooluse::exec
