// The pool under saturation (queued calls counted, cancelled one by one through their own stop
// tokens), running calls given up on, approval details (the policy's view, the pending call's
// reason and session, an edit asked once) and rate limits kept per session. Handlers block on
// gates and tests wait on counters; time moves only on a manual_clock.
#include <atomic>
#include <future>

#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;
using namespace std::chrono_literals;

// saturated holds the only worker of a one-thread pool until `hold` opens (or the end).
struct saturated {
  tool_registry reg;
  gate hold;
  counter started, finished;
  std::atomic<int> ran{0};
  saturated() {
    reg.add({.name = "busy"}, [this](const json&, call_context&) {
      started.add();
      hold.wait();
      finished.add();
      return tool_result::text("busy done");
    });
    add_echo(reg);
    reg.add({.name = "counted"}, [this](const json&, call_context&) {
      ++ran;
      return tool_result::text("counted");
    });
  }
  // A handler given up on outlives its executor: let it finish before the gate goes away.
  ~saturated() {
    hold.open();
    finished.wait_for(started.value());
  }
};

TEST(executor_pool, queued_calls_are_counted_until_a_worker_takes_them) {
  saturated s;
  executor ex(s.reg, {.max_threads = 1, .max_abandoned = 0});
  auto blocker = ex.submit(make_call("busy"));
  s.started.wait_for(1);
  auto a = ex.submit(make_call("echo", {{"i", 1}}));
  auto b = ex.submit(make_call("echo", {{"i", 2}}));
  executor_stats st = ex.stats();
  EXPECT_EQ(st.threads, 1);
  EXPECT_EQ(st.queued, 2u);
  EXPECT_EQ(st.completed, 0u);
  s.hold.open();
  EXPECT_EQ(blocker.get().all_text(), "busy done");
  EXPECT_EQ(a.get().all_text(), "1");
  EXPECT_EQ(b.get().all_text(), "2");
  st = ex.stats();
  EXPECT_EQ(st.queued, 0u);
  EXPECT_EQ(st.completed, 3u);
}

TEST(executor_pool, a_queued_call_stopped_through_its_token_leaves_the_queue_without_running) {
  saturated s;
  executor ex(s.reg, {.max_threads = 1, .max_abandoned = 0});
  auto blocker = ex.submit(make_call("busy"));
  s.started.wait_for(1);
  std::stop_source stop;
  auto doomed = ex.submit(make_call("counted"), {.stop = stop.get_token()});
  auto kept = ex.submit(make_call("echo", {{"i", 5}}));
  ASSERT_EQ(ex.stats().queued, 2u);
  stop.request_stop();  // the result is set by the stop callback, at once
  ASSERT_EQ(doomed.wait_for(0s), std::future_status::ready);
  tool_result r = doomed.get();
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text(), "tool \"counted\" was cancelled before it finished");
  EXPECT_EQ(ex.stats().queued, 1u);
  s.hold.open();
  EXPECT_EQ(kept.get().all_text(), "5");
  blocker.get();
  EXPECT_EQ(s.ran.load(), 0);
}

TEST(executor_pool, a_running_call_that_ignores_its_stop_is_given_up_on_and_replaced) {
  saturated s;
  executor ex(s.reg, {.max_threads = 1, .max_abandoned = 1});
  std::stop_source stop;
  auto stuck = ex.submit(make_call("busy"), {.stop = stop.get_token()});
  s.started.wait_for(1);
  stop.request_stop();
  ASSERT_EQ(stuck.wait_for(0s), std::future_status::ready);
  tool_result r = stuck.get();
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text(), "tool \"busy\" was cancelled before it finished");
  EXPECT_EQ(ex.stats().abandoned, 1);
  // A replacement worker serves new calls while the abandoned one still runs.
  EXPECT_EQ(ex.call(make_call("echo", {{"i", 3}})).all_text(), "3");
  // A cancellation is not the tool's failure: the breaker stays closed.
  EXPECT_EQ(ex.breaker("busy"), breaker_state::closed);
}

TEST(executor_pool, run_all_with_a_stop_requested_midway_cancels_what_has_not_finished) {
  saturated s;
  executor ex(s.reg, {.max_threads = 1, .max_abandoned = 1});
  std::stop_source stop;
  std::vector<tool_call> calls = {make_call("busy"), make_call("counted"),
                                  make_call("echo", {{"i", 1}})};
  std::future<std::vector<tool_result>> results =
      std::async(std::launch::async, [&] { return ex.run_all(calls, {.stop = stop.get_token()}); });
  s.started.wait_for(1);
  stop.request_stop();
  auto out = results.get();
  ASSERT_EQ(out.size(), 3u);
  // "busy" was running when the stop came: it is given up on.
  EXPECT_TRUE(out[0].is_error);
  EXPECT_NE(out[0].all_text().find("was cancelled"), std::string::npos) << out[0].all_text();
  // The others are cancelled unless a worker had already finished one before the stop (the
  // worker that replaces the abandoned one may take a queued call first); a call taken while the
  // batch stopped still reads as cancelled. Nothing runs twice.
  for (std::size_t i = 1; i < out.size(); ++i) {
    if (out[i].is_error) {
      EXPECT_NE(out[i].all_text().find("was cancelled"), std::string::npos) << out[i].all_text();
    } else {
      EXPECT_EQ(out[i].all_text(), i == 1 ? "counted" : "1");
    }
  }
  EXPECT_LE(s.ran.load(), 1);
  if (!out[1].is_error) {
    EXPECT_EQ(s.ran.load(), 1);
  }
}

// dangerous registers "wipe" (dangerous, integer argument "n") counting its runs.
struct dangerous {
  tool_registry reg;
  std::atomic<int> runs{0};
  std::atomic<int> last{0};
  dangerous() {
    reg.add({.name = "wipe", .input_schema = int_schema("n"), .dangerous = true},
            [this](const json& a, call_context&) {
              ++runs;
              last = a["n"].get<int>();
              return tool_result::text("wiped " + std::to_string(last.load()));
            });
  }
};

TEST(executor_approval_details, the_policy_sees_the_tool_the_call_and_the_session) {
  dangerous d;
  std::string seen;
  executor ex(d.reg, {.approval = [&](const approval_request& r) {
                seen = r.definition.name + "|" + r.call.id + "|" + std::string(r.session) + "|" +
                       dump_json(r.call.arguments);
                return approval_decision::approve();
              }});
  EXPECT_EQ(ex.call(make_call("wipe", {{"n", 2}}, "c7"), {.session = "alice"}).all_text(),
            "wiped 2");
  EXPECT_EQ(seen, "wipe|c7|alice|{\"n\":2}");
}

TEST(executor_approval_details, a_defer_without_a_message_gives_a_default_reason_and_the_session) {
  dangerous d;
  executor ex(d.reg,
              {.approval = [](const approval_request&) { return approval_decision::defer(); }});
  tool_result r = ex.call(make_call("wipe", {{"n", 1}}, "c1"), {.session = "bob"});
  EXPECT_FALSE(r.is_error);  // waiting is not a failure of the tool
  EXPECT_EQ(r.all_text(), "the call to tool \"wipe\" is waiting for approval and has not run yet");
  auto p = pending_from_result(r);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->reason, "tool \"wipe\" needs approval");
  EXPECT_EQ(p->session, "bob");
  EXPECT_EQ(p->call.id, "c1");
  EXPECT_GT(p->created_unix_ms, 0);
  // "approval-<created_unix_ms>-<n>": the time it was deferred, then a per-executor counter.
  const std::string prefix = "approval-" + std::to_string(p->created_unix_ms) + "-";
  ASSERT_EQ(p->id.rfind(prefix, 0), 0u) << p->id;
  EXPECT_EQ(p->id.substr(prefix.size()).find_first_not_of("0123456789"), std::string::npos);
  EXPECT_EQ(d.runs.load(), 0);
  // Two deferred calls get distinct ids.
  auto q = pending_from_result(ex.call(make_call("wipe", {{"n", 1}}, "c1")));
  ASSERT_TRUE(q);
  EXPECT_NE(q->id, p->id);
}

TEST(executor_approval_details, an_edit_is_asked_once_and_runs_the_new_arguments) {
  dangerous d;
  int asked = 0;
  executor ex(d.reg, {.approval = [&](const approval_request&) {
                ++asked;
                return approval_decision::edit({{"n", 9}});
              }});
  EXPECT_EQ(ex.call(make_call("wipe", {{"n", 1}})).all_text(), "wiped 9");
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(d.last.load(), 9);
}

TEST(executor_approval_details, resume_with_an_invalid_edit_does_not_run) {
  dangerous d;
  executor ex(
      d.reg, {.approval = [](const approval_request&) { return approval_decision::defer("ask"); }});
  auto p = pending_from_result(ex.call(make_call("wipe", {{"n", 1}})));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->reason, "ask");
  tool_result r = ex.resume(*p, approval_decision::edit({{"n", "everything"}}));
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text().rfind("invalid arguments for tool \"wipe\"", 0), 0u);
  EXPECT_EQ(d.runs.load(), 0);
  // A resumed call is not asked again: approve runs it as it was.
  EXPECT_EQ(ex.resume(*p, approval_decision::approve()).all_text(), "wiped 1");
}

TEST(executor_approval_details, a_rejected_or_deferred_call_does_not_spend_the_budget) {
  dangerous d;
  int n = 0;
  executor ex(d.reg, {.approval = [&](const approval_request&) {
                return ++n == 1 ? approval_decision::reject("no") : approval_decision::defer();
              }});
  auto budget = std::make_shared<run_budget>(budget_limits{.max_calls = 1});
  EXPECT_TRUE(ex.call(make_call("wipe", {{"n", 1}}), {.budget = budget}).is_error);
  EXPECT_TRUE(pending_from_result(ex.call(make_call("wipe", {{"n", 1}}), {.budget = budget})));
  EXPECT_EQ(budget->calls_used(), 0u);
}

TEST(executor_rate_limit_sessions, each_session_has_its_own_window) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  add_echo(reg, {.name = "limited", .rate = {.calls = 1, .window = 1000ms}});
  executor ex(reg, {.time = time});
  EXPECT_FALSE(ex.call(make_call("limited", {{"i", 1}}), {.session = "a"}).is_error);
  EXPECT_FALSE(ex.call(make_call("limited", {{"i", 2}}), {.session = "b"}).is_error);
  EXPECT_FALSE(ex.call(make_call("limited", {{"i", 3}})).is_error);  // the "default" session
  time->advance(400ms);
  tool_result a = ex.call(make_call("limited", {{"i", 4}}), {.session = "a"});
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.all_text(),
            "rate limit of tool \"limited\" reached for session \"a\": at most 1 calls "
            "per 1000 ms; retry after 600 ms");
  EXPECT_EQ(a.meta.value("retry_after_ms", 0), 600);
  tool_result d = ex.call(make_call("limited", {{"i", 5}}));
  EXPECT_NE(d.all_text().find("for session \"default\""), std::string::npos);
  time->advance(600ms);
  EXPECT_EQ(ex.call(make_call("limited", {{"i", 6}}), {.session = "a"}).all_text(), "6");
}

TEST(executor_rate_limit_sessions, a_refusal_is_not_a_failure_of_the_tool) {
  auto time = std::make_shared<manual_clock>();
  tool_registry reg;
  add_echo(reg, {.name = "limited", .rate = {.calls = 1, .window = 1000ms}});
  std::vector<call_outcome> outcomes;
  executor ex(
      reg,
      {.breaker = {.failure_threshold = 1}, .time = time, .on_event = [&](const call_event& e) {
         if (e.kind == event_kind::end) outcomes.push_back(e.outcome);
       }});
  EXPECT_FALSE(ex.call(make_call("limited", {{"i", 1}})).is_error);
  EXPECT_TRUE(ex.call(make_call("limited", {{"i", 2}})).is_error);
  EXPECT_TRUE(ex.call(make_call("limited", {{"i", 3}})).is_error);
  EXPECT_EQ(ex.breaker("limited"), breaker_state::closed);
  EXPECT_EQ(outcomes, (std::vector<call_outcome>{call_outcome::ok, call_outcome::rate_limited,
                                                 call_outcome::rate_limited}));
}

}  // namespace
}  // namespace tooluse::exec
