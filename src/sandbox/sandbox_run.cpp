// run: one sandboxed command from start to end. Every process it started is gone when it returns:
// bubblewrap's pid 1 of the sandbox is killed through a pidfd and awaited, and the kernel kills
// the rest of a pid namespace with its pid 1 (daemons, double forks, setsid included).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sandbox/cgroup.hpp"
#include "sandbox/egress.hpp"
#include "sandbox/filter.hpp"
#include "sandbox/launcher.hpp"
#include "sandbox/view.hpp"
#include "tooluse/sandbox/sandbox.hpp"

namespace tooluse::sandbox {
namespace {
using clock = std::chrono::steady_clock;

struct fd_guard {
  int fd = -1;
  explicit fd_guard(int f = -1) : fd(f) {}
  fd_guard(const fd_guard&) = delete;
  fd_guard& operator=(const fd_guard&) = delete;
  ~fd_guard() { reset(); }
  void reset(int f = -1) {
    if (fd >= 0) ::close(fd);
    fd = f;
  }
};

int pidfd_open(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }
void pidfd_kill(int fd) {
  if (fd >= 0) ::syscall(SYS_pidfd_send_signal, fd, SIGKILL, nullptr, 0);
}

// What the forked child needs, prepared before fork: between fork and exec only
// async-signal-safe calls are made (the host may have many threads).
struct child_spec {
  const char* path;
  char* const* argv;
  char* const* envp;
  const char* cwd;
  const char* cgroup_procs;  // may be null
  int fds[6];                // become descriptors 0..5 (-1: left closed)
};

[[noreturn]] void child_main(const child_spec& s) {
  ::setpgid(0, 0);
  if (s.cgroup_procs) {
    int f = ::open(s.cgroup_procs, O_WRONLY | O_CLOEXEC);
    if (f < 0 || ::write(f, "0", 1) != 1) ::_exit(126);
    ::close(f);
  }
  int moved[6];
  for (int i = 0; i < 6; ++i) moved[i] = s.fds[i] >= 0 ? ::fcntl(s.fds[i], F_DUPFD, 16) : -1;
  for (int i = 0; i < 6; ++i)
    if (moved[i] >= 0) ::dup2(moved[i], i);
  ::syscall(SYS_close_range, 6U, ~0U, 0U);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (::chdir(s.cwd) != 0) ::_exit(126);
  ::execve(s.path, s.argv, s.envp);
  ::_exit(127);
}

std::size_t free_mb(const std::string& path) {
  struct statvfs v {};
  if (::statvfs(path.c_str(), &v) != 0) return static_cast<std::size_t>(-1);
  return static_cast<std::size_t>((static_cast<unsigned long long>(v.f_bavail) * v.f_frsize) >> 20);
}

limit classify(int code, const std::string& err, long refused_forks) {
  if (code != 0 && refused_forks > 0 && exit_limit(code, err) == limit::none) return limit::processes;
  return exit_limit(code, err);
}

// One run: the child, its pipes, and what was seen of it so far.
class runner {
 public:
  runner(const policy& p, const run_options& o, std::string work)
      : p_(p), o_(o), work_(std::move(work)) {}
  result<outcome> run(std::vector<std::string>& argv, int seccomp_fd, int init_fd);

 private:
  status start(std::vector<std::string>& argv, int seccomp_fd, int init_fd);
  void pump();
  void read_ready(const pollfd* fds);
  void note_status();
  void stop(limit why);
  result<outcome> finish();
  void name_limit();

  const policy& p_;
  const run_options& o_;
  const std::string work_;
  detail::pids_cgroup cgroup_;
  pid_t pid_ = -1;
  fd_guard bwrap_fd_, init_fd_;
  fd_guard streams_[3];  // stdout, stderr, bwrap's JSON status
  outcome r_;
  std::string status_text_;
  bool exited_ = false;
  int wstatus_ = 0;
  std::size_t total_ = 0, disk_floor_mb_ = 0;
  limit stopped_ = limit::none;
  clock::time_point started_, exited_at_;
};

status runner::start(std::vector<std::string>& argv, int seccomp_fd, int init_fd) {
  int pipes[3][2];
  fd_guard ends[3][2];
  for (int i = 0; i < 3; ++i) {
    if (::pipe2(pipes[i], O_CLOEXEC) != 0)
      return fail(errc::io_error, "pipe: " + std::string(std::strerror(errno)));
    ends[i][0].reset(pipes[i][0]);
    ends[i][1].reset(pipes[i][1]);
  }
  fd_guard devnull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  cgroup_ = detail::pids_cgroup::create(p_.max_processes ? p_.max_processes + 3 : 0);
  const std::string procs = cgroup_.empty() ? "" : cgroup_.procs_path();
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  char* envp[] = {nullptr};  // bwrap itself (pid 1 inside, /proc/1/environ) gets no host variable
  child_spec spec{argv[0].c_str(), args.data(), envp, work_.c_str(),
                  procs.empty() ? nullptr : procs.c_str(),
                  {devnull.fd, ends[0][1].fd, ends[1][1].fd, seccomp_fd, ends[2][1].fd, init_fd}};
  started_ = clock::now();
  disk_floor_mb_ = std::min(p_.min_free_disk_mb, free_mb(work_) / 2);
  pid_ = ::fork();
  if (pid_ < 0) return fail(errc::io_error, "fork: " + std::string(std::strerror(errno)));
  if (pid_ == 0) child_main(spec);
  for (int i = 0; i < 3; ++i) {
    streams_[i].reset(std::exchange(ends[i][0].fd, -1));
    ::fcntl(streams_[i].fd, F_SETFL, O_NONBLOCK);
  }
  bwrap_fd_.reset(pidfd_open(pid_));
  return {};
}

void runner::stop(limit why) {
  if (stopped_ == limit::none) stopped_ = why;
  if (!exited_) ::kill(-pid_, SIGKILL);
  pidfd_kill(init_fd_.fd);
}

// bwrap's first status document names the host pid of the sandbox's pid 1.
void runner::note_status() {
  auto at = status_text_.find("\"child-pid\":");
  if (init_fd_.fd < 0 && at != std::string::npos)
    init_fd_.reset(pidfd_open(static_cast<pid_t>(std::atol(status_text_.c_str() + at + 12))));
}

void runner::read_ready(const pollfd* fds) {
  char buf[16384];
  for (int i = 0; i < 3; ++i) {
    auto& fd = streams_[i];
    if (fd.fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    const ssize_t got = ::read(fd.fd, buf, sizeof buf);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (got <= 0) {
      fd.reset();
      continue;
    }
    const auto n = static_cast<std::size_t>(got);
    if (i == 2) {
      status_text_.append(buf, n);
      note_status();
      continue;
    }
    std::string& text = i == 0 ? r_.out : r_.err;
    const std::size_t keep = std::min(n, o_.max_output_bytes - std::min(o_.max_output_bytes, text.size()));
    text.append(buf, keep);
    r_.dropped += n - keep;
    total_ += n;
    if (total_ > o_.output_kill_bytes) stop(limit::output_size);
  }
}

void runner::pump() {
  const auto deadline = started_ + o_.timeout;
  for (;;) {
    const auto now = clock::now();
    // After the command ended, a process still holding its pipes is being killed; give it a
    // moment, then stop reading.
    const bool drained = streams_[0].fd < 0 && streams_[1].fd < 0;
    if (exited_ && (drained || now - exited_at_ > std::chrono::seconds(2))) return;
    if (stopped_ == limit::none) {
      if (o_.stop.stop_requested()) stop(limit::cancelled);
      else if (now >= deadline) stop(limit::timeout);
      else if (p_.min_free_disk_mb && free_mb(work_) < disk_floor_mb_) stop(limit::disk_space);
    }
    pollfd fds[4] = {{streams_[0].fd, POLLIN, 0}, {streams_[1].fd, POLLIN, 0},
                     {streams_[2].fd, POLLIN, 0}, {exited_ ? -1 : bwrap_fd_.fd, POLLIN, 0}};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    if (::poll(fds, 4, static_cast<int>(std::clamp<long long>(left, 1, 100))) < 0 && errno != EINTR)
      return;
    read_ready(fds);
    if (!exited_ && (bwrap_fd_.fd < 0 || (fds[3].revents & POLLIN)) &&
        ::waitpid(pid_, &wstatus_, WNOHANG) == pid_) {
      exited_ = true;
      exited_at_ = clock::now();
      pidfd_kill(init_fd_.fd);  // the command ended: whatever it left running goes too
    }
  }
}

void runner::name_limit() {
  const long refused = cgroup_.refused_forks();
  r_.killed_by = stopped_ != limit::none ? stopped_ : classify(r_.exit_code, r_.err, refused);
  // A contained fork bomb may end in time or be stopped by the timeout: name the limit that held
  // it either way.
  if ((r_.killed_by == limit::none || r_.killed_by == limit::timeout) &&
      classify(1, r_.err, refused) == limit::processes)
    r_.killed_by = limit::processes;
  // SIGKILL with no stop of ours, after at least the CPU allowance of wall time: the hard CPU
  // limit (a process that ignored SIGXCPU), since CPU time of one thread cannot pass wall time.
  if (r_.killed_by == limit::none && r_.exit_code == 128 + SIGKILL && p_.cpu_seconds &&
      r_.elapsed >= std::chrono::seconds(p_.cpu_seconds))
    r_.killed_by = limit::cpu_time;
  r_.limit_detail = limit_description(r_.killed_by, p_);
  if (stopped_ == limit::timeout)
    r_.limit_detail += (r_.killed_by == limit::timeout ? " (" : ", then the timeout (") +
                       std::to_string(o_.timeout.count()) + " ms)";
  if (r_.killed_by == limit::output_size)
    r_.limit_detail += " (" + std::to_string(o_.output_kill_bytes) + " bytes)";
  if (r_.killed_by != limit::none) r_.limit_detail += " was reached";
}

result<outcome> runner::finish() {
  if (!exited_) {
    stop(stopped_);
    while (::waitpid(pid_, &wstatus_, 0) < 0 && errno == EINTR) {
    }
  }
  if (init_fd_.fd >= 0) {  // returns once the whole pid namespace is gone
    pidfd_kill(init_fd_.fd);
    pollfd gone{init_fd_.fd, POLLIN, 0};
    ::poll(&gone, 1, 5000);
  }
  r_.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - started_);
  r_.exit_code = WIFEXITED(wstatus_) ? WEXITSTATUS(wstatus_) : 128 + WTERMSIG(wstatus_);
  const bool set_up = status_text_.find("\"child-pid\"") != std::string::npos;
  const bool init_failed = r_.exit_code == 126 && r_.err.rfind("tooluse sandbox init: ", 0) == 0;
  if (stopped_ == limit::none && r_.exit_code != 0 &&
      (!set_up || init_failed || r_.err.rfind("bwrap: ", 0) == 0)) {
    std::string why = r_.err;
    while (!why.empty() && why.back() == '\n') why.pop_back();
    return fail(errc::permission_denied,
                "the sandbox could not be built (" + (why.empty() ? r_.describe() : why) +
                    "); `tooluse sandbox check` says what is missing (bubblewrap needs "
                    "unprivileged user namespaces)");
  }
  name_limit();
  return std::move(r_);
}

result<outcome> runner::run(std::vector<std::string>& argv, int seccomp_fd, int init_fd) {
  if (auto s = start(argv, seccomp_fd, init_fd); !s) return fail(s.error());
  pump();
  return finish();
}

}  // namespace

result<outcome> run(const policy& p, const command& cmd, const run_options& o) {
  auto work = detail::resolve_work(cmd.work_dir);
  if (!work) return fail(work.error());
  std::unique_ptr<detail::egress_proxy> proxy;  // lives until the run is over
  if (!p.allowed_hosts.empty()) {
    auto started = detail::egress_proxy::start(p.allowed_hosts);
    if (!started) return fail(started.error());
    proxy = std::move(*started);
  }
  auto argv = detail::build_argv(p, cmd.argv, *work, true, true, o.bwrap_path,
                                 proxy ? proxy->dir() : std::string());
  if (!argv) return fail(argv.error());
  auto filter = detail::compiled_filter();
  if (!filter) return fail(filter.error());
  fd_guard seccomp_fd(*filter);
  auto init = detail::init_fd();
  if (!init) return fail(init.error());
  runner r(p, o, *work);
  return r.run(*argv, seccomp_fd.fd, *init);
}

}  // namespace tooluse::sandbox
