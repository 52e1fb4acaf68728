// The MCP HTTP transport over real loopback sockets (tooluse::http client), and
// `tooluse mcp serve --stdio` as a real subprocess.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "support/test_support.hpp"
#include "tooluse/http/client.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "tooluse/mcp/server.hpp"

namespace mcp_http_test {
namespace mcp = tooluse::mcp;
namespace http = tooluse::http;
using tooluse::json;

namespace {

struct live_server {
  tooluse::tool_registry tools;
  mcp::server server{{.name = "it", .version = "1"}, &tools};
  mcp::http_server http{server, {.max_body_bytes = 1024}};
  live_server() {
    tools.add({.name = "hello", .description = "Say hi"},
              [](const json&, tooluse::call_context&) { return tooluse::tool_result::text("hi"); });
    auto ok = http.start();
    EXPECT_TRUE(ok);
  }
  http::response post(const json& body, std::vector<http::header> extra = {}) {
    http::request r{.method = "POST", .url = http.url(), .body = tooluse::dump_json(body)};
    r.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
    for (auto& h : extra) r.headers.push_back(h);
    auto res = http::send(r);
    EXPECT_TRUE(res) << (res ? "" : res.error().message);
    return res ? *res : http::response{};
  }
};

json init_body() {
  return {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
          {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                      {"clientInfo", {{"name", "it"}, {"version", "1"}}}}}};
}

}  // namespace

TEST(mcp_http, session_lifecycle_initialize_call_delete) {
  live_server s;
  auto init = s.post(init_body());
  ASSERT_EQ(init.status, 200);
  auto sid = init.header_value("Mcp-Session-Id");
  ASSERT_TRUE(sid);
  std::vector<http::header> h = {{"Mcp-Session-Id", *sid}, {"MCP-Protocol-Version", "2025-11-25"}};
  auto call = s.post({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", {{"name", "hello"}}}}, h);
  ASSERT_EQ(call.status, 200);
  EXPECT_NE(call.body.find("\"hi\""), std::string::npos);
  http::request del{.method = "DELETE", .url = s.http.url(), .headers = h};
  auto d = http::send(del);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->status, 200);
  auto after = s.post({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}, h);
  EXPECT_EQ(after.status, 404);
}

TEST(mcp_http, rejects_foreign_host_missing_session_and_big_bodies) {
  live_server s;
  auto evil = s.post(init_body(), {{"Origin", "http://evil.example.com"}});
  EXPECT_EQ(evil.status, 403);
  auto no_session = s.post({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}});
  EXPECT_EQ(no_session.status, 400);
  json big = init_body();
  big["params"]["pad"] = std::string(4096, 'x');
  http::request r{.method = "POST", .url = s.http.url(), .body = tooluse::dump_json(big)};
  r.headers = {{"Content-Type", "application/json"}};
  auto res = http::send(r);
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 413);
}

TEST(mcp_http, stateless_request_checks_headers) {
  live_server s;
  json body = {{"jsonrpc", "2.0"}, {"id", 5}, {"method", "tools/list"},
               {"params", {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                      {"io.modelcontextprotocol/clientCapabilities", json::object()}}}}}};
  auto ok = s.post(body, {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/list"}});
  ASSERT_EQ(ok.status, 200);
  EXPECT_NE(ok.body.find("\"resultType\":\"complete\""), std::string::npos);
  auto mismatch = s.post(body, {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "prompts/list"}});
  EXPECT_EQ(mismatch.status, 400);
  EXPECT_NE(mismatch.body.find("-32020"), std::string::npos);
}

TEST(mcp_cli, serve_stdio_lists_and_calls_a_builtin_tool) {
  tooluse::testing::temp_dir dir;
  std::string input = dir.path().string() + "/in.jsonl";
  FILE* f = std::fopen(input.c_str(), "w");
  ASSERT_TRUE(f);
  std::fputs(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
             "\n"
             R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
             "\n"
             R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})"
             "\n",
             f);
  std::fclose(f);
  std::string cmd = std::string(TOOLUSE_CLI_PATH) + " mcp serve --stdio < " + input + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_TRUE(p);
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  EXPECT_EQ(pclose(p), 0);
  EXPECT_NE(out.find("\"id\":1,\"result\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"tools\":["), std::string::npos) << out;
  for (std::size_t start = 0, nl; (nl = out.find('\n', start)) != std::string::npos; start = nl + 1)
    EXPECT_EQ(out[start], '{') << "stdout must carry only JSON-RPC lines";
}
}  // namespace mcp_http_test
