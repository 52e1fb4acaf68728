#pragma once
/// \file client_transport.hpp
/// tooluse::mcp::client_transport, how an MCP client reaches one server: a child process over
/// stdio or Streamable HTTP. The client (client.hpp) owns the protocol (handshake, ids,
/// timeouts); a transport only moves JSON-RPC messages and reports when the connection ends.

#include <functional>
#include <string>
#include <string_view>
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
};

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
