// http::send on the shared pool (pool.cpp). The transfer runs on the pool's thread; its events
// come back through a small queue, so the caller's on_headers and on_body run on the caller's
// own thread, as they did before the pool: a callback may block, or call http::send itself. A
// reader slower than the peer pauses the transfer instead of letting the queue grow.
#include "tooluse/http/client.hpp"

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "tooluse/http/pool.hpp"
#include "transfer.hpp"

namespace tooluse::http {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// Bytes a transfer may queue for its reader before it is paused.
constexpr std::size_t max_queued_bytes = 1u << 20;

// mailbox carries one transfer's events from the pool's thread to the caller's.
struct mailbox {
  std::mutex mu;
  std::condition_variable ready;
  std::optional<std::pair<int, std::vector<header>>> headers;
  std::deque<std::string> chunks;
  std::size_t queued_bytes = 0;
  bool paused = false;  ///< the pool paused the transfer because the queue was full
  std::optional<result<response>> done;
};

std::shared_ptr<detail::transfer> make_transfer(const request& req) {
  auto t = std::make_shared<detail::transfer>();
  t->req = req;
  t->host = detail::host_of(req.url);
  t->host_key = detail::host_key_of(req.url);
  return t;
}

}  // namespace

std::optional<std::string> find_header(const std::vector<header>& headers,
                                       std::string_view name) {
  for (const auto& h : headers)
    if (iequals(h.name, name)) return h.value;
  return std::nullopt;
}

result<response> send(const request& req, const send_options& options) {
  if (auto ok = detail::check_url(req.url); !ok) return fail(ok.error());
  auto t = make_transfer(req);
  if (options.stop.stop_requested()) return fail(t->cancelled_error());
  // The I/O thread would wait here for itself; the completion thread would hold up every other
  // request's completion.
  if (on_pool_thread())
    return fail(errc::invalid_argument,
                "http request to " + t->host +
                    ": http::send was called on the HTTP pool's thread (from a send_async or "
                    "run_async callback), where it would block the pool; use http::send_async");
  auto box = std::make_shared<mailbox>();
  if (options.on_headers)
    t->out.on_headers = [box](int status, const std::vector<header>& h) {
      std::lock_guard lock(box->mu);
      box->headers.emplace(status, h);
      box->ready.notify_one();
    };
  if (options.on_body)
    t->out.on_body = [box](std::string_view chunk) {
      std::lock_guard lock(box->mu);
      if (box->queued_bytes >= max_queued_bytes) {
        box->paused = true;
        return detail::body_verdict::pause;
      }
      box->queued_bytes += chunk.size();
      box->chunks.emplace_back(chunk);
      box->ready.notify_one();
      return detail::body_verdict::keep;
    };
  t->out.done = [box](result<response> r) {
    std::lock_guard lock(box->mu);
    box->done.emplace(std::move(r));
    box->ready.notify_one();
  };
  detail::submit(t, options.stop);
  // Deliver in arrival order on this thread: the headers, then each chunk, then the outcome.
  std::unique_lock lock(box->mu);
  for (;;) {
    box->ready.wait(lock, [&] { return box->headers || !box->chunks.empty() || box->done; });
    if (box->headers) {
      auto [status, headers] = std::move(*box->headers);
      box->headers.reset();
      lock.unlock();
      options.on_headers(status, headers);
      lock.lock();
      continue;
    }
    if (!box->chunks.empty()) {
      std::string chunk = std::move(box->chunks.front());
      box->chunks.pop_front();
      box->queued_bytes -= chunk.size();
      bool resume = box->paused && box->chunks.empty();
      if (resume) box->paused = false;
      lock.unlock();
      if (resume) detail::resume(t);
      if (!options.on_body(chunk)) {
        detail::abort(t);
        lock.lock();
        box->ready.wait(lock, [&] { return box->done.has_value(); });
        // Aborted, even if the transfer had finished before the abort reached it.
        return fail(errc::cancelled, "http request to " + t->host + " was aborted");
      }
      lock.lock();
      continue;
    }
    break;
  }
  return std::move(*box->done);
}

transport default_transport() {
  return [](const request& req, const send_options& options) { return send(req, options); };
}

void send_async(request req, send_options options, completion done) {
  if (auto ok = detail::check_url(req.url); !ok) {
    post([done = std::move(done), e = ok.error()] { done(fail(e)); });  // on the completion thread
    return;
  }
  auto t = make_transfer(req);
  if (options.on_headers) t->out.on_headers = std::move(options.on_headers);
  if (options.on_body)
    t->out.on_body = [on_body = std::move(options.on_body)](std::string_view chunk) {
      return on_body(chunk) ? detail::body_verdict::keep : detail::body_verdict::abort;
    };
  // The I/O thread hands the outcome to the completion thread, where the caller's work goes on.
  t->out.done = std::move(done);
  t->out.later = true;
  detail::submit(std::move(t), std::move(options.stop));
}

}  // namespace tooluse::http
