// The zygote and the worker (design/sandbox.md, "Workers"). The zygote is a copy of the host
// made before it started threads, so it may fork and the worker may run anything (malloc,
// libseccomp, the handler); it never touches the host's state again, only its own copy.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <new>

#include "tools/worker_protocol.hpp"
#include "tooluse/sandbox/confine.hpp"

namespace tooluse::detail {
namespace {

bool read_exact(int fd, char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t got = ::read(fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

bool write_exact(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t put = ::send(fd, p, n, MSG_NOSIGNAL);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    p += put;
    n -= static_cast<std::size_t>(put);
  }
  return true;
}

void say(const std::string& text) { (void)!::write(2, text.data(), text.size()); }

void out_of_memory() {
  say("tooluse worker: out of memory (operator new failed)\n");
  ::_exit(worker_exit_memory);
}

tool_result run_handler(const registered_tool& entry, const json& request) {
  call_context ctx;
  ctx.call_id = request.value("call_id", "");
  ctx.session = request.value("session", "");
  ctx.idempotency_key = request.value("idempotency_key", "");
  try {
    return entry.handler(request.value("arguments", json::object()), ctx);
  } catch (const std::exception& e) {
    return tool_result::error("tool \"" + entry.definition.name + "\" failed: " + e.what());
  } catch (...) {
    return tool_result::error("tool \"" + entry.definition.name +
                              "\" failed with an unknown exception");
  }
}

// warm_up runs, in a warm worker waiting for its call, what the call will run (a request
// parsed, a result encoded, the allocator, the stack), so the pages a fork shares or maps lazily
// are faulted in before the call instead of during it.
void warm_up() {
  volatile char stack[256 * 1024];
  for (std::size_t i = 0; i < sizeof stack; i += 4096) stack[i] = 0;
  auto request = parse_json(
      R"({"arguments":{"text":"warm","n":1,"list":[1,2.5,true,null]},"call_id":"c","session":"s"})");
  const std::string out = result_to_json(tool_result::text("warm"))
                              .dump(-1, ' ', false, json::error_handler_t::replace);
  (void)request;
  (void)out;
}

// The worker: stdio on its err pipe, the data socket as 3, nothing else of the zygote's, then
// the sandbox, then one call, read from data. A warm worker (made ahead of its call) confines
// itself and waits in that read, so the call does not wait for the sandbox to be built; if the
// host drops it unused, the read sees the end and it exits.
[[noreturn]] void worker_main(const registered_tool& entry, int data, int err, bool warm) {
  ::setsid();  // no controlling terminal (TIOCSTI)
  ::dup2(err, 1);
  ::dup2(err, 2);
  ::dup2(data, 3);
  if (const int nul = ::open("/dev/null", O_RDONLY); nul >= 0) ::dup2(nul, 0);
  ::syscall(SYS_close_range, 4U, ~0U, 0U);
  auto confined = sandbox::confine(effective_sandbox_policy(entry.definition));
  if (!confined) {
    say(confined.error().message + "\n");
    ::_exit(worker_exit_confine);
  }
  if (warm) warm_up();
  std::set_new_handler(out_of_memory);
  // A warm worker waits in this read; the end of data before any byte means the host dropped
  // it unused. The host sent the whole frame at once, so the reads below do not wait.
  std::uint64_t size = 0;
  auto* head = reinterpret_cast<char*>(&size);
  ssize_t got;
  while ((got = ::read(3, head, sizeof size)) < 0 && errno == EINTR) {
  }
  if (got == 0) ::_exit(0);
  if (got < 0 || !read_exact(3, head + got, sizeof size - static_cast<std::size_t>(got)) ||
      size > (1ULL << 30))
    ::_exit(worker_exit_protocol);
  std::string text(size, '\0');
  if (!read_exact(3, text.data(), size)) ::_exit(worker_exit_protocol);
  auto request = parse_json(text);
  if (!request || !request->is_object()) ::_exit(worker_exit_protocol);
  // The result in one write, its length first, so the host wakes once for it.
  std::string out(sizeof(std::uint64_t), '\0');
  out += result_to_json(run_handler(entry, *request))
             .dump(-1, ' ', false, json::error_handler_t::replace);
  const std::uint64_t n = out.size() - sizeof n;
  std::memcpy(out.data(), &n, sizeof n);
  if (!write_exact(3, out.data(), out.size())) ::_exit(worker_exit_protocol);
  ::_exit(0);
}

struct child {
  pid_t pid;
  int pidfd;
  int status;
  std::string tool;  // a warm worker's tool: its successor is made when it ends
};

int reap(child& c) {
  int st = 0;
  while (::waitpid(c.pid, &st, 0) < 0 && errno == EINTR) {
  }
  ::send(c.status, &st, sizeof st, MSG_NOSIGNAL);
  ::close(c.status);
  ::close(c.pidfd);
  return st;
}

// A warm worker: forked and confined ahead of its call, waiting for the request on its data
// socket. data and err are the host's ends.
struct spare {
  pid_t pid = -1;
  int pidfd = -1;
  int data = -1;
  int err = -1;
};

spare make_spare(const registered_tool& entry) {
  int sv[2], pe[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return {};
  if (::pipe2(pe, O_CLOEXEC) != 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    return {};
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(sv[0]);
    ::close(pe[0]);
    worker_main(entry, sv[1], pe[1], true);
  }
  ::close(sv[1]);
  ::close(pe[1]);
  if (pid < 0) {
    ::close(sv[0]);
    ::close(pe[0]);
    return {};
  }
  return {pid, static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)), sv[0], pe[0]};
}

void discard(spare& s) {
  if (s.pid <= 0) return;
  ::syscall(SYS_pidfd_send_signal, s.pidfd, SIGKILL, nullptr, 0);
  ::waitpid(s.pid, nullptr, 0);
  ::close(s.pidfd);
  ::close(s.data);
  ::close(s.err);
  s = {};
}

struct zygote_state {
  int control = -1;
  std::map<std::string, std::shared_ptr<const registered_tool>> tools;
  std::vector<child> children;
  bool warm = true;
};

// A warm worker is handed to the host as soon as it is forked: the host's ends of its data
// socket and err pipe, its pidfd and the host's end of its status socket, in a message "spare"
// on the control socket. The host then writes a call's request straight into data (one wake-up,
// no zygote on the way); the zygote only reaps it, sends its status, and makes the next one.
void announce_spare(zygote_state& z, const registered_tool& entry) {
  spare s = make_spare(entry);
  if (s.pid <= 0) return;
  int st[2];
  if (s.pidfd < 0 || ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, st) != 0) {
    discard(s);
    return;
  }
  const int fds[4] = {s.data, s.pidfd, st[1], s.err};
  const bool sent = send_fds(z.control, "spare:" + entry.definition.name, fds, 4);
  ::close(st[1]);
  ::close(s.data);
  ::close(s.err);
  if (!sent) ::syscall(SYS_pidfd_send_signal, s.pidfd, SIGKILL, nullptr, 0);
  z.children.push_back({s.pid, s.pidfd, st[0], entry.definition.name});
}

// One request from the host, which had no warm worker for the tool at hand: a worker is forked
// now, and the host gets its pidfd.
void start_worker(zygote_state& z, const std::string& name, const int fds[3]) {
  auto it = z.tools.find(name);
  pid_t pid = -1;
  int pidfd = -1;
  if (it != z.tools.end() && fds[0] >= 0 && fds[1] >= 0 && fds[2] >= 0) {
    pid = ::fork();
    if (pid == 0) {
      ::close(fds[2]);
      worker_main(*it->second, fds[0], fds[1], false);
    }
    pidfd = pid > 0 ? static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)) : -1;
  }
  ::close(fds[0]);
  ::close(fds[1]);
  if (pidfd < 0 || !send_fds(fds[2], "w", &pidfd, 1)) {  // the host sees the end, no pidfd
    if (pid > 0) ::kill(pid, SIGKILL);
    if (pid > 0) ::waitpid(pid, nullptr, 0);
    if (pidfd >= 0) ::close(pidfd);
    ::close(fds[2]);
    return;
  }
  z.children.push_back({pid, pidfd, fds[2], ""});
}

}  // namespace

[[noreturn]] void zygote_main(int control,
                              std::vector<std::shared_ptr<const registered_tool>> list, bool warm) {
  ::setpgid(0, 0);  // a terminal's ^C is for the host; the zygote ends when the host does
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::dup2(control, 3);
  ::syscall(SYS_close_range, 4U, ~0U, 0U);
  control = 3;
  sandbox::prepare_confine();
  zygote_state z;
  z.control = control;
  z.warm = warm;
  for (auto& t : list) z.tools.emplace(t->definition.name, std::move(t));
  if (warm)
    for (const auto& [name, t] : z.tools) announce_spare(z, *t);
  for (;;) {
    std::vector<pollfd> fds{{control, POLLIN, 0}};
    for (const auto& c : z.children) fds.push_back({c.pidfd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    // A warm worker that ended (its call is over, or it was discarded) is replaced once it has
    // ended, so building the next sandbox does not compete with the call for the CPU.
    for (std::size_t i = fds.size() - 1; i >= 1; --i)
      if (fds[i].revents & (POLLIN | POLLHUP)) {
        child done = z.children[i - 1];
        const int st = reap(done);
        z.children.erase(z.children.begin() + static_cast<long>(i - 1));
        // One whose sandbox could not be built is not replaced (it would fail again, at once):
        // the tool's calls then fork a worker each, which reports why.
        const bool unconfined = WIFEXITED(st) && WEXITSTATUS(st) == worker_exit_confine;
        if (z.warm && !done.tool.empty() && !unconfined) announce_spare(z, *z.tools.at(done.tool));
      }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      std::string name;
      int got[3] = {-1, -1, -1};
      const ssize_t n = recv_fds(control, name, 256, got, 3);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // the host closed its end: it is done, or gone
      start_worker(z, name, got);
    }
  }
  for (auto& c : z.children) {
    ::syscall(SYS_pidfd_send_signal, c.pidfd, SIGKILL, nullptr, 0);
    reap(c);
  }
  ::_exit(0);
}

bool send_fds(int socket, const std::string& text, const int* fds, int count) {
  iovec iov{const_cast<char*>(text.data()), text.size()};
  alignas(cmsghdr) char buf[CMSG_SPACE(sizeof(int) * 4)] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = buf;
  msg.msg_controllen = CMSG_SPACE(sizeof(int) * static_cast<unsigned>(count));
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int) * static_cast<unsigned>(count));
  std::memcpy(CMSG_DATA(c), fds, sizeof(int) * static_cast<unsigned>(count));
  ssize_t n;
  while ((n = ::sendmsg(socket, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
  }
  return n == static_cast<ssize_t>(text.size());
}

ssize_t recv_fds(int socket, std::string& text, std::size_t max, int* fds, int count, int flags) {
  text.assign(max, '\0');
  iovec iov{text.data(), max};
  alignas(cmsghdr) char buf[CMSG_SPACE(sizeof(int) * 4)] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = buf;
  msg.msg_controllen = sizeof buf;
  for (int i = 0; i < count; ++i) fds[i] = -1;
  const ssize_t n = ::recvmsg(socket, &msg, MSG_CMSG_CLOEXEC | flags);
  if (n < 0) return n;
  text.resize(static_cast<std::size_t>(n));
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const int got = static_cast<int>((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    int all[4] = {-1, -1, -1, -1};
    std::memcpy(all, CMSG_DATA(c), sizeof(int) * static_cast<unsigned>(std::min(got, 4)));
    for (int i = 0; i < std::min(got, 4); ++i) {
      if (i < count) fds[i] = all[i];
      else ::close(all[i]);
    }
  }
  return n;
}

}  // namespace tooluse::detail
