// The tasks API through the server (memory transport), both wires: 2025-11-25 (params.task,
// tasks/get, tasks/result, tasks/list, tasks/cancel, notifications/tasks/status, input through
// server-to-client requests) and the 2026-07-28 extension (server-directed creation, -32021
// without the extension, the result inlined in tasks/get, tasks/update, idempotent cancel).
// Tools block on a response_gate, never on sleeps; the test waits with tasks/result or the
// status notifications.
#include <gtest/gtest.h>

#include <set>

#include "support/response_gate.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace task_runner_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;
using tooluse::testing::gate_opener;
using tooluse::testing::response_gate;

namespace {

struct fixture {
  response_gate gate;
  mcp::server server;
  explicit fixture(mcp::task_options o = {})
      : server({.name = "tasks", .version = "1"}, nullptr, {.page_size = 2, .tasks = std::move(o)}) {
    server.add_tool({.name = "job"}, [this](const json& a, mcp::request_context& ctx) -> mcp::tool_outcome {
      if (a.value("wait", false)) gate.wait();
      if (ctx.stop().stop_requested()) return tool_result::text("stopped");
      if (a.value("fail", false)) return mcp::missing_capability({{"roots", json::object()}});
      if (a.value("throw", false)) throw std::runtime_error("broke");
      return tool_result::text("done " + a.value("tag", ""));
    }, mcp::task_support::optional);
    server.add_tool({.name = "must"}, text_tool("must ran"), mcp::task_support::required);
    server.add_tool({.name = "never"}, text_tool("never ran"));
  }
};

json task_call(const std::string& tool, json args = json::object(), json task = json::object()) {
  return {{"name", tool}, {"arguments", std::move(args)}, {"task", std::move(task)}};
}

// wait_result asks tasks/result (blocks until the task is terminal).
std::optional<json> wait_result(mcp::memory_client& c, const std::string& id, int rid = 900) {
  return c.request(req(rid, "tasks/result", {{"taskId", id}}));
}

// find_request returns the server-to-client request `method`, looking first at what arrived
// before the tools/call response (the task's worker may write before it) and then receiving.
std::optional<json> find_request(mcp::memory_client& c, std::vector<json>& early, const std::string& method) {
  for (auto& m : early)
    if (m.value("method", "") == method) return m;
  for (int i = 0; i < 5; ++i) {
    auto m = c.receive();
    if (!m) return std::nullopt;
    if (m->value("method", "") == method) return m;
  }
  return std::nullopt;
}

}  // namespace

TEST(mcp_tasks_v1, a_task_call_returns_a_handle_and_the_result_later) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  auto created = c.request(req(1, "tools/call", task_call("job", {{"tag", "A"}}, {{"ttl", 60000}})));
  ASSERT_TRUE(created && created->contains("result")) << created->dump();
  const json& task = (*created)["result"]["task"];
  std::string id = task["taskId"];
  EXPECT_EQ(id.size(), 32u);
  EXPECT_EQ(task["status"], "working");
  EXPECT_EQ(task["ttl"], 60000);
  EXPECT_EQ(task["pollInterval"], 500);
  EXPECT_TRUE(task.contains("createdAt"));
  auto result = wait_result(c, id);
  ASSERT_TRUE(result);
  EXPECT_EQ((*result)["result"]["content"][0]["text"], "done A");
  EXPECT_EQ((*result)["result"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"], id);
  auto got = c.request(req(2, "tasks/get", {{"taskId", id}}));
  EXPECT_EQ((*got)["result"]["status"], "completed");
  EXPECT_FALSE((*got)["result"].contains("result"));  // 2025-11-25: no inlined result
}

TEST(mcp_tasks_v1, status_notifications_follow_the_task) {
  fixture f;
  gate_opener opener{f.gate};
  mcp::memory_client c(f.server);
  handshake(c);
  auto created = c.request(req(1, "tools/call", task_call("job", {{"wait", true}})));
  std::string id = (*created)["result"]["task"]["taskId"];
  ASSERT_TRUE(f.gate.wait_arrival());
  f.gate.open();
  auto note = c.receive();
  ASSERT_TRUE(note);
  EXPECT_EQ((*note)["method"], "notifications/tasks/status");
  EXPECT_EQ((*note)["params"]["taskId"], id);
  EXPECT_EQ((*note)["params"]["status"], "completed");
}

TEST(mcp_tasks_v1, requested_ttl_is_capped_and_defaulted) {
  fixture f({.default_ttl_ms = 1234, .max_ttl_ms = 5000});
  mcp::memory_client c(f.server);
  handshake(c);
  auto big = c.request(req(1, "tools/call", task_call("job", {}, {{"ttl", 999999}})));
  EXPECT_EQ((*big)["result"]["task"]["ttl"], 5000);
  auto none = c.request(req(2, "tools/call", task_call("job")));
  EXPECT_EQ((*none)["result"]["task"]["ttl"], 1234);
  auto negative = c.request(req(3, "tools/call", task_call("job", {}, {{"ttl", -5}})));
  EXPECT_EQ((*negative)["result"]["task"]["ttl"], 1234);
}

TEST(mcp_tasks_v1, task_support_decides_how_a_tool_may_be_called) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  auto forbidden = c.request(req(1, "tools/call", task_call("never")));
  EXPECT_EQ(error_code(forbidden), -32601);
  EXPECT_TRUE(error_mentions(forbidden, "never"));
  auto required = c.request(req(2, "tools/call", {{"name", "must"}}));
  EXPECT_EQ(error_code(required), -32601);
  EXPECT_TRUE(error_mentions(required, "task"));
  auto optional_plain = c.request(req(3, "tools/call", {{"name", "job"}, {"arguments", {{"tag", "P"}}}}));
  EXPECT_EQ((*optional_plain)["result"]["content"][0]["text"], "done P");
  // A `task` that is not an object is malformed params, named by its path.
  auto task_not_object = c.request(req(4, "tools/call", {{"name", "must"}, {"task", true}}));
  EXPECT_EQ(error_code(task_not_object), -32602);
  EXPECT_TRUE(error_mentions(task_not_object, "params.task"));
  auto must = c.request(req(5, "tools/call", task_call("must")));
  std::string id = (*must)["result"]["task"]["taskId"];
  EXPECT_EQ((*wait_result(c, id))["result"]["content"][0]["text"], "must ran");
}

TEST(mcp_tasks_v1, failures_become_failed_tasks_or_tool_errors) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  auto failing = c.request(req(1, "tools/call", task_call("job", {{"fail", true}})));
  std::string fid = (*failing)["result"]["task"]["taskId"];
  auto fr = wait_result(c, fid);
  EXPECT_EQ(error_code(fr), -32021);  // the protocol error, as the task's outcome
  auto fget = c.request(req(2, "tasks/get", {{"taskId", fid}}));
  EXPECT_EQ((*fget)["result"]["status"], "failed");
  EXPECT_FALSE((*fget)["result"].value("statusMessage", "").empty());
  auto throwing = c.request(req(3, "tools/call", task_call("job", {{"throw", true}})));
  std::string tid = (*throwing)["result"]["task"]["taskId"];
  auto tr = wait_result(c, tid, 901);
  EXPECT_EQ((*tr)["result"]["isError"], true);
  EXPECT_NE((*tr)["result"]["content"][0]["text"].get<std::string>().find("broke"), std::string::npos);
}

TEST(mcp_tasks_v1, cancel_stops_a_running_task_once) {
  fixture f;
  gate_opener opener{f.gate};
  mcp::memory_client c(f.server);
  handshake(c);
  auto created = c.request(req(1, "tools/call", task_call("job", {{"wait", true}})));
  std::string id = (*created)["result"]["task"]["taskId"];
  ASSERT_TRUE(f.gate.wait_arrival());
  std::vector<json> others;
  auto cancelled = c.request(req(2, "tasks/cancel", {{"taskId", id}}), &others);
  ASSERT_TRUE(cancelled);
  EXPECT_EQ((*cancelled)["result"]["status"], "cancelled");
  f.gate.open();
  auto result = wait_result(c, id);
  EXPECT_EQ(error_code(result), -32602);
  EXPECT_EQ((*result)["error"]["data"]["taskId"], id);
  auto again = c.request(req(3, "tasks/cancel", {{"taskId", id}}));
  EXPECT_EQ(error_code(again), -32602);
  EXPECT_TRUE(error_mentions(again, "cancelled"));
  auto got = c.request(req(4, "tasks/get", {{"taskId", id}}));
  EXPECT_EQ((*got)["result"]["status"], "cancelled");
}

TEST(mcp_tasks_v1, unknown_task_ids_are_invalid_params) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  int rid = 1;
  for (const char* m : {"tasks/get", "tasks/cancel", "tasks/result"}) {
    auto missing = c.request(req(rid++, m, {{"taskId", "0123456789abcdef0123456789abcdef"}}));
    EXPECT_EQ(error_code(missing), -32602) << m;
    auto absent = c.request(req(rid++, m));
    EXPECT_EQ(error_code(absent), -32602) << m;
  }
  auto update = c.request(req(rid++, "tasks/update", {{"taskId", "x"}, {"inputResponses", json::object()}}));
  EXPECT_EQ(error_code(update), -32601);  // 2026-07-28 only
}

TEST(mcp_tasks_v1, tasks_list_pages_the_sessions_own_tasks) {
  fixture f;
  mcp::memory_client c(f.server), other(f.server);
  handshake(c);
  handshake(other);
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    auto r = c.request(req(i + 1, "tools/call", task_call("job")));
    ids.push_back((*r)["result"]["task"]["taskId"]);
  }
  (void)other.request(req(50, "tools/call", task_call("job")));
  auto p1 = c.request(req(10, "tasks/list"));
  ASSERT_EQ((*p1)["result"]["tasks"].size(), 2u);
  ASSERT_TRUE((*p1)["result"].contains("nextCursor"));
  auto p2 = c.request(req(11, "tasks/list", {{"cursor", (*p1)["result"]["nextCursor"]}}));
  ASSERT_EQ((*p2)["result"]["tasks"].size(), 1u);
  EXPECT_FALSE((*p2)["result"].contains("nextCursor"));
  std::set<std::string> listed;
  for (const auto* page : {&*p1, &*p2})
    for (const auto& t : (*page)["result"]["tasks"]) listed.insert(t["taskId"].get<std::string>());
  EXPECT_EQ(listed, std::set<std::string>(ids.begin(), ids.end()));
  auto theirs = other.request(req(12, "tasks/list"));
  EXPECT_EQ((*theirs)["result"]["tasks"].size(), 1u);
}

TEST(mcp_tasks_v1, tasks_list_refuses_cursors_it_did_not_send) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  (void)c.request(req(1, "tools/call", task_call("job")));
  int rid = 2;
  for (const char* cursor : {"zz", "1x", "99"}) {
    auto r = c.request(req(rid++, "tasks/list", {{"cursor", cursor}}));
    EXPECT_EQ(error_code(r), -32602) << cursor;
    EXPECT_TRUE(error_mentions(r, "cursor")) << cursor;
  }
}

TEST(mcp_tasks_v1, live_tasks_per_client_are_bounded) {
  fixture f({.max_live_per_client = 1});
  gate_opener opener{f.gate};
  mcp::memory_client c(f.server);
  handshake(c);
  auto first = c.request(req(1, "tools/call", task_call("job", {{"wait", true}})));
  ASSERT_TRUE((*first)["result"].contains("task"));
  auto second = c.request(req(2, "tools/call", task_call("job")));
  EXPECT_EQ(error_code(second), -32600);
  EXPECT_TRUE(error_mentions(second, "tasks/cancel"));
  f.gate.open();
  auto done = wait_result(c, (*first)["result"]["task"]["taskId"]);
  ASSERT_TRUE(done);
  auto third = c.request(req(3, "tools/call", task_call("job")));
  EXPECT_TRUE((*third)["result"].contains("task")) << third->dump();
}

TEST(mcp_tasks_v1, input_is_asked_with_requests_related_to_the_task) {
  fixture f;
  f.server.add_tool({.name = "asker"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    if (auto* a = ctx.input_response("name")) return tool_result::text("hello " + (*a)["content"].value("n", ""));
    return mcp::input_required{.input_requests = {{"name", {{"method", "elicitation/create"}, {"params", {{"message", "who?"}}}}}}};
  }, mcp::task_support::optional);
  mcp::memory_client c(f.server);
  handshake(c, {{"elicitation", json::object()}});
  std::vector<json> early;
  auto created = c.request(req(1, "tools/call", task_call("asker")), &early);
  std::string id = (*created)["result"]["task"]["taskId"];
  auto ask = find_request(c, early, "elicitation/create");
  ASSERT_TRUE(ask);
  EXPECT_EQ((*ask)["params"]["message"], "who?");
  EXPECT_EQ((*ask)["params"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"], id);
  c.send({{"jsonrpc", "2.0"}, {"id", (*ask)["id"]}, {"result", {{"action", "accept"}, {"content", {{"n", "Ada"}}}}}});
  auto result = wait_result(c, id);
  EXPECT_EQ((*result)["result"]["content"][0]["text"], "hello Ada");
}

TEST(mcp_tasks_v1, a_client_error_to_an_input_request_fails_the_task) {
  fixture f;
  f.server.add_tool({.name = "asker"}, [](const json&, mcp::request_context&) -> mcp::tool_outcome {
    return mcp::input_required{.input_requests = {{"k", {{"method", "roots/list"}}}}};
  }, mcp::task_support::optional);
  mcp::memory_client c(f.server);
  handshake(c);
  std::vector<json> early;
  auto created = c.request(req(1, "tools/call", task_call("asker")), &early);
  std::string id = (*created)["result"]["task"]["taskId"];
  auto ask = find_request(c, early, "roots/list");
  ASSERT_TRUE(ask);
  c.send({{"jsonrpc", "2.0"}, {"id", (*ask)["id"]}, {"error", {{"code", -32042}, {"message", "no roots"}}}});
  auto result = wait_result(c, id);
  EXPECT_EQ(error_code(result), -32042);
  EXPECT_TRUE(error_mentions(result, "no roots"));
}

TEST(mcp_tasks_v1, empty_input_requests_fail_the_task) {
  fixture f;
  f.server.add_tool({.name = "empty"}, [](const json&, mcp::request_context&) -> mcp::tool_outcome {
    return mcp::input_required{};
  }, mcp::task_support::optional);
  mcp::memory_client c(f.server);
  handshake(c);
  auto created = c.request(req(1, "tools/call", task_call("empty")));
  auto result = wait_result(c, (*created)["result"]["task"]["taskId"]);
  EXPECT_EQ(error_code(result), -32603);
  EXPECT_TRUE(error_mentions(result, "input"));
}

TEST(mcp_tasks_v1, a_throwing_admission_is_a_tool_error_and_no_task) {
  fixture f;
  f.server.add_tool({.name = "picky"}, text_tool("ran"), mcp::task_support::optional,
                    [](const json&, mcp::request_context&) -> std::optional<mcp::input_required> {
                      throw std::runtime_error("refused");
                    });
  f.server.add_tool({.name = "asks_first"}, text_tool("ran"), mcp::task_support::optional,
                    [](const json&, mcp::request_context&) -> std::optional<mcp::input_required> {
                      return mcp::input_required{.input_requests = {{"k", {{"method", "roots/list"}}}}};
                    });
  mcp::memory_client c(f.server);
  handshake(c);
  auto r = c.request(req(1, "tools/call", task_call("picky")));
  EXPECT_EQ((*r)["result"]["isError"], true);
  EXPECT_NE((*r)["result"]["content"][0]["text"].get<std::string>().find("refused"), std::string::npos);
  auto asks = c.request(req(2, "tools/call", task_call("asks_first")));
  EXPECT_EQ(error_code(asks), -32603);
  EXPECT_TRUE(error_mentions(asks, "2026-07-28"));
  auto list = c.request(req(3, "tasks/list"));
  EXPECT_TRUE((*list)["result"]["tasks"].empty());
}
}  // namespace task_runner_test
