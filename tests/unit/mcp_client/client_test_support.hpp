#pragma once
// Helpers for the mcp::client tests: a scripted transport (the test plays the server), a
// transport over mcp::memory_client, and a real tooluse server on loopback HTTP.

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "tooluse/mcp/client.hpp"
#include "tooluse/mcp/http_client_transport.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/connection.hpp"
#include "tooluse/mcp/transport.hpp"

namespace tooluse::mcp::testing {

// scripted_transport hands every message the client sends to `script`, which answers by
// calling deliver() (synchronously or later, from any thread). It keeps each message's
// envelope too (`request`, `protocol_version`).
class scripted_transport : public client_transport {
 public:
  // envelope is what a write carried beside its message.
  struct envelope {
    json request;  // the id in outgoing::request; null: none
    std::string protocol_version;
  };
  using script_fn = std::function<void(const json& message, scripted_transport& t)>;
  explicit scripted_transport(script_fn script) : script_(std::move(script)) {}

  result<connection_info> start(transport_handlers h) override {
    h_ = std::move(h);
    return {};
  }
  status write(const outgoing& out) override {
    const json& m = out.message;
    {
      std::lock_guard lock(mu_);
      sent_.push_back(m);
      envelopes_.push_back(
          {out.request ? *out.request : json(), std::string(out.protocol_version)});
    }
    cv_.notify_all();
    script_(m, *this);
    return {};
  }
  void close() override {}
  std::string describe() const override { return "scripted server"; }

  void deliver(json m) { h_.on_message(std::move(m)); }
  void crash(const error& e) { h_.on_closed(e); }

  // sent returns a copy of what the client sent so far.
  std::vector<json> sent() {
    std::lock_guard lock(mu_);
    return sent_;
  }
  // envelopes returns the envelopes of what the client sent so far, in the order of sent().
  std::vector<envelope> envelopes() {
    std::lock_guard lock(mu_);
    return envelopes_;
  }
  // wait_for_sent blocks until a sent message satisfies `pred` (10 s bound); returns it.
  std::optional<json> wait_for_sent(const std::function<bool(const json&)>& pred) {
    std::unique_lock lock(mu_);
    std::optional<json> found;
    cv_.wait_for(lock, std::chrono::seconds(10), [&] {
      for (const auto& m : sent_)
        if (pred(m)) return found = m, true;
      return false;
    });
    return found;
  }

 private:
  script_fn script_;
  transport_handlers h_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<json> sent_;
  std::vector<envelope> envelopes_;
};

// answer_legacy answers the basic handshake of a 2025 server: discover is unknown (-32601),
// initialize succeeds; `rest` answers everything else (return null for no answer).
inline scripted_transport::script_fn legacy_script(
    std::function<json(const json& request)> rest = nullptr) {
  return [rest](const json& m, scripted_transport& t) {
    if (!m.contains("id") || !m.contains("method")) return;
    const std::string method = m["method"];
    json reply = {{"jsonrpc", "2.0"}, {"id", m["id"]}};
    if (method == "server/discover") {
      reply["error"] = {{"code", -32601}, {"message", "Method not found"}};
    } else if (method == "initialize") {
      reply["result"] = {{"protocolVersion", "2025-11-25"},
                         {"capabilities", {{"tools", {{"listChanged", true}}}}},
                         {"serverInfo", {{"name", "scripted"}, {"version", "1"}}}};
    } else {
      json r = rest ? rest(m) : json();
      if (r.is_null()) return;
      reply["result"] = r;
    }
    t.deliver(reply);
  };
}

// memory_connection connects a client to a tooluse server in this process (the transport
// model's in-memory transport: mcp::memory_transport).
inline std::unique_ptr<client_transport> memory_connection(server& srv) {
  auto c = mcp::memory_transport(srv).connect();
  return c ? std::move(*c) : nullptr;
}

// http_fixture is a tooluse MCP server on 127.0.0.1 (port chosen by the system).
struct http_fixture {
  explicit http_fixture(server_options so = {}, http_options ho = {})
      : srv({.name = "test-server", .version = "1.2.3"}, nullptr, std::move(so)),
        http(srv, std::move(ho)) {}
  status start() { return http.start(); }
  std::unique_ptr<client_transport> transport(http_client_options o = {}) {
    o.url = http.url();
    return make_http_client_transport(std::move(o));
  }
  server srv;
  http_server http;
};

// text_tool registers a tool returning `text`.
inline void add_text_tool(server& srv, const std::string& name, const std::string& text) {
  srv.add_tool(
      {.name = name, .description = "returns " + text},
      [text](const json&, request_context&) -> tool_outcome { return tool_result::text(text); });
}

}  // namespace tooluse::mcp::testing
