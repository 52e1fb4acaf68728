#pragma once
/// \file connection.hpp
/// The transport model shared by the MCP server and the MCP client: a *connection* moves
/// JSON-RPC messages between two peers; a *transport* makes connections. The server serves a
/// connection (serve), the client talks through one (client::connect); neither knows what
/// carries the bytes. Transports: stdio (newline-delimited JSON on file descriptors, or a
/// child process for the client: stdio_client_transport.hpp), Streamable HTTP (the client's
/// http_client_transport.hpp; the server side, http_server.hpp, serves each HTTP session, and
/// each stateless request, as a connection of its own), and in memory (memory_pipe, memory_transport).
/// design/transport.md says how a message travels, thread by thread.
///
/// Concurrency contract of every connection:
///   - start() is called once, before any write(); it begins delivery to the handlers.
///   - write() (and send(), a write without envelope) is thread-safe: each message is written
///     whole (never interleaved with another), in the order the writes return on one thread.
///     It may block while the peer is slow to read (stdio: a full pipe); it never waits for
///     the peer's answer.
///   - on_message is called from the connection's one reading thread, one message at a
///     time, in arrival order. A handler that blocks stalls reading: run work that may
///     block elsewhere (the server's serve() does; the client answers on its own threads).
///   - on_closed is called at most once, after the last on_message, when the peer ends the
///     connection (errc::cancelled: an orderly end, such as the end of input; other codes: it
///     broke); never after close() returned.
///   - close() is idempotent, callable from any thread (a handler included), and returns
///     once no handler is running or will run (when called from a handler: once that
///     handler returns, the reader stops).

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"

namespace tooluse::mcp {

class server;

/// stream_options tune serving a message-stream connection (serve, serve_fd, memory_client).
struct stream_options {
  int max_concurrent_requests = 64;  ///< requests handled at once; more wait for a slot
  std::size_t max_line_bytes = 16 * 1024 * 1024;  ///< longer lines get a -32600 error
  /// Bytes of requests queued or being handled at once (their JSON's size, estimated): reading
  /// pauses while admitting the next would pass it, so a client that sends large requests and
  /// never reads the answers holds at most this much (a request alone is always admitted).
  std::size_t max_pending_bytes = 64 * 1024 * 1024;
};

/// connection_handlers are a connection's callbacks into its owner (a client or a server).
struct connection_handlers {
  /// on_message receives every message from the peer: responses, requests, notifications.
  std::function<void(json message)> on_message;
  /// on_closed is called once when the connection ends for good (the peer closed, the child
  /// exited, the session was deleted); `reason` says why. Not called after close().
  std::function<void(const error& reason)> on_closed;
  /// on_send_failed reports that a request sent earlier will get no reply through
  /// on_message (HTTP: the POST failed after send() returned; stdio: the reply was longer
  /// than the line limit). `id` is the request's id. A lost session (HTTP 404 for a known
  /// Mcp-Session-Id) is errc::not_found with jsonrpc_code session_not_found_code: the client
  /// then redoes the handshake and retries. May be empty.
  std::function<void(const json& id, const error& reason)> on_send_failed;
  /// on_bad_input reports input that is not a message: a line that is not JSON
  /// (errc::parse_error) or that breaks a limit (errc::limit_exceeded: line length, JSON
  /// depth or size); `head` is (the start of) the offending text. The server answers it with a
  /// JSON-RPC error; empty: ignored.
  std::function<void(std::string_view head, const error& why)> on_bad_input;
};

/// session_not_found_code marks, in error::jsonrpc_code, a server that forgot our session.
inline constexpr int session_not_found_code = -32001;

/// header_list is a list of extra HTTP header fields (name, value).
using header_list = std::vector<std::pair<std::string, std::string>>;

/// outgoing is one message to write and its envelope: what a transport may use beyond the
/// message itself. A message stream (stdio, in memory) writes the message and ignores the rest
/// (the stdio client counts a cancellation, see `request`). The envelope borrows: what it
/// refers to must outlive the write() call. A field a transport does not use costs it nothing.
/// Example: conn.write({.message = progress, .request = &request_id});
struct outgoing {
  const json& message;  ///< the JSON-RPC message: a request, notification or response
  /// request is the id (as in the request) of the request this message belongs to, or null.
  /// Server side: the request whose handling the message is part of (its progress and log
  /// notifications, the requests the server makes while handling it, and last its response);
  /// null for list changes, logs and resource updates not tied to a request, a task's
  /// messages. The Streamable HTTP server writes a related message on that request's POST
  /// (its JSON or SSE response), any other on the session's GET stream.
  /// Client side: a `notifications/cancelled` written with the id of the request it cancels
  /// says that the client gave up waiting for it (timeout, cancellation). The Streamable HTTP
  /// client then closes that request's response stream (under 2026-07-28, where closing the
  /// stream is the cancellation, it posts no notification); the stdio client counts it
  /// toward stdio_server_options::max_unanswered.
  const json* request = nullptr;
  /// headers are extra HTTP header fields for this message (2026-07-28 `Mcp-Param-*`), or
  /// null. The Streamable HTTP client sends them (connection_info::carries_headers).
  const header_list* headers = nullptr;
  /// protocol_version is the MCP revision the writer speaks with this message ("2025-11-25",
  /// "2026-07-28"), empty before one is negotiated (the handshake's first messages). The
  /// Streamable HTTP client sends it as the MCP-Protocol-Version header of the message's POST
  /// and of its own GET and DELETE requests until the next write, and opens the session's GET
  /// stream at the first write under a handshake revision once it has a session.
  std::string_view protocol_version = {};
};

/// connection_info is what a connection tells its owner when it starts: what it carries
/// beside each message.
struct connection_info {
  /// carries_headers: write() sends outgoing::headers (the Streamable HTTP client). The MCP
  /// client then drops tools whose `x-mcp-header` annotations are invalid, as 2026-07-28
  /// requires of a client whose transport sends them.
  bool carries_headers = false;
};

/// connection moves JSON-RPC messages to and from one peer. See the contract above.
class connection {
 public:
  virtual ~connection() = default;

  /// start connects (spawns the child, for stdio) and begins delivering incoming messages:
  /// the read side of the connection. Returns what the connection carries (connection_info).
  /// Errors: errc::io_error / errc::network_error naming the peer when it cannot start.
  virtual result<connection_info> start(connection_handlers handlers) = 0;

  /// write delivers one JSON-RPC message (request, notification or response) with its
  /// envelope. Replies arrive through on_message, whatever the transport (HTTP: in the POST's
  /// JSON or SSE body). Thread-safe (the contract above).
  /// Errors: the transport's (errc::io_error when the peer is gone, errc::cancelled once closed).
  virtual status write(const outgoing& out) = 0;

  /// send writes `message` with an empty envelope: write({.message = message}).
  status send(const json& message) { return write({.message = message}); }

  /// close ends the connection: stdio closes the child's stdin, then sends SIGTERM, then
  /// SIGKILL; HTTP sends DELETE for its session; in memory the peer sees the end. Idempotent;
  /// on_closed is not called.
  virtual void close() = 0;

  /// describe names the peer for messages and logs, e.g. "stdio server `npx -y
  /// @modelcontextprotocol/server-memory`" or "http://127.0.0.1:3000/mcp".
  virtual std::string describe() const = 0;
};

/// transport makes connections to one peer (the Go SDK's Transport): each connect() is a new
/// connection, not yet started.
class transport {
 public:
  virtual ~transport() = default;
  /// connect makes a connection. Errors: the transport's (errc::io_error, errc::network_error).
  virtual result<std::unique_ptr<connection>> connect() = 0;
};

/// line_limits bound what a newline-delimited connection accepts from its peer.
struct line_limits {
  std::size_t max_line_bytes = 16 * 1024 * 1024;  ///< longer lines go to on_bad_input
};

/// fd_connection is newline-delimited JSON-RPC on two file descriptors (stdio: 0 and 1): one
/// reading thread (started by start()), writes under a mutex. The end of input is on_closed
/// (errc::io_error "end of input"). The descriptors stay open (the caller owns them); close()
/// stops reading without closing them.
std::unique_ptr<connection> fd_connection(int in_fd, int out_fd, line_limits limits = {},
                                          std::string name = "stdio");

/// memory_pipe makes two connected in-memory connections: what one sends, the other
/// receives, as newline-delimited text (so framing and limits behave as on stdio). Closing
/// one end is on_closed at the other. Each end has its own reading thread.
std::pair<std::unique_ptr<connection>, std::unique_ptr<connection>> memory_pipe(line_limits limits = {});

/// memory_send_text writes raw text (one line, maybe not JSON) on a memory_pipe end, to test
/// framing. Returns false if `end` is not a memory_pipe end or is closed.
bool memory_send_text(connection& end, std::string_view line);

/// serve serves `srv` over `conn` until the peer closes the connection: it starts the connection, answers requests that never block on the
/// reading thread and the others on up to options.max_concurrent_requests threads, then waits
/// for running requests and closes the session. Errors: errc::io_error when the connection
/// cannot start or a write failed.
status serve(server& srv, connection& conn, const stream_options& options = {});

/// memory_transport connects a client to `srv` in this process: each connection is a
/// memory_pipe whose other end `srv` serves on a thread of its own, until the client closes
/// its end. `srv` must outlive the connections.
class memory_transport : public transport {
 public:
  explicit memory_transport(server& srv, stream_options options = {});
  result<std::unique_ptr<connection>> connect() override;

 private:
  server& srv_;
  stream_options options_;
};

}  // namespace tooluse::mcp
