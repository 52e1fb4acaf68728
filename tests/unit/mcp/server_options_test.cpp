// server_options and the registry adapter: which requests a transport may answer on its
// reading thread (runs_inline), task support of registry tools (task_tools, the long-running
// tag), a registry tool run as a task, a shared executor, registry tools listed after the
// server's own, and list_changed when the registry changes.
#include <gtest/gtest.h>

#include "unit/mcp/mcp_test_util.hpp"

namespace mcp = tooluse::mcp;
namespace jsonrpc = tooluse::jsonrpc;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;

namespace {

jsonrpc::request rq(const std::string& method, json params = json::object()) {
  return {std::int64_t{1}, method, std::move(params)};
}

tooluse::tool_handler quick(std::string text) {
  return [text](const json&, tooluse::call_context&) { return tool_result::text(text); };
}

}  // namespace

TEST(mcp_server_options, runs_inline_only_for_requests_that_never_block) {
  tooluse::tool_registry tools;
  tools.add({.name = "pure", .synchronous = true}, quick("p"));
  tools.add({.name = "slowish"}, quick("s"));
  mcp::server srv({.name = "i", .version = "1"}, &tools);
  srv.add_tool({.name = "own"}, text_tool("o"));
  for (const char* m : {"ping", "initialize", "tools/list", "prompts/list", "resources/list",
                        "resources/templates/list", "logging/setLevel", "resources/subscribe",
                        "resources/unsubscribe", "server/discover"})
    EXPECT_TRUE(srv.runs_inline(rq(m))) << m;
  for (const char* m : {"prompts/get", "resources/read", "completion/complete", "tasks/result", "tasks/get"})
    EXPECT_FALSE(srv.runs_inline(rq(m))) << m;
  EXPECT_TRUE(srv.runs_inline(rq("tools/call", {{"name", "pure"}})));
  EXPECT_FALSE(srv.runs_inline(rq("tools/call", {{"name", "slowish"}})));
  EXPECT_FALSE(srv.runs_inline(rq("tools/call", {{"name", "own"}})));  // an MCP-level tool may block
  EXPECT_FALSE(srv.runs_inline(rq("tools/call", {{"name", 3}})));
  EXPECT_FALSE(srv.runs_inline(rq("tools/call", json::array())));
  EXPECT_FALSE(srv.runs_inline(rq("tools/call")));
}

TEST(mcp_server_options, without_a_registry_no_tool_call_runs_inline) {
  mcp::server srv({.name = "i", .version = "1"});
  srv.add_tool({.name = "own"}, text_tool("o"));
  EXPECT_FALSE(srv.runs_inline(rq("tools/call", {{"name", "own"}})));
  EXPECT_TRUE(srv.runs_inline(rq("ping")));
}

TEST(mcp_server_options, tools_list_in_registration_order_and_declare_task_support) {
  // One registry holds every tool (add_tool adds to it), so tools/list is in registration order.
  tooluse::tool_registry tools;
  tools.add({.name = "tagged", .tags = {"long-running"}}, quick("t"));
  tools.add({.name = "declared"}, quick("d"));
  tools.add({.name = "overridden", .tags = {"long-running"}}, quick("x"));
  tools.add({.name = "plain"}, quick("p"));
  mcp::server srv({.name = "i", .version = "1"}, &tools,
                  {.task_tools = {{"declared", mcp::task_support::required},
                                  {"overridden", mcp::task_support::forbidden}}});
  srv.add_tool({.name = "first"}, text_tool("f"));
  mcp::memory_client c(srv);
  handshake(c);
  auto list = c.request(req(1, "tools/list"));
  std::map<std::string, std::string> support;
  std::vector<std::string> order;
  for (const auto& t : (*list)["result"]["tools"]) {
    order.push_back(t["name"]);
    support[t["name"]] = t.contains("execution") ? t["execution"]["taskSupport"].get<std::string>() : "-";
  }
  EXPECT_EQ(order, (std::vector<std::string>{"tagged", "declared", "overridden", "plain", "first"}));
  EXPECT_EQ(support["tagged"], "optional");
  EXPECT_EQ(support["declared"], "required");
  EXPECT_EQ(support["overridden"], "-");
  EXPECT_EQ(support["plain"], "-");
}

TEST(mcp_server_options, a_registry_tool_runs_as_a_task_through_the_executor) {
  tooluse::tool_registry tools;
  tools.add({.name = "job", .tags = {"long-running"}},
            [](const json& a, tooluse::call_context&) { return tool_result::text("ran " + a.value("x", "")); });
  mcp::server srv({.name = "i", .version = "1"}, &tools);
  mcp::memory_client c(srv);
  handshake(c);
  auto created = c.request(req(1, "tools/call", {{"name", "job"}, {"arguments", {{"x", "A"}}}, {"task", json::object()}}));
  ASSERT_TRUE((*created)["result"].contains("task")) << created->dump();
  auto result = c.request(req(2, "tasks/result", {{"taskId", (*created)["result"]["task"]["taskId"]}}));
  EXPECT_EQ((*result)["result"]["content"][0]["text"], "ran A");
  // Called without "task", an optional tool answers directly.
  auto direct = c.request(req(3, "tools/call", {{"name", "job"}, {"arguments", {{"x", "B"}}}}));
  EXPECT_EQ((*direct)["result"]["content"][0]["text"], "ran B");
}

TEST(mcp_server_options, registry_arguments_are_validated_by_the_executor_as_tool_errors) {
  tooluse::tool_registry tools;
  tools.add({.name = "typed", .input_schema = json::parse(R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]})")},
            [](const json& a, tooluse::call_context&) { return tool_result::text(std::to_string(a["n"].get<int>() * 2)); });
  mcp::server srv({.name = "i", .version = "1"}, &tools);
  mcp::memory_client c(srv);
  handshake(c);
  auto bad = c.request(req(1, "tools/call", {{"name", "typed"}, {"arguments", {{"n", "x"}}}}));
  EXPECT_EQ((*bad)["result"]["isError"], true);
  auto ok = c.request(req(2, "tools/call", {{"name", "typed"}, {"arguments", {{"n", 21}}}}));
  EXPECT_EQ((*ok)["result"]["content"][0]["text"], "42");
}

TEST(mcp_server_options, a_shared_executor_is_used_for_registry_tools) {
  tooluse::tool_registry tools;
  tools.add({.name = "limited", .rate = {.calls = 1, .window = std::chrono::hours(1)}}, quick("ok"));
  auto ex = std::make_shared<tooluse::exec::executor>(tools);
  mcp::server a({.name = "a", .version = "1"}, &tools, {.executor = ex});
  mcp::server b({.name = "b", .version = "1"}, &tools, {.executor = ex});
  mcp::memory_client ca(a), cb(b);
  // Stateless requests carry no session: both servers' calls count against one key of the
  // one executor, so the second call is refused by the shared rate limit.
  auto first = ca.request(req(1, "tools/call", with_meta({{"name", "limited"}})));
  EXPECT_EQ((*first)["result"]["content"][0]["text"], "ok");
  auto second = cb.request(req(2, "tools/call", with_meta({{"name", "limited"}})));
  EXPECT_EQ((*second)["result"]["isError"], true) << second->dump();
}

TEST(mcp_server_options, registry_changes_notify_and_stop_after_the_server_is_gone) {
  tooluse::tool_registry tools;
  {
    mcp::server srv({.name = "i", .version = "1"}, &tools);
    mcp::memory_client c(srv);
    handshake(c);
    tools.add({.name = "late"}, quick("l"));
    auto n = c.receive();
    ASSERT_TRUE(n);
    EXPECT_EQ((*n)["method"], "notifications/tools/list_changed");
    auto call = c.request(req(1, "tools/call", {{"name", "late"}}));
    EXPECT_EQ((*call)["result"]["content"][0]["text"], "l");
    ASSERT_TRUE(tools.remove("late"));
    auto gone = c.receive();
    ASSERT_TRUE(gone);
    EXPECT_EQ((*gone)["method"], "notifications/tools/list_changed");
  }
  // The server removed its listener: changing the registry now reaches nobody (and must not crash).
  tools.add({.name = "after"}, quick("a"));
  EXPECT_TRUE(tools.find("after"));
}

TEST(mcp_server_options, info_and_options_are_what_was_given) {
  mcp::server srv({.name = "n", .version = "9", .title = "T"}, nullptr, {.instructions = "x", .page_size = 7});
  EXPECT_EQ(srv.info().name, "n");
  EXPECT_EQ(srv.info().title, "T");
  EXPECT_EQ(srv.options().page_size, 7u);
  EXPECT_EQ(srv.options().instructions, "x");
}

TEST(mcp_server_options, a_page_size_of_zero_still_makes_progress) {
  mcp::server srv({.name = "n", .version = "1"}, nullptr, {.page_size = 0});
  srv.add_tool({.name = "a"}, text_tool("a"));
  srv.add_tool({.name = "b"}, text_tool("b"));
  mcp::memory_client c(srv);
  handshake(c);
  auto p1 = c.request(req(1, "tools/list"));
  ASSERT_EQ((*p1)["result"]["tools"].size(), 1u);
  auto p2 = c.request(req(2, "tools/list", {{"cursor", (*p1)["result"]["nextCursor"]}}));
  ASSERT_EQ((*p2)["result"]["tools"].size(), 1u);
  EXPECT_EQ((*p2)["result"]["tools"][0]["name"], "b");
}
