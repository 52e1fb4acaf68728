// SSE streams of the HTTP transport: numbered events, replay history for Last-Event-ID, and
// the connection they are written to (if one is attached).
#include "mcp/http_io.hpp"

namespace tooluse::mcp::detail {

void sse_stream::emit_locked(const std::string& event) {
  if (writer && !writer->chunk(event)) writer.reset();
}

void sse_stream::send(const json& message) {
  std::lock_guard lock(mu);
  if (ended) return;
  std::uint64_t n = ++seq;
  std::string event = "id: " + id + "_" + std::to_string(n) + "\nevent: message\ndata: " +
                      dump_json(message) + "\n\n";
  if (keep > 0) {
    history.emplace_back(n, event);
    while (history.size() > keep) history.pop_front();
  }
  emit_locked(event);
}

void sse_stream::prime(std::chrono::milliseconds retry) {
  std::lock_guard lock(mu);
  std::uint64_t n = ++seq;
  emit_locked("id: " + id + "_" + std::to_string(n) + "\nretry: " + std::to_string(retry.count()) +
              "\ndata: \n\n");
}

void sse_stream::end() {
  std::function<void()> hook;
  {
    std::lock_guard lock(mu);
    if (ended) return;
    ended = true;
    hook = std::move(on_end);
    on_end = nullptr;
  }
  if (hook) hook();
}

void sse_stream::attach(const std::shared_ptr<conn_writer>& w, std::uint64_t after) {
  std::lock_guard lock(mu);
  for (const auto& [n, event] : history)
    if (n > after && !w->chunk(event)) return;
  writer = w;
}

}  // namespace tooluse::mcp::detail
