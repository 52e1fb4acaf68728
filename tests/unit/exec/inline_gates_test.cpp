// What the fast path (synchronous tools on the caller's thread) shares with the pool path:
// retries with back-off, progress events, cost, output limits and the circuit breaker; and the
// cases it hands to the pool (an open breaker, a stopped call, unparsed arguments). Time moves
// only on a manual_clock; nothing sleeps.
#include <atomic>
#include <thread>

#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;
using namespace std::chrono_literals;

// flaky fails with a transient error until it has been called `failures` times.
void add_flaky(tool_registry& r, int failures, std::atomic<int>& calls, std::thread::id* where,
               bool idempotent = true) {
  tool def{.name = "flaky", .synchronous = true};
  def.annotations.idempotent = idempotent;
  r.add(std::move(def), [failures, &calls, where](const json&, call_context&) {
    *where = std::this_thread::get_id();
    if (++calls <= failures) {
      tool_result e = tool_result::error("upstream busy");
      e.meta["transient"] = true;
      return e;
    }
    return tool_result::text("ok after " + std::to_string(calls.load()));
  });
}

TEST(executor_fast_path_retry, transient_errors_are_retried_on_the_callers_thread) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  std::atomic<int> calls{0};
  std::thread::id where;
  add_flaky(reg, 2, calls, &where);
  executor ex(reg,
              {.retry = {.max_attempts = 3, .initial_backoff = 100ms, .jitter = 0}, .time = time});
  ASSERT_TRUE(ex.runs_inline("flaky"));
  tool_result r = ex.call(make_call("flaky"));
  EXPECT_FALSE(r.is_error);
  EXPECT_EQ(r.all_text(), "ok after 3");
  EXPECT_EQ(r.meta.value("attempts", 0), 3);
  EXPECT_EQ(where, std::this_thread::get_id());
  // Two back-offs on the manual clock: 100 ms, then 200 ms (multiplier 2, no jitter).
  EXPECT_EQ(time->sleeps(), (std::vector<clock::duration>{100ms, 200ms}));
  EXPECT_EQ(ex.stats().threads, 0);
}

TEST(executor_fast_path_retry, the_last_error_is_returned_when_attempts_run_out) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  std::atomic<int> calls{0};
  std::thread::id where;
  add_flaky(reg, 10, calls, &where);
  executor ex(reg, {.retry = {.max_attempts = 2, .jitter = 0}, .time = time});
  tool_result r = ex.call(make_call("flaky"));
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text(), "upstream busy");
  EXPECT_EQ(r.meta.value("attempts", 0), 2);
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(time->sleeps().size(), 1u);
}

TEST(executor_fast_path_retry, tools_not_marked_idempotent_run_once) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  std::atomic<int> calls{0};
  std::thread::id where;
  add_flaky(reg, 1, calls, &where, /*idempotent=*/false);
  executor ex(reg, {.time = time});
  tool_result r = ex.call(make_call("flaky"));
  EXPECT_TRUE(r.is_error);
  EXPECT_FALSE(r.meta.contains("attempts"));
  EXPECT_EQ(calls.load(), 1);
  EXPECT_TRUE(time->sleeps().empty());
}

TEST(executor_fast_path_events, progress_reaches_both_the_executor_and_the_call_observers) {
  tool_registry reg;
  reg.add({.name = "steps", .synchronous = true}, [](const json&, call_context& ctx) {
    ctx.report_progress(1, 3, "one");
    ctx.report_progress(3, 3);
    return tool_result::text("done");
  });
  std::vector<std::string> global, local;
  auto record = [](std::vector<std::string>& into) {
    return [&into](const call_event& e) {
      std::string s = e.kind == event_kind::start ? "start"
                      : e.kind == event_kind::end ? "end"
                                                  : "progress";
      if (e.progress)
        s += ":" + std::to_string(static_cast<int>(e.progress->progress)) + "/" +
             std::to_string(static_cast<int>(e.progress->total.value_or(-1))) +
             (e.progress->message.empty() ? "" : ":" + e.progress->message);
      if (e.result) s += ":" + std::string(to_string(e.outcome));
      s += "@" + std::string(e.session);
      into.push_back(s);
    };
  };
  executor ex(reg, {.on_event = record(global)});
  ASSERT_TRUE(ex.runs_inline("steps"));
  tool_result r = ex.call(make_call("steps"), {.session = "s1", .on_event = record(local)});
  EXPECT_EQ(r.all_text(), "done");
  const std::vector<std::string> want = {"start@s1", "progress:1/3:one@s1", "progress:3/3@s1",
                                         "end:ok@s1"};
  EXPECT_EQ(global, want);
  EXPECT_EQ(local, want);
}

TEST(executor_fast_path_events, without_observers_progress_goes_nowhere_and_the_call_still_runs) {
  tool_registry reg;
  bool had_observer = true;
  reg.add({.name = "steps", .synchronous = true}, [&](const json&, call_context& ctx) {
    had_observer = static_cast<bool>(ctx.on_progress);
    ctx.report_progress(1);
    return tool_result::text("done");
  });
  executor ex(reg);
  EXPECT_EQ(ex.call(make_call("steps")).all_text(), "done");
  EXPECT_FALSE(had_observer);
  EXPECT_EQ(ex.stats().completed, 1u);
}

TEST(executor_fast_path_cost, cost_is_the_tools_price_plus_what_it_reports) {
  tool_registry reg;
  reg.add({.name = "priced", .cost_per_call = 0.5, .synchronous = true},
          [](const json& args, call_context&) {
            tool_result r = tool_result::text("ok");
            if (args.contains("extra")) r.meta["cost"] = args["extra"];
            return r;
          });
  executor ex(reg);
  ASSERT_TRUE(ex.runs_inline("priced"));
  EXPECT_DOUBLE_EQ(ex.call(make_call("priced")).cost, 0.5);
  EXPECT_DOUBLE_EQ(ex.call(make_call("priced", {{"extra", 0.25}})).cost, 0.75);
  // A cost that is not a number is not added.
  EXPECT_DOUBLE_EQ(ex.call(make_call("priced", {{"extra", "lots"}})).cost, 0.5);
}

TEST(executor_fast_path_output, the_output_limit_applies_on_the_callers_thread) {
  tool_registry reg;
  reg.add({.name = "chatty", .max_output_bytes = 10, .synchronous = true},
          [](const json&, call_context&) { return tool_result::text(std::string(100, 'x')); });
  executor ex(reg);
  ASSERT_TRUE(ex.runs_inline("chatty"));
  tool_result r = ex.call(make_call("chatty"));
  EXPECT_FALSE(r.is_error);
  EXPECT_TRUE(r.meta.contains("truncated"));
  EXPECT_NE(r.all_text().find("[output truncated: 100 bytes"), std::string::npos);
  EXPECT_LT(r.all_text().find('x'), r.all_text().find("[output truncated"));
}

TEST(executor_fast_path_breaker, an_open_breaker_sends_the_call_to_the_pool_which_refuses_it) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  std::atomic<int> ran{0};
  reg.add({.name = "fragile", .synchronous = true}, [&](const json&, call_context&) {
    ++ran;
    return tool_result::error("broken");
  });
  std::vector<call_outcome> outcomes;
  executor ex(reg, {.breaker = {.failure_threshold = 2, .open_for = 1000ms},
                    .time = time,
                    .on_event = [&](const call_event& e) {
                      if (e.kind == event_kind::end) outcomes.push_back(e.outcome);
                    }});
  EXPECT_TRUE(ex.call(make_call("fragile")).is_error);
  EXPECT_EQ(ex.breaker("fragile"), breaker_state::closed);
  EXPECT_TRUE(ex.call(make_call("fragile")).is_error);
  EXPECT_EQ(ex.breaker("fragile"), breaker_state::open);
  tool_result refused = ex.call(make_call("fragile"));
  EXPECT_TRUE(refused.is_error);
  EXPECT_NE(refused.all_text().find("tool \"fragile\" is temporarily unavailable"),
            std::string::npos);
  EXPECT_EQ(refused.meta.value("retry_after_ms", 0), 1000);
  EXPECT_EQ(ran.load(), 2);
  EXPECT_EQ(outcomes, (std::vector<call_outcome>{call_outcome::error, call_outcome::error,
                                                 call_outcome::circuit_open}));
  // After the cool-down one trial runs inline again; a success closes the circuit.
  time->advance(1000ms);
  EXPECT_EQ(ex.breaker("fragile"), breaker_state::half_open);
  EXPECT_TRUE(ex.call(make_call("fragile")).is_error);
  EXPECT_EQ(ran.load(), 3);
  EXPECT_EQ(ex.breaker("fragile"), breaker_state::open);
}

// Each executor has its own breakers, though a thread remembers the breaker it used last: a
// circuit opened by one executor's calls leaves another's (same tool, same thread) closed, and a
// success after a failure is still recorded without the lock being skipped.
TEST(executor_fast_path_breaker, each_executor_keeps_its_own_breaker_on_the_same_thread) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  bool fail = true;
  reg.add({.name = "flaky", .synchronous = true}, [&](const json&, call_context&) {
    return fail ? tool_result::error("broken") : tool_result::text("ok");
  });
  executor a(reg, {.breaker = {.failure_threshold = 2, .open_for = 1000ms}, .time = time});
  executor b(reg, {.breaker = {.failure_threshold = 2, .open_for = 1000ms}, .time = time});
  EXPECT_TRUE(a.call(make_call("flaky")).is_error);
  EXPECT_TRUE(b.call(make_call("flaky")).is_error);  // b's first failure
  fail = false;
  EXPECT_FALSE(b.call(make_call("flaky")).is_error);  // resets b's count
  fail = true;
  EXPECT_TRUE(a.call(make_call("flaky")).is_error);  // a's second failure: open
  EXPECT_TRUE(b.call(make_call("flaky")).is_error);  // b's first failure again
  EXPECT_EQ(a.breaker("flaky"), breaker_state::open);
  EXPECT_EQ(b.breaker("flaky"), breaker_state::closed);
  EXPECT_NE(a.call(make_call("flaky")).all_text().find("temporarily unavailable"), std::string::npos);
}

TEST(executor_fast_path_handoff, a_stopped_call_is_cancelled_before_it_starts) {
  tool_registry reg;
  bool ran = false;
  reg.add({.name = "quick", .synchronous = true}, [&](const json&, call_context&) {
    ran = true;
    return tool_result::text("ran");
  });
  executor ex(reg);
  std::stop_source stop;
  stop.request_stop();
  tool_result r = ex.call(make_call("quick"), {.stop = stop.get_token()});
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text(), "tool \"quick\" was cancelled before it started");
  EXPECT_FALSE(ran);
}

TEST(executor_fast_path_handoff, unparsed_arguments_are_refused_with_the_schema) {
  tool_registry reg;
  std::thread::id where;
  reg.add({.name = "quick", .input_schema = int_schema("i"), .synchronous = true},
          [&](const json&, call_context&) {
            where = std::this_thread::get_id();
            return tool_result::text("ran");
          });
  executor ex(reg);
  tool_call c = make_call("quick");
  c.raw_arguments = "{\"i\": 1";  // cut off: the model's JSON did not parse
  c.arguments = nullptr;
  tool_result r = ex.call(c);
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("the arguments for tool \"quick\" are not valid JSON"),
            std::string::npos);
  EXPECT_NE(r.all_text().find("\"required\""), std::string::npos);  // the schema is shown
  EXPECT_EQ(where, std::thread::id());
}

TEST(executor_fast_path_handoff, an_unknown_tool_names_the_available_ones) {
  tool_registry reg;
  add_echo(reg, {.name = "alpha", .synchronous = true});
  add_echo(reg, {.name = "beta"});
  executor ex(reg);
  EXPECT_FALSE(ex.runs_inline("gamma"));
  tool_result r = ex.call(make_call("gamma"));
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text(), "unknown tool \"gamma\"; available tools: alpha, beta");
}

TEST(executor_fast_path_handoff, a_throwing_synchronous_tool_is_an_error_result) {
  tool_registry reg;
  reg.add({.name = "boom", .synchronous = true},
          [](const json&, call_context&) -> tool_result { throw std::runtime_error("kaput"); });
  reg.add({.name = "odd", .synchronous = true}, [](const json&, call_context&) -> tool_result {
    throw 42;  // not a std::exception
  });
  executor ex(reg);
  tool_result r = ex.call(make_call("boom"));
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text(), "tool \"boom\" failed: kaput");
  tool_result odd = ex.call(make_call("odd"));
  EXPECT_TRUE(odd.is_error);
  EXPECT_EQ(odd.all_text(), "tool \"odd\" failed with an unknown exception");
  EXPECT_EQ(ex.breaker("boom"), breaker_state::closed);  // one failure is below the threshold
}

}  // namespace
}  // namespace tooluse::exec
