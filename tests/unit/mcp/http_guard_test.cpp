// The HTTP server's guards over real loopback sockets: Host and Origin checks (403), the bearer
// token (401), body and header limits (413, 431), per-session limits (429), and the 2026-07-28
// header checks: MCP-Protocol-Version, Mcp-Method and Mcp-Name (with the base64 sentinel) must
// match the body (400 with -32020-style header mismatch), and the HTTP status of stateless
// errors (404 for an unknown method, 400 for a missing capability).
#include <gtest/gtest.h>

#include "support/response_gate.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "unit/mcp/http_test_util.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace http_guard_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;

namespace {

struct served {
  mcp::server server;
  mcp::http_server http;
  unsigned short port = 0;
  explicit served(mcp::http_options ho = {})
      : server({.name = "g", .version = "1"}), http(server, std::move(ho)) {
    server.add_tool({.name = "echo"}, [](const json& a, mcp::request_context&) -> mcp::tool_outcome {
      return tool_result::text(a.dump());
    });
    server.add_tool({.name = "needs"}, [](const json&, mcp::request_context&) -> mcp::tool_outcome {
      return mcp::missing_capability({{"sampling", json::object()}});
    });
    server.add_resource({.uri = "mem://é", .name = "accent"},
                        [](const std::string& uri, const json&, mcp::request_context&)
                            -> tooluse::result<std::vector<mcp::resource_contents>> {
                          return std::vector<mcp::resource_contents>{{uri, "", "accent", {}}};
                        });
    EXPECT_TRUE(http.start());
    port = http.port();
  }
};

json init_body() { return req(1, "initialize", {{"protocolVersion", "2025-11-25"}}); }

// stateless_post sends a 2026-07-28 request with the headers it needs, overridable.
http_reply stateless_post(unsigned short port, const json& body, header_fields override_headers = {}) {
  header_fields h = {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", body["method"].get<std::string>()}};
  const std::string field(mcp::routing_name_field(body["method"].get<std::string>()));
  if (!field.empty() && body["params"].contains(field)) h.emplace_back("Mcp-Name", body["params"][field].get<std::string>());
  for (auto& [k, v] : override_headers) {
    std::erase_if(h, [&name = k](const auto& e) { return e.first == name; });
    if (!v.empty()) h.emplace_back(k, v);
  }
  return exchange(port, "POST", json_post(h), body.dump());
}

int rpc_code(const http_reply& r) { return r.rpc()["error"].value("code", 0); }

}  // namespace

TEST(mcp_http_guard, foreign_host_and_origin_are_forbidden_on_loopback) {
  served s;
  auto evil_host = exchange(s.port, "POST", json_post({{"Host", "evil.example:80"}}), init_body().dump());
  EXPECT_EQ(evil_host.status, 403);
  auto evil_origin = exchange(s.port, "POST", json_post({{"Origin", "http://evil.example"}}), init_body().dump());
  EXPECT_EQ(evil_origin.status, 403);
  auto schemeless = exchange(s.port, "POST", json_post({{"Origin", "evil.example"}}), init_body().dump());
  EXPECT_EQ(schemeless.status, 403);
  for (const char* origin : {"http://localhost:3000", "http://127.0.0.1", "null", "HTTP://LOCALHOST"}) {
    auto ok = exchange(s.port, "POST", json_post({{"Origin", origin}}), init_body().dump());
    EXPECT_EQ(ok.status, 200) << origin;
  }
  auto localhost = exchange(s.port, "POST", json_post({{"Host", "localhost:1"}}), init_body().dump());
  EXPECT_EQ(localhost.status, 200);
}

TEST(mcp_http_guard, allowed_hosts_replace_the_loopback_defaults) {
  served s({.allowed_hosts = {"mcp.internal"}});
  auto listed = exchange(s.port, "POST", json_post({{"Host", "mcp.internal:8080"}}), init_body().dump());
  EXPECT_EQ(listed.status, 200);
  auto loopback = exchange(s.port, "POST", json_post({{"Host", "127.0.0.1"}}), init_body().dump());
  EXPECT_EQ(loopback.status, 403);
}

TEST(mcp_http_guard, a_bearer_token_is_required_when_configured) {
  served s({.bearer_token = "s3cret"});
  auto none = exchange(s.port, "POST", json_post(), init_body().dump());
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(none.header("www-authenticate"), "Bearer");
  auto wrong = exchange(s.port, "POST", json_post({{"Authorization", "Bearer nope"}}), init_body().dump());
  EXPECT_EQ(wrong.status, 401);
  auto basic = exchange(s.port, "POST", json_post({{"Authorization", "Basic s3cret"}}), init_body().dump());
  EXPECT_EQ(basic.status, 401);
  auto right = exchange(s.port, "POST", json_post({{"Authorization", "Bearer s3cret"}}), init_body().dump());
  EXPECT_EQ(right.status, 200);
}

TEST(mcp_http_guard, a_body_over_the_limit_is_413_naming_the_option) {
  served s({.max_body_bytes = 256});
  json big = req(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"pad", std::string(1000, 'x')}});
  auto r = exchange(s.port, "POST", json_post(), big.dump());
  EXPECT_EQ(r.status, 413);
  EXPECT_NE(r.body.find("max_body_bytes"), std::string::npos);
  auto small = exchange(s.port, "POST", json_post(), init_body().dump());
  EXPECT_EQ(small.status, 200);
}

TEST(mcp_http_guard, too_many_header_fields_are_431) {
  served s({.max_header_count = 8});
  header_fields h = json_post();
  for (int i = 0; i < 20; ++i) h.emplace_back("X-Filler-" + std::to_string(i), "v");
  auto r = exchange(s.port, "POST", h, init_body().dump());
  EXPECT_EQ(r.status, 431);
  EXPECT_NE(r.body.find("max_header_count"), std::string::npos);
}

TEST(mcp_http_guard, a_session_has_a_bound_on_pending_requests) {
  tooluse::testing::response_gate gate;
  served s({.max_pending_per_session = 1});
  tooluse::testing::gate_opener opener{gate};  // opens before the server waits for its handlers
  s.server.add_tool({.name = "block"}, [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
    gate.wait();
    return tool_result::text("done");
  });
  auto init = exchange(s.port, "POST", json_post(), init_body().dump());
  std::string sid = init.header("mcp-session-id");
  raw_conn blocked(s.port);
  ASSERT_TRUE(blocked.send_all(request_text("POST", "/mcp", json_post({{"Mcp-Session-Id", sid}}),
                                            req(2, "tools/call", {{"name", "block"}}).dump(), s.port)));
  ASSERT_TRUE(gate.wait_arrival());
  auto refused = exchange(s.port, "POST", json_post({{"Mcp-Session-Id", sid}}), req(3, "tools/call", {{"name", "echo"}}).dump());
  EXPECT_EQ(refused.status, 429);
  EXPECT_EQ(json::parse(refused.body)["error"]["data"]["limit"], "max_pending_per_session");
  EXPECT_EQ(json::parse(refused.body)["id"], 3);
  gate.open();
  auto done = parse_reply(blocked.read_all());
  EXPECT_EQ(done.status, 200);
  EXPECT_EQ(done.rpc()["result"]["content"][0]["text"], "done");
  auto after = exchange(s.port, "POST", json_post({{"Mcp-Session-Id", sid}}), req(4, "tools/call", {{"name", "echo"}}).dump());
  EXPECT_EQ(after.status, 200);
}

TEST(mcp_http_guard, stateless_requests_are_answered_without_a_session) {
  served s;
  auto r = stateless_post(s.port, req(1, "tools/call", with_meta({{"name", "echo"}, {"arguments", {{"a", 1}}}})));
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(r.header("mcp-session-id").empty());
  EXPECT_EQ(r.rpc()["result"]["content"][0]["text"], R"({"a":1})");
  EXPECT_EQ(r.rpc()["result"]["resultType"], "complete");
  EXPECT_EQ(s.http.stats().sessions, 0u);
}

TEST(mcp_http_guard, stateless_headers_must_match_the_body) {
  served s;
  json call = req(1, "tools/call", with_meta({{"name", "echo"}}));
  auto no_version = stateless_post(s.port, call, {{"MCP-Protocol-Version", ""}});
  // Without the header, _meta still marks the request stateless: the header is then required.
  EXPECT_EQ(no_version.status, 400);
  EXPECT_TRUE(no_version.body.find("MCP-Protocol-Version") != std::string::npos);
  auto other_version = stateless_post(s.port, call, {{"MCP-Protocol-Version", "2025-11-25"}});
  EXPECT_EQ(other_version.status, 400);
  auto wrong_method = stateless_post(s.port, call, {{"Mcp-Method", "tools/list"}});
  EXPECT_EQ(wrong_method.status, 400);
  EXPECT_NE(wrong_method.body.find("Mcp-Method"), std::string::npos);
  auto no_name = stateless_post(s.port, call, {{"Mcp-Name", ""}});
  EXPECT_EQ(no_name.status, 400);
  EXPECT_NE(no_name.body.find("Mcp-Name"), std::string::npos);
  auto wrong_name = stateless_post(s.port, call, {{"Mcp-Name", "other"}});
  EXPECT_EQ(wrong_name.status, 400);
  int code = json::parse(wrong_name.body)["error"]["code"];
  EXPECT_EQ(code, json::parse(wrong_method.body)["error"]["code"].get<int>());  // one header-mismatch code
}

TEST(mcp_http_guard, mcp_name_may_be_base64_encoded) {
  served s;
  json read = req(1, "resources/read", with_meta({{"uri", "mem://é"}}));
  // "mem://é" in UTF-8, base64: bWVtOi8vw6k=
  auto encoded = stateless_post(s.port, read, {{"Mcp-Name", "=?base64?bWVtOi8vw6k=?="}});
  EXPECT_EQ(encoded.status, 200) << encoded.body;
  EXPECT_EQ(encoded.rpc()["result"]["contents"][0]["text"], "accent");
  auto garbage = stateless_post(s.port, read, {{"Mcp-Name", "=?base64?!!!?="}});
  EXPECT_EQ(garbage.status, 400);
  auto plain_other = stateless_post(s.port, read, {{"Mcp-Name", "=?base64?bWVt?="}});  // "mem"
  EXPECT_EQ(plain_other.status, 400);
}

TEST(mcp_http_guard, stateless_errors_choose_their_http_status) {
  served s;
  auto unknown = stateless_post(s.port, req(1, "no/such", with_meta(json::object())));
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(rpc_code(unknown), -32601);
  auto capability = stateless_post(s.port, req(2, "tools/call", with_meta({{"name", "needs"}})));
  EXPECT_EQ(capability.status, 400);
  EXPECT_EQ(rpc_code(capability), -32021);
  auto tool_unknown = stateless_post(s.port, req(3, "tools/call", with_meta({{"name", "ghost"}})));
  EXPECT_EQ(tool_unknown.status, 200);  // an invalid-params error is a 200 with a JSON-RPC error
  EXPECT_EQ(rpc_code(tool_unknown), -32602);
  json bad_meta = req(4, "tools/list", {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}});
  auto no_caps = stateless_post(s.port, bad_meta);
  EXPECT_EQ(no_caps.status, 400);
  EXPECT_EQ(json::parse(no_caps.body)["error"]["code"], -32602);
}

TEST(mcp_http_guard, a_version_header_alone_routes_to_the_stateless_revision) {
  served s;
  // No _meta, no session: the 2026-07-28 header sends the request to the stateless path, where
  // the missing _meta is invalid params.
  auto r = exchange(s.port, "POST", json_post({{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/list"}}),
                    req(1, "tools/list").dump());
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(json::parse(r.body)["error"]["code"], -32602);
}

TEST(mcp_http_guard, subscriptions_listen_acknowledges_on_an_event_stream) {
  served s;
  json listen = req(9, "subscriptions/listen", with_meta({{"notifications", {{"toolsListChanged", true}}}}));
  raw_conn c(s.port);
  header_fields h = {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "subscriptions/listen"}};
  ASSERT_TRUE(c.send_all(request_text("POST", "/mcp", json_post(h), listen.dump(), s.port)));
  EXPECT_NE(c.read_until("acknowledged").find("notifications/subscriptions/acknowledged"), std::string::npos);
  s.server.add_tool({.name = "later"}, text_tool("x"));
  EXPECT_NE(c.read_until("tools/list_changed").find("\"9\""), std::string::npos);
}
}  // namespace http_guard_test
