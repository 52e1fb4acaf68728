#pragma once
/// \file server_session.hpp
/// tooluse::mcp::server_session, one peer's session on a server: what server::connect makes of a
/// connection (connection.hpp). The transport hands the session each message the peer sends
/// (handle); the session writes what the server sends through the connection, the messages of
/// a request with that request's id in the envelope (outgoing::request), the others without.
/// Every server-side transport is written on it: serve() (stdio, in memory) and the Streamable
/// HTTP server (each HTTP session, and the root of its stateless POSTs).
/// design/transport.md says how a message travels, thread by thread.
///
/// Example (a transport of one's own; serve() is this with a reading thread and a pool):
///   auto session = server.connect(conn);
///   // each message `m` the peer sends (jsonrpc::parse), on a thread that may block:
///   session->handle(m);
///   // at the end of input, then wait for the handle() calls still running:
///   session->end_input();
///   session->close();

#include <atomic>
#include <memory>
#include <string_view>

#include "tooluse/jsonrpc/message.hpp"

namespace tooluse::mcp {

class connection;
class server;
class session;
namespace wire {
struct request_meta;
}  // namespace wire

/// server_session is one peer's session on a server, over a connection. Made by
/// server::connect (or server::connect_stateless); closed by close() or its destructor, which
/// must run before the server's. Thread-safe: handle() may run on several threads at once (one
/// message each), concurrently with end_input() and close().
class server_session {
 public:
  ~server_session();
  server_session(const server_session&) = delete;
  server_session& operator=(const server_session&) = delete;

  /// handle runs message `m` from the peer through the server. A request is answered through
  /// the connection: its related messages (progress, logs, requests to the client) and last
  /// its response, each written with the request's id in the envelope. A response goes to the
  /// server request waiting for it; a notification takes effect (notifications/cancelled stops
  /// its request). Blocks while a handler runs: call it on a thread that may block, unless
  /// server::runs_inline says the request never does. Returns false when a request was
  /// cancelled and gets no response. `principal` is the request's authorization context
  /// (request_context::principal), if any. A failed write is remembered (write_failed).
  bool handle(const jsonrpc::message& m, std::string_view principal = {});
  /// handle, with what a request emits written to `reply` instead of the session's
  /// connection: a one-message connection (a stateless POST on server::connect_stateless's
  /// session), or a test's recorder. `reply` must outlive the call.
  bool handle(const jsonrpc::message& m, connection& reply, std::string_view principal = {});
  /// handle, for a 2026-07-28 request whose `_meta` server::stateless_check has passed and
  /// decoded into `checked`: the server uses it instead of decoding the `_meta` again (and
  /// moves from it).
  bool handle(const jsonrpc::message& m, connection& reply, wire::request_meta& checked,
              std::string_view principal = {});

  /// end_input says that the peer can no longer answer (its input ended): the server's
  /// requests to the client that wait for an answer fail with errc::cancelled; requests still
  /// running go on and write their responses.
  void end_input();

  /// close ends the session: the server's pending requests to the client fail, running
  /// requests are told to stop, and messages not tied to a request are no longer written (one
  /// being written is waited for, unless close is called from inside that write). Idempotent.
  void close();

  /// write_failed tells whether a write through the connection failed.
  bool write_failed() const { return write_failed_; }

  /// state is the session's state: module-internal (src/mcp/session.hpp), opaque elsewhere.
  const std::shared_ptr<session>& state() const { return state_; }

 private:
  friend class server;
  /// server_session is made by server::connect: `conn` (null for the root of one-message
  /// connections, server::connect_stateless) must outlive it.
  server_session(server& srv, connection* conn, bool shared);
  bool reply_to(const jsonrpc::message& m, connection& reply, std::string_view principal,
                wire::request_meta* checked);

  server& srv_;
  connection* conn_;
  std::shared_ptr<session> state_;
  std::atomic<bool> write_failed_{false};
  std::atomic<bool> closed_{false};
};

}  // namespace tooluse::mcp
