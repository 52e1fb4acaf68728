// The seccomp filter: a deny list on top of bubblewrap's namespaces. Whatever a namespace already
// blocks (mount needs CAP_SYS_ADMIN, which the sandbox has not) is denied here too, so a kernel
// bug in one layer is not enough. libseccomp builds the BPF (architecture checks, syscall numbers);
// the list is ours (design/sandbox.md says why each entry is on it).
#include "sandbox/filter.hpp"

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace tooluse::sandbox::detail {
namespace {

// Refused with EPERM whatever their arguments.
const char* const denied[] = {
    // debugging and reading other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    // file systems and the root
    "mount", "umount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig", "fsmount",
    "fspick", "move_mount", "open_tree", "mount_setattr", "open_by_handle_at",
    "name_to_handle_at", "swapon", "swapoff", "quotactl", "quotactl_fd",
    // namespaces (nested sandboxes are where most user-namespace kernel bugs are reached)
    "unshare", "setns",
    // kernel keyring, BPF, perf, modules, kexec, reboot
    "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "init_module",
    "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot",
    // the rest of a host administrator's calls
    "acct", "syslog", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "sethostname",
    "setdomainname", "iopl", "ioperm", "vhangup", "lookup_dcookie", "nfsservctl", "uselib",
    "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "fanotify_init", "migrate_pages", "move_pages", "ustat", "sysfs",
    "_sysctl", "vm86", "vm86old", "create_module", "get_kernel_syms", "query_module",
    nullptr};

struct ctx_deleter {
  void operator()(scmp_filter_ctx c) const { seccomp_release(c); }
};

int add(scmp_filter_ctx ctx, const char* name, std::uint32_t action, unsigned count = 0,
        const scmp_arg_cmp* args = nullptr) {
  const int nr = seccomp_syscall_resolve_name(name);
  if (nr == __NR_SCMP_ERROR) return 0;  // not on this architecture (e.g. vm86 on x86-64)
  return seccomp_rule_add_array(ctx, action, nr, count, args);
}

using ctx_ptr = std::unique_ptr<void, ctx_deleter>;

result<ctx_ptr> build_filter() {
  ctx_ptr ctx(seccomp_init(SCMP_ACT_ALLOW));
  if (!ctx) return fail(errc::io_error, "seccomp: cannot create a filter");
  const std::uint32_t eperm = SCMP_ACT_ERRNO(EPERM);
  int rc = 0;
  for (const char* const* n = denied; *n && rc == 0; ++n) rc = add(ctx.get(), *n, eperm);
  // clone with a namespace flag makes a nested namespace; clone3 passes its flags in memory a
  // filter cannot read, so it is refused with ENOSYS, and libc falls back to clone.
  for (unsigned long flag : {CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWUTS,
                             CLONE_NEWIPC, CLONE_NEWCGROUP}) {
    if (rc != 0) break;
    // The fields SCMP_A0 would set, spelled out: the macro is a C compound literal.
    scmp_arg_cmp cmp{.arg = 0, .op = SCMP_CMP_MASKED_EQ, .datum_a = flag, .datum_b = flag};
    rc = add(ctx.get(), "clone", eperm, 1, &cmp);
  }
  if (rc == 0) rc = add(ctx.get(), "clone3", SCMP_ACT_ERRNO(ENOSYS));
  // Terminal injection: TIOCSTI pushes input into the terminal (--new-session already detaches
  // the sandbox from it), TIOCLINUX reaches the console. The request is compared on its low 32
  // bits, as the kernel reads it.
  for (unsigned long req : {static_cast<unsigned long>(TIOCSTI), static_cast<unsigned long>(TIOCLINUX)}) {
    if (rc != 0) break;
    scmp_arg_cmp cmp{.arg = 1, .op = SCMP_CMP_MASKED_EQ, .datum_a = 0xffffffffUL, .datum_b = req};
    rc = add(ctx.get(), "ioctl", eperm, 1, &cmp);
  }
  if (rc != 0)
    return fail(errc::io_error, std::string("seccomp: cannot add a rule: ") + std::strerror(-rc));
  return ctx;
}

}  // namespace

const char* const* denied_syscalls() { return denied; }

namespace {
// The filter as a BPF program, compiled once per process (prepare_confine calls it in the
// zygote before it forks workers, so each worker only loads it).
const result<std::vector<sock_filter>>& filter_program() {
  static const result<std::vector<sock_filter>> program = []() -> result<std::vector<sock_filter>> {
    auto fd = compiled_filter();
    if (!fd) return fail(fd.error());
    std::string bytes;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(*fd, buf, sizeof buf)) > 0) bytes.append(buf, static_cast<std::size_t>(n));
    ::close(*fd);
    if (n < 0 || bytes.empty() || bytes.size() % sizeof(sock_filter) != 0)
      return fail(errc::io_error, "seccomp: cannot read the compiled filter back");
    std::vector<sock_filter> out(bytes.size() / sizeof(sock_filter));
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }();
  return program;
}
}  // namespace

status prepare_filter() {
  if (const auto& p = filter_program(); !p) return fail(p.error());
  return {};
}

status load_filter() {
  const auto& program = filter_program();
  if (!program) return fail(program.error());
  // The kernel requires no_new_privs to install a filter without CAP_SYS_ADMIN.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return fail(errc::io_error, std::string("seccomp: no_new_privs: ") + std::strerror(errno));
  sock_fprog prog{static_cast<unsigned short>(program->size()),
                  const_cast<sock_filter*>(program->data())};
  if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
    return fail(errc::io_error, std::string("seccomp: cannot load the filter: ") + std::strerror(errno));
  return {};
}

result<int> compiled_filter() {
  auto built = build_filter();
  if (!built) return fail(built.error());
  ctx_ptr ctx = std::move(*built);
  int rc = 0;
  // Only the native architecture: a 32-bit system call (int 0x80 on x86-64) kills the process,
  // so the deny list cannot be bypassed through another syscall table (libseccomp's default
  // bad-architecture action).
  const int fd = ::memfd_create("tooluse-seccomp", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return fail(errc::io_error, std::string("memfd_create: ") + std::strerror(errno));
  rc = seccomp_export_bpf(ctx.get(), fd);
  if (rc != 0 || ::lseek(fd, 0, SEEK_SET) != 0) {
    ::close(fd);
    return fail(errc::io_error, std::string("seccomp: cannot export the filter: ") + std::strerror(-rc));
  }
  ::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
  return fd;
}

}  // namespace tooluse::sandbox::detail
