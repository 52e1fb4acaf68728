// The network allowlist: with allowed_hosts, traffic leaves a sandbox only through the host's
// egress proxy (an HTTP CONNECT proxy on a Unix socket bound into it), which connects to the
// listed host names only; the sandbox's own network namespace still has no route out.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <filesystem>
#include <thread>

#include "sandbox/egress.hpp"
#include "sandbox_test_util.hpp"

namespace {
namespace sb = tooluse::sandbox;
using tooluse::testing::sandbox_fixture;

// A loopback server of the host that greets each connection, until destroyed.
struct greeter {
  int listener = -1, port = 0;
  int wake[2] = {-1, -1};
  std::thread thread;
  greeter() {
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
        const char hello[] = "hello from the host\n";
        (void)!::write(c, hello, sizeof hello - 1);
        ::close(c);
      }
    });
  }
  ~greeter() {
    ::close(wake[1]);
    thread.join();
    ::close(wake[0]);
    ::close(listener);
  }
};

// Python inside: connect to the proxy's socket, send `request`, print the whole answer.
std::string through_proxy(const std::string& request) {
  return "import os, socket\n"
         "s = socket.socket(socket.AF_UNIX)\n"
         "s.connect(os.environ['TOOLUSE_EGRESS_SOCKET'])\n"
         "s.sendall(b'" + request + "')\n"
         "data = b''\n"
         "while True:\n"
         "    d = s.recv(4096)\n"
         "    if not d: break\n"
         "    data += d\n"
         "print(data.decode())\n";
}

TEST(egress_allowlist, matches_names_and_wildcard_subdomains_only) {
  const std::vector<std::string> allowed = {"api.example.com", "*.pypi.org", "LOCALHOST"};
  EXPECT_TRUE(sb::detail::host_allowed(allowed, "api.example.com"));
  EXPECT_TRUE(sb::detail::host_allowed(allowed, "API.Example.com"));
  EXPECT_TRUE(sb::detail::host_allowed(allowed, "files.pypi.org"));
  EXPECT_TRUE(sb::detail::host_allowed(allowed, "localhost"));
  EXPECT_FALSE(sb::detail::host_allowed(allowed, "pypi.org"));
  EXPECT_FALSE(sb::detail::host_allowed(allowed, "evilpypi.org"));
  EXPECT_FALSE(sb::detail::host_allowed(allowed, "example.com"));
  EXPECT_FALSE(sb::detail::host_allowed(allowed, "api.example.com.evil.net"));
}

TEST_F(sandbox_fixture, egress_an_allowed_host_is_reached_through_the_proxy) {
  greeter g;
  policy.allowed_hosts = {"localhost"};
  const std::string port = std::to_string(g.port);
  auto r = py(through_proxy("CONNECT localhost:" + port + " HTTP/1.1\\r\\nHost: localhost:" + port +
                            "\\r\\n\\r\\n"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("HTTP/1.1 200 Connection established"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hello from the host"), std::string::npos) << r.out;
}

TEST_F(sandbox_fixture, egress_plain_http_to_an_allowed_host_is_forwarded) {
  greeter g;
  policy.allowed_hosts = {"localhost"};
  const std::string port = std::to_string(g.port);
  auto r = py(through_proxy("GET http://localhost:" + port + "/ HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n"));
  EXPECT_NE(r.out.find("hello from the host"), std::string::npos) << r.out << r.err;
}

TEST_F(sandbox_fixture, egress_a_host_not_in_the_list_is_refused_with_a_message) {
  policy.allowed_hosts = {"localhost"};
  auto r = py(through_proxy("CONNECT example.com:443 HTTP/1.1\\r\\n\\r\\n"));
  EXPECT_NE(r.out.find("HTTP/1.1 403 Forbidden"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("\"example.com\" is not in the network allowlist (allowed: localhost)"),
            std::string::npos)
      << r.out;
  // An IP address is a host name like any other: not listed, not reached.
  auto ip = py(through_proxy("CONNECT 127.0.0.1:22 HTTP/1.1\\r\\n\\r\\n"));
  EXPECT_NE(ip.out.find("403"), std::string::npos) << ip.out;
}

TEST_F(sandbox_fixture, egress_direct_connections_still_fail) {
  greeter g;
  policy.allowed_hosts = {"localhost"};
  auto r = py("import socket\n"
              "for addr in [('127.0.0.1', " + std::to_string(g.port) + "), ('1.1.1.1', 443)]:\n"
              "    try:\n"
              "        socket.create_connection(addr, timeout=2)\n"
              "        print('connected', addr)\n"
              "    except OSError as e:\n"
              "        print('refused', addr)\n");
  EXPECT_EQ(r.out.find("connected"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("refused ('1.1.1.1', 443)"), std::string::npos) << r.out << r.err;
}

TEST_F(sandbox_fixture, egress_without_an_allowlist_there_is_no_proxy) {
  auto r = sh("echo \"socket=${TOOLUSE_EGRESS_SOCKET:-none}\"; ls /run/tooluse 2>&1 || true");
  EXPECT_NE(r.out.find("socket=none"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("No such file"), std::string::npos) << r.out;
}

// A kept process (a stdio MCP server) gets its own proxy, owned by prepared::resources: the
// command line binds its socket and sets the proxy variables, and the proxy serves until the
// resources go.
TEST(egress_allowlist, a_kept_process_gets_a_proxy_that_lives_with_it) {
  sb::policy p;
  p.allowed_hosts = {"api.example.com"};
  auto r = sb::prepare(p, {.argv = {"true"}, .work_dir = "."});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->resources);
  std::string joined;
  for (const auto& a : r->argv) joined += a + " ";
  EXPECT_NE(joined.find("/run/tooluse"), std::string::npos) << joined;
  EXPECT_NE(joined.find("HTTPS_PROXY http://127.0.0.1:3128"), std::string::npos) << joined;
  // The socket bound into the sandbox is the host folder given to --ro-bind.
  std::string dir;
  for (std::size_t i = 0; i + 2 < r->argv.size(); ++i)
    if (r->argv[i] == "--ro-bind" && r->argv[i + 2] == "/run/tooluse") dir = r->argv[i + 1];
  ASSERT_FALSE(dir.empty()) << joined;
  EXPECT_TRUE(std::filesystem::exists(dir + "/egress.sock"));
  r->resources.reset();
  EXPECT_FALSE(std::filesystem::exists(dir + "/egress.sock"));
}

TEST(egress_allowlist, an_allowlist_with_host_network_is_refused) {
  sb::policy p;
  p.allowed_hosts = {"api.example.com"};
  p.host_network = true;
  auto r = sb::prepare(p, {.argv = {"true"}, .work_dir = "."});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, tooluse::errc::invalid_argument);
  EXPECT_NE(r.error().message.find("exclude each other"), std::string::npos) << r.error().message;
}

}  // namespace
