// Holds N sockets that each sent half a request to an MCP HTTP server, then times real
// requests (a stateless tools/call of the calculator) on a fresh connection, and reports the
// server's RSS growth. Used by bench/mcp_http_bench.sh (issue 14: "10,000 idle sockets
// holding half a request: a real request is still answered within 100 ms; memory grows by at
// most 200 MB").
// usage: bench_idle_sockets PORT N SERVER_PID [REQUESTS]
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

long rss_kib(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

int connect_to(unsigned short port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  timeval tv{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

const char* body =
    R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculator","arguments":{"expression":"1+1"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})";

// real_request sends one complete request on a new connection; returns ms, or -1.
double real_request(unsigned short port) {
  const auto start = std::chrono::steady_clock::now();
  int fd = connect_to(port);
  if (fd < 0) return -1;
  std::string b = body;
  std::string req = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                    "Mcp-Method: tools/call\r\nMcp-Name: calculator\r\nConnection: close\r\nContent-Length: " +
                    std::to_string(b.size()) + "\r\n\r\n" + b;
  ::send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  std::string got;
  char buf[4096];
  for (;;) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    got.append(buf, static_cast<std::size_t>(n));
    if (got.find("\"result\"") != std::string::npos) break;
  }
  ::close(fd);
  if (got.rfind("HTTP/1.1 200", 0) != 0) return -1;
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: bench_idle_sockets PORT N SERVER_PID [REQUESTS]\n");
    return 2;
  }
  const auto port = static_cast<unsigned short>(std::atoi(argv[1]));
  const int n = std::atoi(argv[2]);
  const int pid = std::atoi(argv[3]);
  const int requests = argc > 4 ? std::atoi(argv[4]) : 20;
  rlimit lim{};
  getrlimit(RLIMIT_NOFILE, &lim);
  lim.rlim_cur = lim.rlim_max;
  setrlimit(RLIMIT_NOFILE, &lim);
  const double before_ms = real_request(port);
  const long rss0 = rss_kib(pid);
  std::vector<int> fds;
  fds.reserve(static_cast<std::size_t>(n));
  const std::string half = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: applic";
  for (int i = 0; i < n; ++i) {
    int fd = connect_to(port);
    if (fd < 0) {
      std::fprintf(stderr, "connect %d failed\n", i);
      break;
    }
    ::send(fd, half.data(), half.size(), MSG_NOSIGNAL);
    fds.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));  // let the server take them all in
  std::vector<double> ms;
  int failed = 0;
  for (int i = 0; i < requests; ++i) {
    double t = real_request(port);
    if (t < 0) ++failed;
    else ms.push_back(t);
  }
  const long rss1 = rss_kib(pid);
  // How many of the half-request sockets the server still holds open.
  int open = 0;
  for (int fd : fds) {
    char c;
    ssize_t r = ::recv(fd, &c, 1, MSG_DONTWAIT);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) ++open;
  }
  std::sort(ms.begin(), ms.end());
  auto pct = [&](double p) { return ms.empty() ? -1.0 : ms[std::min(ms.size() - 1, static_cast<std::size_t>(p * ms.size()))]; };
  std::printf("idle half-requests: %zu held (%d still open), real requests: %zu ok, %d failed; "
              "latency before %.2f ms, with them median %.2f ms, max %.2f ms; server RSS %ld -> %ld KiB (+%ld MiB)\n",
              fds.size(), open, ms.size(), failed, before_ms, pct(0.5), ms.empty() ? -1.0 : ms.back(), rss0, rss1,
              (rss1 - rss0) / 1024);
  for (int fd : fds) ::close(fd);
  return failed == 0 ? 0 : 1;
}
