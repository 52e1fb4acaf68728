// The cost of a sandboxed C++ tool call: a fresh worker per call (fork of the zygote,
// sandbox::confine: namespaces, mounts, two more forks, Landlock, the filter, rlimits; the
// request and result over a socket) beside the same handler called in-process, and `bwrap
// true` with the fewest options on the same machine (issue 28's goal: p50 at most 5 ms fresh).
// Run: build/bench/bench/bench_worker --benchmark_repetitions=5 (p50 = the median row).
// Links only the modules it uses (bench/CMakeLists.txt), so it builds without the rest.
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include <vector>

#include "tooluse/tools/registry.hpp"
#include "tooluse/tools/workers.hpp"

extern char** environ;

namespace {

// Built and bound in main, before Google Benchmark starts anything: a zygote needs one thread.
tooluse::tool_registry& registry(bool warm) {
  static tooluse::tool_registry warm_reg, cold_reg;
  return warm ? warm_reg : cold_reg;
}

tooluse::tool_result echo(const tooluse::json& a, tooluse::call_context&) {
  return tooluse::tool_result::text(a.value("text", ""));
}

void BM_in_process_call(benchmark::State& state) {
  tooluse::tool_registry reg;
  reg.add({.name = "echo", .description = "echo"}, echo);
  tooluse::call_context ctx;
  for (auto _ : state) benchmark::DoNotOptimize(reg.call({.name = "echo", .arguments = {{"text", "hi"}}}, ctx));
}
BENCHMARK(BM_in_process_call)->Unit(benchmark::kMicrosecond)->UseRealTime();

// spaced_ms: leave the zygote that long between calls (out of the timing) to have the next warm
// worker ready, as an agent's calls are spaced by the model's turns; back to back, each call also
// waits for the sandbox of the next worker, built while it runs. A warm worker is handed to the
// host as soon as it is forked, so a call that comes before its sandbox is built waits for the
// rest of it: 50 ms is enough on an idle machine, 300 ms on a loaded one.
// Each call is timed by hand (UseManualTime): PauseTiming/ResumeTiming themselves cost about
// 0.3 ms here, more than a warm call.
void worker_call(benchmark::State& state, bool warm, int spaced_ms = 0) {
  tooluse::call_context ctx;
  for (auto _ : state) {
    if (spaced_ms) std::this_thread::sleep_for(std::chrono::milliseconds(spaced_ms));
    const auto start = std::chrono::steady_clock::now();
    auto r = registry(warm).call({.name = "echo", .arguments = {{"text", "hi"}}}, ctx);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (r.is_error) state.SkipWithError(r.all_text().c_str());
  }
}
// A worker forked and sandboxed when the call comes.
void BM_fresh_worker_call(benchmark::State& state) { worker_call(state, false); }
BENCHMARK(BM_fresh_worker_call)->Unit(benchmark::kMillisecond)->UseManualTime();
// A worker sandboxed ahead, waiting for its call (still one per call).
void BM_warm_worker_call(benchmark::State& state) { worker_call(state, true); }
BENCHMARK(BM_warm_worker_call)->Unit(benchmark::kMillisecond)->UseManualTime();
void BM_warm_worker_call_spaced(benchmark::State& state) { worker_call(state, true, 50); }
BENCHMARK(BM_warm_worker_call_spaced)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(40);
// The warm worker's sandbox surely built: what a warm call itself costs.
void BM_warm_worker_call_ready(benchmark::State& state) { worker_call(state, true, 300); }
BENCHMARK(BM_warm_worker_call_ready)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(20);
void BM_fresh_worker_call_spaced(benchmark::State& state) { worker_call(state, false, 50); }
BENCHMARK(BM_fresh_worker_call_spaced)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(40);

void BM_bwrap_true(benchmark::State& state) {
  std::vector<const char*> argv = {"/usr/bin/bwrap", "--unshare-all", "--unshare-user", "--ro-bind",
                                   "/usr", "/usr", "--symlink", "usr/lib64", "/lib64", "--symlink",
                                   "usr/lib", "/lib", "/usr/bin/true", nullptr};
  for (auto _ : state) {
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], nullptr, nullptr, const_cast<char**>(argv.data()), environ) != 0) break;
    int status = 0;
    ::waitpid(pid, &status, 0);
  }
}
BENCHMARK(BM_bwrap_true)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  tooluse::tool definition{.name = "echo", .description = "echo", .sandboxed = true};
  for (bool warm : {true, false}) {
    registry(warm).add(definition, echo);
    if (auto bound = tooluse::start_tool_workers(registry(warm), {.warm = warm}); !bound) {
      std::fprintf(stderr, "bench_worker: %s\n", bound.error().message.c_str());
      return 1;
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
