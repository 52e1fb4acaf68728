// The PostgreSQL tool-call queue, a run and a worker in this process: results in call order,
// a resumed run's calls not enqueued twice, cancellation while waiting, a lease that expired
// taken over (and one that did not left alone), heartbeats extending a lease, a shared rate
// limit sending a call back to the queue, and the errors for a store that is not PostgreSQL.
#include "tooluse/store/queue.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <latch>
#include <thread>

#include "store/db.hpp"
#include "tooluse/exec/executor.hpp"
#include "unit/store/store_pg.hpp"

namespace tooluse::testing {
namespace {

using namespace std::chrono_literals;

// A registry with `echo` (answers with its text and the idempotency key it was given) and
// counts its calls.
struct echo_tools {
  tool_registry registry;
  std::atomic<int> calls{0};
  echo_tools() {
    registry.add({.name = "echo",
                  .description = "echo",
                  .input_schema = {{"type", "object"},
                                   {"properties", {{"text", {{"type", "string"}}}}}}},
                 [this](const json& args, call_context& ctx) {
                   ++calls;
                   return tool_result::text(args.value("text", "") + " key=" +
                                            ctx.idempotency_key);
                 });
  }
};

// A worker on its own thread, stopped (and joined) on destruction.
struct worker_thread {
  store::queue_worker worker;
  std::stop_source stop;
  std::future<status> done;
  worker_thread(const std::string& url, const std::string& queue, exec::executor& ex,
                store::worker_options o = {})
      : worker(url, queue, ex, std::move(o)) {
    done = std::async(std::launch::async, [this] { return worker.run(stop.get_token()); });
  }
  status finish() {
    stop.request_stop();
    return done.get();
  }
  ~worker_thread() {
    stop.request_stop();
    if (done.valid()) done.wait();
  }
};

std::unique_ptr<store::detail::sql_db> direct(const std::string& url) {
  auto db = store::detail::open_postgres(url, store::durability::process);
  if (!db) throw std::runtime_error(db.error().message);
  return std::move(*db);
}

std::vector<std::optional<std::string>> row_of(store::detail::sql_db& db, const std::string& sql,
                                               const std::vector<store::detail::param>& p = {}) {
  auto r = db.exec(sql, p);
  if (!r || r->empty()) return {};
  return r->front();
}

// until polls the database for a state another thread brings about (polling a row, not
// ordering events), up to 30 s.
template <class F>
bool until(F&& done) {
  auto end = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

TEST(store_queue, a_store_that_is_not_postgres_is_refused_by_the_queue_and_the_worker) {
  auto q = store::tool_queue::open("runs.db", "q");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().code, errc::invalid_argument);
  EXPECT_EQ(q.error().message,
            "a tool-call queue needs a PostgreSQL store (--store postgresql://...), not "
            "\"runs.db\"");
  echo_tools tools;
  exec::executor ex(tools.registry);
  store::queue_worker w("runs.db", "q", ex);
  auto s = w.run({});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::invalid_argument);
  EXPECT_EQ(w.completed(), 0u);
}

TEST(store_queue, an_unreachable_server_is_an_io_error_without_the_password) {
  auto q = store::tool_queue::open("postgresql://u:hunter2@127.0.0.1:1/none", "q");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().code, errc::io_error);
  EXPECT_EQ(q.error().message.find("hunter2"), std::string::npos) << q.error().message;
}

TEST(store_queue, results_come_back_in_call_order_and_a_resumed_run_does_not_enqueue_again) {
  auto& pg = shared_postgres();
  TOOLUSE_REQUIRE_POSTGRES(pg);
  std::string url = pg.url("queue_order");
  echo_tools tools;
  exec::executor ex(tools.registry);
  auto q = store::tool_queue::open(url, "q");
  ASSERT_TRUE(q) << q.error().message;
  std::vector<tool_call> calls = {tool_call::from_text("c1", "echo", R"({"text":"one"})"),
                                  tool_call::from_text("c2", "nope", "{}"),
                                  tool_call::from_text("c3", "echo", R"({"text":"three"})")};
  {
    worker_thread w(url, "q", ex, {.worker_id = "w1", .batch = 2});
    auto out = (*q)->run(calls, "run-1");
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0].all_text(), "one key=run-1/c1");
    EXPECT_FALSE(out[0].is_error);
    EXPECT_TRUE(out[1].is_error);  // the worker's executor knows no tool "nope"
    EXPECT_NE(out[1].all_text().find("nope"), std::string::npos) << out[1].all_text();
    EXPECT_EQ(out[2].all_text(), "three key=run-1/c3");
    ASSERT_TRUE(w.finish());
    EXPECT_EQ(w.worker.completed(), 3u);
  }
  EXPECT_EQ(tools.calls.load(), 2);

  // Resumed: the same calls of the same run are found done; nothing runs (no worker runs now).
  auto again = (*q)->runner("run-1")(calls, {});
  ASSERT_EQ(again.size(), 3u);
  EXPECT_EQ(again[2].all_text(), "three key=run-1/c3");
  EXPECT_EQ(tools.calls.load(), 2);
  auto db = direct(url);
  auto r = row_of(*db, "SELECT count(*), max(attempts), min(worker) FROM tooluse_queue");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0], "3");
  EXPECT_EQ(r[1], "1");
  EXPECT_EQ(r[2], "w1");
}

TEST(store_queue, a_cancelled_run_gets_errors_and_its_calls_stay_queued) {
  auto& pg = shared_postgres();
  TOOLUSE_REQUIRE_POSTGRES(pg);
  std::string url = pg.url("queue_cancel");
  auto q = store::tool_queue::open(url, "q");
  ASSERT_TRUE(q) << q.error().message;
  std::stop_source stop;
  stop.request_stop();
  std::vector<tool_call> calls = {tool_call::from_text("a", "echo", "{}"),
                                  tool_call::from_text("b", "echo", "{}")};
  auto out = (*q)->run(calls, "run-c", stop.get_token());
  ASSERT_EQ(out.size(), 2u);
  for (const auto& r : out) {
    EXPECT_TRUE(r.is_error);
    EXPECT_EQ(r.all_text(), "cancelled while the call waited in the queue");
  }
  auto db = direct(url);
  auto r = row_of(*db,
                  "SELECT count(*), string_agg(idempotency_key, ',' ORDER BY id) FROM "
                  "tooluse_queue WHERE status = 'queued' AND run_id = 'run-c'");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], "2");
  EXPECT_EQ(r[1], "run-c/a,run-c/b");
}

TEST(store_queue, an_expired_lease_is_taken_over_and_a_live_one_is_left_alone) {
  auto& pg = shared_postgres();
  TOOLUSE_REQUIRE_POSTGRES(pg);
  std::string url = pg.url("queue_lease");
  auto q = store::tool_queue::open(url, "q");  // creates the schema
  ASSERT_TRUE(q) << q.error().message;
  auto db = direct(url);
  auto call_json = [](const char* id, const char* text) {
    return dump_json({{"id", id},
                      {"name", "echo"},
                      {"raw_arguments", ""},
                      {"arguments", {{"text", text}}}});
  };
  // A worker died holding "dead" (lease over); another holds "live" for an hour.
  ASSERT_TRUE(db->exec(
      "INSERT INTO tooluse_queue (queue, idempotency_key, run_id, call, status, attempts, "
      "worker, lease_until) VALUES ('q', 'run-l/dead', 'run-l', $1, 'leased', 1, 'gone', "
      "now() - interval '1 second'), ('q', 'run-l/live', 'run-l', $2, 'leased', 1, 'busy', "
      "now() + interval '1 hour')",
      {call_json("dead", "d"), call_json("live", "l")}));

  echo_tools tools;
  exec::executor ex(tools.registry);
  std::mutex log_mu;
  std::vector<std::string> log;
  worker_thread w(url, "q", ex,
                  {.worker_id = "w2", .log = [&](const std::string& line) {
                     std::lock_guard g(log_mu);
                     log.push_back(line);
                   }});
  std::vector<tool_call> calls = {tool_call::from_text("dead", "echo", R"({"text":"d"})")};
  auto out = (*q)->run(calls, "run-l");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].all_text(), "d key=run-l/dead");
  ASSERT_TRUE(w.finish());
  {
    std::lock_guard g(log_mu);
    ASSERT_GE(log.size(), 2u);
    EXPECT_EQ(log[0], "worker w2 takes calls from queue \"q\"");
    EXPECT_EQ(log[1], "taking over run-l/dead (attempt 2)");
  }
  auto dead = row_of(*db, "SELECT status, attempts, worker FROM tooluse_queue WHERE "
                          "idempotency_key = 'run-l/dead'");
  EXPECT_EQ(dead, (std::vector<std::optional<std::string>>{"done", "2", "w2"}));
  // The worker's first claim took every call it could; the live lease was not one of them.
  auto live = row_of(*db, "SELECT status, attempts, worker FROM tooluse_queue WHERE "
                          "idempotency_key = 'run-l/live'");
  EXPECT_EQ(live, (std::vector<std::optional<std::string>>{"leased", "1", "busy"}));
  EXPECT_EQ(tools.calls.load(), 1);
}

TEST(store_queue, a_heartbeat_extends_the_lease_of_a_call_that_is_still_running) {
  auto& pg = shared_postgres();
  TOOLUSE_REQUIRE_POSTGRES(pg);
  std::string url = pg.url("queue_heartbeat");
  tool_registry registry;
  std::latch started(1);
  std::promise<void> release;
  auto released = release.get_future().share();
  registry.add({.name = "slow", .description = "waits", .input_schema = {{"type", "object"}}},
               [&, released](const json&, call_context&) {
                 started.count_down();
                 released.wait();
                 return tool_result::text("finally");
               });
  exec::executor ex(registry);
  auto q = store::tool_queue::open(url, "q");
  ASSERT_TRUE(q) << q.error().message;
  worker_thread w(url, "q", ex, {.worker_id = "hb", .lease = 900ms});
  auto result = std::async(std::launch::async, [&] {
    std::vector<tool_call> calls = {tool_call::from_text("s", "slow", "{}")};
    return (*q)->run(calls, "run-h");
  });
  started.wait();
  auto db = direct(url);
  const std::string lease_sql =
      "SELECT extract(epoch FROM lease_until)::text, status FROM tooluse_queue WHERE "
      "idempotency_key = 'run-h/s'";
  auto first = row_of(*db, lease_sql);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[1], "leased");
  double lease0 = std::stod(first[0].value_or("0"));
  // A heartbeat comes every 300 ms; two of them push the lease past its first end.
  bool extended = until([&] {
    auto r = row_of(*db, lease_sql);
    return r.size() == 2 && std::stod(r[0].value_or("0")) > lease0 + 0.5;
  });
  release.set_value();
  EXPECT_TRUE(extended) << "the lease was never extended";
  auto out = result.get();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].all_text(), "finally");
  auto fin = row_of(*db, "SELECT status, attempts, lease_until IS NULL FROM tooluse_queue");
  EXPECT_EQ(fin, (std::vector<std::optional<std::string>>{"done", "1", "t"}));
  ASSERT_TRUE(w.finish());
}

TEST(store_queue, a_call_over_the_shared_rate_limit_goes_back_to_the_queue_until_its_window_ends) {
  auto& pg = shared_postgres();
  TOOLUSE_REQUIRE_POSTGRES(pg);
  std::string url = pg.url("queue_rate");
  echo_tools tools;
  tools.registry.add({.name = "limited",
                      .description = "one call a minute",
                      .input_schema = {{"type", "object"}},
                      .rate = {.calls = 1, .window = std::chrono::minutes(1)}},
                     [&](const json&, call_context&) {
                       ++tools.calls;
                       return tool_result::text("ran");
                     });
  exec::executor ex(tools.registry);
  auto q = store::tool_queue::open(url, "q");
  ASSERT_TRUE(q) << q.error().message;
  worker_thread w(url, "q", ex, {.worker_id = "rl", .tools = &tools.registry});
  std::stop_source stop_run;
  auto result = std::async(std::launch::async, [&] {
    std::vector<tool_call> calls = {tool_call::from_text("x", "limited", "{}"),
                                    tool_call::from_text("y", "limited", "{}")};
    return (*q)->run(calls, "run-r", stop_run.get_token());
  });
  auto db = direct(url);
  // One call runs, the other waits in the queue with a lease that ends with the window.
  bool settled = until([&] {
    auto r = row_of(*db,
                    "SELECT count(*) FILTER (WHERE status = 'done'), count(*) FILTER (WHERE "
                    "status = 'queued' AND worker = '' AND lease_until > now() + interval '30 "
                    "seconds') FROM tooluse_queue");
    return r.size() == 2 && r[0] == "1" && r[1] == "1";
  });
  stop_run.request_stop();
  auto out = result.get();
  ASSERT_TRUE(w.finish());
  ASSERT_TRUE(settled) << "expected one call done and one back in the queue";
  EXPECT_EQ(tools.calls.load(), 1);
  ASSERT_EQ(out.size(), 2u);
  int ran = 0, cancelled = 0;
  for (const auto& r : out) {
    ran += r.all_text() == "ran";
    cancelled += r.all_text() == "cancelled while the call waited in the queue";
  }
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(cancelled, 1);
  auto lim = row_of(*db, "SELECT tool, calls FROM tooluse_queue_limits WHERE queue = 'q'");
  EXPECT_EQ(lim, (std::vector<std::optional<std::string>>{"limited", "1"}));
}

TEST(store_queue, a_call_enqueued_outside_a_run_uses_the_queue_key_as_its_idempotency_key) {
  auto& pg = shared_postgres();
  TOOLUSE_REQUIRE_POSTGRES(pg);
  std::string url = pg.url("queue_external");
  auto q = store::tool_queue::open(url, "q");
  ASSERT_TRUE(q) << q.error().message;
  auto db = direct(url);
  ASSERT_TRUE(db->exec(
      "INSERT INTO tooluse_queue (queue, idempotency_key, call) VALUES ('q', 'order-77', $1)",
      {dump_json({{"id", "ignored"}, {"name", "echo"}, {"arguments", {{"text", "ext"}}}})}));
  echo_tools tools;
  exec::executor ex(tools.registry);
  worker_thread w(url, "q", ex, {.worker_id = "ext"});
  bool done = until([&] {
    auto r = row_of(*db, "SELECT status FROM tooluse_queue WHERE idempotency_key = 'order-77'");
    return !r.empty() && r[0] == "done";
  });
  ASSERT_TRUE(w.finish());
  ASSERT_TRUE(done);
  auto r = row_of(*db, "SELECT result FROM tooluse_queue WHERE idempotency_key = 'order-77'");
  ASSERT_EQ(r.size(), 1u);
  auto res = result_from_json(json::parse(r[0].value_or("{}")));
  ASSERT_TRUE(res);
  EXPECT_EQ(res->all_text(), "ext key=order-77");
  EXPECT_EQ(w.worker.completed(), 1u);
}

}  // namespace
}  // namespace tooluse::testing
