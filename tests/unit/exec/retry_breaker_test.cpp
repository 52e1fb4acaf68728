// Retries with back-off for idempotent tools and transient errors; the circuit breaker.
#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;
using namespace std::chrono_literals;

tool_result transient_error(std::string text) {
  tool_result r = tool_result::error(std::move(text));
  r.meta["transient"] = true;
  return r;
}

// flaky fails transiently `failures` times, then succeeds.
struct flaky {
  tool_registry reg;
  std::atomic<int> calls{0};
  int failures;
  explicit flaky(int f, tool_annotations a = {.idempotent = true}, bool transient = true)
      : failures(f) {
    reg.add({.name = "flaky", .annotations = a}, [this, transient](const json&, call_context&) {
      if (++calls <= failures)
        return transient ? transient_error("upstream 503") : tool_result::error("bad request");
      return tool_result::text("ok");
    });
  }
};

TEST(executor_retry, idempotent_transient_errors_are_retried_with_backoff) {
  flaky f(2);
  auto time = std::make_shared<manual_clock>();
  executor ex(f.reg, {.retry = {.max_attempts = 3, .initial_backoff = 100ms, .multiplier = 2,
                                .jitter = 0.2},
                      .time = time,
                      .seed = 7});
  tool_result r = ex.call(make_call("flaky"));
  EXPECT_FALSE(r.is_error);
  EXPECT_EQ(r.meta["attempts"], 3);
  EXPECT_EQ(f.calls.load(), 3);
  auto sleeps = time->sleeps();
  ASSERT_EQ(sleeps.size(), 2u);
  EXPECT_GE(sleeps[0], 80ms);
  EXPECT_LE(sleeps[0], 120ms);
  EXPECT_GE(sleeps[1], 160ms);
  EXPECT_LE(sleeps[1], 240ms);
}

TEST(executor_retry, gives_up_after_max_attempts) {
  flaky f(10);
  executor ex(f.reg, {.retry = {.max_attempts = 4}, .time = std::make_shared<manual_clock>()});
  tool_result r = ex.call(make_call("flaky"));
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text(), "upstream 503");
  EXPECT_EQ(f.calls.load(), 4);
}

TEST(executor_retry, non_idempotent_or_non_transient_is_not_retried) {
  flaky not_idempotent(1, {});
  executor ex1(not_idempotent.reg, {.time = std::make_shared<manual_clock>()});
  EXPECT_TRUE(ex1.call(make_call("flaky")).is_error);
  EXPECT_EQ(not_idempotent.calls.load(), 1);
  flaky permanent(1, {.idempotent = true}, false);
  executor ex2(permanent.reg, {.time = std::make_shared<manual_clock>()});
  EXPECT_TRUE(ex2.call(make_call("flaky")).is_error);
  EXPECT_EQ(permanent.calls.load(), 1);
}

TEST(executor_retry, never_retries_after_cancellation) {
  tool_registry reg;
  std::atomic<int> calls{0};
  reg.add({.name = "slow_flaky", .annotations = {.idempotent = true}, .timeout = 50ms},
          [&](const json&, call_context& ctx) {
            ++calls;
            std::mutex m;
            std::condition_variable_any cv;
            std::unique_lock lock(m);
            cv.wait(lock, ctx.stop, [] { return false; });  // returns once the deadline hits
            return transient_error("interrupted");
          });
  executor ex(reg);
  tool_result r = ex.call(make_call("slow_flaky"));
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("timed out"), std::string::npos);
  // Retrying would be the worker's next step; the stop request prevents it. The executor's
  // destructor waits for the worker, so the count is final afterwards.
  std::this_thread::yield();
  EXPECT_LE(calls.load(), 1);
}

TEST(circuit_breaker, transitions_closed_open_half_open_closed) {
  auto time = std::make_shared<manual_clock>();
  circuit_breaker b({.failure_threshold = 3, .open_for = 10s}, time);
  EXPECT_EQ(b.state(), breaker_state::closed);
  for (int i = 0; i < 2; ++i) {
    EXPECT_FALSE(b.allow());
    b.record(false);
  }
  EXPECT_EQ(b.state(), breaker_state::closed);
  EXPECT_FALSE(b.allow());
  b.record(false);
  EXPECT_EQ(b.state(), breaker_state::open);
  EXPECT_EQ(*b.allow(), 10s);
  time->advance(4s);
  EXPECT_EQ(*b.allow(), 6s);
  time->advance(6s);
  EXPECT_EQ(b.state(), breaker_state::half_open);
  EXPECT_FALSE(b.allow());  // the one trial
  EXPECT_TRUE(b.allow());   // others wait while it runs
  b.record(false);          // trial failed: open again
  EXPECT_EQ(b.state(), breaker_state::open);
  time->advance(10s);
  EXPECT_FALSE(b.allow());
  b.record(true);
  EXPECT_EQ(b.state(), breaker_state::closed);
  b.record(false);  // the failure count restarted
  EXPECT_EQ(b.state(), breaker_state::closed);
}

TEST(executor_breaker, opens_after_repeated_failures_and_recovers) {
  tool_registry reg;
  std::atomic<bool> healthy{false};
  std::atomic<int> runs{0};
  reg.add({.name = "api"}, [&](const json&, call_context&) {
    ++runs;
    return healthy ? tool_result::text("ok") : tool_result::error("upstream down");
  });
  auto time = std::make_shared<manual_clock>();
  executor ex(reg, {.breaker = {.failure_threshold = 2, .open_for = 30s}, .time = time});
  EXPECT_TRUE(ex.call(make_call("api")).is_error);
  EXPECT_TRUE(ex.call(make_call("api")).is_error);
  EXPECT_EQ(ex.breaker("api"), breaker_state::open);
  tool_result refused = ex.call(make_call("api"));
  EXPECT_EQ(refused.all_text(),
            "tool \"api\" is temporarily unavailable after repeated failures; retry after 30000 "
            "ms or use another tool");
  EXPECT_EQ(runs.load(), 2);
  time->advance(30s);
  EXPECT_EQ(ex.breaker("api"), breaker_state::half_open);
  healthy = true;
  EXPECT_FALSE(ex.call(make_call("api")).is_error);
  EXPECT_EQ(ex.breaker("api"), breaker_state::closed);
  EXPECT_EQ(runs.load(), 3);
}

TEST(backoff_delay, grows_and_is_capped) {
  retry_options o{.initial_backoff = 100ms, .multiplier = 3, .max_backoff = 500ms, .jitter = 0};
  EXPECT_EQ(backoff_delay(o, 1, 0.5), 100ms);
  EXPECT_EQ(backoff_delay(o, 2, 0.5), 300ms);
  EXPECT_EQ(backoff_delay(o, 3, 0.5), 500ms);
  o.jitter = 0.5;
  EXPECT_EQ(backoff_delay(o, 1, 0.0), 50ms);
  EXPECT_EQ(backoff_delay(o, 1, 1.0), 150ms);
}

}  // namespace
}  // namespace tooluse::exec
