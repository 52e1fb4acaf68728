#pragma once
// Internal pieces of the Streamable HTTP transport: one connection (an event-driven state
// machine on an Asio strand: read the header, read the body, answer, write; every phase has a
// deadline), and SSE streams with replay history. HTTP sessions: http_session_conn.hpp. design/mcp-server.md.

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mcp/http_request.hpp"
#include "mcp/session.hpp"
#include "tooluse/mcp/connection.hpp"
#include "tooluse/mcp/http_server.hpp"

namespace tooluse::mcp::detail {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

class http_connection;

/// conn_hooks is what a connection needs from its server: the route for a complete request,
/// the limits, and bookkeeping of idle (evictable) connections.
struct conn_hooks {
  virtual ~conn_hooks() = default;
  /// on_request routes a complete request. `req` is the connection's, reused for its next
  /// request: valid during the call (move it out to keep it longer).
  virtual void on_request(const std::shared_ptr<http_connection>& c, http_request& req) = 0;
  /// on_header checks a request header before its body is read (path, Host, Origin, auth,
  /// header count); returning false means a response was sent and the body is not read.
  virtual bool on_header(const std::shared_ptr<http_connection>& c, const http_request& head) = 0;
  virtual void set_idle(http_connection& c, bool idle) = 0;
  virtual void on_closed(http_connection& c) = 0;
  virtual const http_options& opts() const = 0;
};

/// http_connection is one accepted socket. Reading and the state machine run on its strand (an I/O
/// thread); send_* may be called from any thread (handler threads) and queue bytes that the
/// strand writes asynchronously, each write under the write deadline. After a complete
/// response the connection reads the next request (keep-alive) or closes.
class http_connection : public std::enable_shared_from_this<http_connection> {
 public:
  http_connection(conn_hooks& hooks, tcp::socket sock);
  ~http_connection();

  void start();
  /// respond sends a complete response and ends the exchange.
  void respond(http::status status, std::string body, std::string_view content_type,
               const header_list& headers, bool keep_alive);
  /// start_stream sends a chunked text/event-stream header; chunks follow; end_stream ends it.
  void start_stream(const header_list& headers, bool keep_alive);
  /// chunk queues one HTTP chunk; false once the connection failed or closed.
  bool chunk(std::string_view data);
  /// end_stream sends the last chunk and ends the exchange.
  void end_stream();
  /// close closes the socket (from any thread); on_close hooks run once, on the strand.
  void close();
  /// on_close registers a hook run when the connection closes (at once if it already did).
  void on_close(std::function<void()> hook);
  /// keep_alive_comments sends an SSE comment every `every` while a stream is open.
  void keep_alive_comments(std::chrono::milliseconds every);
  bool ok();

  /// When the connection began waiting for a request header (steady clock, ns); 0 while it is
  /// busy. Written by its strand (conn_hooks::set_idle), read by the server when it evicts the
  /// connection idle longest: no lock on a request's way.
  std::atomic<std::int64_t> idle_since{0};

 private:
  enum class phase { idle, header, body, other };
  void read_request();
  /// read_more reads what the socket has into buffer_ (one async_read_some).
  void read_more();
  void on_read(beast::error_code ec, std::size_t n);
  /// parse feeds buffer_ to the parser: the header checks once it is complete, then the
  /// body; reads more when the request is incomplete.
  void parse();
  void on_header(beast::error_code ec);
  void parse_body();
  void on_body(beast::error_code ec);
  void reply_limit(http::status status, const std::string& message, const std::string& limit,
                   std::uint64_t value);
  /// reply_read_error answers the errors of reading a request's header or body the same way:
  /// 413 past max_body_bytes, 408 past `timeout` (`what` did not arrive within `setting`); true
  /// when `ec` was one of them.
  bool reply_read_error(beast::error_code ec, const char* what, const char* setting,
                        std::chrono::milliseconds timeout);
  /// queue adds bytes to write; `last` ends the exchange. `keep_alive`, when given, is whether
  /// the connection stays open after it (set under the same lock).
  void queue(std::string bytes, bool last, std::optional<bool> keep_alive = std::nullopt);
  void do_write();
  void write_rest(std::shared_ptr<std::string> buf, std::size_t offset);
  void on_written(beast::error_code ec, std::size_t bytes);
  void drain_after_close(std::shared_ptr<std::array<char, 4096>> buf, std::size_t left);
  void shut();
  void tick();
  /// set_deadline starts the deadline of a phase: when it passes, the socket's operations are
  /// cancelled and timed_out_ tells their handlers why (so a 408 can name the limit). The timer
  /// is lazy: moving a deadline later costs no timer operation (the wait, when it fires early,
  /// waits again for the new deadline), so a keep-alive request does not touch the timer queue.
  void set_deadline(std::chrono::milliseconds d);
  void clear_deadline() { deadline_at_ = clock::time_point::max(); }
  void wait_deadline();
  void on_deadline(beast::error_code ec);

  using clock = std::chrono::steady_clock;
  conn_hooks& hooks_;
  tcp::socket socket_;  ///< its executor is the connection's strand
  net::steady_timer timer_;
  net::steady_timer deadline_;
  // Strand only:
  clock::time_point deadline_at_ = clock::time_point::max();
  bool deadline_waiting_ = false;
  bool timed_out_ = false;
  phase phase_ = phase::other;
  bool write_inline_ = false;  ///< a response queued by the route on the strand: write it after
  beast::flat_buffer buffer_;
  http_request request_;                 ///< the request being read, reused (http_request.hpp)
  std::optional<request_reader> parser_;  ///< one per request, filling request_

  std::mutex mu_;  // guards everything below
  std::deque<std::string> out_;
  std::size_t out_bytes_ = 0;
  bool writing_ = false;
  bool exchange_done_ = false;  ///< the response is complete once out_ drains
  bool read_whole_ = false;  ///< the request was read by read_plain_request, body and all
  bool keep_alive_ = false;
  bool closed_ = false;
  bool streaming_ = false;
  std::chrono::milliseconds comment_every_{0};
  std::vector<std::function<void()>> close_hooks_;
};

/// conn_writer is where an SSE stream writes: a connection, while one is attached.
struct conn_writer {
  std::weak_ptr<http_connection> conn;
  bool ok = true;
  explicit conn_writer(std::weak_ptr<http_connection> c) : conn(std::move(c)) {}
  bool chunk(const std::string& data);
};

/// sse_stream is one SSE stream of a session: a POST response stream or the GET stream.
/// Events are numbered; the last few are kept for a client resuming with Last-Event-ID.
struct sse_stream {
  std::mutex mu;
  std::string id;
  std::uint64_t seq = 0;
  std::deque<std::pair<std::uint64_t, std::string>> history;
  std::size_t keep = 256;
  std::shared_ptr<conn_writer> writer;  ///< null while no connection is attached
  bool ended = false;
  std::function<void()> on_end;  ///< run once by end()

  /// send formats `message` as an event, records it and writes it if a writer is attached.
  void send(const json& message);
  /// prime sends the priming event (an id and empty data, with retry).
  void prime(std::chrono::milliseconds retry);
  /// end marks the stream finished and runs on_end.
  void end();
  /// attach replays events after `after` to `w` and makes it the writer.
  void attach(const std::shared_ptr<conn_writer>& w, std::uint64_t after);

 private:
  void emit_locked(const std::string& event);
};

}  // namespace tooluse::mcp::detail
