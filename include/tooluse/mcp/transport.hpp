#pragma once
/// \file transport.hpp
/// Message-stream transports for tooluse::mcp::server: stdio (newline-delimited JSON; only
/// protocol on stdout, logs go to stderr) and an in-memory client/server pair for tests.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "tooluse/json.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/result.hpp"

namespace tooluse::mcp {

/// stream_options tune a message-stream transport.
struct stream_options {
  int max_concurrent_requests = 64;  ///< requests handled at once; more wait for a slot
  std::size_t max_line_bytes = 16 * 1024 * 1024;  ///< longer lines get a -32600 error
};

/// serve_fd serves one connection on file descriptors: newline-delimited JSON-RPC read from
/// `in_fd`, written to `out_fd`, until end of input; then waits for running requests.
/// Errors: errc::io_error if reading or writing fails.
status serve_fd(server& srv, int in_fd, int out_fd, const stream_options& options = {});

/// serve_stdio is serve_fd on stdin and stdout.
status serve_stdio(server& srv, const stream_options& options = {});

/// memory_client is the client end of an in-memory connection to a server, for tests: send
/// messages, receive what the server writes, in order. Thread-safe.
/// Example:
///   mcp::memory_client c(server);
///   c.send(json{{"jsonrpc","2.0"},{"id",1},{"method","ping"}});
///   auto reply = c.receive(std::chrono::seconds(5));
class memory_client {
 public:
  explicit memory_client(server& srv, const stream_options& options = {});
  ~memory_client();
  memory_client(const memory_client&) = delete;
  memory_client& operator=(const memory_client&) = delete;

  /// send delivers one message (or any text, to test framing) to the server.
  void send(const json& message);
  void send_text(const std::string& line);
  /// receive waits up to `timeout` for the next message the server wrote.
  std::optional<json> receive(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  /// request sends a request and returns its response, collecting any other messages that
  /// arrive first into `others` when given.
  std::optional<json> request(const json& req, std::vector<json>* others = nullptr,
                              std::chrono::milliseconds timeout = std::chrono::seconds(10));
  /// close ends the connection and waits for running requests.
  void close();

  struct impl;

 private:
  std::unique_ptr<impl> impl_;
};

}  // namespace tooluse::mcp
