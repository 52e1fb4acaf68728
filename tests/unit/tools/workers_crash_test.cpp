// Process-isolated C++ tools: a crash, an out-of-memory, a CPU-limit kill or an oversized
// result of one call becomes an error result naming what happened, and the host serves the
// next call (docs/sandbox.md, "C++ tools").
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "unit/tools/workers_test_util.hpp"

namespace tooluse::testing {
namespace {

struct workers : workers_fixture {
  void SetUp() override {
    add_tools();
    bind();
  }
};

TEST_F(workers, runs_the_handler_in_a_sandboxed_worker_process) {
  EXPECT_EQ(bound, 7u);  // the sandboxed ones; in_process stays in the host
  auto r = call("ok", {{"x", 3}});
  ASSERT_FALSE(r.is_error) << text_of(r);
  EXPECT_EQ(r.structured_content->at("echo"), 3);
  EXPECT_EQ(r.structured_content->at("call_id"), "c1");
  EXPECT_EQ(r.structured_content->at("uid"), 1000);  // never root inside
  EXPECT_NE(r.structured_content->at("pid").get<int>(), ::getpid());
  EXPECT_EQ(text_of(call("in_process", json::object())), std::to_string(::getpid()));
  EXPECT_EQ(reg.find("ok")->definition.sandboxed_by_handler, true);
}

TEST_F(workers, a_segfault_is_an_error_result_naming_it) {
  auto r = call("segv", json::object());
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(text_of(r).find("tool \"segv\" crashed (SIGSEGV, a segmentation fault) in its worker "
                            "process; the host is unaffected"),
            std::string::npos)
      << text_of(r);
  expect_host_serves();
}

TEST_F(workers, an_abort_is_an_error_result_naming_it) {
  auto r = call("abort", json::object());
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(text_of(r).find("crashed (SIGABRT, an abort)"), std::string::npos) << text_of(r);
  EXPECT_EQ(r.meta["worker"]["signal"], SIGABRT);
  expect_host_serves();
}

TEST_F(workers, allocation_past_the_limit_names_the_memory_limit) {
  auto r = call("hog", json::object());
  ASSERT_TRUE(r.is_error) << text_of(r);
  EXPECT_NE(text_of(r).find("was stopped: the memory limit (64 MB) was reached"), std::string::npos)
      << text_of(r);
  EXPECT_EQ(r.meta["worker"]["killed_by"], "memory");
  expect_host_serves();
}

TEST_F(workers, an_infinite_loop_names_the_cpu_limit) {
  const auto start = std::chrono::steady_clock::now();
  auto r = call("spin", json::object());
  ASSERT_TRUE(r.is_error) << text_of(r);
  EXPECT_NE(text_of(r).find("the cpu time limit (1 s) was reached"), std::string::npos) << text_of(r);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  expect_host_serves();
}

TEST_F(workers, a_stop_kills_the_worker) {
  std::stop_source stop;
  auto pending = std::async(std::launch::async, [&] { return call("spin", json::object(), stop.get_token()); });
  // The worker is running once the host waits for it; a stop before that is seen too.
  stop.request_stop();
  auto r = pending.get();
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(text_of(r).find("was stopped (a timeout or a cancellation)"), std::string::npos) << text_of(r);
}

TEST_F(workers, calls_run_concurrently_and_a_crash_spares_the_others) {
  auto crash = std::async(std::launch::async, [&] { return call("segv", json::object()); });
  auto fine = std::async(std::launch::async, [&] { return call("ok", {{"x", 1}}); });
  EXPECT_TRUE(crash.get().is_error);
  auto r = fine.get();
  EXPECT_FALSE(r.is_error) << text_of(r);
}

TEST_F(workers, each_call_gets_a_fresh_copy_of_the_tool) {
  // Warm workers are made ahead, never reused: state changed by one call is gone at the next.
  for (int i = 0; i < 3; ++i) {
    auto r = call("ok", {{"x", i}});
    ASSERT_FALSE(r.is_error) << text_of(r);
    EXPECT_EQ(r.structured_content->at("calls"), 1);
  }
}

struct cold_workers : workers_fixture {
  void SetUp() override {
    options.warm = false;
    add_tools();
    bind();
  }
};

TEST_F(cold_workers, without_warm_workers_a_crash_is_contained_the_same) {
  auto r = call("segv", json::object());
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(text_of(r).find("crashed (SIGSEGV"), std::string::npos) << text_of(r);
  expect_host_serves();
}

TEST(workers_setup, an_oversized_result_is_stopped) {
  TOOLUSE_SKIP_UNDER_TSAN();
  tool_registry reg;
  reg.add(sandboxed_tool("big"), [](const json&, call_context&) {
    return tool_result::text(std::string(4 << 20, 'y'));
  });
  auto n = start_tool_workers(reg, {.max_result_bytes = 1 << 20});
  ASSERT_TRUE(n) << n.error().message;
  call_context ctx;
  auto r = reg.call({.name = "big"}, ctx);
  ASSERT_TRUE(r.is_error);
  if (text_of(r).find("could not be sandboxed") != std::string::npos)
    TOOLUSE_PEER_MISSING(text_of(r));
  EXPECT_NE(text_of(r).find("its result passed the size limit (1048576 bytes)"), std::string::npos)
      << text_of(r);
}

TEST(workers_setup, a_sandboxed_tool_without_a_worker_is_refused_not_run_in_process) {
  tool_registry reg;
  bool ran = false;
  reg.add(sandboxed_tool("t"), [&](const json&, call_context&) {
    ran = true;
    return tool_result::text("ran");
  });
  call_context ctx;
  auto r = reg.call({.name = "t"}, ctx);
  EXPECT_TRUE(r.is_error);
  EXPECT_FALSE(ran);
  EXPECT_NE(text_of(r).find("is sandboxed but runs in no worker process"), std::string::npos);
}

TEST(workers_setup, refuses_to_fork_a_threaded_process) {
  tool_registry reg;
  reg.add(sandboxed_tool("t"), [](const json&, call_context&) { return tool_result::text(""); });
  std::promise<void> release;
  std::thread other([f = release.get_future()]() mutable { f.wait(); });
  auto n = start_tool_workers(reg);
  release.set_value();
  other.join();
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().code, errc::unsupported);
  // Two threads, or three under ThreadSanitizer, whose runtime starts one with the first other.
  const auto& m = n.error().message;
  EXPECT_TRUE(m.find("already runs 2 threads") != std::string::npos ||
              m.find("already runs 3 threads") != std::string::npos)
      << m;
}

}  // namespace
}  // namespace tooluse::testing
