// Escape tests, network: with the default policy a sandboxed process reaches no listener of the
// host (TCP, UDP, abstract and path Unix sockets), no DNS and no outside address.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cstddef>
#include <cstring>

#include "sandbox_test_util.hpp"

namespace {
namespace sb = tooluse::sandbox;
using tooluse::testing::sandbox_fixture;

struct socket_guard {
  int fd;
  ~socket_guard() { ::close(fd); }
};

int loopback_socket(int type, int& port) {
  int fd = ::socket(AF_INET, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  if (type == SOCK_STREAM) ::listen(fd, 8);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  port = ntohs(a.sin_port);
  return fd;
}

TEST_F(sandbox_fixture, escape_net_tcp_to_a_host_listener) {
  int port = 0;
  socket_guard s{loopback_socket(SOCK_STREAM, port)};
  const std::string connect = "import socket; s=socket.create_connection(('127.0.0.1', " +
                              std::to_string(port) + "), timeout=2); print('connected')";
  auto r = py(connect);
  EXPECT_EQ(r.out.find("connected"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("Connection refused"), std::string::npos) << r.err;
  EXPECT_EQ(::accept(s.fd, nullptr, nullptr), -1);  // nothing arrived
  // Control: with the host network shared the same probe connects, so the probe is valid.
  policy.host_network = true;
  auto shared = py(connect);
  EXPECT_EQ(shared.out, "connected\n") << shared.err;
}

TEST_F(sandbox_fixture, escape_net_udp_to_a_host_socket) {
  int port = 0;
  socket_guard s{loopback_socket(SOCK_DGRAM, port)};
  auto r = py("import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
              "s.sendto(b'leak', ('127.0.0.1', " + std::to_string(port) + ")); print('sent')");
  char buf[16];
  // Loopback delivery is synchronous: had the datagram reached the host it would be queued.
  EXPECT_EQ(::recv(s.fd, buf, sizeof buf, 0), -1);
}

TEST_F(sandbox_fixture, escape_net_dns_and_outside_addresses) {
  auto r = sh("getent hosts debian.org && echo resolved; "
              "python3 -c \"import socket; socket.create_connection(('1.1.1.1', 53), timeout=2)\" 2>&1; "
              "python3 -c \"import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'x', ('8.8.8.8', 53))\" 2>&1; "
              "cat /etc/resolv.conf >/dev/null; ls /sys/class/net 2>&1; cat /proc/net/dev | tail -n +3");
  EXPECT_EQ(r.out.find("resolved"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Network is unreachable"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("eth"), std::string::npos) << r.out;  // only lo exists inside
}

TEST_F(sandbox_fixture, escape_net_abstract_unix_socket) {
  // Abstract Unix sockets belong to a network namespace: the host's are out of reach.
  const std::string name = "tooluse-escape-" + std::to_string(::getpid());
  socket_guard s{::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)};
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path + 1, name.data(), name.size());
  ASSERT_EQ(::bind(s.fd, reinterpret_cast<sockaddr*>(&a),
                   static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size())), 0);
  ASSERT_EQ(::listen(s.fd, 8), 0);
  auto r = py("import socket; s=socket.socket(socket.AF_UNIX); s.connect('\\0" + name + "'); print('connected')");
  EXPECT_EQ(r.out.find("connected"), std::string::npos) << r.out;
  EXPECT_EQ(::accept(s.fd, nullptr, nullptr), -1);
}

TEST_F(sandbox_fixture, escape_net_unix_socket_path_on_the_host) {
  // A path socket outside the work folder (docker.sock-like) is not in the view.
  const std::string path = (base.path() / "host.sock").string();
  socket_guard s{::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)};
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.data(), path.size());
  ASSERT_EQ(::bind(s.fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(s.fd, 8), 0);
  auto r = py("import socket; s=socket.socket(socket.AF_UNIX); s.connect('" + path +
              "'); print('connected')");
  EXPECT_EQ(r.out.find("connected"), std::string::npos) << r.out;
  EXPECT_EQ(::accept(s.fd, nullptr, nullptr), -1);
  auto run = sh("ls /run/docker.sock /var/run/docker.sock /run/dbus 2>&1");
  EXPECT_EQ(run.out.find("docker.sock\n"), std::string::npos) << run.out;
}

}  // namespace
