// The egress proxy (egress.hpp). One thread accepts; each connection has a thread that reads
// the request head, decides, connects and then copies both ways. A pipe wakes every thread to
// end (no polling loops with timeouts).
#include "sandbox/egress.hpp"


#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <list>
#include <mutex>
#include <thread>

#include "tooluse/text.hpp"

namespace tooluse::sandbox::detail {
namespace {

bool send_all(int fd, std::string_view s) {
  while (!s.empty()) {
    const ssize_t n = ::send(fd, s.data(), s.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    s.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

struct target {
  std::string host, port;
  bool tunnel = false;  // CONNECT: answer 200, then copy; else forward the head as it came
};

// parse_head reads "CONNECT host:port HTTP/1.1" or "METHOD http://host[:port]/... HTTP/1.1".
bool parse_head(const std::string& head, target& t) {
  const auto line_end = head.find("\r\n");
  const std::string line = head.substr(0, line_end);
  const auto sp1 = line.find(' '), sp2 = line.rfind(' ');
  if (sp1 == std::string::npos || sp2 <= sp1) return false;
  std::string method = line.substr(0, sp1), uri = line.substr(sp1 + 1, sp2 - sp1 - 1);
  std::string authority;
  if (method == "CONNECT") {
    t.tunnel = true;
    authority = uri;
  } else if (ascii_lower(uri).rfind("http://", 0) == 0) {
    authority = uri.substr(7, uri.find('/', 7) == std::string::npos ? std::string::npos : uri.find('/', 7) - 7);
  } else {
    return false;
  }
  if (!authority.empty() && authority[0] == '[') {  // [v6]:port
    const auto close = authority.find(']');
    if (close == std::string::npos) return false;
    t.host = authority.substr(1, close - 1);
    t.port = authority.size() > close + 2 ? authority.substr(close + 2) : "";
  } else {
    const auto colon = authority.rfind(':');
    t.host = authority.substr(0, colon);
    t.port = colon == std::string::npos ? "" : authority.substr(colon + 1);
  }
  if (t.port.empty()) t.port = t.tunnel ? "443" : "80";
  return !t.host.empty() && t.port.find_first_not_of("0123456789") == std::string::npos;
}

int connect_to(const target& t) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(t.host.c_str(), t.port.c_str(), &hints, &found) != 0) return -1;
  int fd = -1;
  for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd >= 0 && ::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  return fd;
}

}  // namespace

bool host_allowed(const std::vector<std::string>& allowed, std::string_view host) {
  const std::string h = ascii_lower(host);
  for (const auto& entry : allowed) {
    const std::string e = ascii_lower(entry);
    if (e == h) return true;
    if (e.rfind("*.", 0) == 0 && h.size() > e.size() - 1 &&
        h.compare(h.size() - (e.size() - 1), e.size() - 1, e, 1) == 0)
      return true;
  }
  return false;
}

struct egress_proxy::impl {
  std::vector<std::string> allowed;
  std::string dir;
  int listener = -1;
  int wake[2] = {-1, -1};  // closing wake[1] ends every thread
  std::mutex mutex;
  std::list<std::thread> threads;

  // copy moves bytes both ways until one side ends or the proxy stops.
  void copy(int a, int b) {
    pollfd fds[3] = {{a, POLLIN, 0}, {b, POLLIN, 0}, {wake[0], POLLIN, 0}};
    char buf[32768];
    for (;;) {
      if (::poll(fds, 3, -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (fds[2].revents) return;
      for (int i = 0; i < 2; ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
        if (n <= 0 || !send_all(fds[1 - i].fd, {buf, static_cast<std::size_t>(n)})) return;
      }
    }
  }

  void serve(int client) {
    std::string head;
    char buf[4096];
    pollfd fds[2] = {{client, POLLIN, 0}, {wake[0], POLLIN, 0}};
    while (head.find("\r\n\r\n") == std::string::npos && head.size() < 16384) {
      if (::poll(fds, 2, -1) < 0 && errno == EINTR) continue;
      if (fds[1].revents) break;
      const ssize_t n = ::read(client, buf, sizeof buf);
      if (n <= 0) break;
      head.append(buf, static_cast<std::size_t>(n));
    }
    target t;
    std::string allowed_list;
    for (const auto& a : allowed) allowed_list += (allowed_list.empty() ? "" : ", ") + a;
    auto refuse = [&](const char* status, const std::string& why) {
      send_all(client, std::string("HTTP/1.1 ") + status +
                           "\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n" + why + "\n");
    };
    if (head.find("\r\n\r\n") == std::string::npos || !parse_head(head, t)) {
      refuse("400 Bad Request", "tooluse sandbox egress proxy: send CONNECT host:port or an "
                                "absolute http:// request");
    } else if (!host_allowed(allowed, t.host)) {
      refuse("403 Forbidden", "tooluse sandbox: \"" + t.host + "\" is not in the network "
                              "allowlist (allowed: " + allowed_list + "); ask the user to add it");
    } else if (const int up = connect_to(t); up < 0) {
      refuse("502 Bad Gateway", "tooluse sandbox egress proxy: cannot reach " + t.host + ":" + t.port);
    } else {
      const bool ok = t.tunnel ? send_all(client, "HTTP/1.1 200 Connection established\r\n\r\n")
                               : send_all(up, head);
      if (ok) copy(client, up);
      ::close(up);
    }
    ::close(client);
  }

  void accept_loop() {
    pollfd fds[2] = {{listener, POLLIN, 0}, {wake[0], POLLIN, 0}};
    for (;;) {
      if (::poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (fds[1].revents) return;
      const int c = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      std::lock_guard lock(mutex);
      threads.emplace_back([this, c] { serve(c); });
    }
  }
};

result<std::unique_ptr<egress_proxy>> egress_proxy::start(std::vector<std::string> allowed) {
  auto i = std::make_unique<impl>();
  i->allowed = std::move(allowed);
  std::error_code ec;
  std::string dir = (std::filesystem::temp_directory_path(ec) / "tooluse-egress-XXXXXX").string();
  if (!::mkdtemp(dir.data()))
    return fail(errc::io_error, "sandbox egress proxy: mkdtemp: " + std::string(std::strerror(errno)));
  i->dir = dir;
  const std::string path = dir + "/egress.sock";
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  i->listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (i->listener < 0 || ::bind(i->listener, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::listen(i->listener, 64) != 0 || ::pipe2(i->wake, O_CLOEXEC) != 0) {
    const std::string why = std::strerror(errno);
    for (int fd : {i->listener, i->wake[0], i->wake[1]})
      if (fd >= 0) ::close(fd);
    std::filesystem::remove_all(dir, ec);
    return fail(errc::io_error, "sandbox egress proxy: listen on " + path + ": " + why);
  }
  impl* raw = i.get();
  i->threads.emplace_back([raw] { raw->accept_loop(); });
  return std::unique_ptr<egress_proxy>(new egress_proxy(std::move(i)));
}

egress_proxy::egress_proxy(std::unique_ptr<impl> i) : impl_(std::move(i)) {}

egress_proxy::~egress_proxy() {
  ::close(impl_->wake[1]);  // every poll sees the end of the pipe
  for (;;) {  // the accept thread may add one more connection thread while we join
    std::thread t;
    {
      std::lock_guard lock(impl_->mutex);
      if (impl_->threads.empty()) break;
      t = std::move(impl_->threads.front());
      impl_->threads.pop_front();
    }
    t.join();
  }
  ::close(impl_->wake[0]);
  ::close(impl_->listener);
  std::error_code ec;
  std::filesystem::remove_all(impl_->dir, ec);
}

const std::string& egress_proxy::dir() const { return impl_->dir; }

}  // namespace tooluse::sandbox::detail
