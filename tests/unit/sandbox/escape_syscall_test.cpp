// Escape tests, system calls: the seccomp deny list refuses what a sandbox never needs and
// kernel exploits often start from (ptrace, mount, nested namespaces, keyrings, BPF, perf,
// modules, io_uring, terminal injection). Each call is made for real and must fail with EPERM
// from the filter (ENOSYS for clone3, which libc then replaces by clone).
#include <gtest/gtest.h>

#include <sstream>

#include "sandbox_test_util.hpp"

namespace {
namespace sb = tooluse::sandbox;
using tooluse::testing::sandbox_fixture;

#if defined(__x86_64__)
// name, then the x86-64 syscall number and arguments.
const char* const probe = R"(
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
calls = {
  'ptrace_attach': (101, 16, 1, 0, 0),
  'ptrace_traceme': (101, 0, 0, 0, 0),
  'process_vm_readv': (310, 1, 0, 0, 0, 0, 0),
  'mount': (165, b'none', b'/tmp', b'tmpfs', 0, 0),
  'umount2': (166, b'/proc', 2),
  'pivot_root': (155, b'/tmp', b'/tmp'),
  'chroot': (161, b'/tmp'),
  'unshare_user': (272, 0x10000000),
  'unshare_net': (272, 0x40000000),
  'unshare_mount': (272, 0x00020000),
  'setns': (308, 0, 0),
  'clone_newuser': (56, 0x10000000 | 17, 0, 0, 0, 0),
  'clone3': (435, 0, 0),
  'keyctl': (250, 0, -3, 0),
  'add_key': (248, b'user', b'k', b'v', 1, -4),
  'request_key': (249, b'user', b'k', 0, -4),
  'bpf': (321, 5, 0, 0),
  'perf_event_open': (298, 0, 0, -1, -1, 0),
  'init_module': (175, 0, 0, b''),
  'finit_module': (313, 0, b'', 0),
  'delete_module': (176, b'ext4', 0),
  'kexec_load': (246, 0, 0, 0, 0),
  'swapon': (167, b'/tmp/x', 0),
  'io_uring_setup': (425, 1, 0),
  'userfaultfd': (323, 0),
  'open_by_handle_at': (304, 0, 0, 0),
  'reboot': (169, 0, 0, 0, 0),
}
for name, args in calls.items():
  r = libc.syscall(*args)
  print(name, r, ctypes.get_errno())
)";

TEST_F(sandbox_fixture, escape_syscalls_are_refused_by_the_filter) {
  auto r = py(probe);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  int count = 0;
  for (std::string name, ret, err; lines >> name >> ret >> err; ++count) {
    EXPECT_EQ(ret, "-1") << name;
    EXPECT_EQ(err, name == "clone3" ? "38" : "1") << name << " (errno " << err << ")";
  }
  EXPECT_EQ(count, 27) << r.out;
}
#endif

TEST_F(sandbox_fixture, escape_nested_namespaces_with_the_tools) {
  auto r = sh("unshare -U true 2>&1 || echo refused; unshare -rn true 2>&1 || echo refused; "
              "bwrap --ro-bind / / true 2>&1 || echo refused");
  EXPECT_EQ(r.out.find("Operation not permitted\nrefused\n"), r.out.find("Operation not permitted")) << r.out;
  int refused = 0;
  for (auto at = r.out.find("refused\n"); at != std::string::npos; at = r.out.find("refused\n", at + 1)) ++refused;
  EXPECT_EQ(refused, 3) << r.out;
}

TEST_F(sandbox_fixture, escape_terminal_injection) {
  // A pty of its own, so the ioctl would work without the filter; and no host terminal.
  auto r = py("import os, fcntl, termios\n"
              "m, s = os.openpty()\n"
              "for req in (termios.TIOCSTI,):\n"
              "  try:\n"
              "    fcntl.ioctl(s, req, b'x'); print('injected')\n"
              "  except OSError as e: print('refused', e.errno)\n"
              "try:\n"
              "  open('/dev/tty'); print('tty')\n"
              "except OSError as e: print('no tty', e.errno)\n"
              "print('session leader', os.getsid(0) == os.getpgid(0))");
  EXPECT_NE(r.out.find("refused 1"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(r.out.find("injected"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no tty"), std::string::npos) << r.out;
}

TEST_F(sandbox_fixture, escape_ptrace_with_tools) {
  // What gdb or strace would do to a sibling process.
  auto r = sh("sleep 30 & p=$!; "
              "python3 -c \"import ctypes; l=ctypes.CDLL(None, use_errno=True); "
              "print(l.ptrace(16, $p, 0, 0), ctypes.get_errno())\"; kill $p");
  EXPECT_NE(r.out.find("-1 1"), std::string::npos) << r.out;
}

TEST_F(sandbox_fixture, escape_signals_do_not_reach_the_host) {
  // kill(-1) reaches every process the sender may signal: inside a pid namespace, only its own.
  auto r = sh("kill -9 -1; kill -9 " + std::to_string(::getpid()) + " 2>&1; "
              "python3 -c 'import os; os.kill(-1, 9)'; echo alive");
  EXPECT_EQ(::kill(::getpid(), 0), 0);  // we are still here
}

TEST_F(sandbox_fixture, escape_no_descriptor_of_ours_is_inherited) {
  // Only stdin (/dev/null), stdout and stderr: not bubblewrap's status pipe, not the filter.
  auto r = run({"/usr/bin/python3", "-c", "import os; print(sorted(os.listdir('/proc/self/fd')))"});
  EXPECT_EQ(r.out, "['0', '1', '2', '3']\n") << r.out;  // 3 is listdir's own handle
}

}  // namespace
