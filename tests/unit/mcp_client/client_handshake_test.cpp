// mcp::client negotiation: 2026-07-28 through server/discover, the 2025 initialize handshake,
// the fallback between them, and forcing a revision; over real loopback HTTP and in memory.

#include <gtest/gtest.h>

#include "client_test_support.hpp"

namespace mcp = tooluse::mcp;
using tooluse::json;
using namespace mcp::testing;

TEST(mcp_client_handshake, auto_uses_stateless_revision_with_a_modern_server) {
  http_fixture f;
  add_text_tool(f.srv, "hello", "hi");
  ASSERT_TRUE(f.start());
  auto c = mcp::client::connect(f.transport(), {});
  ASSERT_TRUE(c) << c.error().what();
  EXPECT_EQ((*c)->protocol_version(), "2026-07-28");
  EXPECT_TRUE((*c)->stateless());
  EXPECT_EQ((*c)->server_info().name, "test-server");
  auto r = (*c)->call_tool("hello");
  ASSERT_TRUE(r) << r.error().what();
  EXPECT_EQ(r->all_text(), "hi");
}

TEST(mcp_client_handshake, forced_2025_revision_uses_initialize_and_a_session) {
  http_fixture f;
  add_text_tool(f.srv, "hello", "hi");
  ASSERT_TRUE(f.start());
  auto c = mcp::client::connect(f.transport(), {.protocol_version = "2025-11-25"});
  ASSERT_TRUE(c) << c.error().what();
  EXPECT_EQ((*c)->protocol_version(), "2025-11-25");
  EXPECT_FALSE((*c)->stateless());
  EXPECT_EQ((*c)->server_info().version, "1.2.3");
  EXPECT_TRUE((*c)->capabilities().contains("tools"));
  EXPECT_TRUE((*c)->ping());
  auto r = (*c)->call_tool("hello");
  ASSERT_TRUE(r) << r.error().what();
  EXPECT_EQ(r->all_text(), "hi");
}

TEST(mcp_client_handshake, auto_falls_back_to_initialize_when_the_server_is_legacy) {
  http_fixture f({.stateless = false});
  add_text_tool(f.srv, "hello", "hi");
  ASSERT_TRUE(f.start());
  auto c = mcp::client::connect(f.transport(), {});
  ASSERT_TRUE(c) << c.error().what();
  EXPECT_EQ((*c)->protocol_version(), "2025-11-25");
  EXPECT_FALSE((*c)->stateless());
  auto tools = (*c)->list_tools();
  ASSERT_TRUE(tools) << tools.error().what();
  ASSERT_EQ(tools->size(), 1u);
}

TEST(mcp_client_handshake, fallback_over_a_scripted_legacy_server_sends_initialized) {
  auto t = std::make_unique<scripted_transport>(legacy_script());
  auto* raw = t.get();
  auto c = mcp::client::connect(std::move(t), {});
  ASSERT_TRUE(c) << c.error().what();
  EXPECT_EQ((*c)->protocol_version(), "2025-11-25");
  auto sent = raw->sent();
  ASSERT_GE(sent.size(), 3u);
  EXPECT_EQ(sent[0]["method"], "server/discover");
  EXPECT_EQ(sent[0]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
  EXPECT_EQ(sent[1]["method"], "initialize");
  EXPECT_EQ(sent[1]["params"]["clientInfo"]["name"], "tooluse");
  EXPECT_EQ(sent[2]["method"], "notifications/initialized");
}

TEST(mcp_client_handshake, each_write_states_the_revision_the_client_speaks_then) {
  auto t = std::make_unique<scripted_transport>(legacy_script([](const json&) {
    return json{{"tools", json::array()}};
  }));
  auto* raw = t.get();
  auto c = mcp::client::connect(std::move(t), {});
  ASSERT_TRUE(c) << c.error().what();
  ASSERT_TRUE((*c)->list_tools());
  auto sent = raw->sent();
  auto envelopes = raw->envelopes();
  ASSERT_EQ(sent.size(), 4u);
  EXPECT_EQ(sent[0]["method"], "server/discover");  // the probe speaks 2026-07-28
  EXPECT_EQ(envelopes[0].protocol_version, "2026-07-28");
  EXPECT_EQ(sent[1]["method"], "initialize");  // the fallback speaks none yet
  EXPECT_EQ(envelopes[1].protocol_version, "");
  EXPECT_EQ(sent[2]["method"], "notifications/initialized");  // then what initialize settled
  EXPECT_EQ(envelopes[2].protocol_version, "2025-11-25");
  EXPECT_EQ(sent[3]["method"], "tools/list");
  EXPECT_EQ(envelopes[3].protocol_version, "2025-11-25");
  for (const auto& e : envelopes) EXPECT_TRUE(e.request.is_null());
}

TEST(mcp_client_handshake, forcing_a_stateless_revision_fails_against_a_legacy_server) {
  auto c = mcp::client::connect(std::make_unique<scripted_transport>(legacy_script()),
                                {.protocol_version = "2026-07-28"});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, tooluse::errc::unsupported);
  EXPECT_NE(c.error().message.find("scripted server"), std::string::npos);
}

TEST(mcp_client_handshake, unknown_forced_revision_is_a_setup_error) {
  EXPECT_THROW((void)mcp::client::connect(std::make_unique<scripted_transport>(legacy_script()),
                                          {.protocol_version = "1999-01-01"}),
               std::invalid_argument);
}

TEST(mcp_client_handshake, stateless_requests_carry_meta_and_capabilities) {
  http_fixture f;
  ASSERT_TRUE(f.start());
  std::vector<std::string> bodies;
  std::mutex mu;
  mcp::http_client_options o;
  o.sender = [&](const tooluse::http::request& req, const tooluse::http::send_options& so) {
    {
      std::lock_guard lock(mu);
      bodies.push_back(req.body);
    }
    return tooluse::http::send(req, so);
  };
  auto c = mcp::client::connect(
      f.transport(o), {.on_sampling = [](const json&, std::stop_token) -> tooluse::result<json> {
        return json::object();
      }});
  ASSERT_TRUE(c) << c.error().what();
  ASSERT_TRUE((*c)->list_tools());
  std::lock_guard lock(mu);
  ASSERT_EQ(bodies.size(), 2u);  // discover, tools/list
  json list = json::parse(bodies[1]);
  const json& meta = list["params"]["_meta"];
  EXPECT_EQ(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
  EXPECT_EQ(meta["io.modelcontextprotocol/clientInfo"]["name"], "tooluse");
  EXPECT_TRUE(meta["io.modelcontextprotocol/clientCapabilities"].contains("sampling"));
}

TEST(mcp_client_handshake, memory_transport_connects_and_calls) {
  mcp::server srv({.name = "mem", .version = "1"});
  add_text_tool(srv, "hello", "hi from memory");
  auto c = mcp::client::connect(memory_connection(srv), {});
  ASSERT_TRUE(c) << c.error().what();
  auto r = (*c)->call_tool("hello");
  ASSERT_TRUE(r) << r.error().what();
  EXPECT_EQ(r->all_text(), "hi from memory");
  (*c)->close();
  EXPECT_FALSE((*c)->call_tool("hello"));
}

TEST(mcp_client_handshake, unreachable_url_names_the_url_and_says_what_to_do) {
  // Port 1 on loopback: nothing listens there.
  auto c = mcp::client::connect(mcp::make_http_client_transport({.url = "http://127.0.0.1:1/mcp"}),
                                {.protocol_version = "2025-11-25"});
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("http://127.0.0.1:1/mcp"), std::string::npos);
  EXPECT_NE(c.error().message.find("check that the MCP server is running"), std::string::npos);
}
