// The cost of a sandboxed call: sandbox::run of /bin/true (a fresh sandbox: bubblewrap,
// seccomp, the launcher (Landlock, rlimits), the pids cgroup, waiting for the pid namespace to
// go), beside `bwrap true` with the fewest options and a plain fork/exec of /bin/true, on the
// same machine. Links the sandbox module only (bench/CMakeLists.txt).
// Run: build/bench/bench_sandbox --benchmark_repetitions=5 (p50 = the median row).
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tooluse/sandbox/sandbox.hpp"

extern char** environ;

namespace {

void spawn_and_wait(std::vector<const char*> argv) {
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, const_cast<char**>(argv.data()), environ) != 0) return;
  int status = 0;
  ::waitpid(pid, &status, 0);
}

void BM_exec_true(benchmark::State& state) {
  for (auto _ : state) spawn_and_wait({"/bin/true"});
}
BENCHMARK(BM_exec_true)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_bwrap_true(benchmark::State& state) {
  for (auto _ : state)
    spawn_and_wait({"/usr/bin/bwrap", "--unshare-all", "--unshare-user", "--ro-bind", "/usr", "/usr",
                    "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/lib", "/lib", "/usr/bin/true"});
}
BENCHMARK(BM_bwrap_true)->Unit(benchmark::kMillisecond)->UseRealTime();

std::string scratch() {
  std::string dir = (std::filesystem::temp_directory_path() / "tooluse-bench-XXXXXX").string();
  return ::mkdtemp(dir.data()) ? dir : ".";
}

void BM_sandbox_run_true(benchmark::State& state) {
  const auto work = scratch();
  tooluse::sandbox::policy policy;
  for (auto _ : state) {
    auto r = tooluse::sandbox::run(policy, {.argv = {"/bin/true"}, .work_dir = work});
    if (!r || !r->ok()) state.SkipWithError(r ? r->describe().c_str() : r.error().message.c_str());
  }
}
BENCHMARK(BM_sandbox_run_true)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_sandbox_run_python(benchmark::State& state) {
  const auto work = scratch();
  tooluse::sandbox::policy policy;
  for (auto _ : state) {
    auto r = tooluse::sandbox::run(policy, {.argv = {"python3", "-I", "-c", "pass"}, .work_dir = work});
    if (!r || !r->ok()) state.SkipWithError("python failed");
  }
}
BENCHMARK(BM_sandbox_run_python)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_python_unsandboxed(benchmark::State& state) {
  for (auto _ : state) spawn_and_wait({"/usr/bin/python3", "-I", "-c", "pass"});
}
BENCHMARK(BM_python_unsandboxed)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
