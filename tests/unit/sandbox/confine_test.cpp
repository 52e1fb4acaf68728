// sandbox::confine, the sandbox a worker builds around itself: each test forks a child (the
// test process is single-threaded), confines it and tries something; the child's exit status
// says what happened. The fence: every child is finite (no loops, allocations stop at 2 GB).
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <vector>

#include "support/test_support.hpp"
#include "tooluse/sandbox/check.hpp"
#include "tooluse/sandbox/confine.hpp"

namespace tooluse::testing {
namespace {

constexpr int not_confined = 100;

sandbox::policy tight() {
  return {.memory_limit_mb = 64, .cpu_seconds = 2, .max_processes = 8, .max_open_files = 64,
          .tmp_size_mb = 4};
}

// in_child runs `body` in a confined child and returns its exit status (128 + N for signal N).
int in_child(const sandbox::policy& p, const std::function<int(const sandbox::confinement&)>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    auto c = sandbox::confine(p);
    ::_exit(c ? body(*c) : not_confined);
  }
  int st = 0;
  ::waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

struct confine_fixture : ::testing::Test {
  void SetUp() override {
    sandbox::prepare_confine();
    if (in_child(tight(), [](const sandbox::confinement&) { return 0; }) == not_confined)
      TOOLUSE_PEER_MISSING("sandbox::confine cannot make namespaces here (unprivileged user "
                           "namespaces are off)");
  }
};

TEST_F(confine_fixture, landlock_is_applied_where_the_kernel_has_it) {
  const int abi = sandbox::landlock_abi();
  EXPECT_EQ(in_child(tight(), [abi](const sandbox::confinement& c) { return c.landlock_abi == abi ? 0 : 1; }), 0);
  // The source tree is visible through the mount view; only Landlock refuses it.
  const std::string readme = std::string(TOOLUSE_SOURCE_DIR) + "/README.md";
  const int st = in_child(tight(), [&](const sandbox::confinement&) {
    const int fd = ::open(readme.c_str(), O_RDONLY);
    return fd >= 0 ? 0 : errno == EACCES ? 1 : 2;
  });
  // 2 (ENOENT): the tree lies where the mount view puts a tmpfs or hides it (/tmp, /home,
  // /root, /run, /var), so there is nothing for Landlock to refuse; check out elsewhere.
  EXPECT_EQ(st, abi > 0 ? 1 : 0) << readme << " must be visible in the mount view (status 2: "
                                 << "missing inside the sandbox; build from a tree outside /tmp, "
                                 << "/home, /root, /run and /var)";
  const int usr = in_child(tight(), [](const sandbox::confinement&) {
    return ::open("/usr/include/stdio.h", O_RDONLY) >= 0 ? 0 : 1;
  });
  EXPECT_EQ(usr, 0);
}

TEST_F(confine_fixture, runs_as_uid_1000_without_capabilities) {
  EXPECT_EQ(in_child(tight(), [](const sandbox::confinement&) {
              __user_cap_header_struct h{_LINUX_CAPABILITY_VERSION_3, 0};
              __user_cap_data_struct d[2] = {};
              ::syscall(SYS_capget, &h, d);
              return ::getuid() == 1000 && d[0].effective == 0 && d[0].permitted == 0 ? 0 : 1;
            }),
            0);
}

TEST_F(confine_fixture, refuses_nested_namespaces_ptrace_and_mount) {
  EXPECT_EQ(in_child(tight(), [](const sandbox::confinement&) {
              if (::unshare(CLONE_NEWUSER) == 0) return 1;
              if (::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) == 0) return 2;
              if (::syscall(SYS_mount, "none", "/tmp", "tmpfs", 0, nullptr) == 0) return 3;
              if (::syscall(SYS_keyctl, 0, 0, 0, 0, 0) != -1 || errno != EPERM) return 4;
              return 0;
            }),
            0);
}

TEST_F(confine_fixture, sees_no_host_process_and_cannot_signal_one) {
  const pid_t host = ::getpid();
  EXPECT_EQ(in_child(tight(), [host](const sandbox::confinement& c) {
              if (::getppid() != 1) return 1;  // its parent is the namespace's init
              int pids = 0;
              for (const auto& e : std::filesystem::directory_iterator("/proc"))
                pids += e.path().filename().string().find_first_not_of("0123456789") == std::string::npos;
              if (c.fresh_proc && pids > 2) return 2;
              return ::kill(host, 0) == 0 && host != 1 && host != 2 ? 3 : 0;
            }),
            0);
}

TEST_F(confine_fixture, the_system_is_read_only_and_homes_are_hidden) {
  EXPECT_EQ(in_child(tight(), [](const sandbox::confinement&) {
              if (::open("/etc/tooluse-escape", O_CREAT | O_WRONLY, 0644) >= 0) return 1;
              if (::open("/usr/tooluse-escape", O_CREAT | O_WRONLY, 0644) >= 0) return 2;
              if (::open("/etc/shadow", O_RDONLY) >= 0 && ::lseek(::open("/etc/shadow", O_RDONLY), 0, SEEK_END) > 0) return 3;
              std::error_code ec;
              if (std::filesystem::directory_iterator("/root", ec) != std::filesystem::directory_iterator()) return 4;
              if (::open("/tmp/scratch", O_CREAT | O_WRONLY, 0644) < 0) return 5;  // private /tmp
              return 0;
            }),
            0);
  EXPECT_FALSE(std::filesystem::exists("/tmp/scratch"));
}

TEST_F(confine_fixture, memory_is_limited_above_what_the_copy_already_maps) {
  EXPECT_EQ(in_child(tight(), [](const sandbox::confinement&) {
              // mmap, not malloc: a sanitizer's malloc aborts instead of returning null.
              int got = 0;
              for (; got < 128; ++got) {  // 2 GB at most
                void* p = ::mmap(nullptr, 16 << 20, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (p == MAP_FAILED) break;
              }
              return got < 8 ? 0 : 1;  // 64 MB: at most 4 blocks of 16 MB
            }),
            0);
}

TEST(sandbox_check, reports_landlock_applied_and_tool_workers) {
  auto rep = sandbox::check();
  const sandbox::check_item* landlock = nullptr;
  const sandbox::check_item* workers = nullptr;
  for (const auto& it : rep.items) {
    if (it.name == "landlock") landlock = &it;
    if (it.name == "tool workers") workers = &it;
  }
  ASSERT_NE(landlock, nullptr);
  ASSERT_NE(workers, nullptr);
  if (sandbox::landlock_abi() > 0) {
    EXPECT_NE(landlock->detail.find("in every sandbox (shell, python, MCP servers, C++ tool workers)"), std::string::npos);
  }
  if (!workers->ok) TOOLUSE_PEER_MISSING(workers->detail);
}

}  // namespace
}  // namespace tooluse::testing
