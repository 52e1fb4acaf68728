#pragma once
// One request on the pool: its libcurl easy handle, its callbacks, the limits it enforces and
// the error it ends with. Private to the http module; the pool (pool.cpp) drives it.
#include <curl/curl.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "tooluse/http/client.hpp"

namespace tooluse::http::detail {

/// body_verdict is what a body sink does with a chunk: take it, have libcurl hold it and
/// deliver it again after resume (pause), or end the transfer (abort: errc::cancelled).
enum class body_verdict { keep, pause, abort };

/// sinks receive a transfer's events on the pool's thread; `on_body` empty buffers the body.
struct sinks {
  std::function<void(int status, const std::vector<header>&)> on_headers;
  std::function<body_verdict(std::string_view)> on_body;
  std::function<void(result<response>)> done;
  /// later: `done` runs on the pool's completion thread, which also frees the transfer (what
  /// the caller's thread allocated is freed beside it, not on the I/O thread).
  bool later = false;
};

using clock = std::chrono::steady_clock;

struct transfer {
  request req;
  sinks out;
  std::string host;      ///< host[:port], for messages
  std::string host_key;  ///< scheme://host:port, the pool's queue key
  CURL* easy = nullptr;
  curl_slist* header_list = nullptr;
  char errbuf[CURL_ERROR_SIZE] = {0};

  response res;
  bool headers_reported = false;
  bool aborted_by_callback = false;
  bool paused = false;
  bool started = false;   ///< admitted (has an easy handle in the multi)
  bool finished = false;  ///< done() was called
  std::string refused_address;  ///< set when allow_address refused a connection
  clock::time_point submitted = clock::now();
  clock::time_point began = submitted;  ///< when it was admitted
  clock::time_point last_byte = submitted;
  bool got_byte = false;
  curl_off_t last_uploaded = 0;
  std::size_t header_bytes = 0;
  std::size_t body_bytes = 0;
  std::optional<tooluse::error> failure;  ///< a limit or deadline this side enforced
  /// opened, when set, is told of each connection socket libcurl opens for this transfer (the
  /// pool keeps those registered with its reactor until libcurl closes them).
  void (*opened)(void* context, curl_socket_t fd) = nullptr;
  void* opened_context = nullptr;

  /// configure sets up `easy` (a fresh or reset handle) for this request.
  void configure(CURL* handle);
  /// release frees what configure allocated (not the easy handle).
  void release();
  /// touch records that a byte arrived.
  void touch();
  /// report_headers tells on_headers once, before the first body byte.
  void report_headers();
  /// outcome turns libcurl's result into the request's.
  result<response> outcome(CURLcode code);
  /// next_deadline is the earliest time a deadline may pass (clock::time_point::max(): none).
  clock::time_point next_deadline() const;
  /// check_deadlines sets `failure` if a deadline passed at `now`; returns whether one did.
  bool check_deadlines(clock::time_point now);
  /// cancelled_error and aborted are the errors of a stop request and of an abort.
  tooluse::error cancelled_error() const;
};

/// host_of names the server in error messages: host and port, never user info or path.
std::string host_of(const std::string& url);
/// host_key_of is scheme://host:port of `url`.
std::string host_key_of(const std::string& url);
/// check_url refuses what is not an absolute http:// or https:// URL.
status check_url(const std::string& url);

/// submit queues `t` on the pool; `stop` cancels it. Thread-safe.
void submit(std::shared_ptr<transfer> t, std::stop_token stop);
/// resume has libcurl deliver again the body a sink paused. Thread-safe.
void resume(const std::shared_ptr<transfer>& t);
/// abort ends `t` with errc::cancelled ("aborted"), as a body callback returning false does.
void abort(const std::shared_ptr<transfer>& t);

}  // namespace tooluse::http::detail
