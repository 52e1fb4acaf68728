// http_connection: one socket's state machine on its strand. Phases and their deadlines:
//   idle (waiting for the first byte of a request)   idle_timeout
//   header (first byte .. end of header)             header_timeout, max_header_bytes/count
//   body                                             body_timeout, max_body_bytes
//   handling (the request runs; no read)             none here (tool timeouts apply)
//   writing (every write of a response or event)     write_timeout, max_outbound_bytes
// Requests are read with async_read_some and fed to the parser by hand (a request that arrives
// whole costs one read and no further trip through the I/O queue). Responses are serialized to
// strings; handler threads only queue them, and the strand writes them: a direct non-blocking
// send first, an asynchronous write under the deadline for what does not fit.
#include <array>
#include <cstdio>
#include <iterator>

#include "mcp/http_io.hpp"

namespace tooluse::mcp::detail {

namespace {

// head_room: the bytes of a response's head besides its header fields, with room to spare.
constexpr std::size_t head_room = 160;

std::size_t fields_size(const header_list& headers) {
  std::size_t n = 0;
  for (const auto& [k, v] : headers) n += k.size() + v.size() + 4;
  return n;
}

void add_status_line(std::string& s, http::status st) {
  s += "HTTP/1.1 ";
  s += std::to_string(static_cast<unsigned>(st));
  s += ' ';
  auto reason = http::obsolete_reason(st);
  s.append(reason.data(), reason.size());
  s += "\r\n";
}

void add_fields(std::string& out, const header_list& headers, bool keep_alive) {
  for (const auto& [k, v] : headers) {
    out += k;
    out += ": ";
    out += v;
    out += "\r\n";
  }
  out += keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";  // HTTP/1.0 peers need the former
}

// The connection whose route is running on this thread (on its strand): a response it queues
// is written when the route returns, without a trip through the I/O queue.
thread_local http_connection* routing = nullptr;
}  // namespace

http_connection::http_connection(conn_hooks& hooks, tcp::socket sock)
    : hooks_(hooks), socket_(std::move(sock)), timer_(socket_.get_executor()), deadline_(socket_.get_executor()) {
  beast::error_code ec;
  socket_.non_blocking(true, ec);  // do_write tries a direct send first; nothing runs on the socket yet
}

http_connection::~http_connection() = default;

void http_connection::set_deadline(std::chrono::milliseconds d) {
  timed_out_ = false;
  deadline_at_ = clock::now() + d;
  if (deadline_waiting_ && deadline_.expiry() <= deadline_at_) return;  // it wakes first, then waits on
  wait_deadline();
}

void http_connection::wait_deadline() {
  deadline_waiting_ = true;
  deadline_.expires_at(deadline_at_);  // cancels a later wait (its handler sees operation_aborted)
  deadline_.async_wait([self = shared_from_this()](beast::error_code ec) { self->on_deadline(ec); });
}

void http_connection::on_deadline(beast::error_code ec) {
  if (ec) return;  // superseded by a wait for an earlier deadline, or cancelled by shut()
  deadline_waiting_ = false;
  if (deadline_at_ == clock::time_point::max()) return;  // no phase with a deadline is running
  if (clock::now() < deadline_at_) return wait_deadline();  // the deadline moved later meanwhile
  timed_out_ = true;
  clear_deadline();
  beast::error_code e;
  socket_.cancel(e);
}

void http_connection::start() {
  net::dispatch(socket_.get_executor(), [self = shared_from_this()] {
    beast::error_code ec;
    self->socket_.set_option(tcp::no_delay(true), ec);
    self->read_request();
  });
}

bool http_connection::ok() {
  std::lock_guard lock(mu_);
  return !closed_;
}

void http_connection::read_request() {
  {
    std::lock_guard lock(mu_);
    if (closed_) return;
    exchange_done_ = false;
    streaming_ = false;
  }
  const auto& o = hooks_.opts();
  parser_.emplace(request_);
  read_whole_ = false;
  parser_->header_limit(static_cast<std::uint32_t>(o.max_header_bytes));
  parser_->body_limit(o.max_body_bytes);
  hooks_.set_idle(*this, true);
  phase_ = phase::idle;
  if (buffer_.size() > 0) return parse();  // a pipelined request is already here
  set_deadline(o.idle_timeout);
  read_more();
}

void http_connection::read_more() {
  // Up to 4 KiB while the header comes (an idle or half-sent connection holds only that), more
  // for a body.
  const std::size_t want = phase_ == phase::body ? 64 * 1024 : 4096;
  socket_.async_read_some(buffer_.prepare(want), [self = shared_from_this()](beast::error_code ec, std::size_t n) {
    self->on_read(ec, n);
  });
}

void http_connection::on_read(beast::error_code ec, std::size_t n) {
  if (ec == net::error::operation_aborted && timed_out_) ec = beast::error::timeout;
  if (ec) {
    clear_deadline();
    if (phase_ == phase::idle) return shut();  // idle timeout, or the peer closed between requests
    if (phase_ == phase::header) return on_header(ec);
    return on_body(ec);
  }
  buffer_.commit(n);
  parse();
}

void http_connection::parse() {
  if (phase_ == phase::body) return parse_body();
  if (phase_ == phase::idle) {
    // A plain request that is all here is read in one pass; any other, or one that is not
    // all here yet, by Beast's parser, which has seen none of it (http_request.hpp).
    const auto& o = hooks_.opts();
    const auto data = buffer_.data();
    const std::string_view bytes(static_cast<const char*>(data.data()), data.size());
    if (std::size_t used = read_plain_request(bytes, request_, o.max_header_bytes, o.max_body_bytes)) {
      buffer_.consume(used);
      read_whole_ = true;
      clear_deadline();
      return on_header({});
    }
  }
  beast::error_code ec;
  auto used = parser_->put(buffer_.data(), ec);
  buffer_.consume(used);
  if (ec == http::error::need_more) {
    if (phase_ == phase::idle && buffer_.size() > 0) {
      phase_ = phase::header;  // the first bytes of a request: the header deadline runs
      set_deadline(hooks_.opts().header_timeout);
    }
    return read_more();
  }
  clear_deadline();
  on_header(ec);
}

void http_connection::reply_limit(http::status status, const std::string& message, const std::string& limit,
                             std::uint64_t value) {
  hooks_.set_idle(*this, false);
  json body = {{"jsonrpc", "2.0"},
               {"id", nullptr},
               {"error",
                {{"code", -32000},
                 {"message", message},
                 {"data", {{"limit", limit}, {"value", value}}}}}};
  respond(status, dump_json(body), "application/json", {}, false);
}

bool http_connection::reply_read_error(beast::error_code ec, const char* what, const char* setting,
                                  std::chrono::milliseconds timeout) {
  const auto& o = hooks_.opts();
  if (ec == http::error::body_limit) {
    reply_limit(http::status::payload_too_large,
                "Payload Too Large: the body exceeds max_body_bytes (" + std::to_string(o.max_body_bytes) + ")",
                "max_body_bytes", o.max_body_bytes);
    return true;
  }
  if (ec == beast::error::timeout) {
    reply_limit(http::status::request_timeout,
                std::string("Request Timeout: the ") + what + " did not arrive within " + setting + " (" +
                    std::to_string(timeout.count()) + " ms)",
                std::string(setting) + "_ms", static_cast<std::uint64_t>(timeout.count()));
    return true;
  }
  return false;
}

void http_connection::on_header(beast::error_code ec) {
  const auto& o = hooks_.opts();
  if (ec == http::error::header_limit)
    return reply_limit(http::status::request_header_fields_too_large,
                       "Request Header Fields Too Large: the header exceeds max_header_bytes (" +
                           std::to_string(o.max_header_bytes) + ")",
                       "max_header_bytes", o.max_header_bytes);
  if (reply_read_error(ec, "header", "header_timeout", o.header_timeout)) return;
  if (ec == http::error::end_of_stream || ec == net::error::eof || ec == net::error::operation_aborted ||
      ec == net::error::connection_reset)
    return shut();
  if (ec) {
    hooks_.set_idle(*this, false);
    return respond(http::status::bad_request,
                   "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Bad Request: "
                   "malformed HTTP request\"}}",
                   "application/json", {}, false);
  }
  hooks_.set_idle(*this, false);
  const auto& head = request_;
  const auto fields = head.field_count();
  if (fields > o.max_header_count)
    return reply_limit(http::status::request_header_fields_too_large,
                       "Request Header Fields Too Large: " + std::to_string(fields) +
                           " header fields, more than max_header_count (" + std::to_string(o.max_header_count) + ")",
                       "max_header_count", o.max_header_count);
  if (!hooks_.on_header(shared_from_this(), head)) return;
  phase_ = phase::body;
  if (read_whole_ || parser_->is_done()) return on_body({});
  set_deadline(o.body_timeout);
  parser_->eager(true);
  parse_body();
}

void http_connection::parse_body() {
  while (buffer_.size() > 0 && !parser_->is_done()) {
    beast::error_code ec;
    auto used = parser_->put(buffer_.data(), ec);
    buffer_.consume(used);
    if (ec == http::error::need_more) break;
    if (ec) {
      clear_deadline();
      return on_body(ec);
    }
  }
  if (!parser_->is_done()) return read_more();
  clear_deadline();
  on_body({});
}

void http_connection::on_body(beast::error_code ec) {
  const auto& o = hooks_.opts();
  if (reply_read_error(ec, "body", "body_timeout", o.body_timeout)) return;
  if (ec) return shut();
  phase_ = phase::other;
  auto self = shared_from_this();
  routing = this;
  try {
    hooks_.on_request(self, request_);
  } catch (...) {
    routing = nullptr;
    throw;
  }
  routing = nullptr;
  if (write_inline_) {
    write_inline_ = false;
    do_write();
  }
}

void http_connection::respond(http::status status, std::string body, std::string_view content_type,
                         const header_list& headers, bool keep_alive) {
  std::string out;  // one allocation: the head and the body
  out.reserve(head_room + content_type.size() + fields_size(headers) + body.size());
  add_status_line(out, status);
  if (!body.empty()) {
    out += "Content-Type: ";
    out += content_type;
    out += "\r\n";
  }
  add_fields(out, headers, keep_alive);
  out += "Content-Length: ";
  out += std::to_string(body.size());
  out += "\r\n\r\n";
  out += body;
  queue(std::move(out), true, keep_alive);
}

void http_connection::start_stream(const header_list& headers, bool keep_alive) {
  std::string out;
  out.reserve(head_room + 64 + fields_size(headers));
  add_status_line(out, http::status::ok);
  out += "Content-Type: text/event-stream\r\nCache-Control: no-cache\r\nX-Accel-Buffering: no\r\n";
  add_fields(out, headers, keep_alive);
  out += "Transfer-Encoding: chunked\r\n\r\n";
  {
    std::lock_guard lock(mu_);
    keep_alive_ = keep_alive;
    streaming_ = true;
  }
  queue(std::move(out), false);
}

bool http_connection::chunk(std::string_view data) {
  if (data.empty()) return ok();
  char size[20];
  int n = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  std::string out;
  out.reserve(static_cast<std::size_t>(n) + data.size() + 2);
  out.append(size, static_cast<std::size_t>(n));
  out.append(data);
  out += "\r\n";
  queue(std::move(out), false);
  return ok();
}

void http_connection::end_stream() { queue("0\r\n\r\n", true); }

void http_connection::queue(std::string bytes, bool last, std::optional<bool> keep_alive) {
  bool start = false, overflow = false;
  {
    std::lock_guard lock(mu_);
    if (keep_alive) keep_alive_ = *keep_alive;
    if (closed_ || exchange_done_) return;
    out_bytes_ += bytes.size();
    if (out_bytes_ > hooks_.opts().max_outbound_bytes && !last) {
      overflow = true;  // the peer does not read what we write: drop it
    } else {
      out_.push_back(std::move(bytes));
      if (last) exchange_done_ = true;
      if (!writing_) start = writing_ = true;
    }
  }
  if (overflow) return close();
  if (!start) return;
  if (routing == this) {
    write_inline_ = true;  // on the strand, inside the route: written as soon as it returns
    return;
  }
  net::post(socket_.get_executor(), [self = shared_from_this()] { self->do_write(); });
}

void http_connection::do_write() {
  std::string data;
  {
    std::lock_guard lock(mu_);
    if (closed_) return;
    if (out_.size() == 1) {
      data = std::move(out_.front());
    } else {
      for (auto& s : out_) data += s;
    }
    out_.clear();
  }
  // A direct send first (the socket is non-blocking): a response almost always fits in the
  // socket's buffer, which spares the asynchronous write, its completion's trip through the I/O
  // queue and the write deadline. What does not fit is written asynchronously, under the deadline.
  beast::error_code ec;
  std::size_t n = socket_.write_some(net::buffer(data), ec);
  if (ec == net::error::would_block || ec == net::error::try_again) {
    ec = {};
    n = 0;
  }
  if (ec || n == data.size()) return on_written(ec, data.size());
  write_rest(std::make_shared<std::string>(std::move(data)), n);
}

void http_connection::write_rest(std::shared_ptr<std::string> buf, std::size_t offset) {
  set_deadline(hooks_.opts().write_timeout);
  auto rest = net::buffer(buf->data() + offset, buf->size() - offset);
  net::async_write(socket_, rest, [self = shared_from_this(), buf](beast::error_code ec, std::size_t) {
    self->clear_deadline();
    self->on_written(ec, buf->size());
  });
}

void http_connection::on_written(beast::error_code ec, std::size_t bytes) {
  bool done = false, keep = false, more = false;
  {
    std::lock_guard lock(mu_);
    out_bytes_ -= std::min(out_bytes_, bytes);
    if (ec) {
      // The write deadline passed or the peer went away.
    } else if (closed_) {
      return;
    } else if (!out_.empty()) {
      more = true;  // queued meanwhile: write it (still on the strand)
    } else {
      writing_ = false;
      done = exchange_done_;
      keep = keep_alive_;
    }
  }
  if (ec) return shut();
  if (more) return do_write();
  if (!done) return;
  if (keep) {
    // A pipelined request already buffered is parsed on a later turn: handling it here would
    // recurse once per request in the buffer.
    if (buffer_.size() > 0) return net::post(socket_.get_executor(), [self = shared_from_this()] { self->read_request(); });
    return read_request();
  }
  // Close gracefully: send FIN, then drain what the peer still sends for a moment, so an
  // error response is not lost to a reset.
  beast::error_code e;
  socket_.shutdown(tcp::socket::shutdown_send, e);
  set_deadline(std::chrono::seconds(1));
  drain_after_close(std::make_shared<std::array<char, 4096>>(), 256 * 1024);
}

// One read of the post-FIN drain. Each step holds only itself and the buffer: no handler refers to
// itself, so one dropped by a stopped io_context frees everything.
void http_connection::drain_after_close(std::shared_ptr<std::array<char, 4096>> buf, std::size_t left) {
  auto* data = buf->data();
  auto size = buf->size();
  socket_.async_read_some(
      net::buffer(data, size),
      [self = shared_from_this(), buf = std::move(buf), left](beast::error_code ec, std::size_t n) mutable {
        if (ec || n >= left) return self->shut();
        self->drain_after_close(std::move(buf), left - n);
      });
}

void http_connection::close() {
  net::post(socket_.get_executor(), [self = shared_from_this()] { self->shut(); });
}

void http_connection::shut() {
  std::vector<std::function<void()>> hooks;
  {
    std::lock_guard lock(mu_);
    if (closed_) return;
    closed_ = true;
    hooks.swap(close_hooks_);
    out_.clear();
  }
  beast::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  timer_.cancel();
  deadline_.cancel();
  hooks_.set_idle(*this, false);
  for (auto& h : hooks) h();
  hooks_.on_closed(*this);
}

void http_connection::on_close(std::function<void()> hook) {
  {
    std::lock_guard lock(mu_);
    if (!closed_) {
      close_hooks_.push_back(std::move(hook));
      return;
    }
  }
  hook();
}

void http_connection::keep_alive_comments(std::chrono::milliseconds every) {
  net::dispatch(socket_.get_executor(), [self = shared_from_this(), every] {
    self->comment_every_ = every;
    self->timer_.expires_after(every);
    self->timer_.async_wait([self](beast::error_code ec) {
      if (!ec) self->tick();
    });
  });
}

void http_connection::tick() {
  {
    std::lock_guard lock(mu_);
    if (closed_ || !streaming_ || exchange_done_) return;
  }
  chunk(":\n\n");
  timer_.expires_after(comment_every_);
  timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (!ec) self->tick();
  });
}

bool conn_writer::chunk(const std::string& data) {
  if (!ok) return false;
  auto c = conn.lock();
  if (!c || !c->chunk(data)) ok = false;
  return ok;
}

}  // namespace tooluse::mcp::detail
