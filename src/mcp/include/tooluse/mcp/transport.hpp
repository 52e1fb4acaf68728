#pragma once
/// \file transport.hpp
/// Serving tooluse::mcp::server on message streams: stdio (newline-delimited JSON; only
/// protocol on stdout, logs go to stderr) and an in-memory client for tests. Both are
/// connections of the transport model (connection.hpp) served by mcp::serve.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "tooluse/json.hpp"
#include "tooluse/mcp/connection.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/result.hpp"

namespace tooluse::mcp {

/// serve_fd serves one connection on file descriptors: newline-delimited JSON-RPC read from
/// `in_fd`, written to `out_fd`, until end of input; then waits for running requests.
/// It is serve(srv, *fd_connection(in_fd, out_fd)).
/// Errors: errc::io_error if reading or writing fails.
status serve_fd(server& srv, int in_fd, int out_fd, const stream_options& options = {});

/// serve_stdio is serve_fd on stdin and stdout.
status serve_stdio(server& srv, const stream_options& options = {});

/// memory_client is the client end of an in-memory connection to a server, for tests: send
/// messages, receive what the server writes, in order. Thread-safe. It is a memory_pipe whose
/// other end the server serves (mcp::serve) on a thread of its own. send() returns once the
/// message is queued: wait for a reply (receive, request) to know it was handled.
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
