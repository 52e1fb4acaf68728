// The MCP server through the in-memory transport: handshake, tools (registry and MCP-level),
// resources, prompts, logging, server-to-client requests, cancellation, stateless requests.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace server_test {
namespace mcp = tooluse::mcp;
using tooluse::json;
using tooluse::tool_result;

namespace {

json req(int id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json stateless_meta(json caps = json::object()) {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientCapabilities", std::move(caps)}};
}

void initialize(mcp::memory_client& c, json caps = json::object()) {
  auto r = c.request(req(0, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", caps},
                                           {"clientInfo", {{"name", "t"}, {"version", "1"}}}}));
  ASSERT_TRUE(r);
  ASSERT_EQ((*r)["result"]["protocolVersion"], "2025-11-25");
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
}

struct fixture {
  tooluse::tool_registry tools;
  mcp::server server{{.name = "test", .version = "1.0"}, &tools, {.page_size = 2}};
  fixture() {
    tools.add({.name = "add",
               .description = "Add",
               .input_schema = json::parse(R"({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]})")},
              [](const json& a, tooluse::call_context&) {
                return tool_result::text(std::to_string(a["a"].get<double>() + a["b"].get<double>()));
              });
  }
};

}  // namespace

TEST(mcp_server, negotiates_version_and_answers_ping) {
  fixture f;
  mcp::memory_client c(f.server);
  auto r = c.request(req(1, "initialize", {{"protocolVersion", "1999-01-01"}, {"capabilities", json::object()}}));
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"]["protocolVersion"], "2025-11-25");
  EXPECT_TRUE((*r)["result"]["capabilities"].contains("tools"));
  auto p = c.request(req(2, "ping"));
  EXPECT_EQ((*p)["result"], json::object());
}

TEST(mcp_server, lists_and_calls_registry_tools_with_validation) {
  fixture f;
  mcp::memory_client c(f.server);
  initialize(c);
  auto list = c.request(req(1, "tools/list"));
  ASSERT_EQ((*list)["result"]["tools"].size(), 1u);
  EXPECT_EQ((*list)["result"]["tools"][0]["name"], "add");
  auto ok = c.request(req(2, "tools/call", {{"name", "add"}, {"arguments", {{"a", 2}, {"b", 40}}}}));
  EXPECT_EQ((*ok)["result"]["content"][0]["text"], "42.000000");
  auto bad = c.request(req(3, "tools/call", {{"name", "add"}, {"arguments", {{"a", "x"}}}}));
  EXPECT_EQ((*bad)["result"]["isError"], true);
  auto unknown = c.request(req(4, "tools/call", {{"name", "nope"}}));
  EXPECT_EQ((*unknown)["error"]["code"], -32602);
  auto missing = c.request(req(5, "no/such"));
  EXPECT_EQ((*missing)["error"]["code"], -32601);
}

TEST(mcp_server, paginates_prompts_and_rejects_bad_cursor) {
  fixture f;
  for (const char* n : {"p1", "p2", "p3"})
    f.server.add_prompt({.name = n}, [](const json&, mcp::request_context&) -> tooluse::result<mcp::prompt_outcome> {
      return mcp::prompt_result{.messages = {{"user", tooluse::text_content{"hi"}}}};
    });
  mcp::memory_client c(f.server);
  initialize(c);
  auto p1 = c.request(req(1, "prompts/list"));
  ASSERT_EQ((*p1)["result"]["prompts"].size(), 2u);
  std::string cursor = (*p1)["result"]["nextCursor"];
  auto p2 = c.request(req(2, "prompts/list", {{"cursor", cursor}}));
  EXPECT_EQ((*p2)["result"]["prompts"].size(), 1u);
  EXPECT_FALSE((*p2)["result"].contains("nextCursor"));
  auto bad = c.request(req(3, "prompts/list", {{"cursor", "zz"}}));
  EXPECT_EQ((*bad)["error"]["code"], -32602);
}

TEST(mcp_server, reads_resources_and_templates_and_reports_missing_uri) {
  fixture f;
  f.server.add_resource_template({.uri_template = "db://{table}/rows", .name = "rows"},
                                 [](const std::string& uri, const json& vars, mcp::request_context&)
                                     -> tooluse::result<std::vector<mcp::resource_contents>> {
                                   return std::vector<mcp::resource_contents>{{uri, "text/plain", vars["table"].get<std::string>(), {}}};
                                 });
  mcp::memory_client c(f.server);
  initialize(c);
  auto r = c.request(req(1, "resources/read", {{"uri", "db://users/rows"}}));
  EXPECT_EQ((*r)["result"]["contents"][0]["text"], "users");
  auto missing = c.request(req(2, "resources/read", {{"uri", "db://x"}}));
  EXPECT_EQ((*missing)["error"]["code"], -32602);
  EXPECT_EQ((*missing)["error"]["data"]["uri"], "db://x");
}

TEST(mcp_server, filters_log_messages_by_level) {
  fixture f;
  f.server.add_tool({.name = "noisy"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    ctx.log(mcp::log_level::debug, "d");
    ctx.log(mcp::log_level::error, "e");
    return tool_result::text("done");
  });
  mcp::memory_client c(f.server);
  initialize(c);
  c.request(req(1, "logging/setLevel", {{"level", "warning"}}));
  std::vector<json> others;
  auto r = c.request(req(2, "tools/call", {{"name", "noisy"}}), &others);
  ASSERT_TRUE(r);
  ASSERT_EQ(others.size(), 1u);
  EXPECT_EQ(others[0]["params"]["level"], "error");
}

TEST(mcp_server, tool_asks_client_for_sampling) {
  fixture f;
  f.server.add_tool({.name = "ask"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    auto reply = ctx.request_client("sampling/createMessage", {{"maxTokens", 5}});
    if (!reply) return tool_result::error(reply.error().message);
    return tool_result::text((*reply)["content"]["text"].get<std::string>());
  });
  mcp::memory_client c(f.server);
  initialize(c, {{"sampling", json::object()}});
  c.send(req(1, "tools/call", {{"name", "ask"}}));
  auto server_req = c.receive();
  ASSERT_TRUE(server_req);
  ASSERT_EQ((*server_req)["method"], "sampling/createMessage");
  c.send({{"jsonrpc", "2.0"}, {"id", (*server_req)["id"]}, {"result", {{"content", {{"type", "text"}, {"text", "hello"}}}}}});
  auto resp = c.receive();
  ASSERT_TRUE(resp);
  EXPECT_EQ((*resp)["result"]["content"][0]["text"], "hello");
}

TEST(mcp_server, cancelled_notification_stops_the_call_without_a_response) {
  fixture f;
  std::atomic<bool> started{false};
  f.server.add_tool({.name = "slow"}, [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    started = true;
    while (!ctx.stop().stop_requested()) std::this_thread::yield();
    return tool_result::text("stopped");
  });
  mcp::memory_client c(f.server);
  initialize(c);
  c.send(req(9, "tools/call", {{"name", "slow"}}));
  while (!started) std::this_thread::yield();
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 9}}}});
  auto ping = c.request(req(10, "ping"));
  ASSERT_TRUE(ping);
  EXPECT_EQ((*ping)["id"], 10);
  c.close();
  EXPECT_FALSE(c.receive(std::chrono::milliseconds(0)));
}

TEST(mcp_server, stateless_requests_carry_result_type_and_cache_hints) {
  fixture f;
  mcp::memory_client c(f.server);
  auto list = c.request(req(1, "tools/list", {{"_meta", stateless_meta()}}));
  EXPECT_EQ((*list)["result"]["resultType"], "complete");
  EXPECT_TRUE((*list)["result"].contains("ttlMs"));
  auto removed = c.request(req(2, "ping", {{"_meta", stateless_meta()}}));
  EXPECT_EQ((*removed)["error"]["code"], -32601);
  json old_meta = stateless_meta();
  old_meta["io.modelcontextprotocol/protocolVersion"] = "1900-01-01";
  auto old = c.request(req(3, "tools/list", {{"_meta", old_meta}}));
  EXPECT_EQ((*old)["error"]["code"], -32022);
  auto no_caps = c.request(req(4, "tools/list", {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}}));
  EXPECT_EQ((*no_caps)["error"]["code"], -32602);
}

TEST(mcp_server, input_required_round_trip_with_sealed_state) {
  fixture f;
  f.server.add_tool({.name = "mrtr"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    if (ctx.request_state() && ctx.input_response("q"))
      return tool_result::text("got " + (*ctx.request_state())["n"].dump());
    return mcp::input_required{.input_requests = {{"q", {{"method", "roots/list"}}}}, .state = json{{"n", 7}}};
  });
  mcp::memory_client c(f.server);
  auto r1 = c.request(req(1, "tools/call", {{"name", "mrtr"}, {"_meta", stateless_meta()}}));
  ASSERT_EQ((*r1)["result"]["resultType"], "input_required");
  std::string state = (*r1)["result"]["requestState"];
  json retry = {{"name", "mrtr"}, {"_meta", stateless_meta()}, {"requestState", state},
                {"inputResponses", {{"q", {{"roots", json::array()}}}}}};
  auto r2 = c.request(req(2, "tools/call", retry));
  EXPECT_EQ((*r2)["result"]["content"][0]["text"], "got 7");
  retry["requestState"] = state + "x";
  auto r3 = c.request(req(3, "tools/call", retry));
  EXPECT_EQ((*r3)["error"]["code"], -32602);
}

TEST(mcp_server, malformed_lines_get_protocol_errors) {
  fixture f;
  mcp::memory_client c(f.server);
  c.send_text("{oops");
  auto e = c.receive();
  ASSERT_TRUE(e);
  EXPECT_EQ((*e)["error"]["code"], -32700);
  c.send_text(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  auto b = c.receive();
  EXPECT_EQ((*b)["error"]["code"], -32600);
}

TEST(mcp_server, registry_change_notifies_initialized_sessions) {
  fixture f;
  mcp::memory_client c(f.server);
  initialize(c);
  f.tools.add({.name = "later"}, [](const json&, tooluse::call_context&) { return tool_result::text("x"); });
  auto n = c.receive();
  ASSERT_TRUE(n);
  EXPECT_EQ((*n)["method"], "notifications/tools/list_changed");
}

// Every server-wide notification reaches every open session, not only the first one sent
// (live_sessions once dropped each session it had just returned).
TEST(mcp_server, server_log_reaches_every_session_every_time) {
  fixture f;
  std::atomic<int> a{0}, b{0};
  mcp::test::fn_connection ca([&](const json&, const json*) { ++a; });
  mcp::test::fn_connection cb([&](const json&, const json*) { ++b; });
  auto sa = f.server.connect(ca);
  auto sb = f.server.connect(cb);
  for (int i = 0; i < 3; ++i) f.server.log(mcp::log_level::error, "message " + std::to_string(i));
  EXPECT_EQ(a.load(), 3);
  EXPECT_EQ(b.load(), 3);
  sa->close();
  f.server.log(mcp::log_level::error, "after close");
  EXPECT_EQ(a.load(), 3);
  EXPECT_EQ(b.load(), 4);
  sb->close();
}
}  // namespace server_test
