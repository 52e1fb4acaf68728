// Timeouts, hard deadlines, stuck tools and cancellation.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <future>

#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;
using namespace std::chrono_literals;

// stuck_tools registers "stuck" (ignores its stop token until the gate opens) and "echo".
struct stuck_tools {
  tool_registry reg;
  gate release;
  counter started;
  counter finished;
  explicit stuck_tools(std::chrono::milliseconds timeout) {
    reg.add({.name = "stuck", .timeout = timeout}, [this](const json&, call_context&) {
      started.add();
      release.wait();  // never looks at ctx.stop
      finished.add();
      return tool_result::text("late");
    });
    add_echo(reg);
  }
  // Abandoned handlers still use this object: wait until they are out of it.
  ~stuck_tools() {
    release.open();
    finished.wait_for(started.value());
  }
};

TEST(executor_timeout, stuck_tool_times_out_within_ten_percent_and_pool_keeps_serving) {
  constexpr auto limit = 500ms;
  stuck_tools t(limit);
  executor ex(t.reg, {.max_threads = 1, .max_abandoned = 2});
  const auto start = std::chrono::steady_clock::now();
  tool_result r = ex.call(make_call("stuck"));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("tool \"stuck\" timed out after 500 ms"), std::string::npos);
  EXPECT_EQ(r.meta.value("timeout", false), true);
  EXPECT_GE(elapsed, limit);
  EXPECT_LE(elapsed, limit * 11 / 10);
  // The only worker is stuck, yet the next call runs on a replacement.
  EXPECT_EQ(ex.call(make_call("echo", {{"i", 5}})).all_text(), "5");
  EXPECT_EQ(ex.stats().abandoned, 1);
  EXPECT_EQ(ex.stats().threads, 2);
}

TEST(executor_timeout, abandoned_threads_are_bounded) {
  stuck_tools t(100ms);
  executor ex(t.reg, {.max_threads = 1, .max_abandoned = 1});
  EXPECT_TRUE(ex.call(make_call("stuck")).is_error);
  EXPECT_TRUE(ex.call(make_call("stuck")).is_error);
  // Both the worker and its one allowed replacement are stuck: no third thread is made, so a
  // call now waits and meets its batch deadline without running.
  tool_result r = ex.call(make_call("echo", {{"i", 1}}), {.timeout = 100ms});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("while waiting to start; it did not run"), std::string::npos);
  EXPECT_EQ(ex.stats().threads, 2);
  EXPECT_EQ(ex.stats().abandoned, 2);
  // Once the stuck handlers return, their threads serve again.
  t.release.open();
  EXPECT_EQ(ex.call(make_call("echo", {{"i", 2}})).all_text(), "2");
  EXPECT_LE(ex.stats().threads, 2);
}

TEST(executor_timeout, cooperative_handler_sees_its_stop_token) {
  tool_registry reg;
  std::promise<bool> saw_stop;
  reg.add({.name = "polite", .timeout = 50ms}, [&](const json&, call_context& ctx) {
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    cv.wait(lock, ctx.stop, [] { return false; });
    saw_stop.set_value(ctx.stop_requested());
    return tool_result::text("stopped");
  });
  executor ex(reg);
  tool_result r = ex.call(make_call("polite"));
  EXPECT_TRUE(r.is_error);
  EXPECT_TRUE(saw_stop.get_future().get());
}

TEST(executor_timeout, a_batch_default_timeout_replaces_the_executors_for_tools_without_one) {
  tool_registry reg;
  reg.add({.name = "waits"}, [](const json&, call_context& ctx) {
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    cv.wait(lock, ctx.stop, [] { return false; });
    return tool_result::text("stopped");
  });
  executor ex(reg, {.default_timeout = std::chrono::hours(1)});
  tool_result r = ex.call(make_call("waits"), {.default_timeout = 50ms});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("timed out after 50 ms"), std::string::npos) << r.all_text();
}

TEST(executor_timeout, a_batch_default_timeout_of_zero_means_no_deadline) {
  // The executor's 30 ms default would stop the call; the batch says none (an MCP task).
  tool_registry reg;
  gate release;
  std::promise<void> started;
  reg.add({.name = "long"}, [&](const json&, call_context& ctx) {
    started.set_value();
    release.wait();
    return tool_result::text(ctx.stop_requested() ? "stopped" : "finished");
  });
  executor ex(reg, {.default_timeout = 30ms});
  auto pending = std::async(std::launch::async, [&] {
    return ex.call(make_call("long"), {.default_timeout = 0ms});
  });
  started.get_future().wait();
  // Ten times the default deadline: a regression answers "timed out" within this window.
  EXPECT_EQ(pending.wait_for(300ms), std::future_status::timeout);
  release.open();
  tool_result r = pending.get();
  EXPECT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(r.all_text(), "finished");
}

TEST(executor_timeout, batch_deadline_covers_every_call) {
  stuck_tools t(0ms);
  executor ex(t.reg, {.max_threads = 4});
  std::vector<tool_call> calls = {make_call("echo", {{"i", 1}}), make_call("stuck")};
  auto results = ex.run_all(calls, {.timeout = 100ms});
  EXPECT_EQ(results[0].all_text(), "1");
  EXPECT_TRUE(results[1].is_error);
  EXPECT_NE(results[1].all_text().find("(the batch deadline)"), std::string::npos);
}

TEST(executor_cancel, stop_token_cancels_running_and_queued_calls) {
  stuck_tools t(0ms);
  executor ex(t.reg, {.max_threads = 1, .max_abandoned = 0});
  std::stop_source stop;
  std::vector<tool_call> calls = {make_call("stuck"), make_call("echo", {{"i", 1}})};
  auto f = std::async(std::launch::async, [&] { return ex.run_all(calls, {.stop = stop.get_token()}); });
  t.started.wait_for(1);
  stop.request_stop();
  auto results = f.get();
  EXPECT_EQ(results[0].all_text(), "tool \"stuck\" was cancelled before it finished");
  // The queued call is cancelled either in the queue or as the batch stops waiting for it.
  EXPECT_TRUE(results[1].is_error);
  EXPECT_EQ(results[1].all_text().rfind("tool \"echo\" was cancelled before it ", 0), 0u)
      << results[1].all_text();
}

TEST(executor_cancel, submit_honours_the_stop_token) {
  stuck_tools t(0ms);
  executor ex(t.reg);
  std::stop_source stop;
  auto f = ex.submit(make_call("stuck"), {.stop = stop.get_token()});
  t.started.wait_for(1);
  stop.request_stop();
  EXPECT_EQ(f.get().all_text(), "tool \"stuck\" was cancelled before it finished");
}

TEST(executor_cancel, already_stopped_batch_runs_nothing) {
  tool_registry reg;
  int runs = 0;
  reg.add({.name = "count"}, [&](const json&, call_context&) {
    ++runs;
    return tool_result::text("ran");
  });
  executor ex(reg);
  std::stop_source stop;
  stop.request_stop();
  auto r = ex.call(make_call("count"), {.stop = stop.get_token()});
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(runs, 0);
}

TEST(executor_cancel, destructor_cancels_queued_calls) {
  stuck_tools t(0ms);
  std::future<tool_result> queued;
  {
    executor ex(t.reg, {.max_threads = 1, .max_abandoned = 0});
    auto running = ex.submit(make_call("stuck"));
    t.started.wait_for(1);
    queued = ex.submit(make_call("echo", {{"i", 1}}));
  }
  EXPECT_TRUE(queued.get().is_error);
}

}  // namespace
}  // namespace tooluse::exec
