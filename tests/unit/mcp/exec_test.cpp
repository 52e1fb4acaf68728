// Registry tools served over MCP run through tooluse::exec: timeouts, approval of dangerous
// tools, rate limits, progress notifications and cancellation by notifications/cancelled.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>

#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"

namespace mcp = tooluse::mcp;
using namespace std::chrono_literals;
using tooluse::json;
using tooluse::tool_result;

namespace {

json req(int id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json call(int id, const std::string& name, json meta = nullptr) {
  json params = {{"name", name}, {"arguments", json::object()}};
  if (!meta.is_null()) params["_meta"] = std::move(meta);
  return req(id, "tools/call", std::move(params));
}

void initialize(mcp::memory_client& c) {
  auto r = c.request(req(0, "initialize", {{"protocolVersion", "2025-11-25"},
                                           {"capabilities", json::object()},
                                           {"clientInfo", {{"name", "t"}, {"version", "1"}}}}));
  ASSERT_TRUE(r);
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
}

std::string text_of(const json& response) {
  return response["result"]["content"][0].value("text", "");
}

// wait_for_stop blocks until the call's stop token is requested (timeout or cancellation),
// without polling.
void wait_for_stop(const tooluse::call_context& ctx) {
  std::promise<void> stopped;
  std::stop_callback cb(ctx.stop, [&] { stopped.set_value(); });
  stopped.get_future().wait();
}

}  // namespace

TEST(mcp_exec, slow_tool_past_its_timeout_is_an_error_result) {
  tooluse::tool_registry tools;
  std::promise<bool> saw_stop;
  tools.add({.name = "slow", .timeout = 50ms}, [&](const json&, tooluse::call_context& ctx) {
    wait_for_stop(ctx);
    saw_stop.set_value(ctx.stop_requested());
    return tool_result::text("too late");
  });
  mcp::server server({.name = "t", .version = "1"}, &tools);
  mcp::memory_client c(server);
  initialize(c);
  auto r = c.request(call(1, "slow"));
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"]["isError"], true);
  EXPECT_NE(text_of(*r).find("timed out"), std::string::npos) << text_of(*r);
  auto stopped = saw_stop.get_future();
  ASSERT_EQ(stopped.wait_for(10s), std::future_status::ready);
  EXPECT_TRUE(stopped.get());
}

TEST(mcp_exec, server_tool_timeout_applies_to_tools_without_one) {
  tooluse::tool_registry tools;
  tools.add({.name = "slow"}, [](const json&, tooluse::call_context& ctx) {
    wait_for_stop(ctx);
    return tool_result::text("too late");
  });
  mcp::server server({.name = "t", .version = "1"}, &tools, {.tool_timeout = 30ms});
  mcp::memory_client c(server);
  initialize(c);
  auto r = c.request(call(1, "slow"));
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"]["isError"], true);
  EXPECT_NE(text_of(*r).find("timed out"), std::string::npos) << text_of(*r);
}

TEST(mcp_exec, cancelled_notification_requests_stop_of_the_registry_tool) {
  tooluse::tool_registry tools;
  std::promise<void> started;
  std::promise<bool> saw_stop;
  tools.add({.name = "wait"}, [&](const json&, tooluse::call_context& ctx) {
    started.set_value();
    wait_for_stop(ctx);
    saw_stop.set_value(ctx.stop_requested());
    return tool_result::text("stopped");
  });
  mcp::server server({.name = "t", .version = "1"}, &tools);
  mcp::memory_client c(server);
  initialize(c);
  c.send(call(7, "wait"));
  ASSERT_EQ(started.get_future().wait_for(10s), std::future_status::ready);
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 7}}}});
  auto stopped = saw_stop.get_future();
  ASSERT_EQ(stopped.wait_for(10s), std::future_status::ready);
  EXPECT_TRUE(stopped.get());
  // The cancelled request gets no response; the next request is answered normally.
  std::vector<json> others;
  auto ping = c.request(req(8, "ping"), &others);
  ASSERT_TRUE(ping);
  for (const auto& m : others) EXPECT_NE(m.value("id", json()), json(7)) << m.dump();
}

TEST(mcp_exec, dangerous_tool_is_refused_without_an_approval_policy) {
  tooluse::tool_registry tools;
  std::atomic<int> runs{0};
  tools.add({.name = "wipe", .dangerous = true}, [&](const json&, tooluse::call_context&) {
    ++runs;
    return tool_result::text("wiped");
  });
  mcp::server server({.name = "t", .version = "1"}, &tools);
  mcp::memory_client c(server);
  initialize(c);
  auto r = c.request(call(1, "wipe"));
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"]["isError"], true);
  EXPECT_NE(text_of(*r).find("dangerous"), std::string::npos) << text_of(*r);
  EXPECT_EQ(runs.load(), 0);
}

TEST(mcp_exec, approval_policy_decides_dangerous_calls) {
  tooluse::tool_registry tools;
  std::atomic<int> runs{0};
  tools.add({.name = "wipe", .dangerous = true}, [&](const json&, tooluse::call_context&) {
    ++runs;
    return tool_result::text("wiped");
  });
  auto ex = std::make_shared<tooluse::exec::executor>(
      tools, tooluse::exec::executor_options{.approval = [](const tooluse::exec::approval_request&) {
        return tooluse::exec::approval_decision::approve();
      }});
  mcp::server server({.name = "t", .version = "1"}, &tools, {.executor = ex});
  mcp::memory_client c(server);
  initialize(c);
  auto r = c.request(call(1, "wipe"));
  ASSERT_TRUE(r);
  EXPECT_FALSE((*r)["result"].value("isError", false));
  EXPECT_EQ(text_of(*r), "wiped");
  EXPECT_EQ(runs.load(), 1);
}

TEST(mcp_exec, rate_limit_refuses_the_second_call_in_the_window) {
  tooluse::tool_registry tools;
  tools.add({.name = "once", .rate = {.calls = 1, .window = 1h}},
            [](const json&, tooluse::call_context&) { return tool_result::text("ok"); });
  mcp::server server({.name = "t", .version = "1"}, &tools);
  mcp::memory_client c(server);
  initialize(c);
  auto first = c.request(call(1, "once"));
  auto second = c.request(call(2, "once"));
  ASSERT_TRUE(first && second);
  EXPECT_EQ(text_of(*first), "ok");
  EXPECT_EQ((*second)["result"]["isError"], true);
  EXPECT_NE(text_of(*second).find("retry after"), std::string::npos) << text_of(*second);
}

TEST(mcp_exec, tool_progress_reaches_the_client_as_notifications) {
  tooluse::tool_registry tools;
  tools.add({.name = "steps"}, [](const json&, tooluse::call_context& ctx) {
    ctx.report_progress(1, 2, "half");
    ctx.report_progress(2, 2, "done");
    return tool_result::text("finished");
  });
  mcp::server server({.name = "t", .version = "1"}, &tools);
  mcp::memory_client c(server);
  initialize(c);
  std::vector<json> others;
  auto r = c.request(call(1, "steps", {{"progressToken", "tok"}}), &others);
  ASSERT_TRUE(r);
  EXPECT_EQ(text_of(*r), "finished");
  ASSERT_EQ(others.size(), 2u);
  EXPECT_EQ(others[0]["method"], "notifications/progress");
  EXPECT_EQ(others[0]["params"]["progressToken"], "tok");
  EXPECT_EQ(others[0]["params"]["progress"], 1);
  EXPECT_EQ(others[1]["params"]["message"], "done");
}
