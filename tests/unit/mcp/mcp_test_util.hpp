#pragma once
// Helpers shared by the MCP server unit tests: JSON-RPC messages, the 2026-07-28 `_meta`,
// the 2025-11-25 handshake over a memory_client, and a string check for -32602 messages
// (assert the code and the field named, not the exact wording), and fn_connection, a
// connection whose writes go to a function (to drive a server_session directly).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>

#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"

namespace tooluse::mcp::test {

inline json req(const json& id, const std::string& method, json params = json::object()) {
  json r = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) r["params"] = std::move(params);
  return r;
}

inline json notif(const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

/// stateless_meta is a valid 2026-07-28 `_meta` with `caps` as client capabilities.
inline json stateless_meta(json caps = json::object()) {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientCapabilities", std::move(caps)}};
}

/// with_meta adds a stateless `_meta` to `params`.
inline json with_meta(json params, json caps = json::object()) {
  params["_meta"] = stateless_meta(std::move(caps));
  return params;
}

/// tasks_caps declares the 2026-07-28 tasks extension.
inline json tasks_caps() {
  return {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}};
}

/// handshake runs initialize + notifications/initialized for `version`; returns the result.
inline json handshake(memory_client& c, json caps = json::object(),
                      const std::string& version = "2025-11-25") {
  auto r = c.request(req(0, "initialize", {{"protocolVersion", version}, {"capabilities", caps},
                                           {"clientInfo", {{"name", "t"}, {"version", "1"}}}}));
  EXPECT_TRUE(r);
  if (!r) return nullptr;
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  return (*r)["result"];
}

/// error_code returns response.error.code, or 0.
inline int error_code(const std::optional<json>& r) {
  if (!r || !r->contains("error")) return 0;
  return (*r)["error"].value("code", 0);
}

/// error_mentions tells whether response.error.message contains `word`.
inline bool error_mentions(const std::optional<json>& r, const std::string& word) {
  if (!r || !r->contains("error")) return false;
  return (*r)["error"].value("message", "").find(word) != std::string::npos;
}

inline mcp_tool_handler text_tool(std::string text) {
  return [text](const json&, request_context&) -> tool_outcome { return tool_result::text(text); };
}

/// fn_connection hands every write to `fn`: the message and the request id of its envelope
/// (null when related to no request). Its start and close do nothing.
class fn_connection : public connection {
 public:
  using write_fn = std::function<void(const json& message, const json* request)>;
  explicit fn_connection(write_fn fn = {}) : fn_(std::move(fn)) {}
  result<connection_info> start(connection_handlers) override { return {}; }
  status write(const outgoing& out) override {
    if (fn_) fn_(out.message, out.request);
    return {};
  }
  void close() override {}
  std::string describe() const override { return "test connection"; }

 private:
  write_fn fn_;
};

}  // namespace tooluse::mcp::test
