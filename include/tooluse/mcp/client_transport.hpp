#pragma once
/// \file client_transport.hpp
/// tooluse::mcp::client_transport, how an MCP client reaches one server: a child process over
/// stdio or Streamable HTTP. The client (client.hpp) owns the protocol (handshake, ids,
/// timeouts); a transport only moves JSON-RPC messages and reports when the connection ends.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"

namespace tooluse::mcp {

/// transport_handlers are a transport's callbacks into its client. They are called from the
/// transport's own threads, one message at a time per incoming stream.
struct transport_handlers {
  /// on_message receives every message from the server: responses, requests, notifications.
  std::function<void(json message)> on_message;
  /// on_closed is called once when the connection ends for good (the child exited, the
  /// session was deleted); `reason` says why. Not called after close().
  std::function<void(const error& reason)> on_closed;
  /// on_send_failed reports that a request sent earlier will get no reply through
  /// on_message (HTTP: the POST failed after send() returned). `id` is the request's id. A
  /// lost session (HTTP 404 for a known Mcp-Session-Id) is errc::not_found with
  /// jsonrpc_code session_not_found_code: the client then redoes the handshake and retries.
  /// May be empty for transports that never fail this way (stdio).
  std::function<void(const json& id, const error& reason)> on_send_failed;
};

/// session_not_found_code marks, in error::jsonrpc_code, a server that forgot our session.
inline constexpr int session_not_found_code = -32001;

/// header_list is a list of extra HTTP header fields (name, value).
using header_list = std::vector<std::pair<std::string, std::string>>;

/// client_transport moves JSON-RPC messages between an MCP client and one server.
/// send() is thread-safe; start() is called once, before any send().
class client_transport {
 public:
  virtual ~client_transport() = default;

  /// start connects (spawns the child, for stdio) and begins delivering incoming messages.
  /// Errors: errc::io_error / errc::network_error naming the server when it cannot start.
  virtual status start(transport_handlers handlers) = 0;

  /// send delivers one JSON-RPC message (request, notification or response). Replies arrive
  /// through on_message, whatever the transport (HTTP: in the POST's JSON or SSE body).
  virtual status send(const json& message) = 0;

  /// send_with_headers is send() with extra HTTP headers (2026-07-28 `Mcp-Param-*`); the
  /// default (transports without headers) ignores them.
  virtual status send_with_headers(const json& message, const header_list& headers) {
    (void)headers;
    return send(message);
  }

  /// carries_headers tells whether send_with_headers uses its headers (HTTP does). The client
  /// then drops tools whose `x-mcp-header` annotations are invalid, as 2026-07-28 requires.
  virtual bool carries_headers() const { return false; }

  /// abandon tells the transport that the client gave up waiting for request `id` (timeout,
  /// cancellation); HTTP closes that request's response stream. The default does nothing.
  virtual void abandon(const json& id) { (void)id; }

  /// set_protocol_version tells the transport the negotiated revision; the HTTP transport
  /// sends it as the MCP-Protocol-Version header. The default ignores it.
  virtual void set_protocol_version(std::string_view version) { (void)version; }

  /// close ends the connection: stdio closes the child's stdin, then sends SIGTERM, then
  /// SIGKILL; HTTP sends DELETE for its session. Idempotent; on_closed is not called.
  virtual void close() = 0;

  /// describe names the server for messages and logs, e.g. "stdio server `npx -y
  /// @modelcontextprotocol/server-memory`" or "http://127.0.0.1:3000/mcp".
  virtual std::string describe() const = 0;
};

/// split_command splits a shell-like command line ("npx -y pkg --flag 'a b'") into words:
/// whitespace separates, single and double quotes group, a backslash escapes the next
/// character outside single quotes. No expansion of variables or globs.
/// Errors: errc::invalid_argument for an unterminated quote or an empty command.
result<std::vector<std::string>> split_command(std::string_view command_line);

}  // namespace tooluse::mcp
