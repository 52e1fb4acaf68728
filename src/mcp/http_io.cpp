#include "mcp/http_io.hpp"

namespace tooluse::mcp::detail {

bool conn_writer::chunk(const std::string& data) {
  std::lock_guard lock(mu);
  if (!ok) return false;
  beast::error_code ec;
  net::write(sock, http::make_chunk(net::buffer(data)), ec);
  if (ec) ok = false;
  return ok;
}

bool conn_writer::last_chunk() {
  std::lock_guard lock(mu);
  if (!ok) return false;
  beast::error_code ec;
  net::write(sock, http::make_chunk_last(), ec);
  if (ec) ok = false;
  return ok;
}

void sse_stream::emit_locked(const std::string& event) {
  if (writer && !writer->chunk(event)) writer.reset();
}

void sse_stream::send(const json& message) {
  std::lock_guard lock(mu);
  if (ended) return;
  std::uint64_t n = ++seq;
  std::string event = "id: " + id + "_" + std::to_string(n) + "\nevent: message\ndata: " +
                      dump_json(message) + "\n\n";
  history.emplace_back(n, event);
  while (history.size() > keep) history.pop_front();
  emit_locked(event);
}

void sse_stream::prime(std::chrono::milliseconds retry) {
  std::lock_guard lock(mu);
  std::uint64_t n = ++seq;
  emit_locked("id: " + id + "_" + std::to_string(n) + "\nretry: " + std::to_string(retry.count()) +
              "\ndata: \n\n");
}

void sse_stream::end() {
  std::lock_guard lock(mu);
  ended = true;
  cv.notify_all();
}

void sse_stream::attach(const std::shared_ptr<conn_writer>& w, std::uint64_t after) {
  std::lock_guard lock(mu);
  for (const auto& [n, event] : history)
    if (n > after && !w->chunk(event)) return;
  writer = w;
}

http::response<http::empty_body> sse_headers() {
  http::response<http::empty_body> res{http::status::ok, 11};
  res.set(http::field::content_type, "text/event-stream");
  res.set(http::field::cache_control, "no-cache");
  res.set("X-Accel-Buffering", "no");
  res.chunked(true);
  return res;
}

}  // namespace tooluse::mcp::detail
