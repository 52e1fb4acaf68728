// What the Streamable HTTP client transport makes of a server's answers (http_client_replies.hpp).
#include "http_client_replies.hpp"

#include <string_view>
#include <utility>

#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp::detail {

bool is_response_to(const json& m, const json& id) {
  return m.is_object() && !m.contains("method") && m.contains("id") && m["id"] == id &&
         (m.contains("result") || m.contains("error"));
}

bool is_jsonrpc_message(const json& m) {
  if (!m.is_object()) return false;
  if (auto it = m.find("method"); it != m.end()) return it->is_string();
  if (!m.contains("id")) return false;
  auto e = m.find("error");
  return m.contains("result") || (e != m.end() && e->is_object());
}

std::string unanswered(const std::string& body) {
  auto parsed = parse_json(body);
  if (parsed && parsed->is_object() && parsed->value("id", json()).is_null() &&
      parsed->contains("error")) {
    if (auto e = decode<wire::jsonrpc_error>((*parsed)["error"], "error"))
      return "JSON-RPC error " + std::to_string(e->code) + ": " +
             e->message.value_or("(no message)");
  }
  return body.substr(0, 300);
}

std::string http_option_names(std::string msg) {
  static const std::pair<std::string_view, std::string_view> names[] = {
      {"http::sse_limits::max_event_bytes", "mcp::http_client_options::max_message_bytes"},
      {"http::request::total_timeout", "mcp::http_client_options::max_stream_duration"},
      {"http::request::read_timeout", "mcp::http_client_options::idle_timeout"},
      {"http::request::connect_timeout", "mcp::http_client_options::connect_timeout"},
      {"raise total_timeout", "raise max_stream_duration"},
      {"raise read_timeout", "raise idle_timeout"},
  };
  for (const auto& [from, to] : names)
    for (auto pos = msg.find(from); pos != std::string::npos; pos = msg.find(from, pos + to.size()))
      msg.replace(pos, from.size(), to);
  return msg;
}

}  // namespace tooluse::mcp::detail
