#pragma once
// Helpers for the hostile-peer tests: this process's memory, and a loopback TCP peer that
// runs a scripted (misbehaving) conversation on each connection.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace tooluse::hostile {

/// peak_rss_kb reads VmHWM (the peak resident set) of this process from /proc/self/status.
inline long peak_rss_kb() {
  std::ifstream in("/proc/self/status");
  std::string key;
  long value = 0;
  while (in >> key) {
    if (key == "VmHWM:") {
      in >> value;
      return value;
    }
    std::string rest;
    std::getline(in, rest);
  }
  return -1;
}

/// send_all writes to a socket; false once the peer is gone.
inline bool send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

/// read_request reads up to the end of the request headers (and a Content-Length body).
inline std::string read_request(int fd) {
  std::string buf;
  char c[4096];
  while (buf.find("\r\n\r\n") == std::string::npos) {
    ssize_t n = ::recv(fd, c, sizeof c, 0);
    if (n <= 0) return buf;
    buf.append(c, static_cast<std::size_t>(n));
  }
  auto cl = buf.find("Content-Length: ");
  if (cl == std::string::npos) cl = buf.find("content-length: ");
  if (cl != std::string::npos) {
    std::size_t len = std::stoul(buf.substr(cl + 16));
    std::size_t have = buf.size() - (buf.find("\r\n\r\n") + 4);
    while (have < len) {
      ssize_t n = ::recv(fd, c, sizeof c, 0);
      if (n <= 0) break;
      buf.append(c, static_cast<std::size_t>(n));
      have += static_cast<std::size_t>(n);
    }
  }
  return buf;
}

/// tcp_peer listens on 127.0.0.1 and runs `script` on every accepted connection, each on its
/// own thread, until destroyed (which shuts the sockets down so scripts stop).
class tcp_peer {
 public:
  explicit tcp_peer(std::function<void(int fd, const std::atomic<bool>& stopping)> script)
      : script_(std::move(script)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(fd_, 64);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    acceptor_ = std::thread([this] {
      for (;;) {
        int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (c < 0) return;
        if (stopping_) {
          ::close(c);
          return;
        }
        conns_.push_back(c);
        workers_.emplace_back([this, c] { script_(c, stopping_); });
      }
    });
  }
  ~tcp_peer() {
    stopping_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    acceptor_.join();
    for (int c : conns_) ::shutdown(c, SHUT_RDWR);
    for (auto& w : workers_) w.join();
    for (int c : conns_) ::close(c);
  }
  std::string url(const std::string& path = "/") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

 private:
  std::function<void(int, const std::atomic<bool>&)> script_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;
  std::vector<int> conns_;
  std::vector<std::thread> workers_;
};

}  // namespace tooluse::hostile
