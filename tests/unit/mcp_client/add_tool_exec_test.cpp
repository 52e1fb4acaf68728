// A tool added with mcp::server::add_tool runs through the execution engine like a registry
// tool (issue 31, "one tool model"): over loopback HTTP, with a real mcp::client, it times out,
// is held to its rate and parallel limits, and a dangerous one asks the approval policy.

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>

#include "client_test_support.hpp"
#include "tooluse/exec/approval.hpp"

namespace mcp = tooluse::mcp;
using tooluse::json;
using tooluse::tool_result;
using namespace mcp::testing;
using namespace std::chrono_literals;

namespace add_tool_exec_test {
namespace {

// connected starts the fixture and connects a client to it over HTTP.
std::shared_ptr<mcp::client> connected(http_fixture& f) {
  EXPECT_TRUE(f.start());
  auto c = mcp::client::connect(f.transport(), {.client_info = {"add-tool-exec", "1"}});
  EXPECT_TRUE(c) << (c ? "" : c.error().message);
  return c ? *c : nullptr;
}

// wait_for_stop blocks until the request's stop token is requested, without polling.
void wait_for_stop(const mcp::request_context& ctx) {
  std::promise<void> stopped;
  std::stop_callback cb(ctx.stop(), [&] { stopped.set_value(); });
  stopped.get_future().wait();
}

}  // namespace
}  // namespace add_tool_exec_test

using namespace add_tool_exec_test;

TEST(mcp_add_tool_exec, a_tool_past_its_timeout_is_stopped_and_answered_with_a_timeout_error) {
  http_fixture f;
  std::promise<bool> saw_stop;
  f.srv.add_tool({.name = "slow", .timeout = 50ms},
                 [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
                   wait_for_stop(ctx);
                   saw_stop.set_value(ctx.stop().stop_requested());
                   return tool_result::text("too late");
                 });
  auto c = connected(f);
  ASSERT_TRUE(c);
  auto r = c->call_tool("slow");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->is_error);
  EXPECT_NE(r->all_text().find("timed out"), std::string::npos) << r->all_text();
  auto stopped = saw_stop.get_future();
  ASSERT_EQ(stopped.wait_for(10s), std::future_status::ready);
  EXPECT_TRUE(stopped.get());
}

TEST(mcp_add_tool_exec, the_server_tool_timeout_applies_to_an_add_tool_tool_without_one) {
  http_fixture f({.tool_timeout = 30ms});
  f.srv.add_tool({.name = "slow"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    wait_for_stop(ctx);
    return tool_result::text("too late");
  });
  auto c = connected(f);
  ASSERT_TRUE(c);
  auto r = c->call_tool("slow");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->is_error);
  EXPECT_NE(r->all_text().find("timed out"), std::string::npos) << r->all_text();
}

TEST(mcp_add_tool_exec, a_rate_limit_refuses_the_second_call_in_the_window) {
  http_fixture f;
  std::atomic<int> runs{0};
  f.srv.add_tool({.name = "once", .rate = {.calls = 1, .window = 1h}},
                 [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
                   ++runs;
                   return tool_result::text("ran");
                 });
  auto c = connected(f);
  ASSERT_TRUE(c);
  auto first = c->call_tool("once");
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->is_error) << first->all_text();
  auto second = c->call_tool("once");
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_TRUE(second->is_error);
  EXPECT_NE(second->all_text().find("retry after"), std::string::npos) << second->all_text();
  EXPECT_EQ(runs.load(), 1);
}

TEST(mcp_add_tool_exec, a_parallel_limit_keeps_a_second_call_waiting_until_its_deadline) {
  // max_parallel = 1: the first call holds the only slot (its handler ignores its deadline
  // and keeps the slot until released), so the second waits in the queue and meets its own
  // deadline without running.
  http_fixture f;
  std::atomic<int> runs{0};
  std::promise<void> entered;
  std::promise<void> release;
  auto released = release.get_future().share();
  f.srv.add_tool({.name = "single", .timeout = 100ms, .max_parallel = 1},
                 [&, released](const json&, mcp::request_context&) -> mcp::tool_outcome {
                   if (++runs == 1) {
                     entered.set_value();
                     released.wait();
                   }
                   return tool_result::text("ran");
                 });
  auto c = connected(f);
  ASSERT_TRUE(c);
  auto first = std::async(std::launch::async, [&] { return c->call_tool("single"); });
  ASSERT_EQ(entered.get_future().wait_for(10s), std::future_status::ready);
  auto second = c->call_tool("single");
  EXPECT_EQ(runs.load(), 1);  // read before the release: the second call never started
  release.set_value();
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_TRUE(second->is_error);
  EXPECT_NE(second->all_text().find("did not run"), std::string::npos) << second->all_text();
  auto one = first.get();
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_TRUE(one->is_error);  // it passed its deadline holding the slot
  EXPECT_NE(one->all_text().find("timed out"), std::string::npos) << one->all_text();
}

TEST(mcp_add_tool_exec, a_dangerous_tool_is_refused_without_an_approval_policy) {
  http_fixture f;
  std::atomic<int> runs{0};
  f.srv.add_tool({.name = "wipe", .dangerous = true},
                 [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
                   ++runs;
                   return tool_result::text("wiped");
                 });
  auto c = connected(f);
  ASSERT_TRUE(c);
  auto r = c->call_tool("wipe");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->is_error);
  EXPECT_NE(r->all_text().find("dangerous"), std::string::npos) << r->all_text();
  EXPECT_EQ(runs.load(), 0);
}

TEST(mcp_add_tool_exec, a_dangerous_tool_asks_the_approval_policy_each_call) {
  std::mutex mu;
  std::vector<json> asked;
  mcp::server_options so;
  so.exec_options.approval = [&](const tooluse::exec::approval_request& r) {
    std::lock_guard lock(mu);
    asked.push_back(r.call.arguments);
    return r.call.arguments.value("path", "") == "/tmp/x"
               ? tooluse::exec::approval_decision::approve()
               : tooluse::exec::approval_decision::reject("only /tmp/x may be wiped");
  };
  http_fixture f(std::move(so));
  std::atomic<int> runs{0};
  f.srv.add_tool({.name = "wipe", .dangerous = true},
                 [&](const json& args, mcp::request_context&) -> mcp::tool_outcome {
                   ++runs;
                   return tool_result::text("wiped " + args.value("path", ""));
                 });
  auto c = connected(f);
  ASSERT_TRUE(c);
  auto ok = c->call_tool("wipe", {{"path", "/tmp/x"}});
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_FALSE(ok->is_error) << ok->all_text();
  EXPECT_EQ(ok->all_text(), "wiped /tmp/x");
  auto refused = c->call_tool("wipe", {{"path", "/"}});
  ASSERT_TRUE(refused) << refused.error().message;
  EXPECT_TRUE(refused->is_error);
  EXPECT_NE(refused->all_text().find("only /tmp/x may be wiped"), std::string::npos)
      << refused->all_text();
  EXPECT_EQ(runs.load(), 1);
  std::lock_guard lock(mu);
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked[1], (json{{"path", "/"}}));
}

TEST(mcp_add_tool_exec, an_add_tool_tool_called_outside_the_server_is_an_error_result) {
  // The tool lives in the registry the server was given; an agent calling it there has no MCP
  // request to give it.
  tooluse::tool_registry tools;
  mcp::server srv({.name = "s", .version = "1"}, &tools);
  srv.add_tool({.name = "mcp_only"}, [](const json&, mcp::request_context&) -> mcp::tool_outcome {
    return tool_result::text("ran");
  });
  tooluse::call_context ctx;
  auto r = tools.call({.id = "1", .name = "mcp_only", .raw_arguments = "{}", .arguments = json::object()}, ctx);
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("MCP tool"), std::string::npos) << r.all_text();
  EXPECT_TRUE(srv.remove_tool("mcp_only"));
  EXPECT_EQ(tools.find("mcp_only"), nullptr);
}

TEST(mcp_add_tool_exec, a_registry_tool_reaches_its_mcp_request_through_the_call_context) {
  tooluse::tool_registry tools;
  tools.add({.name = "which"}, [](const json&, tooluse::call_context& ctx) {
    auto req = mcp::request_of(ctx);
    if (!req) return tool_result::text("no request");
    return tool_result::text("protocol " + req->protocol_version());
  });
  mcp::server srv({.name = "s", .version = "1"}, &tools);
  mcp::http_server http(srv);
  ASSERT_TRUE(http.start());
  auto c = mcp::client::connect(
      mcp::make_http_client_transport({.url = http.url()}), {.client_info = {"add-tool-exec", "1"}});
  ASSERT_TRUE(c) << c.error().message;
  auto r = (*c)->call_tool("which");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->all_text(), "protocol " + (*c)->protocol_version()) << r->all_text();
  tooluse::call_context direct;
  auto d = tools.call({.id = "1", .name = "which", .raw_arguments = "{}", .arguments = json::object()}, direct);
  EXPECT_EQ(d.all_text(), "no request");
}
