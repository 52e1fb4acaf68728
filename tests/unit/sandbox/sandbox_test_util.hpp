#pragma once
// Shared by the sandbox tests: a fixture that runs real commands in the real sandbox (bubblewrap
// + seccomp + rlimits), with tight limits, and fails under CI=true when bubblewrap does not work.
//
// The outer fence: every attack is finite by construction (a fork bomb that stops at a few
// hundred processes, a memory hog that stops at 2-4 GB, output that stops at 100 MB), runs
// under the run's timeout, and is prefixed with `fence`, ulimits set inside on top of the
// policy's. So when a limit regresses, the test fails and the machine carries on.

#include <dirent.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "support/test_support.hpp"
#include "tooluse/sandbox/check.hpp"
#include "tooluse/sandbox/sandbox.hpp"

namespace tooluse::testing {

/// sandbox_usable probes once per test program.
inline const sandbox::check_report& sandbox_report() {
  static const sandbox::check_report rep = sandbox::check();
  return rep;
}

inline std::string sandbox_missing() {
  std::string why;
  for (const auto& it : sandbox_report().items)
    if (it.required && !it.ok) why += it.name + ": " + it.detail + "; ";
  return "the sandbox does not work here (" + why + ")";
}

/// fence: ulimits a regression cannot get past (4 GB of address space, 30 s of CPU, 512
/// processes for a non-root host), set by dash inside the sandbox before the attack.
inline constexpr const char* fence =
    "ulimit -v 4194304 2>/dev/null; ulimit -t 30 2>/dev/null; ulimit -p 512 2>/dev/null; ";

struct sandbox_fixture : ::testing::Test {
  temp_dir base;
  std::filesystem::path work;
  sandbox::policy policy{.memory_limit_mb = 256, .cpu_seconds = 5, .max_processes = 32,
                         .max_file_size_mb = 16, .max_open_files = 64, .tmp_size_mb = 8};
  sandbox::run_options options{.timeout = std::chrono::seconds(20), .max_output_bytes = 64 * 1024};

  void SetUp() override {
    if (!sandbox_report().usable) TOOLUSE_PEER_MISSING(sandbox_missing());
    work = base.path() / "work";
    std::filesystem::create_directories(work);
  }

  sandbox::outcome run(std::vector<std::string> argv) {
    auto r = sandbox::run(policy, {.argv = std::move(argv), .work_dir = work}, options);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return r ? *r : sandbox::outcome{};
  }
  /// sh runs a dash script behind the fence.
  sandbox::outcome sh(const std::string& script) { return run({"/bin/sh", "-c", fence + script}); }
  /// py runs python3 code behind the fence.
  sandbox::outcome py(const std::string& code) {
    return run({"/bin/sh", "-c", std::string(fence) + "exec python3 -c \"$0\"", code});
  }
};

/// processes_with_arg lists host pids whose command line contains `needle` (a unique argument
/// such as "sleep 4242.17"), for "no process left behind".
inline std::vector<pid_t> processes_with_arg(const std::string& needle) {
  std::vector<pid_t> found;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = read_file(e.path() / "cmdline");
    for (auto& c : cmdline)
      if (c == '\0') c = ' ';
    if (cmdline.find(needle) != std::string::npos && std::stoi(name) != ::getpid())
      found.push_back(std::stoi(name));
  }
  return found;
}

}  // namespace tooluse::testing
