#pragma once
// Internal pieces of the Streamable HTTP transport: a locked socket writer, SSE streams with
// replay history, and HTTP sessions.

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "mcp/session.hpp"
#include "tooluse/mcp/http_server.hpp"

namespace tooluse::mcp::detail {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

/// conn_writer writes to one connection's socket under a lock; after a failure it stays failed.
struct conn_writer {
  tcp::socket& sock;
  std::mutex mu;
  bool ok = true;

  explicit conn_writer(tcp::socket& s) : sock(s) {}
  /// chunk writes one HTTP/1.1 chunk (the response must be chunked).
  bool chunk(const std::string& data);
  bool last_chunk();
};

/// sse_stream is one SSE stream of a session: a POST response stream or the GET stream.
/// Events are numbered; the last few are kept for a client resuming with Last-Event-ID.
struct sse_stream {
  std::mutex mu;
  std::condition_variable cv;
  std::string id;
  std::uint64_t seq = 0;
  std::deque<std::pair<std::uint64_t, std::string>> history;
  std::size_t keep = 256;
  std::shared_ptr<conn_writer> writer;  ///< null while no connection is attached
  bool ended = false;

  /// send formats `message` as an event, records it and writes it if a writer is attached.
  void send(const json& message);
  /// prime sends the priming event (an id and empty data, with retry).
  void prime(std::chrono::milliseconds retry);
  /// end marks the stream finished and wakes waiters.
  void end();
  /// attach replays events after `after` to `w` and makes it the writer.
  void attach(const std::shared_ptr<conn_writer>& w, std::uint64_t after);

 private:
  void emit_locked(const std::string& event);
};

/// http_session is a session of the handshake revisions.
struct http_session {
  std::string id;
  std::shared_ptr<session> s;
  std::mutex mu;
  std::map<std::string, std::shared_ptr<sse_stream>> streams;  ///< by stream id
  std::shared_ptr<sse_stream> standalone;                        ///< the GET stream
  std::size_t open_streams = 0;
  std::uint64_t next_stream = 0;
  bool closed = false;
};

/// sse_headers returns a chunked 200 text/event-stream response header.
http::response<http::empty_body> sse_headers();

}  // namespace tooluse::mcp::detail
