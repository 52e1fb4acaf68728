#pragma once
/// \file http_server.hpp
/// The Streamable HTTP transport for tooluse::mcp::server, on Boost.Beast (hidden here).
/// One endpoint (default /mcp): POST answered with JSON or an SSE stream, GET (session event
/// stream, resumable with Last-Event-ID), DELETE (ends a session); Mcp-Session-Id sessions
/// with idle expiry for the handshake revisions, and the stateless 2026-07-28 revision with
/// its header checks (MCP-Protocol-Version, Mcp-Method, Mcp-Name) and subscriptions/listen.
/// Security: binds 127.0.0.1 by default, validates Host and Origin (403), optional bearer
/// token, limits on header and body size, connections, sessions, streams and pending
/// requests per session, and a deadline on every phase of a connection.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "tooluse/mcp/http_auth_hook.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/session_store.hpp"
#include "tooluse/result.hpp"

namespace tooluse::mcp {

/// http_options configure the HTTP transport. Every limit has a default that a normal client
/// never meets; a request over a limit gets the HTTP status shown and a JSON-RPC error whose
/// message and data.limit name the option (docs/limits.md, "HTTP server").
struct http_options {
  std::string host = "127.0.0.1";  ///< address to bind; "0.0.0.0" exposes the server
  unsigned short port = 0;         ///< 0 picks a free port (see http_server::port)
  std::string path = "/mcp";       ///< the MCP endpoint
  /// allowed_hosts are accepted Host/Origin host names (ports ignored). Empty: localhost,
  /// 127.0.0.1 and [::1] when bound to a loopback address, no check otherwise.
  std::vector<std::string> allowed_hosts;
  std::string bearer_token;  ///< when set, requests need "Authorization: Bearer <token>" (401)
  /// authorize, when set, is asked about every request (OAuth resource server: see
  /// http_auth_hook.hpp); other paths are offered to it before they get 404. It runs on the
  /// handler pool (it may fetch keys or introspect tokens).
  http_auth_hook authorize;
  int threads = 0;           ///< I/O threads; 0: the number of cores
  /// session_store, when set, keeps the sessions of the handshake revisions (2025-11-25 and
  /// before) where other replicas see them: a request for a session this server does not hold
  /// is served from the stored record, and the session's notifications reach whichever replica
  /// holds its GET stream (docs/deploy.md). Null: sessions live in this process only.
  /// The stateless 2026-07-28 requests never use it.
  std::shared_ptr<mcp::session_store> session_store;

  // Sizes.
  std::size_t max_header_bytes = 16 * 1024;      ///< request line + header fields (431)
  std::size_t max_header_count = 100;            ///< header fields per request (431)
  std::size_t max_body_bytes = 4 * 1024 * 1024;  ///< request body (413)
  std::size_t max_outbound_bytes = 8 * 1024 * 1024;  ///< unwritten bytes per connection; a
                                                     ///< peer that does not read is dropped
  // Counts.
  /// max_connections open at once. At the limit a new connection evicts the connection that
  /// has waited longest for a request header (idle or half-sent); if none, it gets 503.
  std::size_t max_connections = 16384;
  /// max_sessions open at once. At the limit, initialize evicts the least recently used
  /// session that has no stream and no running request and is either unused since initialize
  /// or idle for session_evict_idle; if none, 503.
  std::size_t max_sessions = 1024;
  std::size_t max_streams_per_session = 32;       ///< open SSE streams per session (429)
  std::size_t max_pending_per_session = 64;       ///< requests being handled per session (429)
  std::size_t max_pending_requests = 4096;        ///< requests being handled in all (503)
  std::size_t handler_threads = 64;               ///< threads for requests that may block

  // Deadlines.
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};  ///< keep-alive wait (close)
  std::chrono::milliseconds header_timeout{std::chrono::seconds(10)};  ///< first byte to end of header (408)
  std::chrono::milliseconds body_timeout{std::chrono::seconds(30)};  ///< whole body (408)
  std::chrono::milliseconds write_timeout{std::chrono::seconds(30)};  ///< each write, SSE included (close)
  std::chrono::seconds session_idle{std::chrono::minutes(30)};  ///< idle sessions expire
  std::chrono::seconds session_evict_idle{std::chrono::minutes(5)};  ///< see max_sessions

  std::chrono::milliseconds sse_retry{1000};  ///< "retry" sent in priming events
  std::chrono::seconds keepalive{15};         ///< comment lines on idle long-lived streams
  std::size_t replay_events = 256;            ///< events kept per stream for Last-Event-ID
  /// fast_calls serves the common 2026-07-28 tools/call (a registry tool the execution engine
  /// runs inline, a plain `_meta`) with fewer layers and the same answer (design/mcp-server.md);
  /// false sends every request the general way.
  bool fast_calls = true;
};

/// http_server_stats are counters for monitoring and tests.
struct http_server_stats {
  std::size_t connections = 0;  ///< open connections
  std::size_t idle_connections = 0;  ///< waiting for (the rest of) a request header
  std::size_t sessions = 0;     ///< open sessions
};

/// http_server serves `srv` over Streamable HTTP. start() binds and returns; the server runs
/// on its own threads until stop() or destruction: `threads` I/O threads (Boost.Asio) read and
/// write every connection without blocking; requests that may block (tools, prompts, reads)
/// run on up to handler_threads other threads, and quick ones (ping, lists, a synchronous
/// tool on the execution engine's fast path) on the I/O thread. design/mcp-server.md.
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
  /// stats returns current counters.
  http_server_stats stats() const;
  /// wait blocks until stop() is called (e.g. from a signal handler thread).
  void wait();

  struct impl;

 private:
  std::shared_ptr<impl> impl_;
};

}  // namespace tooluse::mcp
