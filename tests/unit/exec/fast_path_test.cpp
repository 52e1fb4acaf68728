// The fast path (synchronous tools on the caller's thread) and timeouts that count from the
// call, so a saturated pool cannot stretch them.
#include <thread>

#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;
using namespace std::chrono_literals;

// add_where registers a tool that returns the id of the thread it ran on.
void add_where(tool_registry& r, tool def, std::thread::id* where) {
  def.input_schema = int_schema("i");
  r.add(std::move(def), [where](const json& args, call_context&) {
    *where = std::this_thread::get_id();
    return tool_result::text(std::to_string(args["i"].get<int>()));
  });
}

TEST(executor_fast_path, synchronous_tool_runs_on_the_callers_thread_with_events) {
  tool_registry reg;
  std::thread::id where;
  add_where(reg, {.name = "quick", .synchronous = true}, &where);
  std::vector<event_kind> seen;
  executor ex(reg, {.max_threads = 2, .on_event = [&](const call_event& e) { seen.push_back(e.kind); }});
  EXPECT_TRUE(ex.runs_inline("quick"));
  tool_result r = ex.call(make_call("quick", {{"i", 7}}));
  EXPECT_FALSE(r.is_error);
  EXPECT_EQ(r.all_text(), "7");
  EXPECT_EQ(where, std::this_thread::get_id());
  EXPECT_EQ(seen, (std::vector<event_kind>{event_kind::start, event_kind::end}));
  EXPECT_EQ(ex.stats().completed, 1u);
  EXPECT_EQ(ex.stats().threads, 0);  // no worker was needed
}

TEST(executor_fast_path, invalid_arguments_are_refused_inline) {
  tool_registry reg;
  std::thread::id where;
  add_where(reg, {.name = "quick", .synchronous = true}, &where);
  executor ex(reg);
  tool_result r = ex.call(make_call("quick", {{"i", "seven"}}));
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("invalid arguments for tool \"quick\""), std::string::npos);
  EXPECT_TRUE(r.meta.contains("validation_errors"));
}

TEST(executor_fast_path, any_policy_or_blocking_tool_goes_to_the_pool) {
  tool_registry reg;
  std::thread::id where;
  add_where(reg, {.name = "plain"}, &where);
  add_where(reg, {.name = "timed", .timeout = 5s, .synchronous = true}, &where);
  add_where(reg, {.name = "limited", .rate = {.calls = 100}, .synchronous = true}, &where);
  add_where(reg, {.name = "capped", .max_parallel = 1, .synchronous = true}, &where);
  add_where(reg, {.name = "risky", .dangerous = true, .synchronous = true}, &where);
  executor ex(reg, {.approval = [](const approval_request&) { return approval_decision::approve(); }});
  for (const char* name : {"plain", "timed", "limited", "capped", "risky"}) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(ex.runs_inline(name));
    EXPECT_EQ(ex.call(make_call(name, {{"i", 1}})).all_text(), "1");
    EXPECT_NE(where, std::this_thread::get_id());
  }
  add_where(reg, {.name = "quick", .synchronous = true}, &where);
  EXPECT_TRUE(ex.runs_inline("quick"));
  EXPECT_FALSE(ex.runs_inline("quick", {.timeout = 1s}));
  EXPECT_FALSE(ex.runs_inline("quick", {.budget = std::make_shared<run_budget>(budget_limits{})}));
  EXPECT_FALSE(ex.runs_inline("unknown"));
  executor off(reg, {.inline_synchronous = false});
  EXPECT_FALSE(off.runs_inline("quick"));
}

TEST(executor_timeout, counts_from_the_call_so_a_saturated_pool_cannot_stretch_it) {
  tool_registry reg;
  gate release;
  counter busy;
  reg.add({.name = "busy"}, [&](const json&, call_context&) {
    busy.add();
    release.wait();
    return tool_result::text("done");
  });
  reg.add({.name = "limited", .timeout = 200ms}, [](const json&, call_context&) {
    return tool_result::text("ran");
  });
  executor ex(reg, {.max_threads = 1, .max_abandoned = 0});
  auto blocker = ex.submit(make_call("busy"));
  busy.wait_for(1);  // the only worker is taken until the gate opens
  // The pool stays saturated for as long as the call waits: it can only end by its deadline.
  tool_result r = ex.call(make_call("limited"));
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("timed out after 200 ms while waiting to start; it did not run"),
            std::string::npos);
  release.open();
  EXPECT_EQ(blocker.get().all_text(), "done");
}

}  // namespace
}  // namespace tooluse::exec
