#include "mcp/pump.hpp"

#include "tooluse/jsonrpc/framing.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <deque>
#include <optional>

#include "mcp/line_connection.hpp"

namespace tooluse::mcp {

namespace {

// estimated_bytes is about what `j` holds in memory and on the wire: its strings' and keys'
// lengths plus a few bytes per value. Cheap beside parsing it (one pass, no allocation).
std::size_t estimated_bytes(const json& j) {
  switch (j.type()) {
    case json::value_t::string:
      return j.get_ref<const std::string&>().size() + 8;
    case json::value_t::object: {
      std::size_t n = 8;
      for (const auto& [k, v] : j.items()) n += k.size() + estimated_bytes(v);
      return n;
    }
    case json::value_t::array: {
      std::size_t n = 8;
      for (const auto& v : j) n += estimated_bytes(v);
      return n;
    }
    default:
      return 8;
  }
}

}  // namespace

message_pump::message_pump(server& srv, connection& out, stream_options options)
    : srv_(srv),
      out_(out),
      options_(options),
      workers_(static_cast<std::size_t>(std::max(1, options.max_concurrent_requests)), "mcp") {
  session_ = srv_.connect(out_);
}

message_pump::~message_pump() { finish(); }

void message_pump::write(const json& message) {
  if (!out_.send(message)) write_failed_ = true;
}

void message_pump::feed(json message) {
  auto parsed = jsonrpc::parse_value(message);
  for (const auto& e : parsed.errors) write(jsonrpc::to_json(e));
  for (auto& m : parsed.messages) {
    auto* r = std::get_if<jsonrpc::request>(&m);
    // Requests that never block (server::runs_inline: lists, ping, a synchronous tool on the
    // engine's fast path) are answered on the reading thread, in order.
    if (!r || srv_.runs_inline(*r)) {
      session_->handle(m);
      continue;
    }
    // Requests that may block (tools, prompts, reads) run on a pool that grows up to
    // max_concurrent_requests threads, so a tool waiting for the client never stalls reading.
    // Reading pauses while that many run, or while their bytes would pass max_pending_bytes.
    const std::size_t bytes = estimated_bytes(r->params) + r->method.size();
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] {
      return running_ < options_.max_concurrent_requests &&
             (running_ == 0 || pending_bytes_ + bytes <= options_.max_pending_bytes);
    });
    ++running_;
    pending_bytes_ += bytes;
    lock.unlock();
    auto job = [this, bytes, request = std::move(m)]() mutable {
      slot_release release{this, bytes};
      jsonrpc::message msg = std::move(request);  // freed before the slot is given back
      session_->handle(msg);
    };
    if (!workers_.post(std::move(job), static_cast<std::size_t>(-1))) done(bytes);
  }
}

void message_pump::done(std::size_t bytes) {
  std::lock_guard lock(mu_);
  --running_;
  pending_bytes_ -= bytes;
  cv_.notify_all();
}

void message_pump::bad_input(std::string_view head, const error& why) {
  if (why.code != errc::limit_exceeded) {
    write(jsonrpc::to_json(jsonrpc::response::failure(std::nullopt, jsonrpc::error_code::parse_error, "Parse error")));
    return;
  }
  auto id = jsonrpc::peek_id(head);
  std::optional<jsonrpc::message_id> mid = id ? jsonrpc::id_from_json(*id) : std::nullopt;
  write(jsonrpc::to_json(
      jsonrpc::response::failure(mid, jsonrpc::error_code::invalid_request, "Invalid Request: " + why.message)));
}

void message_pump::finish() {
  {
    std::lock_guard lock(mu_);
    if (finished_) return;
    finished_ = true;
  }
  // The input is closed, so the client can no longer answer server requests: fail those,
  // let running requests finish and write their responses, then close the session.
  session_->end_input();
  {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return running_ == 0; });
  }
  workers_.stop();
  session_->close();
}

status serve(server& srv, connection& conn, const stream_options& options) {
  std::mutex mu;
  std::condition_variable cv;
  bool ended = false;
  std::optional<error> failure;
  message_pump pump(srv, conn, options);
  connection_handlers h;
  h.on_message = [&](json m) { pump.feed(std::move(m)); };
  h.on_bad_input = [&](std::string_view head, const error& why) { pump.bad_input(head, why); };
  h.on_closed = [&](const error& why) {
    std::lock_guard lock(mu);
    if (why.code != errc::cancelled) failure = why;
    ended = true;
    cv.notify_all();
  };
  if (auto started = conn.start(std::move(h)); !started) {
    pump.finish();
    return fail(started.error());
  }
  {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return ended; });
  }
  // The input ended: running requests still write their responses, then the session closes.
  pump.finish();
  conn.close();
  if (failure) return fail(failure->code, "mcp " + failure->message);
  if (pump.write_failed()) return fail(errc::io_error, "mcp " + conn.describe() + ": writing to the output failed");
  return {};
}

status serve_fd(server& srv, int in_fd, int out_fd, const stream_options& options) {
  auto conn = fd_connection(in_fd, out_fd, {.max_line_bytes = options.max_line_bytes}, "stdio");
  return serve(srv, *conn, options);
}

status serve_stdio(server& srv, const stream_options& options) { return serve_fd(srv, 0, 1, options); }

memory_transport::memory_transport(server& srv, stream_options options) : srv_(srv), options_(options) {}

namespace detail {

// served_end is the client end of a memory_pipe whose server end is served on `thread`. It is a
// member of memory_client::impl, which has linkage, so it is not file-local.
class served_end : public connection {
 public:
  served_end(server& srv, const stream_options& options) {
    auto [client, srv_end] = memory_pipe({.max_line_bytes = options.max_line_bytes});
    client_ = std::move(client);
    server_end_ = std::move(srv_end);
    thread_ = std::thread([&srv, options, end = server_end_.get()] { (void)serve(srv, *end, options); });
  }
  ~served_end() override { close(); }
  result<connection_info> start(connection_handlers h) override {
    return client_->start(std::move(h));
  }
  status write(const outgoing& out) override { return client_->write(out); }
  void join_server() {
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  }
  void close() override {
    // The server sees the end of input, finishes what runs and closes its session.
    client().shutdown_send();
    join_server();
    client_->close();
  }
  std::string describe() const override { return "in-memory server"; }

  detail::memory_end& client() { return static_cast<detail::memory_end&>(*client_); }

 private:
  std::unique_ptr<connection> client_, server_end_;
  std::thread thread_;
};

}  // namespace detail

result<std::unique_ptr<connection>> memory_transport::connect() {
  return std::unique_ptr<connection>(std::make_unique<detail::served_end>(srv_, options_));
}

struct memory_client::impl {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<json> inbox;
  std::unique_ptr<detail::served_end> conn;
};

memory_client::memory_client(server& srv, const stream_options& options) : impl_(std::make_unique<impl>()) {
  auto* d = impl_.get();
  d->conn = std::make_unique<detail::served_end>(srv, options);
  connection_handlers h;
  h.on_message = [d](json m) {
    std::lock_guard lock(d->mu);
    d->inbox.push_back(std::move(m));
    d->cv.notify_all();
  };
  (void)d->conn->start(std::move(h));
}

memory_client::~memory_client() { close(); }

void memory_client::send(const json& message) { (void)impl_->conn->send(message); }
void memory_client::send_text(const std::string& line) { impl_->conn->client().send_text(line); }

std::optional<json> memory_client::receive(std::chrono::milliseconds timeout) {
  std::unique_lock lock(impl_->mu);
  if (!impl_->cv.wait_for(lock, timeout, [&] { return !impl_->inbox.empty(); })) return std::nullopt;
  json j = std::move(impl_->inbox.front());
  impl_->inbox.pop_front();
  return j;
}

std::optional<json> memory_client::request(const json& req, std::vector<json>* others,
                                           std::chrono::milliseconds timeout) {
  send(req);
  for (;;) {
    auto m = receive(timeout);
    if (!m) return std::nullopt;
    if (m->is_object() && m->contains("id") && (*m)["id"] == req["id"] &&
        (m->contains("result") || m->contains("error")))
      return m;
    if (others) others->push_back(std::move(*m));
  }
}

void memory_client::close() {
  auto& c = impl_->conn->client();
  c.shutdown_send();  // the server finishes running requests; their replies still arrive
  impl_->conn->join_server();
  c.drain();
  impl_->conn->close();
}

}  // namespace tooluse::mcp
