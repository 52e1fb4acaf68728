// tooluse-sandbox-init: the last step between bubblewrap and a sandboxed command
// (design/sandbox.md, "The launcher"). bubblewrap makes the namespaces, the view and loads the
// seccomp filter, then runs this program, which
//   1. opens the TCP side of the egress bridge (--bridge PORT:SOCKET) in the sandbox's own
//      network namespace,
//   2. applies Landlock (--ro/--rw/--dev/--list PATH, at the kernel's own ABI, probed with a raw
//      system call: Debian 12's header stops at ABI 2), scoped so that no abstract Unix socket
//      or process outside the sandbox is reached (ABI 6 and later),
//   3. starts the bridge (a process of its own, reparented to the sandbox's pid 1),
//   4. sets the rlimits (--limit NAME=SOFT[:HARD]),
//   5. closes every descriptor beyond stdio and exec's the command (looked up on PATH).
// With --outer it runs before bubblewrap instead, for a process that tooluse keeps (a stdio MCP
// server, spawned without a hook between fork and exec): it moves itself into the pids cgroup
// (--join CGROUP_PROCS_FILE) and exec's bubblewrap, keeping its descriptors.
// Landlock cannot be applied before bubblewrap (a Landlock-restricted process may not mount),
// and bubblewrap has no option for it, hence this step. It is built without the sanitizers and
// linked into the sandbox library as bytes, run from a sealed memfd (no file to install or find).
// It uses the C library only. Errors go to stderr prefixed "tooluse sandbox init: ", exit 126
// (127: the command was not found).
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

[[noreturn]] void die(int code, const char* what, const char* arg) {
  dprintf(2, "tooluse sandbox init: %s%s%s: %s\n", what, arg ? " " : "", arg ? arg : "",
          strerror(errno));
  _exit(code);
}

// ---- Landlock, our own copies of the kernel's structures ----
struct ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};
struct path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));
constexpr int rule_path_beneath = 1;
constexpr uint64_t execute = 1ULL << 0, write_file = 1ULL << 1, read_file = 1ULL << 2,
                   read_dir = 1ULL << 3, refer = 1ULL << 13, truncate_file = 1ULL << 14,
                   ioctl_dev = 1ULL << 15;
constexpr uint64_t abi1_all = (1ULL << 13) - 1;
constexpr uint64_t file_rights = execute | write_file | read_file | truncate_file | ioctl_dev;
constexpr uint64_t scope_abstract_unix = 1ULL << 0, scope_signal = 1ULL << 1;

int landlock_abi() {
  const long v = syscall(SYS_landlock_create_ruleset, nullptr, 0, 1U /* VERSION */);
  return v > 0 ? static_cast<int>(v) : 0;
}

uint64_t handled_fs(int abi) {
  uint64_t h = abi1_all;
  if (abi >= 2) h |= refer;
  if (abi >= 3) h |= truncate_file;
  if (abi >= 5) h |= ioctl_dev;
  return h;
}

struct rule {
  const char* path;
  uint64_t rights;
};

void apply_landlock(const rule* rules, int n) {
  const int abi = landlock_abi();
  if (abi <= 0) return;  // no Landlock in this kernel: the mount view alone (sandbox check says so)
  const uint64_t handled = handled_fs(abi);
  ruleset_attr attr{handled, 0, 0};
  size_t size = sizeof attr.handled_access_fs;
  if (abi >= 6) {
    attr.scoped = scope_abstract_unix | scope_signal;
    size = sizeof attr;
  }
  const int rs = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, size, 0U));
  if (rs < 0) die(126, "landlock: create_ruleset", nullptr);
  for (int i = 0; i < n; ++i) {
    const int fd = open(rules[i].path, O_PATH | O_CLOEXEC);
    if (fd < 0) continue;  // not in this view
    struct stat st {};
    fstat(fd, &st);
    uint64_t allowed = rules[i].rights & handled;
    if (!S_ISDIR(st.st_mode)) allowed &= file_rights;
    path_beneath_attr pb{allowed, fd};
    if (allowed && syscall(SYS_landlock_add_rule, rs, rule_path_beneath, &pb, 0U) != 0)
      die(126, "landlock: add_rule", rules[i].path);
    close(fd);
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die(126, "no_new_privs", nullptr);
  if (syscall(SYS_landlock_restrict_self, rs, 0U) != 0) die(126, "landlock: restrict_self", nullptr);
  close(rs);
}

// ---- rlimits ----
struct named_limit {
  const char* name;
  int resource;
};
constexpr named_limit limit_names[] = {{"as", RLIMIT_AS},       {"data", RLIMIT_DATA},
                                       {"cpu", RLIMIT_CPU},     {"nproc", RLIMIT_NPROC},
                                       {"fsize", RLIMIT_FSIZE}, {"nofile", RLIMIT_NOFILE},
                                       {"core", RLIMIT_CORE}};

void set_limit(const char* spec) {
  const char* eq = strchr(spec, '=');
  if (!eq) die(126, "bad --limit", spec);
  for (const auto& l : limit_names) {
    if (strlen(l.name) != static_cast<size_t>(eq - spec) || strncmp(l.name, spec, eq - spec) != 0)
      continue;
    char* end = nullptr;
    rlimit r{};
    r.rlim_cur = strtoull(eq + 1, &end, 10);
    r.rlim_max = *end == ':' ? strtoull(end + 1, nullptr, 10) : r.rlim_cur;
    if (setrlimit(l.resource, &r) != 0) die(126, "setrlimit", spec);
    return;
  }
  errno = EINVAL;
  die(126, "unknown limit", spec);
}

// ---- the egress bridge: TCP 127.0.0.1:PORT inside -> the host proxy's Unix socket ----
bool write_all(int fd, const char* p, ssize_t n) {
  while (n > 0) {
    const ssize_t w = write(fd, p, static_cast<size_t>(n));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= w;
  }
  return true;
}

[[noreturn]] void relay(int a, int b) {
  static char buf[65536];
  bool open[2] = {true, true};
  const int fds[2] = {a, b};
  while (open[0] || open[1]) {
    pollfd p[2] = {{open[0] ? a : -1, POLLIN, 0}, {open[1] ? b : -1, POLLIN, 0}};
    if (poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      _exit(1);
    }
    for (int i = 0; i < 2; ++i) {
      if (!open[i] || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = read(fds[i], buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        open[i] = false;
        shutdown(fds[1 - i], SHUT_WR);
        continue;
      }
      if (!write_all(fds[1 - i], buf, got)) _exit(0);
    }
  }
  _exit(0);
}

int bridge_listener(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) die(126, "bridge: socket", nullptr);
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd, 64) != 0)
    die(126, "bridge: listen on 127.0.0.1", nullptr);
  return fd;
}

// Double fork: the bridge is a child of the sandbox's pid 1, not of the command (a shell's
// `wait` would wait for it), and goes with the sandbox.
void start_bridge(int listener, const char* socket_path) {
  const pid_t first = fork();
  if (first < 0) die(126, "bridge: fork", nullptr);
  if (first > 0) {
    int st = 0;
    while (waitpid(first, &st, 0) < 0 && errno == EINTR) {
    }
    close(listener);
    return;
  }
  if (fork() != 0) _exit(0);
  const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int i = 0; i < 3; ++i) dup2(null, i);
  signal(SIGCHLD, SIG_IGN);  // connection processes are reaped by the kernel
  for (;;) {
    const int c = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) {
      if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN) continue;
      _exit(1);
    }
    if (fork() == 0) {
      close(listener);
      const int u = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_un addr{};
      addr.sun_family = AF_UNIX;
      strncpy(addr.sun_path, socket_path, sizeof addr.sun_path - 1);
      if (u < 0 || connect(u, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) _exit(1);
      relay(c, u);
    }
    close(c);
  }
}

constexpr int max_rules = 256;

}  // namespace

int main(int argc, char** argv) {
  rule rules[max_rules];
  int nrules = 0;
  int bridge_port = 0;
  const char* bridge_socket = nullptr;
  bool outer = false;
  int i = 1;
  for (; i < argc; ++i) {
    const char* a = argv[i];
    if (strcmp(a, "--") == 0) {
      ++i;
      break;
    }
    if (strcmp(a, "--outer") == 0) {
      outer = true;
      continue;
    }
    if (i + 1 >= argc) {
      errno = EINVAL;
      die(126, "missing value for", a);
    }
    const char* v = argv[++i];
    uint64_t rights = 0;
    if (strcmp(a, "--ro") == 0) rights = execute | read_file | read_dir;
    else if (strcmp(a, "--rw") == 0) rights = ~0ULL;
    else if (strcmp(a, "--dev") == 0) rights = read_file | write_file | truncate_file | ioctl_dev | read_dir;
    else if (strcmp(a, "--list") == 0) rights = read_dir;
    if (rights) {
      if (nrules == max_rules) {
        errno = E2BIG;
        die(126, "too many paths", v);
      }
      rules[nrules++] = {v, rights};
    } else if (strcmp(a, "--limit") == 0) {
      continue;  // set last, below
    } else if (strcmp(a, "--join") == 0) {
      const int f = open(v, O_WRONLY | O_CLOEXEC);
      if (f < 0 || write(f, "0", 1) != 1) die(126, "joining the pids cgroup", v);
      close(f);
    } else if (strcmp(a, "--bridge") == 0) {
      bridge_port = atoi(v);
      bridge_socket = strchr(v, ':');
      if (!bridge_socket || bridge_port <= 0) die(126, "bad --bridge", v);
      ++bridge_socket;
    } else {
      errno = EINVAL;
      die(126, "unknown option", a);
    }
  }
  if (i >= argc) {
    errno = EINVAL;
    die(126, "no command after --", nullptr);
  }
  if (outer) {
    execv(argv[i], argv + i);
    die(126, "cannot run", argv[i]);
  }
  const int listener = bridge_socket ? bridge_listener(bridge_port) : -1;
  apply_landlock(rules, nrules);
  if (listener >= 0) start_bridge(listener, bridge_socket);
  for (int j = 1; j < i - 1; ++j)
    if (strcmp(argv[j], "--limit") == 0) set_limit(argv[++j]);
    else if (strcmp(argv[j], "--outer") != 0) ++j;
  syscall(SYS_close_range, 3U, ~0U, 0U);
  execvp(argv[i], argv + i);
  die(errno == ENOENT ? 127 : 126, "cannot run", argv[i]);
}
