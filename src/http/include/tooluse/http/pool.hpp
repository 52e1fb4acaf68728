#pragma once
/// \file pool.hpp
/// tooluse::http's connection pool: every request of the process (http::send, send_async, so
/// every provider, MCP client and exporter) goes through one libcurl multi handle driven by one
/// I/O thread; asynchronous requests complete on a second thread. Connections are kept alive
/// and reused per host, TLS sessions are resumed, HTTP/2 streams share a connection where the
/// server offers h2 over TLS, and the requests in flight to one host are bounded; those past
/// the bound wait in a queue, in order. Each request keeps its own deadlines and size limits
/// (http::request). design/http-pool.md says why it is built on curl_multi.

#include <chrono>
#include <cstdint>
#include <functional>

#include "tooluse/http/client.hpp"

namespace tooluse::http {

/// pool_options bound the shared pool. Defaults suit a process talking to a few model hosts.
struct pool_options {
  /// max_requests_per_host bounds the requests in flight to one scheme://host:port; more wait
  /// in a queue (their total_timeout runs while they wait). Over HTTP/1.1 each needs its own
  /// connection; over HTTP/2 they share a few. >= 1.
  long max_requests_per_host = 256;
  /// max_connections_per_host bounds the open connections to one host
  /// (CURLMOPT_MAX_HOST_CONNECTIONS). >= 1.
  long max_connections_per_host = 256;
  /// max_idle_connections is how many connections the pool keeps open between requests
  /// (CURLMOPT_MAXCONNECTS); the oldest idle one closes first. >= 1.
  long max_idle_connections = 1024;
};

/// pool_stats are counters since the process started.
struct pool_stats {
  std::uint64_t requests = 0;             ///< requests finished (any outcome)
  std::uint64_t connections_opened = 0;   ///< new connections made (TCP, and TLS on top)
  std::uint64_t connections_reused = 0;   ///< requests that ran on an existing connection
  std::uint64_t in_flight = 0;            ///< requests running now
  std::uint64_t queued = 0;               ///< requests waiting for a slot now
  std::uint64_t peak_queued = 0;          ///< most requests ever waiting at once
};

/// configure_pool replaces the pool's bounds; requests already in flight keep running, queued
/// ones are admitted under the new bounds. Thread-safe.
/// Errors: errc::invalid_argument if a bound is below 1 (the message names it).
status configure_pool(const pool_options& options);

/// pool_statistics returns the pool's counters. Thread-safe.
pool_stats pool_statistics();

/// completion receives the outcome of send_async, exactly once.
using completion = std::function<void(result<response>)>;

/// send_async starts `req` on the pool and returns at once; `done` gets what http::send would
/// have returned, with the same errors. `options.on_headers` and `options.on_body` run on the
/// pool's I/O thread, before `done`, which runs on the pool's completion thread (one thread for
/// every request's completion, so the I/O thread moves bytes meanwhile). None of them may block
/// (never call http::send from them); a stop request on `options.stop` ends the transfer with
/// errc::cancelled. Thread-safe.
/// Example:
///   http::send_async({.url = url}, {}, [](result<http::response> r) { ... });
void send_async(request req, send_options options, completion done);

/// post runs `fn` on the pool's completion thread (where send_async's completions run) after
/// `delay` (0: as soon as it is free); a stop request on `stop` runs it early, at once. Used to
/// keep retries and continuations of asynchronous work off other threads. Thread-safe.
void post(std::function<void()> fn, std::chrono::milliseconds delay = {}, std::stop_token stop = {});

/// on_pool_thread tells whether the caller is one of the pool's two threads (its I/O thread
/// or its completion thread), where http::send is refused.
bool on_pool_thread();

}  // namespace tooluse::http
