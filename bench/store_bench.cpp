// Durable-run benchmarks (docs/durable-runs.md, "Performance").
//  BM_checkpoint_sqlite: one journal step (a tool result, ~100 bytes of JSON) committed to a
//    SQLite store in WAL mode: the cost a durable run adds per step.
//  BM_checkpoint_postgres: the same on PostgreSQL over loopback (a throwaway cluster made
//    with initdb/pg_ctl in /tmp, or TOOLUSE_BENCH_PG=postgresql://... to use another).
//  BM_queue_4_workers: no-op tool calls through the PostgreSQL queue with four workers (four
//    queue_worker loops, each with its own connections), enqueued by one run 256 at a time;
//    items/s is calls per second end to end (enqueue, claim, run, finish, NOTIFY, collect).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <thread>
// test_support.cpp wants the shared folder's default path.
#define TOOLUSE_SHARED_DIR_DEFAULT TOOLUSE_SHARED_DIR
#include "support/postgres_fixture.hpp"
#include "support/test_support.cpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/store/queue.hpp"
#include "tooluse/store/store.hpp"

namespace {

using namespace tooluse;

std::string postgres_url() {
  if (const char* u = std::getenv("TOOLUSE_BENCH_PG"); u && *u) return u;
  static testing::postgres_cluster* cluster = new testing::postgres_cluster();  // lives until exit
  return cluster->ok() ? cluster->url("bench") : "";
}

void checkpoint(benchmark::State& state, const std::string& location) {
  auto s = store::open_store(location);
  if (!s) {
    state.SkipWithError(s.error().message.c_str());
    return;
  }
  auto j = (*s)->create_run({});
  auto call = tool_call::from_text("call_1", "calculator", R"({"expression":"6*7"})");
  auto result = tool_result::text("42");
  for (auto _ : state) {
    auto ok = (*j)->tool_finished(1, call, result, std::chrono::milliseconds(1));
    if (!ok) state.SkipWithError(ok.error().message.c_str());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_checkpoint_sqlite(benchmark::State& state) {
  testing::temp_dir dir;
  checkpoint(state, (dir.path() / "bench.db").string());
}
BENCHMARK(BM_checkpoint_sqlite)->Unit(benchmark::kMicrosecond);

void BM_checkpoint_postgres(benchmark::State& state) {
  std::string url = postgres_url();
  if (url.empty()) {
    state.SkipWithError("no PostgreSQL (install postgresql or set TOOLUSE_BENCH_PG)");
    return;
  }
  checkpoint(state, url);
}
BENCHMARK(BM_checkpoint_postgres)->Unit(benchmark::kMicrosecond);

void BM_queue_4_workers(benchmark::State& state) {
  std::string url = postgres_url();
  if (url.empty()) {
    state.SkipWithError("no PostgreSQL (install postgresql or set TOOLUSE_BENCH_PG)");
    return;
  }
  tool_registry reg;
  reg.add({.name = "noop", .description = "does nothing"},
          [](const json&, call_context&) { return tool_result::text("ok"); });
  exec::executor ex(reg, {.max_threads = 8});
  std::string queue = "bench-" + store::new_run_id();
  std::stop_source stop;
  std::vector<std::unique_ptr<store::queue_worker>> workers;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    workers.push_back(std::make_unique<store::queue_worker>(
        url, queue, ex, store::worker_options{.worker_id = "w" + std::to_string(i), .batch = 64}));
    threads.emplace_back([&, i] { (void)workers[size_t(i)]->run(stop.get_token()); });
  }
  auto q = store::tool_queue::open(url, queue);
  if (!q) {
    state.SkipWithError(q.error().message.c_str());
    stop.request_stop();
    for (auto& t : threads) t.join();
    return;
  }
  const int batch = 256;
  std::int64_t n = 0;
  for (auto _ : state) {
    std::vector<tool_call> calls;
    std::string run = store::new_run_id();
    for (int i = 0; i < batch; ++i) calls.push_back(tool_call::from_text("c" + std::to_string(i), "noop", "{}"));
    auto results = (*q)->run(calls, run);
    n += std::int64_t(results.size());
  }
  state.SetItemsProcessed(n);
  stop.request_stop();
  for (auto& t : threads) t.join();
}
BENCHMARK(BM_queue_4_workers)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
