// The 2026-07-28 tasks extension through the server (memory transport): the server decides
// which calls become tasks (only for clients declaring the extension), a required tool refuses
// other clients with -32021, tasks/get inlines the result or error, tasks/update answers input
// requests key by key, tasks/cancel is an idempotent acknowledgement, and admission may ask for
// input before a task exists. Tools block on response_gate, never on sleeps.
#include <gtest/gtest.h>

#include "support/response_gate.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace task_runner_v2_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;
using tooluse::testing::gate_opener;
using tooluse::testing::response_gate;

namespace {

struct fixture {
  response_gate gate;
  mcp::server server{{.name = "tasks2", .version = "1"}, nullptr, {.tasks = {.poll_interval_ms = 250}}};
  fixture() {
    server.add_tool({.name = "job"}, [this](const json& a, mcp::request_context&) -> mcp::tool_outcome {
      if (a.value("wait", false)) gate.wait();
      if (a.value("fail", false)) return tooluse::jsonrpc::error_object{-32050, "job failed", json{{"why", "asked"}}};
      return tool_result::text("done");
    }, mcp::task_support::optional);
    server.add_tool({.name = "must"}, text_tool("must ran"), mcp::task_support::required);
  }
};

json call(const std::string& tool, json args = json::object(), json caps = tasks_caps()) {
  return with_meta({{"name", tool}, {"arguments", std::move(args)}}, std::move(caps));
}

json task_req(const std::string& id, json extra = json::object()) {
  extra["taskId"] = id;
  return with_meta(std::move(extra), tasks_caps());
}

// poll_until asks tasks/get until `status` (bounded: each answer is a real state change or
// the worker is still running; the loop yields nothing but requests).
std::optional<json> poll_until(mcp::memory_client& c, const std::string& id, const std::string& status) {
  for (int i = 0; i < 20000; ++i) {
    auto r = c.request(req(1000 + i, "tasks/get", task_req(id)));
    if (!r || !r->contains("result")) return r;
    if ((*r)["result"]["status"] == status) return r;
  }
  return std::nullopt;
}

}  // namespace

TEST(mcp_tasks_v2, clients_with_the_extension_get_a_flat_task) {
  fixture f;
  mcp::memory_client c(f.server);
  auto created = c.request(req(1, "tools/call", call("job")));
  ASSERT_TRUE(created && created->contains("result")) << created->dump();
  const json& t = (*created)["result"];
  EXPECT_EQ(t["resultType"], "task");
  EXPECT_EQ(t["status"], "working");
  EXPECT_EQ(t["pollIntervalMs"], 250);
  EXPECT_TRUE(t.contains("ttlMs"));
  EXPECT_FALSE(t.contains("ttl"));
  auto done = poll_until(c, t["taskId"], "completed");
  ASSERT_TRUE(done);
  EXPECT_EQ((*done)["result"]["result"]["content"][0]["text"], "done");
  EXPECT_EQ((*done)["result"]["resultType"], "complete");
}

TEST(mcp_tasks_v2, clients_without_the_extension_call_optional_tools_directly) {
  fixture f;
  mcp::memory_client c(f.server);
  auto r = c.request(req(1, "tools/call", call("job", json::object(), json::object())));
  EXPECT_EQ((*r)["result"]["content"][0]["text"], "done");
  EXPECT_EQ((*r)["result"]["resultType"], "complete");
  auto must = c.request(req(2, "tools/call", call("must", json::object(), json::object())));
  EXPECT_EQ(error_code(must), -32021);
  EXPECT_TRUE((*must)["error"]["data"]["requiredCapabilities"]["extensions"].contains("io.modelcontextprotocol/tasks"));
}

TEST(mcp_tasks_v2, every_tasks_method_needs_the_extension) {
  fixture f;
  mcp::memory_client c(f.server);
  int rid = 1;
  for (const char* m : {"tasks/get", "tasks/update", "tasks/cancel"}) {
    auto r = c.request(req(rid++, m, with_meta({{"taskId", "x"}, {"inputResponses", json::object()}})));
    EXPECT_EQ(error_code(r), -32021) << m;
  }
}

TEST(mcp_tasks_v2, a_failed_task_inlines_its_error) {
  fixture f;
  mcp::memory_client c(f.server);
  auto created = c.request(req(1, "tools/call", call("job", {{"fail", true}})));
  auto failed = poll_until(c, (*created)["result"]["taskId"], "failed");
  ASSERT_TRUE(failed);
  const json& e = (*failed)["result"]["error"];
  EXPECT_EQ(e["code"], -32050);
  EXPECT_EQ(e["message"], "job failed");
  EXPECT_EQ(e["data"]["why"], "asked");
  EXPECT_EQ((*failed)["result"]["statusMessage"], "job failed");
}

TEST(mcp_tasks_v2, cancel_is_an_idempotent_acknowledgement) {
  fixture f;
  gate_opener opener{f.gate};
  mcp::memory_client c(f.server);
  auto created = c.request(req(1, "tools/call", call("job", {{"wait", true}})));
  std::string id = (*created)["result"]["taskId"];
  ASSERT_TRUE(f.gate.wait_arrival());
  auto first = c.request(req(2, "tasks/cancel", task_req(id)));
  EXPECT_EQ((*first)["result"], (json{{"resultType", "complete"}}));
  auto second = c.request(req(3, "tasks/cancel", task_req(id)));
  EXPECT_EQ((*second)["result"]["resultType"], "complete");
  auto got = c.request(req(4, "tasks/get", task_req(id)));
  EXPECT_EQ((*got)["result"]["status"], "cancelled");
  EXPECT_FALSE((*got)["result"].contains("result"));
  auto unknown = c.request(req(5, "tasks/cancel", task_req("ffff")));
  EXPECT_EQ(error_code(unknown), -32602);
}

TEST(mcp_tasks_v2, input_requests_are_answered_with_tasks_update) {
  fixture f;
  f.server.add_tool({.name = "form"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    const json* a = ctx.input_response("a");
    const json* b = ctx.input_response("b");
    if (a && b) return tool_result::text((*a)["v"].get<std::string>() + (*b)["v"].get<std::string>() + " " +
                                          ctx.request_state().value_or(json("no state")).dump());
    return mcp::input_required{.input_requests = {{"a", {{"method", "elicitation/create"}}},
                                                  {"b", {{"method", "elicitation/create"}}}},
                               .state = json{{"round", 1}}};
  }, mcp::task_support::optional);
  mcp::memory_client c(f.server);
  auto created = c.request(req(1, "tools/call", call("form")));
  std::string id = (*created)["result"]["taskId"];
  auto waiting = poll_until(c, id, "input_required");
  ASSERT_TRUE(waiting);
  EXPECT_TRUE((*waiting)["result"]["inputRequests"].contains("a"));
  EXPECT_TRUE((*waiting)["result"]["inputRequests"].contains("b"));
  auto bad = c.request(req(2, "tasks/update", task_req(id, {{"inputResponses", "x"}})));
  EXPECT_EQ(error_code(bad), -32602);
  EXPECT_TRUE(error_mentions(bad, "inputResponses"));
  // One key, plus one the task never asked: the unknown key is ignored, "b" still pending.
  auto partial = c.request(req(3, "tasks/update", task_req(id, {{"inputResponses", {{"a", {{"v", "x"}}}, {"zz", {{"v", "?"}}}}}})));
  EXPECT_EQ((*partial)["result"]["resultType"], "complete");
  auto still = c.request(req(4, "tasks/get", task_req(id)));
  EXPECT_EQ((*still)["result"]["status"], "input_required");
  EXPECT_FALSE((*still)["result"]["inputRequests"].contains("a"));
  EXPECT_TRUE((*still)["result"]["inputRequests"].contains("b"));
  (void)c.request(req(5, "tasks/update", task_req(id, {{"inputResponses", {{"b", {{"v", "y"}}}}}})));
  auto done = poll_until(c, id, "completed");
  ASSERT_TRUE(done);
  EXPECT_EQ((*done)["result"]["result"]["content"][0]["text"], "xy {\"round\":1}");
}

TEST(mcp_tasks_v2, cancelling_a_task_waiting_for_input_ends_it) {
  fixture f;
  f.server.add_tool({.name = "form"}, [](const json&, mcp::request_context&) -> mcp::tool_outcome {
    return mcp::input_required{.input_requests = {{"a", {{"method", "elicitation/create"}}}}};
  }, mcp::task_support::optional);
  mcp::memory_client c(f.server);
  auto created = c.request(req(1, "tools/call", call("form")));
  std::string id = (*created)["result"]["taskId"];
  ASSERT_TRUE(poll_until(c, id, "input_required"));
  (void)c.request(req(2, "tasks/cancel", task_req(id)));
  auto got = c.request(req(3, "tasks/get", task_req(id)));
  EXPECT_EQ((*got)["result"]["status"], "cancelled");
  EXPECT_FALSE((*got)["result"].contains("inputRequests"));
  // An update after the end is accepted and changes nothing.
  auto late = c.request(req(4, "tasks/update", task_req(id, {{"inputResponses", {{"a", json::object()}}}})));
  EXPECT_EQ((*late)["result"]["resultType"], "complete");
  auto after = c.request(req(5, "tasks/get", task_req(id)));
  EXPECT_EQ((*after)["result"]["status"], "cancelled");
}

TEST(mcp_tasks_v2, admission_may_ask_for_input_before_the_task_exists) {
  fixture f;
  f.server.add_tool({.name = "guarded"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    const json* ok = ctx.input_response("confirm");
    return tool_result::text(ok ? "confirmed " + (*ok)["action"].get<std::string>() : "unconfirmed");
  }, mcp::task_support::optional,
     [](const json&, mcp::request_context& ctx) -> std::optional<mcp::input_required> {
       if (ctx.input_response("confirm")) return std::nullopt;
       return mcp::input_required{.input_requests = {{"confirm", {{"method", "elicitation/create"}}}},
                                  .state = json{{"step", "admit"}}};
     });
  mcp::memory_client c(f.server);
  auto first = c.request(req(1, "tools/call", call("guarded")));
  ASSERT_EQ((*first)["result"]["resultType"], "input_required") << first->dump();
  EXPECT_TRUE((*first)["result"].contains("requestState"));
  json retry = call("guarded");
  retry["inputResponses"] = {{"confirm", {{"action", "accept"}}}};
  retry["requestState"] = (*first)["result"]["requestState"];
  auto second = c.request(req(2, "tools/call", retry));
  ASSERT_EQ((*second)["result"]["resultType"], "task");
  auto done = poll_until(c, (*second)["result"]["taskId"], "completed");
  ASSERT_TRUE(done);
  EXPECT_EQ((*done)["result"]["result"]["content"][0]["text"], "confirmed accept");
}

TEST(mcp_tasks_v2, live_tasks_are_bounded_per_client_name) {
  response_gate gate;  // declared first: it outlives the server that joins its workers
  mcp::server s({.name = "b", .version = "1"}, nullptr, {.tasks = {.max_live_per_client = 1}});
  gate_opener opener{gate};
  s.add_tool({.name = "job"}, [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
    gate.wait();
    return tool_result::text("done");
  }, mcp::task_support::optional);
  mcp::memory_client c(s);
  auto named = [](const std::string& client) {
    json p = call("job");
    p["_meta"]["io.modelcontextprotocol/clientInfo"] = {{"name", client}, {"version", "1"}};
    return p;
  };
  auto first = c.request(req(1, "tools/call", named("alpha")));
  ASSERT_EQ((*first)["result"]["resultType"], "task");
  auto second = c.request(req(2, "tools/call", named("alpha")));
  EXPECT_EQ(error_code(second), -32600);
  auto other = c.request(req(3, "tools/call", named("beta")));
  EXPECT_EQ((*other)["result"]["resultType"], "task");
}

TEST(mcp_tasks_v2, tasks_survive_in_a_shared_store_across_servers) {
  auto store = mcp::make_memory_task_store();
  std::string id;
  {
    mcp::server first({.name = "a", .version = "1"}, nullptr, {.tasks = {.store = store}});
    first.add_tool({.name = "job"}, text_tool("stored"), mcp::task_support::optional);
    mcp::memory_client c(first);
    auto created = c.request(req(1, "tools/call", call("job")));
    id = (*created)["result"]["taskId"];
    ASSERT_TRUE(poll_until(c, id, "completed"));
  }
  mcp::server second({.name = "b", .version = "1"}, nullptr, {.tasks = {.store = store}});
  mcp::memory_client c(second);
  auto got = c.request(req(2, "tasks/get", task_req(id)));
  EXPECT_EQ((*got)["result"]["status"], "completed");
  EXPECT_EQ((*got)["result"]["result"]["content"][0]["text"], "stored");
}

TEST(mcp_tasks_v2, expired_terminal_tasks_are_forgotten) {
  auto store = mcp::make_memory_task_store();
  mcp::task_record old;
  old.id = "0000000000000000000000000000dead";
  old.tool = "job";
  old.revision = "2026-07-28";
  old.status = mcp::task_status::completed;
  old.created_at = old.updated_at = std::chrono::system_clock::now() - std::chrono::hours(2);
  old.ttl_ms = 1000;
  store->put(old);
  mcp::task_record live = old;
  live.id = "0000000000000000000000000000beef";
  live.status = mcp::task_status::working;
  store->put(live);
  mcp::server s({.name = "x", .version = "1"}, nullptr, {.tasks = {.store = store}});
  mcp::memory_client c(s);
  auto gone = c.request(req(1, "tasks/get", task_req(old.id)));
  EXPECT_EQ(error_code(gone), -32602);
  EXPECT_FALSE(store->get(old.id));
  // A task that is not terminal is kept whatever its age.
  auto kept = c.request(req(2, "tasks/get", task_req(live.id)));
  EXPECT_EQ((*kept)["result"]["status"], "working");
}
}  // namespace task_runner_v2_test
