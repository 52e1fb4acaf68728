// Landlock inside bubblewrap: the launcher that bubblewrap runs before the command applies an
// allowlist of the same paths as the mount view, so a path that is in the view by mistake stays
// unreadable, and (ABI 6+) nothing outside the sandbox is signalled. Each case spawns the real
// bubblewrap command line of sandbox::prepare, with one change the test makes on purpose.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "sandbox_test_util.hpp"
#include "tooluse/sandbox/check.hpp"

namespace landlock_run_test {
namespace {
namespace sb = tooluse::sandbox;
using tooluse::testing::sandbox_fixture;

// spawn runs a prepared command line as stdio_process does (filter as 3, launcher as 5) and
// returns what it wrote to stdout and stderr, and its exit status.
struct spawned {
  std::string out;
  int status = -1;
};

spawned spawn(const sb::prepared& p) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int sec = ::fcntl(p.seccomp_fd, F_DUPFD, 10), init = ::fcntl(p.init_fd, F_DUPFD, 10);
    ::dup2(pipe_fds[1], 1);
    ::dup2(pipe_fds[1], 2);
    ::dup2(sec, 3);
    ::dup2(init, 5);
    ::close(0);
    ::close(4);
    for (int fd = 6; fd < 1024; ++fd) ::close(fd);
    std::vector<char*> argv;
    for (const auto& a : p.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    char* envp[] = {nullptr};
    ::execve(argv[0], argv.data(), envp);
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  spawned s;
  char buf[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) > 0;) s.out.append(buf, static_cast<std::size_t>(n));
  ::close(pipe_fds[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  s.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return s;
}

// with_extra_bind adds `--ro-bind host inside` to bubblewrap's options (before the launcher) and,
// when `listed`, the same path to the launcher's read allowlist: the view then shows a path that
// the policy did not give.
void with_extra_bind(sb::prepared& p, const std::string& host, const std::string& inside, bool listed) {
  // The launcher inside (argv may start with it too, joining a pids cgroup before bubblewrap).
  auto launcher = std::find(p.argv.begin() + 1, p.argv.end(), "/proc/self/fd/5");
  ASSERT_NE(launcher, p.argv.end());
  ASSERT_EQ(*(launcher - 1), "--");
  ASSERT_EQ(*(launcher + 1), "--list");
  if (listed) p.argv.insert(launcher + 1, {"--ro", inside});
  // Among the mounts, before the root is made read-only.
  auto proc = std::find(p.argv.begin(), p.argv.end(), "--proc");
  ASSERT_NE(proc, p.argv.end());
  p.argv.insert(proc + 2, {"--ro-bind", host, inside});
}

TEST_F(sandbox_fixture, landlock_refuses_a_path_the_view_shows_by_mistake) {
  const int abi = sb::landlock_abi();
  std::ofstream(base.path() / "secret.txt") << "host secret";
  auto probe = [&](bool listed) {
    auto p = sb::prepare(policy, {.argv = {"/bin/sh", "-c", "cat /srv/leak/secret.txt; ls /srv/leak"}, .work_dir = work},
                         {.die_with_parent = false});
    EXPECT_TRUE(p) << p.error().message;
    if (!p) return spawned{};
    with_extra_bind(*p, base.path().string(), "/srv/leak", listed);
    return spawn(*p);
  };
  const auto control = probe(true);  // listed: the view and Landlock agree, the file is read
  EXPECT_NE(control.out.find("host secret"), std::string::npos) << control.out;
  const auto refused = probe(false);
  if (abi == 0) GTEST_SKIP() << "no Landlock in this kernel: the view alone holds";
  EXPECT_EQ(refused.out.find("host secret"), std::string::npos) << refused.out;
  EXPECT_NE(refused.out.find("Permission denied"), std::string::npos) << refused.out;
  EXPECT_NE(refused.out.find("secret.txt"), std::string::npos) << refused.out;  // listing stays
  EXPECT_EQ(tooluse::testing::read_file(base.path() / "secret.txt"), "host secret");
}

TEST_F(sandbox_fixture, landlock_keeps_the_work_folder_tmp_and_dev_usable) {
  auto r = sh("echo a > f && cat f && echo b > /tmp/t && cat /tmp/t && echo c >/dev/null && "
              "echo d > /dev/stderr && head -c 4 /dev/urandom | wc -c && python3 -c 'print(1+1)' && "
              "mkdir d && ln -s f d/l && mv d e && rm -r e f && echo done");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "a\nb\n4\n2\ndone\n") << r.err;
  EXPECT_EQ(r.err, "d\n");
}

TEST_F(sandbox_fixture, landlock_scope_refuses_signals_out_of_the_sandbox) {
  // Pid 1 of the sandbox is bubblewrap's, outside the Landlock domain: the scope (ABI 6+) refuses
  // even a probe signal to it. Without the scope the same uid could signal it.
  if (sb::landlock_abi() < 6) GTEST_SKIP() << "Landlock ABI " << sb::landlock_abi() << " has no scopes";
  auto r = sh("kill -0 1 2>&1 && echo reached; sleep 0.2 & kill -0 $! && echo own");
  EXPECT_EQ(r.out.find("reached"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Operation not permitted"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("own"), std::string::npos) << r.out;  // its own children still are
}

TEST_F(sandbox_fixture, launcher_closes_every_descriptor_beyond_stdio) {
  auto r = sh("ls /proc/self/fd");
  EXPECT_EQ(r.out, "0\n1\n2\n3\n") << r.out;  // 3 is ls's own listing of the folder
}

TEST_F(sandbox_fixture, launcher_errors_name_themselves_and_are_not_a_command_result) {
  auto r = sb::run(policy, {.argv = {"no-such-program-xyz"}, .work_dir = work}, options);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->exit_code, 127);
  EXPECT_NE(r->err.find("tooluse sandbox init: cannot run no-such-program-xyz: No such file"),
            std::string::npos)
      << r->err;
}

}  // namespace
}  // namespace landlock_run_test
