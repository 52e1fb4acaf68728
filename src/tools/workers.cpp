// The host's side of process-isolated tools: starting the zygote, and one call in a worker
// (design/sandbox.md, "Workers").
#include "tooluse/tools/workers.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <memory>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <stop_token>

#include "tools/worker_protocol.hpp"
#include "tooluse/sandbox/sandbox.hpp"

namespace tooluse {
namespace {
using detail::recv_fds;
using detail::send_fds;

struct fd_t {
  int fd = -1;
  fd_t() = default;
  explicit fd_t(int f) : fd(f) {}
  fd_t(const fd_t&) = delete;
  fd_t& operator=(const fd_t&) = delete;
  ~fd_t() {
    if (fd >= 0) ::close(fd);
  }
};

// A warm worker the zygote handed over: sandboxed, waiting for a request on data.
struct spare_worker {
  fd_t data, err, pidfd, status;
};

// The zygote, as the host sees it: its control socket, and the warm workers it announced there.
// The last bound handler to go closes it, and the zygote ends (killing the spares).
struct zygote {
  int control = -1;
  pid_t pid = -1;
  worker_options options;
  std::mutex mutex;
  std::map<std::string, std::vector<std::unique_ptr<spare_worker>>> spares;
  ~zygote() {
    ::close(control);
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }

  // take returns a live warm worker of `tool`, after collecting what the zygote announced.
  std::unique_ptr<spare_worker> take(const std::string& tool) {
    std::lock_guard lock(mutex);
    for (;;) {
      std::string text;
      int fds[4];
      if (recv_fds(control, text, 256, fds, 4, MSG_DONTWAIT) <= 0) break;
      auto s = std::make_unique<spare_worker>();
      s->data.fd = fds[0], s->pidfd.fd = fds[1], s->status.fd = fds[2], s->err.fd = fds[3];
      if (text.rfind("spare:", 0) == 0 && fds[0] >= 0 && fds[1] >= 0 && fds[2] >= 0 &&
          fds[3] >= 0)
        spares[text.substr(6)].push_back(std::move(s));
    }
    auto& list = spares[tool];
    while (!list.empty()) {
      auto s = std::move(list.back());
      list.pop_back();
      pollfd ended{s->pidfd.fd, POLLIN, 0};
      if (::poll(&ended, 1, 0) == 0) return s;  // a spare whose sandbox failed has exited
    }
    return nullptr;
  }
};

std::size_t thread_count() {
  std::size_t n = 0;
  if (DIR* d = ::opendir("/proc/self/task")) {
    while (const dirent* e = ::readdir(d))
      if (e->d_name[0] != '.') ++n;
    ::closedir(d);
  }
  return n;
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV, a segmentation fault";
    case SIGABRT: return "SIGABRT, an abort";
    case SIGBUS: return "SIGBUS, a bus error";
    case SIGFPE: return "SIGFPE, an arithmetic fault";
    case SIGILL: return "SIGILL, an illegal instruction";
    case SIGKILL: return "SIGKILL";
    case SIGSYS: return "SIGSYS, a refused system call";
    default: return nullptr;
  }
}

// What one worker sent back and how it ended.
struct worker_run {
  std::string data, err;
  int wait_status = -1;
  bool started = false, too_big = false, done = false;
  std::atomic<bool> stopped{false};
};

// describe says how a worker that gave no result ended, naming the limit when one stopped it.
json describe_end(const tool& def, const worker_run& w, const worker_options& o) {
  const sandbox::policy p = effective_sandbox_policy(def);
  const int code = WIFEXITED(w.wait_status) ? WEXITSTATUS(w.wait_status)
                                            : 128 + WTERMSIG(w.wait_status);
  sandbox::limit l = sandbox::limit::none;
  std::string what;
  if (w.too_big) {
    l = sandbox::limit::output_size;
  } else if (w.stopped) {
    l = sandbox::limit::cancelled;
  } else if (code == detail::worker_exit_memory) {
    l = sandbox::limit::memory;
  } else if (code == detail::worker_exit_confine) {
    what = "could not be sandboxed";
  } else if (code == 128 + SIGKILL && p.cpu_seconds) {
    l = sandbox::limit::cpu_time;  // the hard CPU limit; nothing else of ours sends SIGKILL
  } else {
    l = sandbox::exit_limit(code, w.err);
  }
  if (l == sandbox::limit::output_size)
    what = "was stopped: its result passed the size limit (" +
           std::to_string(o.max_result_bytes) + " bytes)";
  else if (l == sandbox::limit::cancelled)
    what = "was stopped (a timeout or a cancellation)";
  else if (l != sandbox::limit::none)
    what = "was stopped: " + sandbox::limit_description(l, p) + " was reached";
  int sig = code > 128 ? code - 128 : 0;
  if (sig == SIGABRT && w.err.find("AddressSanitizer: SEGV") != std::string::npos) sig = SIGSEGV;
  if (what.empty() && sig && signal_name(sig))
    what = std::string("crashed (") + signal_name(sig) + ")";
  if (what.empty()) what = "ended with exit status " + std::to_string(code) + " and no result";
  return {{"what", what}, {"killed_by", std::string(sandbox::to_string(l))},
          {"exit_status", code}, {"signal", sig}};
}

tool_result worker_error(const tool& def, const worker_run& w, const worker_options& o) {
  json end = describe_end(def, w, o);
  std::string text = "tool \"" + def.name + "\" " + end["what"].get<std::string>() +
                     " in its worker process; the host is unaffected";
  std::string err = w.err;
  while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
  if (!err.empty()) text += "; its stderr: " + err.substr(err.size() > 2000 ? err.size() - 2000 : 0);
  tool_result r = tool_result::error(text);
  r.meta["worker"] = end;
  return r;
}

// complete: the whole result frame (8-byte length, then that many bytes) has arrived.
bool complete(const std::string& data) {
  std::uint64_t size = 0;
  if (data.size() < sizeof size) return false;
  std::memcpy(&size, data.data(), sizeof size);
  return data.size() == sizeof size + size;
}

// pump reads the result, the stderr and the status until the worker is reaped and its
// descriptors are closed, or until its whole result is in: then the call is over, and the
// worker's exit (the namespaces torn down, the zygote reaping it) is not waited for.
void pump(worker_run& w, int data, int err, int status, int pidfd, const worker_options& o) {
  pollfd fds[3] = {{data, POLLIN, 0}, {err, POLLIN, 0}, {status, POLLIN, 0}};
  char buf[65536];
  while ((fds[0].fd >= 0 || fds[1].fd >= 0 || fds[2].fd >= 0) && !w.done) {
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (int i = 0; i < 3; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      if (i == 2) {
        int st = 0;
        if (::recv(status, &st, sizeof st, 0) == sizeof st) w.wait_status = st;
        fds[2].fd = -1;
        continue;
      }
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;
        continue;
      }
      std::string& to = i == 0 ? w.data : w.err;
      const std::size_t cap = i == 0 ? o.max_result_bytes + 8 : o.max_stderr_bytes;
      to.append(buf, std::min(static_cast<std::size_t>(n), cap - std::min(cap, to.size())));
      if (i == 0 && to.size() >= cap && !w.too_big) {
        w.too_big = true;
        ::syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, nullptr, 0);
      }
      if (i == 0 && !w.too_big && complete(to)) {
        w.done = true;  // the worker only exits from here on; make sure it does
        ::syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, nullptr, 0);
      }
    }
  }
}

tool_result call_in_worker(zygote& z, const tool& def, const json& args,
                           call_context& ctx) {
  worker_run w;
  // The request, framed: an 8-byte length, then the JSON.
  const std::string body = json{{"arguments", args}, {"call_id", ctx.call_id},
                                {"session", ctx.session}, {"idempotency_key", ctx.idempotency_key}}
                               .dump(-1, ' ', false, json::error_handler_t::replace);
  const std::uint64_t n = body.size();
  std::string request(reinterpret_cast<const char*>(&n), sizeof n);
  request += body;
  std::size_t at = 0;
  fd_t d0, e0, pidfd, status_fd;
  // A worker that dies first makes a send fail (EPIPE); its status says why. MSG_DONTWAIT first:
  // what fits in the socket goes before a fresh worker exists, saving a round trip.
  auto send_request = [&](int flags) {
    while (at < request.size()) {
      const ssize_t put = ::send(d0.fd, request.data() + at, request.size() - at, MSG_NOSIGNAL | flags);
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) return;
      at += static_cast<std::size_t>(put);
    }
  };
  // A warm worker first: sandboxed and waiting on its data socket, whose other end the zygote
  // handed over with it; the request wakes it. Else the zygote forks one now.
  if (z.options.warm)
    if (auto s = z.take(def.name)) {
      d0.fd = std::exchange(s->data.fd, -1);
      e0.fd = std::exchange(s->err.fd, -1);
      pidfd.fd = std::exchange(s->pidfd.fd, -1);
      status_fd.fd = std::exchange(s->status.fd, -1);
      w.started = true;
    }
  if (!w.started) {
    int data[2], err[2], status[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, data) != 0)
      return tool_result::error("tool \"" + def.name + "\": socketpair: " + std::strerror(errno));
    d0.fd = data[0];
    fd_t d1(data[1]);
    if (::pipe2(err, O_CLOEXEC) != 0)
      return tool_result::error("tool \"" + def.name + "\": pipe: " + std::strerror(errno));
    e0.fd = err[0];
    fd_t e1(err[1]);
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, status) != 0)
      return tool_result::error("tool \"" + def.name + "\": socketpair: " + std::strerror(errno));
    fd_t s0(status[0]), s1(status[1]);
    const int sent[3] = {d1.fd, e1.fd, s1.fd};
    if (send_fds(z.control, def.name, sent, 3)) {
      ::close(std::exchange(d1.fd, -1));
      ::close(std::exchange(e1.fd, -1));
      ::close(std::exchange(s1.fd, -1));
      send_request(MSG_DONTWAIT);
      int pidfd_raw = -1;
      std::string ignored;
      w.started = recv_fds(s0.fd, ignored, 8, &pidfd_raw, 1) > 0 && pidfd_raw >= 0;
      pidfd.fd = pidfd_raw;
      status_fd.fd = std::exchange(s0.fd, -1);
    }
  }
  if (!w.started)
    return tool_result::error("tool \"" + def.name +
                              "\" could not start its worker process (the worker zygote is gone "
                              "or cannot fork); restart the host");
  {
    std::stop_callback on_stop(ctx.stop, [&] {
      w.stopped = true;
      ::syscall(SYS_pidfd_send_signal, pidfd.fd, SIGKILL, nullptr, 0);
    });
    send_request(0);
    pump(w, d0.fd, e0.fd, status_fd.fd, pidfd.fd, z.options);
  }
  if ((w.done || w.wait_status == 0) && !w.stopped && !w.too_big && complete(w.data))
    if (auto j = parse_json(std::string_view(w.data).substr(sizeof(std::uint64_t))))
      if (auto r = result_from_json(*j)) return std::move(*r);
  return worker_error(def, w, z.options);
}

}  // namespace

result<std::size_t> start_tool_workers(tool_registry& registry, const worker_options& options) {
  std::vector<std::shared_ptr<const registered_tool>> bound;
  for (const auto& e : registry.list())
    if (e->definition.sandboxed && !e->definition.sandboxed_by_handler) bound.push_back(e);
  if (bound.empty()) return 0;
  if (const std::size_t n = thread_count(); n > 1)
    return fail(errc::unsupported,
                "start_tool_workers: this process already runs " + std::to_string(n) +
                    " threads; call it right after registering the tools, before anything "
                    "starts a thread (forking a threaded process copies locks other threads hold)");
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    return fail(errc::io_error, std::string("start_tool_workers: socketpair: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    return fail(errc::io_error, std::string("start_tool_workers: fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(sv[0]);
    detail::zygote_main(sv[1], bound, options.warm);
  }
  ::close(sv[1]);
  auto z = std::make_shared<zygote>();
  z->control = sv[0];
  z->pid = pid;
  z->options = options;
  for (const auto& e : bound) {
    tool def = e->definition;
    def.sandboxed_by_handler = true;
    tool seen = def;
    registry.add(std::move(def),
                 [z, seen](const json& args, call_context& ctx) {
                   return call_in_worker(*z, seen, args, ctx);
                 },
                 {.replace = true});
  }
  return bound.size();
}

}  // namespace tooluse
