// Spawning and reaping the child of a stdio_client_transport.
#include "stdio_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <map>
#include <thread>
#include <vector>

#include "tooluse/sandbox/sandbox.hpp"

extern char** environ;

namespace tooluse::mcp {

std::string process_exit::describe() const {
  if (code) return "exited with status " + std::to_string(*code);
  if (signal) return "was killed by signal " + std::to_string(*signal) + " (" + strsignal(*signal) + ")";
  return "ended";
}

namespace detail {
namespace {

// Only the allowlisted variables of ours, then the entry's own: a server never sees our API
// keys or tokens unless its entry passes them (as the official SDKs do).
std::vector<std::string> child_environment(const stdio_server_options& o) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string name(entry.substr(0, eq));
    if (o.env.count(name) ||
        std::find(o.inherit_env.begin(), o.inherit_env.end(), name) == o.inherit_env.end())
      continue;
    env.emplace_back(entry);
  }
  for (const auto& [k, v] : o.env) env.push_back(k + "=" + v);
  return env;
}

struct spawn_guard {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  spawn_guard() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~spawn_guard() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
};

void prepare(spawn_guard& g, const int (&in)[2], const int (&out)[2], const int (&err)[2],
             const std::string& cwd, int seccomp_fd, int init_fd) {
  posix_spawn_file_actions_adddup2(&g.actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&g.actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&g.actions, err[1], 2);
  // A sandboxed server: bubblewrap reads its filter from 3 and runs the launcher as fd 5.
  if (seccomp_fd >= 0) posix_spawn_file_actions_adddup2(&g.actions, seccomp_fd, 3);
  if (init_fd >= 0) posix_spawn_file_actions_adddup2(&g.actions, init_fd, 5);
  posix_spawn_file_actions_addclosefrom_np(&g.actions, init_fd >= 0 ? 6 : seccomp_fd >= 0 ? 4 : 3);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&g.actions, cwd.c_str());
  // Our own signal dispositions (e.g. SIGPIPE ignored) must not leak into the server.
  sigset_t defaults, none;
  sigemptyset(&defaults);
  for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD}) sigaddset(&defaults, s);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&g.attr, &defaults);
  posix_spawnattr_setsigmask(&g.attr, &none);
  posix_spawnattr_setpgroup(&g.attr, 0);
  posix_spawnattr_setflags(&g.attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
}

// The server's command line in the sandbox. Inside, it gets the entry's variables only, and
// bubblewrap itself gets an empty environment. A program given by path outside the system
// folders (a build folder) is made visible, read-only: just the file, not its folder.
result<sandbox::prepared> sandboxed_command(const stdio_server_options& o) {
  sandbox::policy policy = *o.sandbox;
  for (const auto& [k, v] : o.env) policy.env.push_back(k + "=" + v);
  std::vector<std::string> args = o.command;
  std::error_code ec;
  if (args[0].find('/') != std::string::npos) {
    auto exe = std::filesystem::canonical(args[0], ec);
    if (!ec) policy.read_paths.push_back(exe), args[0] = exe.string();
  }
  return sandbox::prepare(policy, {.argv = args, .work_dir = o.cwd.empty() ? "." : o.cwd});
}

}  // namespace

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

result<child_process> spawn_child(const stdio_server_options& o, std::string_view label) {
  const std::string what = "cannot start " + std::string(label);
  if (!o.cwd.empty() && !std::filesystem::is_directory(o.cwd))
    return fail(errc::io_error, what + ": working folder \"" + o.cwd + "\" does not exist");
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    const int e = errno;
    for (int* p : {in, out, err}) close_fd(p[0]), close_fd(p[1]);
    return fail(errc::io_error, what + ": pipe: " + std::strerror(e));
  }
  std::vector<std::string> env, args = o.command;
  sandbox::prepared sandboxed;
  if (o.sandbox) {
    auto p = sandboxed_command(o);
    if (!p) {
      for (int* fds : {in, out, err}) close_fd(fds[0]), close_fd(fds[1]);
      return fail(p.error().code, what + ": " + p.error().message);
    }
    sandboxed = std::move(*p);
    args = sandboxed.argv;
  } else {
    env = child_environment(o);
  }
  spawn_guard g;
  prepare(g, in, out, err, o.cwd, sandboxed.seccomp_fd, sandboxed.init_fd);
  std::vector<char*> envp, argv;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &g.actions, &g.attr, argv.data(), envp.data());
  close_fd(in[0]), close_fd(out[1]), close_fd(err[1]);
  if (rc != 0) {
    close_fd(in[1]), close_fd(out[0]), close_fd(err[0]);
    std::string hint = rc == ENOENT ? " (is \"" + o.command[0] + "\" installed and on PATH?)" : "";
    return fail(errc::io_error, what + ": " + std::strerror(rc) + hint);
  }
  child_process c{.pid = pid, .stdin_fd = in[1], .stdout_fd = out[0], .stderr_fd = err[0],
                  .resources = std::move(sandboxed.resources)};
#ifdef SYS_pidfd_open
  c.pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (c.pidfd >= 0) fcntl(c.pidfd, F_SETFD, FD_CLOEXEC);
#endif
  fcntl(c.stdout_fd, F_SETFL, fcntl(c.stdout_fd, F_GETFL) | O_NONBLOCK);
  fcntl(c.stderr_fd, F_SETFL, fcntl(c.stderr_fd, F_GETFL) | O_NONBLOCK);
  return c;
}

void reaper::watch(pid_t pid, int pidfd, std::shared_ptr<void> resources) {
  std::lock_guard lock(mutex_);
  pid_ = pid;
  pidfd_ = pidfd;
  resources_ = std::move(resources);
}

reaper::~reaper() { close_fd(pidfd_); }

std::optional<process_exit> reaper::try_reap_locked() {
  if (exit_ || pid_ <= 0) return exit_;
  int st = 0;
  pid_t r = waitpid(pid_, &st, WNOHANG);
  if (r == pid_) {
    process_exit e;
    if (WIFEXITED(st)) e.code = WEXITSTATUS(st);
    if (WIFSIGNALED(st)) e.signal = WTERMSIG(st);
    exit_ = e;
    resources_.reset();
  } else if (r < 0 && errno == ECHILD) {
    exit_ = process_exit{};  // reaped by someone else (a SIGCHLD handler): status unknown
  }
  return exit_;
}

std::optional<process_exit> reaper::wait_for(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int fd = -1;
    {
      std::lock_guard lock(mutex_);
      if (auto e = try_reap_locked()) return e;
      fd = pidfd_;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (timeout.count() >= 0 && left.count() <= 0) return std::nullopt;
    if (fd >= 0) {
      pollfd p{fd, POLLIN, 0};
      const int ms = timeout.count() < 0 ? -1 : static_cast<int>(left.count()) + 1;
      if (::poll(&p, 1, ms) < 0 && errno != EINTR) fd = -1;
    }
    // Without a pidfd (old kernels), poll the child's state a few times a second.
    if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void reaper::signal_group(int sig) {
  std::lock_guard lock(mutex_);
  if (pid_ > 0 && !try_reap_locked()) ::kill(-pid_, sig);
}

std::optional<process_exit> reaper::exit() const {
  std::lock_guard lock(mutex_);
  return exit_;
}

int write_all(int fd, std::string_view data) {
  sigset_t block, old, pending;
  sigemptyset(&block);
  sigaddset(&block, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE);
  int err = 0;
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      break;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  if (err == EPIPE && !was_pending) {
    timespec zero{};
    sigtimedwait(&block, nullptr, &zero);  // consume the SIGPIPE our write raised
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return err;
}

}  // namespace detail
}  // namespace tooluse::mcp
