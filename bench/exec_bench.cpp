// Execution engine benchmarks (issue 4):
//  - 64 calls of a tool that waits 100 ms at parallelism 64: wall time should stay near 100 ms;
//  - overhead per call of validate + dispatch + result for a trivial tool, single thread and
//    with several threads calling one executor (contention). Run with
//    --benchmark_repetitions=5 --benchmark_report_aggregates_only=true for medians;
//  - the fast path (a synchronous tool on the caller's thread) next to the direct invoke;
//  - a 1 s timeout with the pool saturated.
#include <benchmark/benchmark.h>

#include <chrono>
#include <thread>

#include "tooluse/exec/executor.hpp"

namespace {
using namespace tooluse;

json schema() {
  return {{"type", "object"},
          {"properties", {{"i", {{"type", "integer"}}}}},
          {"required", json::array({"i"})}};
}

tool_registry& registry() {
  static tool_registry& reg = *[] {
    auto* r = new tool_registry;  // lives for the whole program
    r->add({.name = "wait100", .input_schema = schema()}, [](const json&, call_context&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the work being measured
      return tool_result::text("done");
    });
    r->add({.name = "trivial", .input_schema = schema()}, [](const json& args, call_context&) {
      return tool_result::text(std::to_string(args["i"].get<int>()));
    });
    // The same tool declared synchronous: call() takes the fast path (caller's thread).
    r->add({.name = "trivial_sync", .input_schema = schema(), .synchronous = true},
           [](const json& args, call_context&) {
             return tool_result::text(std::to_string(args["i"].get<int>()));
           });
    // A pool filler and a tool with a 1 s timeout, for the saturated-pool timeout figure.
    r->add({.name = "hold", .input_schema = schema()}, [](const json&, call_context& ctx) {
      while (!ctx.stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      return tool_result::text("held");
    });
    r->add({.name = "timeout1s", .input_schema = schema(), .timeout = std::chrono::seconds(1)},
           [](const json&, call_context& ctx) {
             while (!ctx.stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
             return tool_result::text("late");
           });
    return r;
  }();
  return reg;
}

tool_call make_call(const char* name, int i) {
  return tool_call::from_text("c" + std::to_string(i), name, "{\"i\":" + std::to_string(i) + "}");
}

void BM_parallel_64_waits_of_100ms(benchmark::State& state) {
  exec::executor ex(registry(), {.max_threads = 64});
  std::vector<tool_call> calls;
  for (int i = 0; i < 64; ++i) calls.push_back(make_call("wait100", i));
  ex.run_all(calls);  // warm-up: spawn the 64 workers
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    auto results = ex.run_all(calls, {.max_parallel = 64});
    const auto wall = std::chrono::steady_clock::now() - start;
    state.SetIterationTime(std::chrono::duration<double>(wall).count());
    if (results.size() != 64 || results.back().is_error) state.SkipWithError("bad results");
  }
}
BENCHMARK(BM_parallel_64_waits_of_100ms)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

exec::executor& shared_executor() {
  static exec::executor ex(registry(), {.max_threads = 8});
  return ex;
}

// One call at a time through the whole engine: validate, queue, worker, result, wake caller.
void BM_call_overhead(benchmark::State& state) {
  auto& ex = shared_executor();
  tool_call c = make_call("trivial", 1);
  for (auto _ : state) {
    tool_result r = ex.call(c);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_call_overhead)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_call_overhead)->Unit(benchmark::kMicrosecond)->Threads(4)->UseRealTime();

// A batch of 64 trivial calls: the per-call cost when the pool pipelines them.
void BM_batch_overhead_per_call(benchmark::State& state) {
  auto& ex = shared_executor();
  std::vector<tool_call> calls;
  for (int i = 0; i < 64; ++i) calls.push_back(make_call("trivial", i));
  for (auto _ : state) {
    auto results = ex.run_all(calls);
    benchmark::DoNotOptimize(results);
  }
  state.SetItemsProcessed(state.iterations() * 64);
}
BENCHMARK(BM_batch_overhead_per_call)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_batch_overhead_per_call)->Unit(benchmark::kMicrosecond)->Threads(4)->UseRealTime();

// The fast path: a synchronous tool, one call at a time, on the caller's thread. Compare
// with BM_direct_validate_and_invoke (the acceptance: at most 1 us more per call).
void BM_fast_path_call(benchmark::State& state) {
  auto& ex = shared_executor();
  tool_call c = make_call("trivial_sync", 1);
  for (auto _ : state) {
    tool_result r = ex.call(c);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_fast_path_call)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_fast_path_call)->Unit(benchmark::kMicrosecond)->Threads(4)->UseRealTime();

// A 1 s tool timeout with every worker busy (4 workers, 8 holders queued): the time until
// the caller gets its timeout result. The acceptance: at most 1.1 s.
void BM_timeout_1s_saturated_pool(benchmark::State& state) {
  exec::executor ex(registry(), {.max_threads = 4, .max_abandoned = 0});
  std::stop_source release;
  std::vector<std::future<tool_result>> holders;
  for (int i = 0; i < 8; ++i) holders.push_back(ex.submit(make_call("hold", i), {.stop = release.get_token()}));
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    tool_result r = ex.call(make_call("timeout1s", 1));
    const auto wall = std::chrono::steady_clock::now() - start;
    state.SetIterationTime(std::chrono::duration<double>(wall).count());
    if (!r.is_error || !r.meta.contains("timeout")) state.SkipWithError("no timeout result");
  }
  release.request_stop();
  for (auto& h : holders) h.get();
}
BENCHMARK(BM_timeout_1s_saturated_pool)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

// Baseline: the handler called directly, validation included, no engine.
void BM_direct_validate_and_invoke(benchmark::State& state) {
  auto entry = registry().find("trivial");
  tool_call c = make_call("trivial", 1);
  for (auto _ : state) {
    call_context ctx;
    bool ok = entry->input_validator->is_valid(c.arguments);
    tool_result r = invoke_handler(*entry, c.arguments, ctx);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_direct_validate_and_invoke)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
