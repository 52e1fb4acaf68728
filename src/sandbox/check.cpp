// `tooluse sandbox check`: each part of the sandbox, probed on this machine.
#include "tooluse/sandbox/check.hpp"

#include <linux/landlock.h>
#include <sched.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sandbox/cgroup.hpp"
#include "sandbox/filter.hpp"
#include "sandbox/launcher.hpp"
#include "tooluse/sandbox/sandbox.hpp"

namespace tooluse::sandbox {
namespace {

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

check_item probe_run(const std::string& bwrap) {
  check_item it{.name = "sandboxed run", .required = true};
  // A fresh folder of our own: the shared /tmp is no work folder (it is refused).
  std::error_code ec;
  std::string dir = (std::filesystem::temp_directory_path(ec) / "tooluse-check-XXXXXX").string();
  if (!::mkdtemp(dir.data())) dir = ".";
  auto r = run({}, {.argv = {"/bin/true"}, .work_dir = dir},
               {.timeout = std::chrono::seconds(10), .bwrap_path = bwrap});
  if (dir != ".") ::rmdir(dir.c_str());
  it.ok = r && r->ok();
  it.detail = r ? (it.ok ? "bwrap + seccomp + launcher (Landlock, rlimits) ran /bin/true" : r->describe()) : r.error().message;
  if (!it.ok)
    it.cost = "nothing can run sandboxed: the shell and python tools and sandboxed MCP servers are "
              "refused (enable unprivileged user namespaces: sysctl user.max_user_namespaces, "
              "kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu)";
  return it;
}

// A worker of a sandboxed C++ tool makes its namespaces itself (sandbox::confine): probe that in
// a child that only makes system calls (check() may run in a threaded process).
check_item probe_workers() {
  check_item it{.name = "tool workers", .required = false};
  const pid_t pid = ::fork();
  if (pid == 0) {
    const long rc = ::syscall(SYS_unshare, CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET |
                                               CLONE_NEWIPC | CLONE_NEWUTS);
    ::_exit(rc == 0 ? 0 : 1);
  }
  int st = 0;
  while (pid > 0 && ::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  it.ok = pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
  it.detail = it.ok ? "a process can make its own user, pid, mount and network namespaces"
                    : "unshare(CLONE_NEWUSER | ...) is refused here";
  if (!it.ok)
    it.cost = "sandboxed C++ tools (tool.sandboxed) cannot run: their calls are refused; enable "
              "unprivileged user namespaces";
  return it;
}

}  // namespace

int landlock_abi() noexcept {
#ifdef SYS_landlock_create_ruleset
  long v = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return v > 0 ? static_cast<int>(v) : 0;
#else
  return 0;
#endif
}

check_report check(const std::string& bwrap_path) {
  check_report rep;
  const bool bwrap = ::access(bwrap_path.c_str(), X_OK) == 0;
  rep.items.push_back({.name = "bubblewrap", .ok = bwrap, .required = true,
                       .detail = bwrap ? bwrap_path : bwrap_path + " not found",
                       .cost = bwrap ? "" : "nothing runs sandboxed; apt install bubblewrap"});
  const std::string userns = first_line("/proc/sys/user/max_user_namespaces");
  const bool ns_ok = !userns.empty() && userns != "0";
  rep.items.push_back({.name = "user namespaces", .ok = ns_ok, .required = true,
                       .detail = "user.max_user_namespaces = " + (userns.empty() ? "?" : userns),
                       .cost = ns_ok ? "" : "bubblewrap cannot make the sandbox; sysctl -w user.max_user_namespaces=10000"});
  auto filter = detail::compiled_filter();
  if (filter) ::close(*filter);
  const bool kernel_seccomp = first_line("/proc/sys/kernel/seccomp/actions_avail").find("errno") != std::string::npos ||
                              std::filesystem::exists("/proc/sys/kernel/seccomp");
  rep.items.push_back({.name = "seccomp", .ok = filter.has_value() && kernel_seccomp, .required = true,
                       .detail = filter ? "libseccomp deny list compiled" : filter.error().message,
                       .cost = "ptrace, mount, keyctl, bpf, nested namespaces and TIOCSTI would be "
                               "stopped by namespaces and capabilities only"});
  auto init = detail::init_fd();
  rep.items.push_back({.name = "launcher", .ok = init.has_value(), .required = true,
                       .detail = init ? "the launcher (Landlock, rlimits, egress bridge) is ready in a sealed memfd"
                                      : init.error().message,
                       .cost = init ? "" : "nothing runs sandboxed: the rlimits and Landlock are applied by it; mount /proc and allow memfd_create (vm.memfd_noexec must not be 2)"});
  if (bwrap && ns_ok) rep.items.push_back(probe_run(bwrap_path));
  const int abi = landlock_abi();
  rep.items.push_back({.name = "landlock", .ok = abi > 0, .required = false,
                       .detail = abi > 0 ? "ABI " + std::to_string(abi) + ": an allowlist of paths under the mount view, in every sandbox (shell, python, MCP servers, C++ tool workers)" +
                                             std::string(abi >= 6 ? "; scoped: no abstract Unix socket or signal reaches out of the sandbox" : "; ABI 6 (Linux 6.12) adds the scope on abstract Unix sockets and signals")
                                         : "not in this kernel or disabled (lsm= boot option)",
                       .cost = abi > 0 ? "" : "sandboxes keep their mount view (system read-only, homes and secrets hidden) but lose the second wall: a mistake in the view is not caught by an allowlist; Linux 5.13+ with landlock in lsm="});
  rep.items.push_back(probe_workers());
  const std::string pids = detail::pids_controller_root();
  const bool root = ::geteuid() == 0;
  rep.items.push_back({.name = "pids cgroup", .ok = !pids.empty(), .required = false,
                       .detail = pids.empty() ? "no writable pids controller" : pids,
                       .cost = pids.empty() ? (root ? "running as root, RLIMIT_NPROC does not bind the sandbox (the kernel exempts uid 0): a fork bomb is only stopped by the timeout; run tooluse as a normal user or delegate a cgroup with pids"
                                                    : "none: RLIMIT_NPROC bounds processes for a non-root user")
                                            : ""});
  rep.usable = true;
  for (const auto& it : rep.items)
    if (it.required && !it.ok) rep.usable = false;
  return rep;
}

}  // namespace tooluse::sandbox
