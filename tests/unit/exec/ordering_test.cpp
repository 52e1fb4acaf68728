#include <algorithm>
#include <random>

#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;

// turnstile lets handlers finish in a chosen order: the handler with rank r waits for turn r.
struct turnstile {
  std::mutex m;
  std::condition_variable cv;
  int turn = 0;
  std::vector<int> finished;
  void pass(int rank, int index) {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return turn == rank; });
    finished.push_back(index);
    ++turn;
    cv.notify_all();
  }
};

TEST(executor_ordering, results_follow_call_order_under_random_completion) {
  constexpr int n = 24;
  tool_registry reg;
  turnstile ts;
  reg.add({.name = "ranked", .input_schema = {{"type", "object"}}},
          [&](const json& args, call_context&) {
            ts.pass(args["rank"].get<int>(), args["i"].get<int>());
            return tool_result::text("result " + std::to_string(args["i"].get<int>()));
          });
  std::vector<int> ranks(n);
  std::iota(ranks.begin(), ranks.end(), 0);
  std::shuffle(ranks.begin(), ranks.end(), std::mt19937(42));
  std::vector<tool_call> calls;
  for (int i = 0; i < n; ++i)
    calls.push_back(make_call("ranked", {{"i", i}, {"rank", ranks[i]}}, "id" + std::to_string(i)));

  executor ex(reg, {.max_threads = n});
  std::vector<std::size_t> end_order;
  std::mutex end_mutex;
  auto results = ex.run_all(calls, {.on_event = [&](const call_event& e) {
                                      if (e.kind != event_kind::end) return;
                                      std::lock_guard lock(end_mutex);
                                      end_order.push_back(e.index);
                                    }});
  ASSERT_EQ(results.size(), static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    EXPECT_FALSE(results[i].is_error);
    EXPECT_EQ(results[i].all_text(), "result " + std::to_string(i));
  }
  // The handlers really finished in the shuffled order, not in call order.
  std::vector<int> expected_finish(n);
  for (int i = 0; i < n; ++i) expected_finish[ranks[i]] = i;
  EXPECT_EQ(ts.finished, expected_finish);
  EXPECT_EQ(end_order.size(), static_cast<std::size_t>(n));
}

TEST(executor_ordering, immediate_and_queued_results_interleave_in_order) {
  tool_registry reg;
  add_echo(reg);
  executor ex(reg, {.max_threads = 2});
  std::vector<tool_call> calls = {make_call("echo", {{"i", 1}}), make_call("nope"),
                                  make_call("echo", {{"i", "x"}}), make_call("echo", {{"i", 4}})};
  auto results = ex.run_all(calls);
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].all_text(), "1");
  EXPECT_TRUE(results[1].is_error);
  EXPECT_NE(results[1].all_text().find("unknown tool \"nope\"; available tools: echo"),
            std::string::npos);
  EXPECT_TRUE(results[2].is_error);
  EXPECT_EQ(results[3].all_text(), "4");
}

TEST(executor_ordering, every_result_has_a_duration) {
  tool_registry reg;
  counter started;
  gate release;
  reg.add({.name = "slowish"}, [&](const json&, call_context&) {
    started.add();
    release.wait();
    return tool_result::text("ok");
  });
  executor ex(reg, {.max_threads = 2});
  std::vector<tool_call> calls = {make_call("slowish"), make_call("slowish")};
  auto f = std::async(std::launch::async, [&] { return ex.run_all(calls); });
  started.wait_for(2);
  release.open();
  auto results = f.get();
  for (const auto& r : results) {
    EXPECT_FALSE(r.is_error);
    EXPECT_GT(r.duration.count(), 0);
  }
}

TEST(executor_ordering, empty_batch_returns_no_results) {
  tool_registry reg;
  executor ex(reg);
  EXPECT_TRUE(ex.run_all({}).empty());
}

TEST(executor_parallelism, per_tool_and_batch_caps_hold) {
  tool_registry reg;
  std::mutex m;
  int in_flight = 0, max_seen = 0;
  auto handler = [&](const json&, call_context&) {
    {
      std::lock_guard lock(m);
      max_seen = std::max(max_seen, ++in_flight);
    }
    std::this_thread::yield();
    std::lock_guard lock(m);
    --in_flight;
    return tool_result::text("ok");
  };
  reg.add({.name = "two_at_once", .max_parallel = 2}, handler);
  reg.add({.name = "free"}, handler);
  executor ex(reg, {.max_threads = 8});
  std::vector<tool_call> calls(40, make_call("two_at_once"));
  for (const auto& r : ex.run_all(calls)) EXPECT_FALSE(r.is_error);
  EXPECT_LE(max_seen, 2);
  max_seen = 0;
  std::vector<tool_call> free_calls(40, make_call("free"));
  for (const auto& r : ex.run_all(free_calls, {.max_parallel = 3})) EXPECT_FALSE(r.is_error);
  EXPECT_LE(max_seen, 3);
}

TEST(executor_parallelism, one_thread_runs_everything_in_turn) {
  tool_registry reg;
  add_echo(reg);
  executor ex(reg, {.max_threads = 1});
  std::vector<tool_call> calls;
  for (int i = 0; i < 50; ++i) calls.push_back(make_call("echo", {{"i", i}}));
  auto results = ex.run_all(calls);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(results[i].all_text(), std::to_string(i));
  EXPECT_EQ(ex.stats().threads, 1);
}

TEST(executor_api, submit_and_call_return_single_results) {
  tool_registry reg;
  add_echo(reg);
  executor ex(reg);
  auto f = ex.submit(make_call("echo", {{"i", 7}}));
  EXPECT_EQ(f.get().all_text(), "7");
  EXPECT_EQ(ex.call(make_call("echo", {{"i", 8}})).all_text(), "8");
  EXPECT_THROW(executor(reg, {.max_threads = 0}), std::invalid_argument);
}

}  // namespace
}  // namespace tooluse::exec
