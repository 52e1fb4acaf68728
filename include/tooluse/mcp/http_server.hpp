#pragma once
/// \file http_server.hpp
/// The Streamable HTTP transport for tooluse::mcp::server, on Boost.Beast (hidden here).
/// One endpoint (default /mcp): POST answered with JSON or an SSE stream, GET (session event
/// stream, resumable with Last-Event-ID), DELETE (ends a session); Mcp-Session-Id sessions
/// with idle expiry for the handshake revisions, and the stateless 2026-07-28 revision with
/// its header checks (MCP-Protocol-Version, Mcp-Method, Mcp-Name) and subscriptions/listen.
/// Security: binds 127.0.0.1 by default, validates Host and Origin (403), optional bearer
/// token, limits on body size, connections, sessions, streams per session and idle time.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "tooluse/mcp/http_auth_hook.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/result.hpp"

namespace tooluse::mcp {

/// http_options configure the HTTP transport.
struct http_options {
  std::string host = "127.0.0.1";  ///< address to bind; "0.0.0.0" exposes the server
  unsigned short port = 0;         ///< 0 picks a free port (see http_server::port)
  std::string path = "/mcp";       ///< the MCP endpoint
  /// allowed_hosts are accepted Host/Origin host names (ports ignored). Empty: localhost,
  /// 127.0.0.1 and [::1] when bound to a loopback address, no check otherwise.
  std::vector<std::string> allowed_hosts;
  std::string bearer_token;  ///< when set, requests need "Authorization: Bearer <token>" (401)
  /// authorize, when set, is asked about every request (OAuth resource server: see
  /// http_auth_hook.hpp); other paths are offered to it before they get 404.
  http_auth_hook authorize;
  std::size_t max_body_bytes = 4 * 1024 * 1024;  ///< larger bodies get 413
  std::size_t max_connections = 1024;            ///< more are refused (closed at once)
  std::size_t max_sessions = 1024;               ///< initialize beyond this gets 503
  std::size_t max_streams_per_session = 32;      ///< open SSE streams per session (429)
  std::chrono::seconds session_idle{std::chrono::minutes(30)};  ///< idle sessions expire
  std::chrono::seconds read_timeout{60};      ///< a connection silent this long is closed
  std::chrono::milliseconds sse_retry{1000};  ///< "retry" sent in priming events
  std::chrono::seconds keepalive{15};         ///< comment lines on idle long-lived streams
  std::size_t replay_events = 256;            ///< events kept per stream for Last-Event-ID
  int threads = 0;  ///< unused: the server uses one thread per connection (documented)
};

/// http_server serves `srv` over Streamable HTTP. start() binds and returns; the server runs
/// on its own threads until stop() or destruction.
/// Example:
///   mcp::http_server http(server, {.port = 8080});
///   if (auto ok = http.start(); !ok) return fail(ok.error());
///   http.wait();
class http_server {
 public:
  http_server(server& srv, http_options options = {});
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  /// start binds the address and starts accepting.
  /// Errors: errc::invalid_argument for a bad host; errc::io_error if binding fails.
  status start();
  /// port returns the bound port (after start).
  unsigned short port() const;
  /// url returns "http://host:port/path".
  std::string url() const;
  /// stop closes the listener, every connection and every session; idempotent.
  void stop();
  /// wait blocks until stop() is called (e.g. from a signal handler thread).
  void wait();

  struct impl;

 private:
  std::shared_ptr<impl> impl_;
};

}  // namespace tooluse::mcp
