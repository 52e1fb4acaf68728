// What a worker does with one call (src/exec/executor_run.cpp and executor_admit.cpp):
// idempotency keys on both paths, a rate-limit wait that is cancelled, a retry back-off that is
// cancelled, the end event of each refusal kind, reported costs, output spilled to files (and a
// spill that fails), the executor's argument checks and counters.
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "exec_fixtures.hpp"
#include "support/test_support.hpp"
#include "tooluse/exec/output.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;
using namespace std::chrono_literals;

// refusing_clock is a clock whose every sleep is interrupted, as a stop request would do.
class refusing_clock : public clock {
 public:
  time_point now() const override { return {}; }
  bool sleep_for(duration, std::stop_token) override {
    ++sleeps;
    return false;
  }
  std::atomic<int> sleeps{0};
};

// keys records the idempotency key each call of tool "k" saw.
struct key_recorder {
  tool_registry reg;
  std::mutex m;
  std::vector<std::string> keys;
  explicit key_recorder(bool synchronous) {
    reg.add({.name = "k", .synchronous = synchronous}, [this](const json&, call_context& ctx) {
      std::lock_guard lock(m);
      keys.push_back(ctx.idempotency_key);
      return tool_result::text("ok");
    });
  }
};

TEST(executor_idempotency, keys_are_scope_slash_call_id_on_the_pool_and_inline) {
  for (bool synchronous : {false, true}) {
    key_recorder rec(synchronous);
    executor ex(rec.reg);
    SCOPED_TRACE(synchronous ? "inline" : "pool");
    EXPECT_EQ(ex.runs_inline("k"), synchronous);
    ex.call(make_call("k", json::object(), "c1"), {.idempotency_scope = "run-7"});
    tool_call no_id = make_call("k");
    no_id.id.clear();
    ex.call(no_id, {.idempotency_scope = "run-7"});
    ex.call(make_call("k", json::object(), "c2"));
    EXPECT_EQ(rec.keys, (std::vector<std::string>{"run-7/c1", "run-7", ""}));
  }
}

TEST(executor_idempotency, every_retry_of_a_call_sees_the_same_key) {
  tool_registry reg;
  std::vector<std::string> keys;
  reg.add({.name = "flaky", .annotations = {.idempotent = true}},
          [&](const json&, call_context& ctx) {
            keys.push_back(ctx.idempotency_key);
            tool_result r = tool_result::error("503");
            r.meta["transient"] = true;
            return r;
          });
  executor ex(reg, {.retry = {.max_attempts = 3}, .time = std::make_shared<manual_clock>()});
  auto r = ex.call(make_call("flaky", json::object(), "c9"), {.idempotency_scope = "s"});
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.meta["attempts"], 3);
  EXPECT_EQ(keys, std::vector<std::string>(3, "s/c9"));
}

TEST(executor_rate_limit, a_wait_that_is_interrupted_cancels_the_call) {
  auto time = std::make_shared<refusing_clock>();
  tool_registry reg;
  add_echo(reg, {.name = "limited", .rate = {.calls = 1, .window = 1000ms}});
  std::vector<call_outcome> outcomes;
  std::mutex m;
  executor ex(reg, {.time = time, .on_event = [&](const call_event& e) {
                      std::lock_guard lock(m);
                      if (e.kind == event_kind::end) outcomes.push_back(e.outcome);
                    }});
  run_options o{.rate_limit_wait = 5000ms};
  EXPECT_FALSE(ex.call(make_call("limited", {{"i", 1}}), o).is_error);
  auto r = ex.call(make_call("limited", {{"i", 2}}), o);
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text(), "tool \"limited\" was cancelled while waiting for its rate limit");
  EXPECT_EQ(time->sleeps.load(), 1);
  EXPECT_EQ(outcomes, (std::vector<call_outcome>{call_outcome::ok, call_outcome::cancelled}));
}

TEST(executor_retry, an_interrupted_backoff_returns_the_last_error) {
  auto time = std::make_shared<refusing_clock>();
  tool_registry reg;
  int calls = 0;
  reg.add({.name = "flaky", .annotations = {.idempotent = true}}, [&](const json&, call_context&) {
    ++calls;
    tool_result r = tool_result::error("upstream 503 #" + std::to_string(calls));
    r.meta["transient"] = true;
    return r;
  });
  executor ex(reg, {.retry = {.max_attempts = 5}, .time = time});
  auto r = ex.call(make_call("flaky"));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(r.all_text(), "upstream 503 #1");
  EXPECT_FALSE(r.meta.contains("attempts"));  // one attempt is not worth reporting
}

TEST(executor_events, each_refusal_kind_ends_with_its_outcome_and_no_start) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  add_echo(reg);
  add_echo(reg, {.name = "limited", .rate = {.calls = 1, .window = 1000ms}});
  add_echo(reg, {.name = "risky", .dangerous = true});
  std::map<std::string, std::vector<std::string>> seen;  // call id -> "start", outcome names
  std::mutex m;
  executor ex(reg, {.time = time, .on_event = [&](const call_event& e) {
                      std::lock_guard lock(m);
                      seen[e.call->id].push_back(e.kind == event_kind::start
                                                     ? std::string("start")
                                                     : std::string(to_string(e.outcome)));
                    }});
  auto budget = std::make_shared<run_budget>(budget_limits{.max_calls = 1});
  std::vector<tool_call> calls = {make_call("echo", {{"i", 1}}, "ok"),
                                  make_call("echo", {{"i", 2}}, "over_budget"),
                                  make_call("nope", json::object(), "unknown"),
                                  make_call("echo", {{"i", "x"}}, "invalid"),
                                  make_call("risky", {{"i", 1}}, "deferred")};
  auto results = ex.run_all(calls, {.max_parallel = 1, .budget = budget});
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(seen["ok"], (std::vector<std::string>{"start", "ok"}));
  EXPECT_EQ(seen["over_budget"], std::vector<std::string>{"budget_exceeded"});
  EXPECT_EQ(seen["unknown"], std::vector<std::string>{"invalid"});
  EXPECT_EQ(seen["invalid"], std::vector<std::string>{"invalid"});
  EXPECT_EQ(seen["deferred"], std::vector<std::string>{"pending_approval"});
  EXPECT_FALSE(results[4].is_error);  // waiting is not an error
  EXPECT_TRUE(results[4].meta.contains("pending_approval"));

  ex.call(make_call("limited", {{"i", 1}}, "first"));
  ex.call(make_call("limited", {{"i", 1}}, "limited"));
  EXPECT_EQ(seen["limited"], std::vector<std::string>{"rate_limited"});
}

TEST(call_outcome_names, every_outcome_has_its_snake_case_name) {
  const std::map<call_outcome, std::string> names = {
      {call_outcome::ok, "ok"},
      {call_outcome::error, "error"},
      {call_outcome::timeout, "timeout"},
      {call_outcome::cancelled, "cancelled"},
      {call_outcome::invalid, "invalid"},
      {call_outcome::rejected, "rejected"},
      {call_outcome::pending_approval, "pending_approval"},
      {call_outcome::rate_limited, "rate_limited"},
      {call_outcome::budget_exceeded, "budget_exceeded"},
      {call_outcome::circuit_open, "circuit_open"}};
  for (const auto& [o, name] : names) EXPECT_EQ(to_string(o), name);
  EXPECT_EQ(to_string(breaker_state::closed), "closed");
  EXPECT_EQ(to_string(breaker_state::open), "open");
  EXPECT_EQ(to_string(breaker_state::half_open), "half_open");
}

TEST(executor_cost, result_cost_is_cost_per_call_plus_reported_cost) {
  tool_registry reg;
  reg.add({.name = "priced", .cost_per_call = 0.25}, [](const json& args, call_context&) {
    tool_result r = tool_result::text("ok");
    if (args.contains("extra")) r.meta["cost"] = args["extra"];
    return r;
  });
  executor ex(reg);
  EXPECT_DOUBLE_EQ(ex.call(make_call("priced")).cost, 0.25);
  EXPECT_DOUBLE_EQ(ex.call(make_call("priced", {{"extra", 1.5}})).cost, 1.75);
  // A cost that is not a number is ignored.
  EXPECT_DOUBLE_EQ(ex.call(make_call("priced", {{"extra", "a lot"}})).cost, 0.25);
  auto budget = std::make_shared<run_budget>(budget_limits{});
  ex.call(make_call("priced", {{"extra", 2.0}}), {.budget = budget});
  EXPECT_DOUBLE_EQ(budget->cost_used(), 2.25);
  EXPECT_EQ(budget->calls_used(), 1u);
}

TEST(executor_output, the_executor_spills_long_output_to_a_numbered_file_per_tool) {
  tooluse::testing::temp_dir dir;
  tool_registry reg;
  reg.add({.name = "big", .max_output_bytes = 100},
          [](const json&, call_context&) { return tool_result::text(std::string(1000, 'x')); });
  executor ex(reg, {.spill_dir = dir.path() / "spill"});
  auto r = ex.call(make_call("big"));
  ASSERT_TRUE(r.meta.contains("truncated")) << r.meta.dump();
  std::string path = r.meta["truncated"]["full_output"];
  EXPECT_EQ(std::filesystem::path(path).parent_path(), dir.path() / "spill");
  EXPECT_TRUE(std::filesystem::path(path).filename().string().starts_with("big-")) << path;
  EXPECT_EQ(tooluse::testing::read_file(path), std::string(1000, 'x'));
  auto second = ex.call(make_call("big"));
  EXPECT_NE(second.meta["truncated"]["full_output"], path);  // no file is overwritten
}

TEST(limit_output, a_spill_that_cannot_be_written_says_so_in_the_notice) {
  tooluse::testing::temp_dir dir;
  std::ofstream(dir.path() / "not_a_folder") << "file";
  tool_result r = tool_result::text(std::string(300, 'y'));
  EXPECT_TRUE(limit_output(r, {.max_bytes = 50, .spill_dir = dir.path() / "not_a_folder",
                               .spill_name = "a/b.txt"}));
  ASSERT_EQ(r.content.size(), 2u);
  const auto& notice = std::get<text_content>(r.content[1]).text;
  EXPECT_NE(notice.find("; the full output could not be saved to " +
                        (dir.path() / "not_a_folder" / "a_b.txt").string() + "]"),
            std::string::npos)
      << notice;
  EXPECT_FALSE(r.meta["truncated"].contains("full_output"));
  EXPECT_EQ(r.meta["truncated"]["original_bytes"], 300);
}

TEST(executor_options, bad_thread_counts_are_refused_at_construction) {
  tool_registry reg;
  try {
    executor ex(reg, {.max_threads = 0});
    ADD_FAILURE() << "max_threads 0 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "executor: max_threads must be at least 1");
  }
  try {
    executor ex(reg, {.max_abandoned = -1});
    ADD_FAILURE() << "max_abandoned -1 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "executor: max_abandoned must be 0 or more");
  }
}

TEST(executor_validation, an_empty_registry_says_it_has_no_tools) {
  tool_registry reg;
  executor ex(reg);
  auto r = ex.call(make_call("anything"));
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text(), "unknown tool \"anything\"; available tools: (none)");
}

TEST(executor_stats, completed_counts_every_outcome) {
  tool_registry reg;
  add_echo(reg);
  executor ex(reg, {.max_threads = 3});
  EXPECT_EQ(ex.stats().threads, 0);  // workers start on demand
  EXPECT_EQ(ex.stats().completed, 0u);
  std::vector<tool_call> calls = {make_call("echo", {{"i", 1}}), make_call("echo", {{"i", "x"}}),
                                  make_call("ghost")};
  ex.run_all(calls);
  EXPECT_EQ(ex.stats().completed, 3u);
  EXPECT_LE(ex.stats().threads, 3);
  EXPECT_EQ(ex.stats().queued, 0u);
  EXPECT_EQ(ex.stats().abandoned, 0);
}

TEST(circuit_breaker, a_cancelled_half_open_trial_lets_the_next_call_try) {
  auto time = std::make_shared<manual_clock>();
  circuit_breaker b({.failure_threshold = 1, .open_for = 100ms}, time);
  EXPECT_FALSE(b.allow());
  b.record(false);
  EXPECT_EQ(b.state(), breaker_state::open);
  EXPECT_EQ(b.allow(), std::optional<clock::duration>(100ms));
  time->advance(100ms);
  EXPECT_EQ(b.state(), breaker_state::half_open);
  EXPECT_FALSE(b.allow());  // the trial
  EXPECT_TRUE(b.allow());   // only one trial at a time
  b.cancel_trial();
  EXPECT_FALSE(b.allow());  // a new trial
  b.record(true);
  EXPECT_EQ(b.state(), breaker_state::closed);
  EXPECT_FALSE(b.allow());
}

TEST(circuit_breaker, threshold_zero_never_opens) {
  circuit_breaker b({.failure_threshold = 0}, std::make_shared<manual_clock>());
  for (int i = 0; i < 50; ++i) {
    EXPECT_FALSE(b.allow());
    b.record(false);
  }
  EXPECT_EQ(b.state(), breaker_state::closed);
}

}  // namespace
}  // namespace tooluse::exec
