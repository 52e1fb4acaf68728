#include "mcp/pump.hpp"

#include "tooluse/jsonrpc/framing.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>

namespace tooluse::mcp {

namespace {
// Methods whose handlers never block on the client; answered on the reading thread, in order.
bool quick(const std::string& m) {
  return m == "ping" || m == "initialize" || m == "tools/list" || m == "prompts/list" ||
         m == "resources/list" || m == "resources/templates/list" || m == "logging/setLevel" ||
         m == "resources/subscribe" || m == "resources/unsubscribe" || m == "server/discover";
}
}  // namespace

message_pump::message_pump(server& srv, std::function<void(const std::string&)> write,
                           stream_options options)
    : srv_(srv), write_(std::move(write)), options_(options) {
  session_ = srv_.open_session([this](const json& m) { this->write(m); });
}

message_pump::~message_pump() { finish(); }

void message_pump::write(const json& message) {
  std::string text = dump_json(message);
  std::lock_guard lock(write_mu_);
  write_(text);
}

void message_pump::feed(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  if (line.empty()) return;
  if (line.size() > options_.max_line_bytes) return too_long(line.substr(0, 4096));
  auto parsed = jsonrpc::parse(line);
  for (const auto& e : parsed.errors) write(jsonrpc::to_json(e));
  for (auto& m : parsed.messages) {
    auto* r = std::get_if<jsonrpc::request>(&m);
    if (!r || quick(r->method)) {
      srv_.handle_message(session_, m, [this](const json& j, bool) { write(j); });
      continue;
    }
    // Requests that may block (tools, prompts, reads) run on a pool that grows up to
    // max_concurrent_requests threads, so a tool waiting for the client never stalls reading.
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return running_ < options_.max_concurrent_requests; });
    ++running_;
    queue_.push_back(std::move(m));
    if (static_cast<int>(queue_.size()) > idle_ &&
        static_cast<int>(workers_.size()) < options_.max_concurrent_requests)
      workers_.emplace_back([this] { worker(); });
    cv_.notify_all();
  }
}

void message_pump::too_long(std::string_view head) {
  auto id = jsonrpc::peek_id(head);
  std::optional<jsonrpc::message_id> mid = id ? jsonrpc::id_from_json(*id) : std::nullopt;
  write(jsonrpc::to_json(jsonrpc::response::failure(
      mid, jsonrpc::error_code::invalid_request,
      "Invalid Request: " + limit_error("a message (one line)", "mcp::stream_options::max_line_bytes",
                                        options_.max_line_bytes, "bytes")
                                .message)));
}

void message_pump::worker() {
  std::unique_lock lock(mu_);
  for (;;) {
    ++idle_;
    cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    --idle_;
    if (queue_.empty()) return;
    jsonrpc::message m = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    srv_.handle_message(session_, m, [this](const json& j, bool) { write(j); });
    lock.lock();
    --running_;
    cv_.notify_all();
  }
}

void message_pump::finish() {
  {
    std::lock_guard lock(mu_);
    if (finished_) return;
    finished_ = true;
  }
  // The input is closed, so the client can no longer answer server requests: fail those,
  // let running requests finish and write their responses, then close the session.
  std::map<std::string, std::shared_ptr<pending_reply>> pending;
  {
    std::lock_guard lock(session_->mu);
    pending.swap(session_->pending);
  }
  for (auto& [id, p] : pending) {
    std::lock_guard lock(p->mu);
    p->done = true;
    p->value = fail(errc::cancelled, "the client closed the connection");
    p->cv.notify_all();
  }
  {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return running_ == 0; });
    stopping_ = true;
    cv_.notify_all();
  }
  for (auto& t : workers_) t.join();
  srv_.close_session(session_);
}

status serve_fd(server& srv, int in_fd, int out_fd, const stream_options& options) {
  bool write_failed = false;
  message_pump pump(
      srv,
      [&](const std::string& text) {
        std::string line = text + "\n";
        const char* p = line.data();
        std::size_t left = line.size();
        while (left > 0 && !write_failed) {
          ssize_t n = ::write(out_fd, p, left);
          if (n < 0 && errno == EINTR) continue;
          if (n <= 0) {
            write_failed = true;
            break;
          }
          p += n;
          left -= static_cast<std::size_t>(n);
        }
      },
      options);
  // Lines are framed as the bytes arrive: an endless line costs max_line_bytes, not its size.
  jsonrpc::line_framer framer(options.max_line_bytes);
  auto on_line = [&](std::string_view line) { pump.feed(line); };
  auto on_overflow = [&](std::string_view head) { pump.too_long(head); };
  std::vector<char> chunk(64 * 1024);
  for (;;) {
    ssize_t n = ::read(in_fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      pump.finish();
      return fail(errc::io_error, std::string("mcp stdio: read failed: ") + std::strerror(errno));
    }
    if (n == 0) break;
    framer.feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)), on_line, on_overflow);
  }
  framer.finish(on_line, on_overflow);
  pump.finish();
  if (write_failed) return fail(errc::io_error, "mcp stdio: writing to the output failed");
  return {};
}

status serve_stdio(server& srv, const stream_options& options) { return serve_fd(srv, 0, 1, options); }

struct memory_client::impl {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<json> inbox;
  std::unique_ptr<message_pump> pump;
};

memory_client::memory_client(server& srv, const stream_options& options) : impl_(std::make_unique<impl>()) {
  auto* d = impl_.get();
  impl_->pump = std::make_unique<message_pump>(
      srv,
      [d](const std::string& text) {
        auto j = parse_json(text);
        std::lock_guard lock(d->mu);
        d->inbox.push_back(j ? *j : json(text));
        d->cv.notify_all();
      },
      options);
}

memory_client::~memory_client() { close(); }

void memory_client::send(const json& message) { impl_->pump->feed(dump_json(message)); }
void memory_client::send_text(const std::string& line) { impl_->pump->feed(line); }

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
  if (impl_->pump) impl_->pump->finish();
}

}  // namespace tooluse::mcp
