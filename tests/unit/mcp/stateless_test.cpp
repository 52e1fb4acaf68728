// The 2026-07-28 per-request revision over the memory transport: _meta checks, server/discover,
// methods removed from the revision, resultType and cache hints, logging through _meta,
// multi-round-trip input (inputResponses, requestState), subscriptions/listen (server::listen)
// and a server with only one era enabled.
#include <gtest/gtest.h>

#include <mutex>

#include "unit/mcp/mcp_test_util.hpp"
#include "mcp/server_impl.hpp"

namespace stateless_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::errc;
using tooluse::json;
using tooluse::tool_result;

namespace {

struct fixture {
  mcp::server server{{.name = "sl", .version = "3"},
                     nullptr,
                     {.instructions = "hi",
                      .list_cache = {.ttl_ms = 5000, .scope = "public"},
                      .read_cache = {.ttl_ms = 10, .scope = "private"}}};
  fixture() {
    server.add_resource({.uri = "mem://r", .name = "r"},
                        [](const std::string& uri, const json&, mcp::request_context&)
                            -> tooluse::result<std::vector<mcp::resource_contents>> {
                          return std::vector<mcp::resource_contents>{{uri, "", "R", {}}};
                        });
  }
};

// collector gathers what a listener emits.
struct collector {
  std::mutex mu;
  std::vector<json> got;
  std::function<void(const json&)> fn() {
    return [this](const json& j) {
      std::lock_guard lock(mu);
      got.push_back(j);
    };
  }
  std::size_t size() {
    std::lock_guard lock(mu);
    return got.size();
  }
};

tooluse::jsonrpc::request listen_request(json notifications, tooluse::jsonrpc::message_id id = std::int64_t{7}) {
  return {id, "subscriptions/listen", json{{"notifications", std::move(notifications)}}};
}

}  // namespace

TEST(mcp_stateless, discover_lists_versions_capabilities_and_server_info) {
  fixture f;
  mcp::memory_client c(f.server);
  auto r = c.request(req(1, "server/discover", with_meta(json::object())));
  ASSERT_TRUE(r && r->contains("result")) << r->dump();
  const json& res = (*r)["result"];
  EXPECT_EQ(res["supportedVersions"][0], "2026-07-28");
  EXPECT_NE(std::find(res["supportedVersions"].begin(), res["supportedVersions"].end(), json("2025-11-25")),
            res["supportedVersions"].end());
  EXPECT_FALSE(res["capabilities"].contains("logging"));
  EXPECT_FALSE(res["capabilities"]["resources"].contains("subscribe"));
  EXPECT_TRUE(res["capabilities"]["extensions"].contains("io.modelcontextprotocol/tasks"));
  EXPECT_EQ(res["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "sl");
  EXPECT_EQ(res["instructions"], "hi");
  EXPECT_EQ(res["resultType"], "complete");
  // discover is cached like a read.
  EXPECT_EQ(res["ttlMs"], 10);
  EXPECT_EQ(res["cacheScope"], "private");
}

TEST(mcp_stateless, lists_and_reads_carry_their_own_cache_hints) {
  fixture f;
  mcp::memory_client c(f.server);
  auto list = c.request(req(1, "resources/list", with_meta(json::object())));
  EXPECT_EQ((*list)["result"]["ttlMs"], 5000);
  EXPECT_EQ((*list)["result"]["cacheScope"], "public");
  auto read = c.request(req(2, "resources/read", with_meta({{"uri", "mem://r"}})));
  EXPECT_EQ((*read)["result"]["ttlMs"], 10);
  EXPECT_EQ((*read)["result"]["cacheScope"], "private");
  // A tool call is not cacheable: resultType only.
  f.server.add_tool({.name = "t"}, text_tool("x"));
  auto call = c.request(req(3, "tools/call", with_meta({{"name", "t"}})));
  EXPECT_EQ((*call)["result"]["resultType"], "complete");
  EXPECT_FALSE((*call)["result"].contains("ttlMs"));
}

TEST(mcp_stateless, session_only_methods_are_not_part_of_the_revision) {
  fixture f;
  mcp::memory_client c(f.server);
  int id = 1;
  for (const char* m : {"ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe",
                        "tasks/result", "tasks/list"}) {
    auto r = c.request(req(id++, m, with_meta({{"uri", "mem://r"}, {"level", "info"}})));
    EXPECT_EQ(error_code(r), -32601) << m;
    EXPECT_TRUE(error_mentions(r, "2026-07-28")) << m;
  }
  auto unknown = c.request(req(id++, "no/such", with_meta(json::object())));
  EXPECT_EQ(error_code(unknown), -32601);
}

TEST(mcp_stateless, meta_must_name_version_and_capabilities) {
  fixture f;
  mcp::memory_client c(f.server);
  json caps_not_object = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                          {"io.modelcontextprotocol/clientCapabilities", "all"}};
  auto r1 = c.request(req(1, "tools/list", {{"_meta", caps_not_object}}));
  EXPECT_EQ(error_code(r1), -32602);
  EXPECT_TRUE(error_mentions(r1, "clientCapabilities"));
  json version_not_string = {{"io.modelcontextprotocol/protocolVersion", 20260728},
                             {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  auto r2 = c.request(req(2, "tools/list", {{"_meta", version_not_string}}));
  EXPECT_EQ(error_code(r2), -32602);
  EXPECT_TRUE(error_mentions(r2, "protocolVersion"));
  json session_version = stateless_meta();
  session_version["io.modelcontextprotocol/protocolVersion"] = "2025-11-25";
  auto r3 = c.request(req(3, "tools/list", {{"_meta", session_version}}));
  EXPECT_EQ(error_code(r3), -32022);
  EXPECT_EQ((*r3)["error"]["data"]["requested"], "2025-11-25");
  EXPECT_EQ((*r3)["error"]["data"]["supported"][0], "2026-07-28");
}

TEST(mcp_stateless, a_server_without_the_stateless_era_refuses_it) {
  mcp::server s({.name = "old", .version = "1"}, nullptr, {.stateless = false});
  mcp::memory_client c(s);
  auto r = c.request(req(1, "tools/list", with_meta(json::object())));
  EXPECT_EQ(error_code(r), -32022);
  const json& supported = (*r)["error"]["data"]["supported"];
  EXPECT_EQ(std::find(supported.begin(), supported.end(), json("2026-07-28")), supported.end());
  EXPECT_EQ(supported[0], "2025-11-25");
}

TEST(mcp_stateless, a_stateless_only_server_lists_only_its_revision) {
  mcp::server s({.name = "new", .version = "1"}, nullptr, {.sessions = false});
  mcp::memory_client c(s);
  auto r = c.request(req(1, "server/discover", with_meta(json::object())));
  EXPECT_EQ((*r)["result"]["supportedVersions"], json::array({"2026-07-28"}));
}

TEST(mcp_stateless, log_messages_need_a_log_level_in_meta) {
  fixture f;
  f.server.add_tool({.name = "noisy"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    ctx.log(mcp::log_level::info, "info line", "lg");
    ctx.log(mcp::log_level::error, "error line");
    return tool_result::text(ctx.stateless() ? "stateless " + ctx.protocol_version() : "session");
  });
  mcp::memory_client c(f.server);
  std::vector<json> others;
  auto silent = c.request(req(1, "tools/call", with_meta({{"name", "noisy"}})), &others);
  EXPECT_EQ((*silent)["result"]["content"][0]["text"], "stateless 2026-07-28");
  EXPECT_TRUE(others.empty());
  json p = with_meta({{"name", "noisy"}});
  p["_meta"]["io.modelcontextprotocol/logLevel"] = "warning";
  auto logged = c.request(req(2, "tools/call", p), &others);
  ASSERT_TRUE(logged);
  ASSERT_EQ(others.size(), 1u);
  EXPECT_EQ(others[0]["params"]["level"], "error");
  EXPECT_EQ(others[0]["params"]["data"], "error line");
}

TEST(mcp_stateless, client_info_and_capabilities_come_from_meta) {
  fixture f;
  f.server.add_tool({.name = "who"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    return tool_result::text(std::string(ctx.has_client_capability("elicitation") ? "e" : "-") +
                             (ctx.has_client_capability("sampling") ? "s" : "-") +
                             (ctx.has_client_capability("roots") ? "r" : "-"));
  });
  mcp::memory_client c(f.server);
  auto r = c.request(req(1, "tools/call", with_meta({{"name", "who"}}, {{"elicitation", json::object()},
                                                                         {"sampling", false},
                                                                         {"roots", nullptr}})));
  EXPECT_EQ((*r)["result"]["content"][0]["text"], "e--");
}

TEST(mcp_stateless, request_client_is_unsupported_per_request) {
  fixture f;
  f.server.add_tool({.name = "ask"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    auto r = ctx.request_client("roots/list", json::object());
    if (r) return tool_result::text("answered?");
    return tool_result::text(r.error().code == errc::unsupported ? "unsupported" : r.error().message);
  });
  mcp::memory_client c(f.server);
  std::vector<json> others;
  auto r = c.request(req(1, "tools/call", with_meta({{"name", "ask"}})), &others);
  EXPECT_EQ((*r)["result"]["content"][0]["text"], "unsupported");
  EXPECT_TRUE(others.empty());  // nothing was sent to the client
}

TEST(mcp_stateless, input_responses_and_request_state_are_checked) {
  fixture f;
  f.server.add_tool({.name = "t"}, text_tool("x"));
  mcp::memory_client c(f.server);
  auto not_object = c.request(req(1, "tools/call", with_meta({{"name", "t"}, {"inputResponses", "yes"}})));
  EXPECT_EQ(error_code(not_object), -32602);
  EXPECT_TRUE(error_mentions(not_object, "inputResponses"));
  auto entry_not_object =
      c.request(req(2, "tools/call", with_meta({{"name", "t"}, {"inputResponses", {{"k", 1}}}})));
  EXPECT_EQ(error_code(entry_not_object), -32602);
  EXPECT_TRUE(error_mentions(entry_not_object, "k"));
  auto state_not_string = c.request(req(3, "tools/call", with_meta({{"name", "t"}, {"requestState", 5}})));
  EXPECT_EQ(error_code(state_not_string), -32602);
  EXPECT_TRUE(error_mentions(state_not_string, "requestState"));
  auto forged = c.request(req(4, "tools/call", with_meta({{"name", "t"}, {"requestState", "eyJhIjoxfQ.abc"}})));
  EXPECT_EQ(error_code(forged), -32602);
  EXPECT_TRUE(error_mentions(forged, "requestState"));
  auto null_state = c.request(req(5, "tools/call", with_meta({{"name", "t"}, {"requestState", nullptr}})));
  EXPECT_EQ((*null_state)["result"]["content"][0]["text"], "x");
}

TEST(mcp_stateless, a_state_sealed_by_another_server_is_refused) {
  fixture a, b;
  auto handler = [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    if (ctx.request_state()) return tool_result::text("state " + ctx.request_state()->dump());
    return mcp::input_required{.input_requests = {{"q", {{"method", "roots/list"}}}}, .state = json{{"n", 1}}};
  };
  a.server.add_tool({.name = "m"}, handler);
  b.server.add_tool({.name = "m"}, handler);
  mcp::memory_client ca(a.server), cb(b.server);
  auto first = ca.request(req(1, "tools/call", with_meta({{"name", "m"}})));
  ASSERT_EQ((*first)["result"]["resultType"], "input_required");
  EXPECT_EQ((*first)["result"]["inputRequests"]["q"]["method"], "roots/list");
  std::string state = (*first)["result"]["requestState"];
  json retry = with_meta({{"name", "m"}, {"requestState", state}, {"inputResponses", {{"q", json::object()}}}});
  auto elsewhere = cb.request(req(2, "tools/call", retry));
  EXPECT_EQ(error_code(elsewhere), -32602);
  auto here = ca.request(req(3, "tools/call", retry));
  EXPECT_EQ((*here)["result"]["content"][0]["text"], "state {\"n\":1}");
}

TEST(mcp_stateless, input_required_without_state_has_no_request_state) {
  fixture f;
  f.server.add_prompt({.name = "p"}, [](const json&, mcp::request_context& ctx) -> tooluse::result<mcp::prompt_outcome> {
    if (auto* answer = ctx.input_response("topic"))
      return mcp::prompt_result{.messages = {{"user", tooluse::text_content{(*answer)["content"].value("t", "")}}}};
    return mcp::input_required{.input_requests = {{"topic", {{"method", "elicitation/create"}}}}};
  });
  mcp::memory_client c(f.server);
  auto r1 = c.request(req(1, "prompts/get", with_meta({{"name", "p"}})));
  EXPECT_EQ((*r1)["result"]["resultType"], "input_required");
  EXPECT_FALSE((*r1)["result"].contains("requestState"));
  auto r2 = c.request(req(2, "prompts/get", with_meta({{"name", "p"}, {"inputResponses", {{"topic", {{"content", {{"t", "cats"}}}}}}}})));
  EXPECT_EQ((*r2)["result"]["messages"][0]["content"]["text"], "cats");
  EXPECT_EQ((*r2)["result"]["resultType"], "complete");
}

TEST(mcp_stateless, a_session_request_after_initialize_is_not_stateless) {
  fixture f;
  f.server.add_tool({.name = "mode"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    return tool_result::text(ctx.stateless() ? "stateless" : "session");
  });
  mcp::memory_client c(f.server);
  auto before = c.request(req(1, "tools/call", with_meta({{"name", "mode"}})));
  EXPECT_EQ((*before)["result"]["content"][0]["text"], "stateless");
  handshake(c);
  // Once initialized, _meta no longer switches the connection to per-request handling.
  auto after = c.request(req(2, "tools/call", with_meta({{"name", "mode"}})));
  EXPECT_EQ((*after)["result"]["content"][0]["text"], "session");
}

TEST(mcp_stateless, is_stateless_request_looks_at_meta_only) {
  using tooluse::jsonrpc::request;
  EXPECT_TRUE(mcp::server::is_stateless_request(request{std::int64_t{1}, "x", json{{"_meta", stateless_meta()}}}));
  EXPECT_FALSE(mcp::server::is_stateless_request(request{std::int64_t{1}, "x", json{{"_meta", "s"}}}));
  EXPECT_FALSE(mcp::server::is_stateless_request(request{std::int64_t{1}, "x", json::array()}));
  EXPECT_FALSE(mcp::server::is_stateless_request(request{std::int64_t{1}, "x", json::object()}));
}

TEST(mcp_stateless, listen_acknowledges_only_what_it_honours) {
  fixture f;
  collector got;
  auto handle = f.server.listen(listen_request({{"toolsListChanged", true}, {"promptsListChanged", false},
                                                {"bogus", true}, {"resourceSubscriptions", {"mem://r"}}}),
                                got.fn());
  ASSERT_EQ(got.size(), 1u);
  const json& ack = got.got[0];
  EXPECT_EQ(ack["method"], "notifications/subscriptions/acknowledged");
  EXPECT_EQ(ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "7");
  EXPECT_EQ(ack["params"]["notifications"],
            (json{{"toolsListChanged", true}, {"resourceSubscriptions", {"mem://r"}}}));
}

TEST(mcp_stateless, listeners_get_the_notifications_they_asked_for_until_released) {
  fixture f;
  collector tools, resources;
  auto h1 = f.server.listen(listen_request({{"toolsListChanged", true}}, std::string("sub-a")), tools.fn());
  auto h2 = f.server.listen(listen_request({{"resourceSubscriptions", {"mem://r"}}, {"resourcesListChanged", true}}),
                            resources.fn());
  f.server.add_tool({.name = "new"}, text_tool("x"));
  f.server.notify_resource_updated("mem://r");
  f.server.notify_resource_updated("mem://other");
  f.server.notify_list_changed("prompts");
  ASSERT_EQ(tools.size(), 2u);
  EXPECT_EQ(tools.got[1]["method"], "notifications/tools/list_changed");
  EXPECT_EQ(tools.got[1]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "sub-a");
  ASSERT_EQ(resources.size(), 2u);
  EXPECT_EQ(resources.got[1]["method"], "notifications/resources/updated");
  EXPECT_EQ(resources.got[1]["params"]["uri"], "mem://r");
  EXPECT_EQ(resources.got[1]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "7");
  h1.reset();
  f.server.remove_tool("new");
  EXPECT_EQ(tools.size(), 2u);  // released: nothing more
  f.server.add_resource({.uri = "mem://s", .name = "s"},
                        [](const std::string&, const json&, mcp::request_context&)
                            -> tooluse::result<std::vector<mcp::resource_contents>> { return {}; });
  ASSERT_EQ(resources.size(), 3u);
  EXPECT_EQ(resources.got[2]["method"], "notifications/resources/list_changed");
}
}  // namespace stateless_test
