// sandbox::run and sandbox::prepare: what a command sees and gets back, in the real sandbox.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <thread>

#include "sandbox_test_util.hpp"

namespace {
namespace fs = std::filesystem;
namespace sb = tooluse::sandbox;
using tooluse::testing::sandbox_fixture;

TEST_F(sandbox_fixture, runs_in_the_work_folder_as_an_unprivileged_user) {
  auto r = sh("pwd; id -u; echo \"$HOME\"; echo oops >&2; exit 3");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, work.string() + "\n1000\n" + work.string() + "\n");
  EXPECT_EQ(r.err, "oops\n");
  EXPECT_EQ(r.killed_by, sb::limit::none);
  EXPECT_EQ(r.describe(), "exit code 3");
}

TEST_F(sandbox_fixture, a_relative_work_folder_is_resolved) {
  const auto here = fs::current_path();
  fs::current_path(base.path());
  auto r = sb::run(policy, {.argv = {"/bin/sh", "-c", "pwd; echo made > f"}, .work_dir = "work"});
  fs::current_path(here);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->out, work.string() + "\n");
  EXPECT_EQ(tooluse::testing::read_file(work / "f"), "made\n");
  auto dot = sb::run(policy, {.argv = {"/bin/true"}, .work_dir = "."});
  ASSERT_TRUE(dot) << dot.error().message;
  EXPECT_TRUE(dot->ok());
}

TEST_F(sandbox_fixture, the_environment_is_only_the_allowlist) {
  policy.env = {"GREETING=hi"};
  auto r = run({"/usr/bin/env"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* name : {"PATH=", "LANG=C.UTF-8", "GREETING=hi", "HOME=", "TMPDIR=/tmp", "PWD="})
    EXPECT_NE(r.out.find(name), std::string::npos) << r.out;
  int lines = 0;
  for (char c : r.out) lines += c == '\n';
  EXPECT_EQ(lines, 6) << r.out;  // those six and nothing else
}

TEST_F(sandbox_fixture, output_is_capped_per_stream_and_counted) {
  options.max_output_bytes = 1000;
  auto r = sh("head -c 50000 /dev/zero | tr '\\0' a");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.size(), 1000u);
  EXPECT_EQ(r.dropped, 49000u);
  EXPECT_EQ(r.killed_by, sb::limit::none);
}

TEST_F(sandbox_fixture, the_timeout_kills_and_is_named) {
  options.timeout = std::chrono::milliseconds(300);
  auto r = sh("sleep 60");
  EXPECT_EQ(r.killed_by, sb::limit::timeout);
  EXPECT_NE(r.describe().find("the timeout (300 ms) was reached"), std::string::npos) << r.describe();
  EXPECT_LT(r.elapsed, std::chrono::seconds(10));
}

TEST_F(sandbox_fixture, a_stop_request_kills_the_run) {
  std::stop_source stop;
  options.stop = stop.get_token();
  // The command tells us it started through a FIFO, so the stop lands while it runs.
  ASSERT_EQ(::mkfifo((work / "started").c_str(), 0666), 0);
  std::jthread stopper([&] {
    tooluse::testing::read_file(work / "started");  // blocks until the command opens it
    stop.request_stop();
  });
  auto r = sh("echo go > started; sleep 60");
  // Had the command failed before opening the FIFO, release the reader before joining.
  int fd = ::open((work / "started").c_str(), O_WRONLY | O_NONBLOCK);
  if (fd >= 0) ::close(fd);
  EXPECT_EQ(r.killed_by, sb::limit::cancelled);
}

TEST_F(sandbox_fixture, a_missing_bubblewrap_is_an_error_that_says_what_to_install) {
  options.bwrap_path = "/nonexistent/bwrap";
  auto r = sb::run(policy, {.argv = {"/bin/true"}, .work_dir = work}, options);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, tooluse::errc::permission_denied);
  EXPECT_NE(r.error().message.find("apt install bubblewrap"), std::string::npos);
  auto missing = sb::run(policy, {.argv = {"/bin/true"}, .work_dir = base.path() / "nope"});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, tooluse::errc::invalid_argument);
  for (const char* system : {"/", "/usr", "/etc/../"}) {
    auto r = sb::run(policy, {.argv = {"/bin/true"}, .work_dir = system});
    ASSERT_FALSE(r) << system;
    EXPECT_NE(r.error().message.find("would give the sandbox a system folder"), std::string::npos);
  }
}

TEST_F(sandbox_fixture, prepare_gives_a_command_line_with_the_filter_descriptor) {
  auto p = sb::prepare(policy, {.argv = {"python3", "-V"}, .work_dir = work},
                       {.die_with_parent = false});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_GE(p->seccomp_fd, 0);
  // bubblewrap, or first the launcher that joins a pids cgroup (when one can be made: as root).
  if (p->resources) {
    EXPECT_EQ(p->argv.front(), "/proc/self/fd/5");
    EXPECT_EQ(p->argv.at(1), "--outer");
    EXPECT_EQ(p->argv.at(5), "/usr/bin/bwrap");
  } else {
    EXPECT_EQ(p->argv.front(), "/usr/bin/bwrap");
  }
  EXPECT_EQ(p->argv.back(), "-V");
  auto has = [&](const std::string& a) {
    return std::find(p->argv.begin(), p->argv.end(), a) != p->argv.end();
  };
  EXPECT_TRUE(has("--unshare-all"));
  EXPECT_TRUE(has("--disable-userns"));
  EXPECT_TRUE(has("--new-session"));
  const std::string bytes = std::to_string(256u << 20);
  EXPECT_TRUE(has("as=" + bytes + ":" + bytes));  // set by the launcher, run as descriptor 5
  EXPECT_TRUE(has("/proc/self/fd/5"));
  EXPECT_GE(p->init_fd, 64);
  EXPECT_FALSE(has("--die-with-parent"));
  EXPECT_FALSE(has("--share-net"));
}

TEST_F(sandbox_fixture, python_runs_inside) {
  auto r = py("import sys; print(sys.version_info[0])");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "3\n");
}

TEST(sandbox_check, reports_every_part) {
  auto rep = tooluse::sandbox::check();
  std::vector<std::string> names;
  for (const auto& it : rep.items) names.push_back(it.name);
  for (const char* n : {"bubblewrap", "user namespaces", "seccomp", "launcher", "landlock", "pids cgroup"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  for (const auto& it : rep.items)
    if (!it.ok) {
      EXPECT_FALSE(it.cost.empty()) << it.name;
    }
  if (!rep.usable) TOOLUSE_PEER_MISSING(tooluse::testing::sandbox_missing());
}

}  // namespace
