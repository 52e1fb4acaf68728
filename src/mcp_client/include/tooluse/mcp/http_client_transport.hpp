#pragma once
/// \file http_client_transport.hpp
/// tooluse::mcp::http_client_transport, the client side of Streamable HTTP: each message is a
/// POST (Accept: application/json, text/event-stream) answered by JSON or an SSE stream; SSE
/// streams that end before their response are resumed with GET + Last-Event-ID after the
/// server's `retry` delay; Mcp-Session-Id is kept and sent; MCP-Protocol-Version is the
/// revision each write states (outgoing::protocol_version; the latest for GET and DELETE); a
/// 404 for a known session is reported so the client re-initialises; the optional GET stream
/// carries server-initiated messages (2025 revisions); a `notifications/cancelled` written with
/// the id of the request it cancels (outgoing::request) closes that request's response stream;
/// close() DELETEs the session. With 2026-07-28 it also sends Mcp-Method, Mcp-Name and the
/// Mcp-Param-* headers of outgoing::headers (start() says connection_info::carries_headers).

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tooluse/auth/oauth.hpp"
#include "tooluse/http/client.hpp"
#include "tooluse/mcp/client_transport.hpp"

namespace tooluse::mcp {

/// http_client_options configure a Streamable HTTP connection.
struct http_client_options {
  std::string url;  ///< the MCP endpoint, e.g. "http://127.0.0.1:3000/mcp"
  /// headers are sent on every request (e.g. {"X-Api-Key", "..."}).
  std::vector<std::pair<std::string, std::string>> headers;
  /// bearer_token, when set, is sent as `Authorization: Bearer <token>`.
  std::string bearer_token;
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(10)};
  /// idle_timeout fails a response stream silent for this long (0: never).
  std::chrono::milliseconds idle_timeout{std::chrono::minutes(5)};
  /// max_stream_duration closes a response or GET stream open this long, so a server that
  /// keeps a stream alive forever (comments, pings) cannot hold it; a GET stream is then
  /// resumed with Last-Event-ID. 0: no bound.
  std::chrono::milliseconds max_stream_duration{std::chrono::minutes(30)};
  /// max_message_bytes bounds one message: a JSON response body or one SSE event, refused
  /// with errc::limit_exceeded as the bytes arrive (the request fails, the connection lives).
  std::size_t max_message_bytes = 16u << 20;
  /// open_get_stream opens the GET stream for server-initiated messages after a 2025
  /// handshake, at the first write under its revision (servers may answer 405; then there is
  /// none).
  bool open_get_stream = true;
  /// get_stream_wait: the write that opens the GET stream returns once the server has answered
  /// the GET (its status and headers) or after this long, so that a request the server sends
  /// on it right after the handshake finds it open (servers drop what they cannot send: the
  /// TypeScript SDK's does). 0: do not wait.
  std::chrono::milliseconds get_stream_wait{std::chrono::seconds(2)};
  /// max_reconnects bounds consecutive reconnections of one stream without a new event.
  int max_reconnects = 5;
  /// default_retry is the reconnection delay when the server sent no `retry` field.
  std::chrono::milliseconds default_retry{std::chrono::seconds(1)};
  /// authorizer, when set, supplies the Authorization (and DPoP) headers of every request and
  /// is told of 401/403 answers, after which the request is sent again when it says so (at
  /// most 3 times): OAuth per the MCP authorization spec (tooluse/auth/oauth.hpp).
  std::shared_ptr<auth::http_authorizer> authorizer;
  /// sender performs the HTTP exchanges (tests may wrap it); empty means http::send.
  http::transport sender;
};

/// make_http_client_transport creates a Streamable HTTP transport. Nothing is sent before the
/// client's first message. Throws std::invalid_argument when the URL is not http(s)://.
std::unique_ptr<client_transport> make_http_client_transport(http_client_options options);

}  // namespace tooluse::mcp
