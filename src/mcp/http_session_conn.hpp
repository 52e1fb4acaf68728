#pragma once
// The server side of Streamable HTTP as connections (connection.hpp), handed to
// server::connect like stdio and in-memory connections: an HTTP session of the handshake
// revisions (http_session: its POSTs bring the messages in; write routes what a request
// emits, the request's id in its envelope, to the POST that asked; the session's unsolicited
// messages go to the GET stream), and one POST of the stateless 2026-07-28 revision
// (post_connection: a one-message connection whose every message goes to that POST's response).
// design/transport.md has the model; design/mcp-server.md the threads.

#include <memory>
#include <string>
#include <vector>

#include "mcp/http_io.hpp"
#include "tooluse/mcp/server_session.hpp"

namespace tooluse::mcp::detail {

class http_session;

/// post_reply answers one POSTed request: plain JSON when the response is the first thing to
/// send, otherwise an SSE stream that carries the related messages and ends with the
/// response. Thread-safe.
class post_reply {
 public:
  /// `hs` (null for a stateless POST) must outlive the reply.
  post_reply(std::shared_ptr<http_connection> c, bool keep_alive, http_session* hs, header_list headers,
             bool stateless, const http_options& options)
      : c_(std::move(c)), keep_alive_(keep_alive), hs_(hs), headers_(std::move(headers)), stateless_(stateless),
        options_(options) {}

  /// emit writes one message; `last` is the response, which ends the reply.
  void emit(const json& message, bool last);
  /// finish ends the reply when the request produced no response (cancelled): 202, or the end
  /// of the SSE stream. Idempotent.
  void finish();
  /// respond_text writes `body`, a serialized successful response, as the reply; false (nothing
  /// written) when the reply has become a stream of events: emit the response then.
  bool respond_text(std::string body);

 private:
  http::status status_for(const json& m) const;
  void start();
  void finish_locked();

  std::shared_ptr<http_connection> c_;
  bool keep_alive_;
  http_session* hs_;
  header_list headers_;
  bool stateless_;
  const http_options& options_;
  std::mutex mu_;
  std::shared_ptr<sse_stream> stream_;
  bool done_ = false;
};

/// http_session is a session of the handshake revisions (2025-03-26 .. 2025-11-25) as a
/// connection, served by the server_session that server::connect made of it (`served`). The
/// HTTP server hands each POSTed message to served->handle after routing the POST's reply by
/// the request's id (admit); what the server sends comes back through write: with a request
/// id in the envelope to that request's reply (the response ends the route), without one to
/// the GET stream.
class http_session : public mcp::connection {
 public:
  explicit http_session(std::string id);
  /// ~http_session closes `served` (if not yet) before the members its writes use are gone.
  ~http_session() override;

  /// admit_result says whether a POSTed request may be handled now.
  enum class admit_result { ok, too_many_streams, too_many_pending, duplicate_id };
  /// admit routes the messages of request `id` to `reply` until its response is sent (or
  /// done() is called), within the session's limits: max_streams_per_session open streams,
  /// max_pending_per_session requests being handled, and one request per id at a time.
  /// `persist` (the method of a request that changes the session: initialize,
  /// logging/setLevel, resources/(un)subscribe; empty for others) makes its successful
  /// response wait for on_persist.
  admit_result admit(const json& id, post_reply& reply, const http_options& options,
                     std::string_view persist = {});
  /// done ends the route of request `id` to `reply` if it remains (the request was cancelled
  /// and got no response, or it could not be handled).
  void done(const json& id, const post_reply& reply);

  // connection
  /// start keeps the handlers; the server never reports the end of a session through them
  /// (a session ends by DELETE, expiry or eviction, which the server itself decides).
  result<connection_info> start(connection_handlers h) override;
  /// write sends a message related to a request (outgoing::request) on the POST stream of that
  /// request; a message related to none, or to a request whose POST is gone, on the GET stream
  /// (dropped while the client has never opened one; replayed to a client that resumes it).
  status write(const outgoing& out) override;
  /// to_stream writes `message` on the GET stream (where write sends what is related to no
  /// request, when there is no session store).
  status to_stream(const json& message);
  /// close ends the session: its streams end, pending client requests fail, running requests
  /// are stopped. Idempotent.
  void close() override;
  std::string describe() const override { return "HTTP session " + id; }

  const std::string id;
  /// served is this connection's session on the server (server::connect), set once made.
  std::unique_ptr<server_session> served;
  std::shared_ptr<session> s;  ///< the server's session state: served->state()
  std::mutex mu;               // guards what follows
  std::map<std::string, std::shared_ptr<sse_stream>> streams;  ///< by stream id
  std::shared_ptr<sse_stream> standalone;                        ///< the GET stream
  std::size_t open_streams = 0;
  std::size_t pending = 0;  ///< requests being handled (routes_.size())
  std::uint64_t next_stream = 0;
  bool closed = false;
  bool used = false;  ///< a request after initialize arrived (not an embryonic session)
  /// on_persist, when set (a session store), saves the session before the successful response
  /// of a request admitted with `persist` is written, so that the client's next request finds
  /// the change on any replica. Set before the session is used.
  std::function<void(std::string_view method, const json& result)> on_persist;
  json initialize_result;  ///< kept for the stored record (session store only)
  /// publish, when set (a session store), takes what write sends related to no request: the
  /// store hands it to the replica that holds the GET stream. Set before the session is used.
  std::function<void(const json& message)> publish;

 private:
  struct route {
    json id;
    post_reply* reply;
    std::string persist;  ///< the method, when its response waits for on_persist
  };
  std::vector<route> routes_;  ///< guarded by mu; few (max_pending_per_session)
  connection_handlers handlers_;
};

/// post_connection is one POST of the stateless 2026-07-28 revision as a one-message
/// connection: everything sent on it (the request's notifications, then its response) is the
/// POST's reply. close() ends the reply if no response was sent.
class post_connection : public mcp::connection {
 public:
  post_connection(std::shared_ptr<detail::http_connection> c, bool keep_alive, const http_options& options)
      : reply_(std::move(c), keep_alive, nullptr, {}, true, options) {}
  result<connection_info> start(connection_handlers) override { return {}; }
  /// write adds the message to the reply, related to the request or not (there is one).
  status write(const outgoing& out) override;
  void close() override { reply_.finish(); }
  std::string describe() const override { return "HTTP POST (2026-07-28)"; }
  /// respond_text: post_reply::respond_text.
  bool respond_text(std::string body) { return reply_.respond_text(std::move(body)); }

 private:
  post_reply reply_;
};

}  // namespace tooluse::mcp::detail
