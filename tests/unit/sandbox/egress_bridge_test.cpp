// The egress bridge: programs that know only a TCP proxy (curl, pip, Python's urllib) reach the
// host's egress proxy through HTTP(S)_PROXY=http://127.0.0.1:3128, a listener on the sandbox's
// own loopback that the launcher bridges to the proxy's Unix socket. The proxy still decides:
// a listed host is reached, another is refused, and nothing leaves directly.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <thread>

#include "sandbox_test_util.hpp"

namespace egress_bridge_test {
namespace {
namespace sb = tooluse::sandbox;
using tooluse::testing::sandbox_fixture;

// A loopback HTTP server of the host: answers every request with 200 and a fixed body, and counts
// the connections it accepted.
struct http_host {
  int listener = -1, port = 0;
  int wake[2] = {-1, -1};
  std::atomic<int> accepted{0};
  std::thread thread;
  http_host() {
    listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(listener, 8);
    socklen_t len = sizeof a;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
    if (::pipe(wake) != 0) ADD_FAILURE() << "pipe";
    thread = std::thread([this] {
      pollfd fds[2] = {{listener, POLLIN, 0}, {wake[0], POLLIN, 0}};
      while (::poll(fds, 2, -1) > 0 && !fds[1].revents) {
        const int c = ::accept(listener, nullptr, nullptr);
        if (c < 0) continue;
        ++accepted;
        std::string req;
        char buf[4096];
        pollfd in{c, POLLIN, 0};
        while (req.find("\r\n\r\n") == std::string::npos && ::poll(&in, 1, 5000) > 0) {
          const ssize_t n = ::read(c, buf, sizeof buf);
          if (n <= 0) break;
          req.append(buf, static_cast<std::size_t>(n));
        }
        const char reply[] =
            "HTTP/1.1 200 OK\r\nContent-Length: 20\r\nConnection: close\r\n\r\nhello from the host\n";
        (void)!::write(c, reply, sizeof reply - 1);
        ::close(c);
      }
    });
  }
  ~http_host() {
    ::close(wake[1]);
    thread.join();
    ::close(wake[0]);
    ::close(listener);
  }
  std::string url(const std::string& host) const {
    return "http://" + host + ":" + std::to_string(port) + "/";
  }
};

TEST_F(sandbox_fixture, bridge_the_proxy_variables_point_at_the_bridge) {
  policy.allowed_hosts = {"localhost"};
  auto r = sh("echo \"$HTTPS_PROXY $http_proxy\"");
  EXPECT_EQ(r.out, "http://127.0.0.1:3128 http://127.0.0.1:3128\n") << r.err;
  policy.allowed_hosts.clear();
  auto off = sh("echo \"${HTTPS_PROXY:-none}\"");
  EXPECT_EQ(off.out, "none\n");
}

TEST_F(sandbox_fixture, bridge_curl_reaches_an_allowed_host_through_https_proxy) {
  http_host h;
  policy.allowed_hosts = {"localhost"};
  // Plain HTTP (absolute-form request to the proxy), then a CONNECT tunnel (-p), which is what
  // curl does for https:// URLs.
  auto r = sh("curl -sS --max-time 10 " + h.url("localhost") + " && curl -sS -p --max-time 10 " +
              h.url("localhost"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "hello from the host\nhello from the host\n") << r.err;
  EXPECT_EQ(h.accepted.load(), 2);
}

TEST_F(sandbox_fixture, bridge_python_urllib_reaches_an_allowed_host) {
  http_host h;
  policy.allowed_hosts = {"localhost"};
  auto r = py("import urllib.request; print(urllib.request.urlopen('" + h.url("localhost") +
              "', timeout=10).read().decode(), end='')");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "hello from the host\n") << r.err;
}

TEST_F(sandbox_fixture, bridge_a_host_not_in_the_list_is_refused_and_not_reached) {
  http_host h;
  policy.allowed_hosts = {"localhost"};
  // 127.0.0.1 is the same server under a name that is not listed.
  auto r = sh("curl -sS --max-time 10 " + h.url("127.0.0.1") + "; echo \"exit=$?\"; curl -sS -p --max-time 10 " +
              h.url("127.0.0.1") + " 2>&1; echo \"exit=$?\"");
  EXPECT_NE(r.out.find("\"127.0.0.1\" is not in the network allowlist (allowed: localhost)"),
            std::string::npos)
      << r.out << r.err;
  EXPECT_NE(r.out.find("403"), std::string::npos) << r.out;  // the tunnel was refused
  EXPECT_EQ(r.out.find("hello from the host"), std::string::npos) << r.out;
  EXPECT_EQ(h.accepted.load(), 0);
}

TEST_F(sandbox_fixture, bridge_direct_tcp_udp_and_dns_still_fail) {
  http_host h;
  policy.allowed_hosts = {"localhost"};
  auto r = sh("curl -sS --noproxy '*' --max-time 5 " + h.url("127.0.0.1") + " 2>&1; echo \"exit=$?\"; " +
              "getent hosts debian.org || echo 'no dns'; python3 -c \"import socket; "
              "s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'x', ('8.8.8.8', 53))\" 2>&1 | tail -1");
  EXPECT_NE(r.out.find("exit=7"), std::string::npos) << r.out;  // couldn't connect
  EXPECT_NE(r.out.find("no dns"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Network is unreachable"), std::string::npos) << r.out;
  EXPECT_EQ(h.accepted.load(), 0);
}

TEST_F(sandbox_fixture, bridge_leaves_no_process_behind) {
  http_host h;
  policy.allowed_hosts = {"localhost"};
  // The bridge is a fork of the launcher, so its command line is the launcher's ("--bridge
  // 3128:...", then the command): the marker names this run's, not a parallel test's.
  const std::string marker = "bridge-gone-" + std::to_string(::getpid());
  auto r = sh("curl -sS --max-time 10 " + h.url("localhost") + " >/dev/null; echo ok # " + marker);
  EXPECT_EQ(r.out, "ok\n") << r.err;
  EXPECT_TRUE(tooluse::testing::processes_with_arg(marker).empty());
}

}  // namespace
}  // namespace egress_bridge_test
