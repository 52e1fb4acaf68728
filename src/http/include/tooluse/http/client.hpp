#pragma once
/// \file client.hpp
/// tooluse::http client side: one function that sends a request and returns the response, with
/// connect and idle-read timeouts, an optional streaming body callback and cancellation through
/// a std::stop_token, on the process's connection pool (pool.hpp). Backed by libcurl, never
/// visible here. Proxies come from the environment (http_proxy, https_proxy, no_proxy).

#include <chrono>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/result.hpp"

namespace tooluse::http {

/// header is one HTTP header field. Names compare case-insensitively (find_header).
struct header {
  std::string name;
  std::string value;
  bool operator==(const header&) const = default;
};

/// find_header returns the value of the first header named `name` (case-insensitive).
std::optional<std::string> find_header(const std::vector<header>& headers, std::string_view name);

/// request is one outbound HTTP request.
struct request {
  std::string method = "GET";
  std::string url;  ///< absolute http:// or https:// URL
  std::vector<header> headers;
  std::string body;
  /// Deadlines on every wait on the peer (docs/limits.md). Each failure is errc::timeout and
  /// names the option that fired.
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(10)};
  /// first_byte_timeout fails the transfer when the response has not begun this long after
  /// the request started; 0: only read_timeout applies.
  std::chrono::milliseconds first_byte_timeout{0};
  /// read_timeout fails the transfer when no byte arrives for this long; 0 disables it.
  std::chrono::milliseconds read_timeout{std::chrono::seconds(120)};
  /// total_timeout bounds the whole exchange, so a peer trickling one byte a second cannot
  /// hold it forever; 0 means no bound (only for streams that are meant to stay open).
  std::chrono::milliseconds total_timeout{std::chrono::minutes(10)};
  /// max_response_bytes bounds the body (buffered or streamed, after decompression);
  /// more fails with errc::limit_exceeded as the bytes arrive. 0 means no bound.
  std::size_t max_response_bytes = 64u << 20;
  /// max_header_bytes bounds the response's header block (all lines together).
  std::size_t max_header_bytes = 256u << 10;
  /// allow_address, when set, is asked with the numeric IP address of every connection about
  /// to be opened, after name resolution; false refuses it and send fails with
  /// errc::permission_denied. Checking here rather than before the request closes the DNS
  /// rebinding window. With a proxy configured, the address checked is the proxy's.
  std::function<bool(std::string_view numeric_ip)> allow_address;
};

/// response is a received response. With a body callback, `body` stays empty.
struct response {
  int status = 0;
  std::vector<header> headers;
  std::string body;

  /// header returns the value of the first header named `name` (case-insensitive).
  std::optional<std::string> header_value(std::string_view name) const {
    return find_header(headers, name);
  }
};

/// body_callback receives body bytes as they arrive; returning false aborts the transfer
/// (send then fails with errc::cancelled).
using body_callback = std::function<bool(std::string_view chunk)>;

/// headers_callback is told the status and headers before the first body byte.
using headers_callback = std::function<void(int status, const std::vector<header>& headers)>;

/// send_options are per-call hooks: streaming and cancellation.
struct send_options {
  body_callback on_body;        ///< when set, the body is streamed here instead of buffered
  headers_callback on_headers;  ///< may be empty
  std::stop_token stop;         ///< a stop request aborts the transfer promptly
};

/// send performs `req` and returns the response whatever its status (4xx/5xx are responses,
/// not errors). Thread-safe; callbacks run on the calling thread; connections are pooled.
/// Errors: errc::invalid_argument for a malformed URL or one that is not http:// or https://
/// (libcurl's other protocols, file:// among them, are never used); errc::timeout when a deadline passes
/// (connect, first byte, idle, total: the message names it); errc::limit_exceeded when the
/// headers or body pass max_header_bytes / max_response_bytes; errc::cancelled on a stop
/// request or when on_body returns false;
/// errc::network_error when the connection fails or breaks (message names the URL's host).
result<response> send(const request& req, const send_options& options = {});

/// transport is a replaceable sender with send()'s contract; record/replay and tests wrap it.
using transport = std::function<result<response>(const request&, const send_options&)>;

/// default_transport returns a transport calling http::send.
transport default_transport();

}  // namespace tooluse::http
