// Durable-run benchmarks (docs/durable-runs.md, "Performance"): the figures issue 18 names.
//  BM_checkpoint_sqlite/<durability>: the wall time a durable run adds per journal step on a
//    SQLite store (WAL), cycling through the four steps of a turn that calls a tool
//    (model_request, model_response, tool_started, tool_finished; 100-300 bytes of JSON each).
//    Goal: <= 0.5 ms a step with the default durability (process).
//  BM_checkpoint_postgres/<durability>: the same on PostgreSQL over loopback. Goal: <= 2 ms.
//  BM_queue_4_workers/runs:R/full:F: no-op tool calls through the PostgreSQL queue, four
//    queue_worker loops (each with its own connections and executor, as four `tooluse worker`
//    processes have), R runs enqueueing 256/R calls each at once and waiting for them;
//    items_per_second is calls per second end to end (enqueue, NOTIFY, claim, run, finish,
//    NOTIFY, collect). Goal: >= 5,000 calls/s.
// PostgreSQL: a throwaway cluster made like the tests make theirs (initdb + pg_ctl on a free
// loopback port, as `nobody` when run as root; server defaults, fsync on), or the server
// TOOLUSE_BENCH_PG=postgresql://... names.
//   cmake --preset bench && cmake --build --preset bench --target bench_store
//   build/bench/bench/bench_store --benchmark_min_time=2
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <thread>

#include "support/postgres_fixture.hpp"
#include "support/test_support.cpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/store/queue.hpp"
#include "tooluse/store/store.hpp"

namespace {

using namespace tooluse;
namespace ts = tooluse::testing;

std::string postgres_url() {
  if (const char* u = std::getenv("TOOLUSE_BENCH_PG"); u && *u) return u;
  static ts::postgres_cluster cluster;  // stopped and removed at exit
  return cluster.ok() ? cluster.url("bench") : "";
}

void checkpoint(benchmark::State& state, const std::string& location, store::durability d) {
  auto s = store::open_store(location, {.durability = d});
  if (!s) {
    state.SkipWithError(s.error().message.c_str());
    return;
  }
  auto j = (*s)->create_run({});
  if (!j) {
    state.SkipWithError(j.error().message.c_str());
    return;
  }
  auto call = tool_call::from_text("call_1", "calculator", R"({"expression":"6*7"})");
  auto result = tool_result::text("42");
  llm::chat_response reply;
  reply.reply = llm::message::assistant("");
  reply.reply.tool_calls = {call};
  reply.usage.input_tokens = 812;
  reply.usage.output_tokens = 24;
  int i = 0;
  for (auto _ : state) {
    status ok;
    switch (i++ % 4) {
      case 0:
        ok = (*j)->model_request(1);
        break;
      case 1:
        ok = (*j)->model_response(1, reply);
        break;
      case 2:
        ok = (*j)->tool_started(1, call);
        break;
      default:
        ok = (*j)->tool_finished(1, call, result, std::chrono::milliseconds(1));
    }
    if (!ok) {
      state.SkipWithError(ok.error().message.c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("wall time per step");
}

void BM_checkpoint_sqlite(benchmark::State& state, store::durability d) {
  ts::temp_dir dir;
  checkpoint(state, (dir.path() / "bench.db").string(), d);
}
BENCHMARK_CAPTURE(BM_checkpoint_sqlite, process, store::durability::process)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_checkpoint_sqlite, full, store::durability::full)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

void BM_checkpoint_postgres(benchmark::State& state, store::durability d) {
  std::string url = postgres_url();
  if (url.empty()) {
    state.SkipWithError("no PostgreSQL (install postgresql or set TOOLUSE_BENCH_PG)");
    return;
  }
  checkpoint(state, url, d);
}
BENCHMARK_CAPTURE(BM_checkpoint_postgres, process, store::durability::process)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_checkpoint_postgres, full, store::durability::full)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

void BM_queue_4_workers(benchmark::State& state) {
  std::string url = postgres_url();
  if (url.empty()) {
    state.SkipWithError("no PostgreSQL (install postgresql or set TOOLUSE_BENCH_PG)");
    return;
  }
  const int runs = int(state.range(0));
  const auto d = state.range(1) ? store::durability::full : store::durability::process;
  tool_registry reg;
  reg.add({.name = "noop", .description = "does nothing"},
          [](const json&, call_context&) { return tool_result::text("ok"); });
  std::string queue = "bench-" + store::new_run_id();
  std::stop_source stop;
  std::vector<std::unique_ptr<exec::executor>> executors;
  std::vector<std::unique_ptr<store::queue_worker>> workers;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    executors.push_back(
        std::make_unique<exec::executor>(reg, exec::executor_options{.max_threads = 4}));
    workers.push_back(std::make_unique<store::queue_worker>(
        url, queue, *executors.back(),
        store::worker_options{.worker_id = "w" + std::to_string(i), .batch = 64, .durability = d}));
  }
  for (auto& w : workers) threads.emplace_back([&w, &stop] { (void)w->run(stop.get_token()); });
  std::vector<std::unique_ptr<store::tool_queue>> queues;
  for (int r = 0; r < runs; ++r) {
    auto q = store::tool_queue::open(url, queue, {.durability = d});
    if (!q) {
      state.SkipWithError(q.error().message.c_str());
      break;
    }
    queues.push_back(std::move(*q));
  }
  const int per_run = 256 / runs;
  std::int64_t n = 0;
  if (!queues.empty()) {  // not timed: the workers connect and are ready
    std::vector<tool_call> warm;
    for (int i = 0; i < 16; ++i)
      warm.push_back(tool_call::from_text("w" + std::to_string(i), "noop", "{}"));
    (void)queues[0]->run(warm, store::new_run_id());
  }
  if (int(queues.size()) == runs)
    for (auto _ : state) {
      std::vector<std::thread> producers;
      std::atomic<std::int64_t> got{0};
      for (auto& q : queues)
        producers.emplace_back([&q, &got, per_run] {
          std::vector<tool_call> calls;
          for (int i = 0; i < per_run; ++i)
            calls.push_back(tool_call::from_text("c" + std::to_string(i), "noop", "{}"));
          for (const auto& r : q->run(calls, store::new_run_id()))
            if (!r.is_error) ++got;
        });
      for (auto& p : producers) p.join();
      n += got;
    }
  state.SetItemsProcessed(n);
  stop.request_stop();
  for (auto& t : threads) t.join();
}
BENCHMARK(BM_queue_4_workers)
    ->ArgNames({"runs", "full"})
    ->Args({1, 0})
    ->Args({4, 0})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
