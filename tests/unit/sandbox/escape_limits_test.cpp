// Escape tests, resources: every limit of the policy holds against a real attack, the run says
// which limit stopped it, nothing it started outlives it, and the host's other runs carry on.
// Every attack is finite (see sandbox_test_util.hpp, "the outer fence").
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <future>
#include <poll.h>

#include "sandbox_test_util.hpp"

namespace {
namespace fs = std::filesystem;
namespace sb = tooluse::sandbox;
using tooluse::testing::processes_with_arg;
using tooluse::testing::sandbox_fixture;

TEST_F(sandbox_fixture, limit_fork_bomb) {
  // A bomb that stops by itself at 2^9 processes, each waiting for its children.
  options.timeout = std::chrono::seconds(10);
  auto r = sh("b() { [ $1 -ge 9 ] && { sleep 3; return; }; b $(($1+1)) & b $(($1+1)); wait; }; b 0");
  EXPECT_EQ(r.killed_by, sb::limit::processes) << r.describe() << "\n" << r.err.substr(0, 300);
  EXPECT_NE(r.describe().find("the process limit (32)"), std::string::npos) << r.describe();
}

TEST_F(sandbox_fixture, limit_many_background_processes) {
  auto r = sh("for i in $(seq 100); do sleep 2 & done; wait");
  EXPECT_EQ(r.killed_by, sb::limit::processes) << r.describe() << r.err;
}

TEST_F(sandbox_fixture, limit_memory_hog_python) {
  auto r = py("x = ' ' * (2 * 10**9)");  // 2 GB, the fence stops it at 4 GB
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.killed_by, sb::limit::memory) << r.err;
  EXPECT_NE(r.describe().find("the memory limit (256 MB) was reached"), std::string::npos) << r.describe();
}

TEST_F(sandbox_fixture, limit_memory_hog_growing) {
  auto r = py("a = []\nfor i in range(4096): a.append(bytearray(1 << 20))");  // 4 GB in 1 MB steps
  EXPECT_EQ(r.killed_by, sb::limit::memory) << r.describe() << r.err;
}

TEST_F(sandbox_fixture, limit_cpu_spinner) {
  policy.cpu_seconds = 1;
  auto r = py("while True: pass");
  EXPECT_EQ(r.killed_by, sb::limit::cpu_time) << r.describe();
  EXPECT_NE(r.describe().find("the cpu time limit (1 s)"), std::string::npos) << r.describe();
}

TEST_F(sandbox_fixture, limit_cpu_spinner_ignoring_sigxcpu) {
  policy.cpu_seconds = 1;
  auto r = py("import signal\nsignal.signal(signal.SIGXCPU, signal.SIG_IGN)\nwhile True: pass");
  // The hard limit, a second later, is SIGKILL.
  EXPECT_EQ(r.exit_code, 128 + SIGKILL) << r.describe();
  EXPECT_EQ(r.killed_by, sb::limit::cpu_time) << r.describe();
  EXPECT_LT(r.elapsed, std::chrono::seconds(10));
}

TEST_F(sandbox_fixture, limit_file_size_in_the_work_folder) {
  auto r = sh("head -c 100000000 /dev/zero > big");  // 100 MB, the limit is 16
  EXPECT_EQ(r.killed_by, sb::limit::file_size) << r.describe();
  EXPECT_LE(fs::file_size(work / "big"), 16u << 20);
}

TEST_F(sandbox_fixture, limit_filling_tmp) {
  auto r = sh("head -c 100000000 /dev/zero > /tmp/fill");
  EXPECT_EQ(r.killed_by, sb::limit::tmp_size) << r.describe() << r.err;
  EXPECT_NE(r.describe().find("the /tmp size limit (8 MB)"), std::string::npos);
}

TEST_F(sandbox_fixture, limit_filling_tmp_with_many_files) {
  auto r = sh("i=0; while [ $i -lt 2000 ]; do head -c 100000 /dev/zero > /tmp/f$i || exit 1; i=$((i+1)); done");
  EXPECT_EQ(r.killed_by, sb::limit::tmp_size) << r.describe() << r.err;
}

TEST_F(sandbox_fixture, limit_open_files) {
  auto r = py("fs = [open('/dev/null') for _ in range(10000)]");
  EXPECT_EQ(r.killed_by, sb::limit::open_files) << r.describe() << r.err;
}

TEST_F(sandbox_fixture, limit_huge_output) {
  options.output_kill_bytes = 4 << 20;
  auto r = sh("head -c 100000000 /dev/zero");  // 100 MB
  EXPECT_EQ(r.killed_by, sb::limit::output_size) << r.describe();
  EXPECT_EQ(r.out.size(), options.max_output_bytes);
  EXPECT_NE(r.describe().find("the output size limit"), std::string::npos);
}

TEST_F(sandbox_fixture, limit_daemon_does_not_outlive_the_run) {
  const std::string tag = "4242." + std::to_string(::getpid());
  auto r = sh("(setsid sleep " + tag + " &); (nohup sleep " + tag + "1 >/dev/null 2>&1 &); echo started");
  EXPECT_EQ(r.out, "started\n");
  EXPECT_TRUE(r.ok()) << r.describe();
  // run() returns once the sandbox's pid namespace is gone, so no wait is needed here.
  EXPECT_TRUE(processes_with_arg("sleep " + tag).empty());
}

TEST_F(sandbox_fixture, limit_daemon_holding_the_output_pipe) {
  const std::string tag = "4243." + std::to_string(::getpid());
  auto r = sh("(setsid sleep " + tag + " &); echo started");
  EXPECT_EQ(r.out, "started\n");
  EXPECT_LT(r.elapsed, std::chrono::seconds(5));  // the daemon's copy of stdout does not hold us
  EXPECT_TRUE(processes_with_arg("sleep " + tag).empty());
}

TEST_F(sandbox_fixture, limit_killing_the_parent_kills_the_sandbox) {
  const std::string tag = "4244." + std::to_string(::getpid());
  ASSERT_EQ(::mkfifo((work / "ready").c_str(), 0666), 0);
  const pid_t parent = ::fork();
  if (parent == 0) {
    auto r = sb::run(policy, {.argv = {"/bin/sh", "-c", "(setsid sleep " + tag + " &); echo > ready; sleep " + tag + "1"}, .work_dir = work},
                     options);
    ::_exit(r ? 0 : 1);
  }
  tooluse::testing::read_file(work / "ready");  // blocks until the sandbox is up
  auto pids = processes_with_arg("sleep " + tag);
  ASSERT_FALSE(pids.empty());
  std::vector<int> pidfds;
  for (pid_t p : pids) pidfds.push_back(static_cast<int>(::syscall(SYS_pidfd_open, p, 0)));
  ::kill(parent, SIGKILL);
  ::waitpid(parent, nullptr, 0);
  for (int fd : pidfds) {
    if (fd < 0) continue;  // already gone
    pollfd gone{fd, POLLIN, 0};
    EXPECT_EQ(::poll(&gone, 1, 10000), 1) << "a sandboxed process outlived its parent";
    ::close(fd);
  }
}

TEST_F(sandbox_fixture, limit_the_hosts_other_runs_carry_on) {
  // A memory hog and a process flood run beside a normal call, which answers as usual.
  auto hog = std::async(std::launch::async, [&] { return py("a = []\nwhile True: a.append(bytearray(1 << 20))"); });
  auto flood = std::async(std::launch::async, [&] { return sh("for i in $(seq 200); do sleep 1 & done; wait"); });
  auto normal = sh("echo fine");
  EXPECT_EQ(normal.out, "fine\n");
  EXPECT_TRUE(normal.ok());
  EXPECT_EQ(hog.get().killed_by, sb::limit::memory);
  EXPECT_EQ(flood.get().killed_by, sb::limit::processes);
}

}  // namespace
