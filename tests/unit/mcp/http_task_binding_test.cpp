// Tasks are bound to the authorization context of the request that made them (MCP 2025-11-25,
// tasks: "receivers MUST bind tasks to said context"), over real loopback HTTP: the auth hook
// names a principal per bearer token; under another principal the task is unknown to
// tasks/get, tasks/cancel, tasks/result and tasks/update, and tasks/list leaves it out, even
// inside the creator's session. Without a principal nothing changes.
#include <gtest/gtest.h>

#include <mutex>
#include <string>

#include "support/response_gate.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "unit/mcp/http_test_util.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;

namespace {

// bound serves one task-capable tool behind a hook that lets "Bearer alice" and "Bearer bob"
// through, each as its own principal.
struct bound {
  tooluse::testing::response_gate gate;
  mcp::server server{{.name = "bound", .version = "1"}, nullptr, {.tasks = {.max_live_per_client = 1}}};
  mcp::http_server http{server,
                        {.authorize = [](const mcp::http_auth_request& r) -> mcp::http_auth_decision {
                           for (const auto& [k, v] : r.headers) {
                             if (k != "Authorization") continue;
                             if (v == "Bearer alice") return {.principal = "sub:alice"};
                             if (v == "Bearer bob") return {.principal = "sub:bob"};
                           }
                           return {.status = 401, .body = "who are you?", .content_type = "text/plain"};
                         }}};
  unsigned short port = 0;
  std::mutex mu;
  std::string seen;  ///< the principal the tool's context carried
  bound() {
    server.add_tool({.name = "job"}, [this](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
      {
        std::lock_guard lock(mu);
        seen = ctx.principal();
      }
      gate.wait();
      return tool_result::text("finished");
    }, mcp::task_support::optional);
    EXPECT_TRUE(http.start());
    port = http.port();
  }
  // stateless posts a 2026-07-28 request as `who`.
  http_reply stateless(const std::string& who, const json& body, const std::string& name) {
    header_fields h = {{"Authorization", "Bearer " + who},
                       {"MCP-Protocol-Version", "2026-07-28"},
                       {"Mcp-Method", body["method"].get<std::string>()}};
    if (!name.empty()) h.emplace_back("Mcp-Name", name);
    return exchange(port, "POST", json_post(h), body.dump());
  }
  // in_session posts a 2025-11-25 request of session `sid` as `who`.
  http_reply in_session(const std::string& who, const std::string& sid, const json& body) {
    header_fields h = {{"Authorization", "Bearer " + who}, {"MCP-Protocol-Version", "2025-11-25"}};
    if (!sid.empty()) h.emplace_back("Mcp-Session-Id", sid);
    return exchange(port, "POST", json_post(h), body.dump());
  }
};

std::string unknown_task_message(const http_reply& r) {
  json j = r.rpc();
  if (!j.contains("error")) return "no error: " + r.body;
  return j["error"].value("message", "");
}

}  // namespace

TEST(mcp_task_binding, a_stateless_task_is_unknown_under_another_principal) {
  bound b;
  tooluse::testing::gate_opener opener{b.gate};
  auto created = b.stateless("alice", req(1, "tools/call", with_meta({{"name", "job"}}, tasks_caps())), "job");
  ASSERT_EQ(created.status, 200) << created.body;
  std::string id = created.rpc()["result"]["taskId"];
  ASSERT_TRUE(b.gate.wait_arrival());
  {
    std::lock_guard lock(b.mu);
    EXPECT_EQ(b.seen, "sub:alice");  // the task's worker runs under its creator's principal
  }

  auto peek = b.stateless("bob", req(2, "tasks/get", with_meta({{"taskId", id}}, tasks_caps())), id);
  EXPECT_EQ(peek.rpc()["error"]["code"], -32602) << peek.body;
  EXPECT_NE(unknown_task_message(peek).find("unknown task \"" + id + "\""), std::string::npos) << peek.body;
  auto answer = b.stateless("bob", req(3, "tasks/update",
                                       with_meta({{"taskId", id}, {"inputResponses", json::object()}}, tasks_caps())),
                            id);
  EXPECT_EQ(answer.rpc()["error"]["code"], -32602) << answer.body;
  auto stop = b.stateless("bob", req(4, "tasks/cancel", with_meta({{"taskId", id}}, tasks_caps())), id);
  EXPECT_EQ(stop.rpc()["error"]["code"], -32602) << stop.body;

  // The creator still sees it working: bob's cancel did nothing.
  auto own = b.stateless("alice", req(5, "tasks/get", with_meta({{"taskId", id}}, tasks_caps())), id);
  ASSERT_EQ(own.status, 200) << own.body;
  EXPECT_EQ(own.rpc()["result"]["status"], "working") << own.body;
  b.gate.open();
}

TEST(mcp_task_binding, in_a_shared_session_list_get_and_result_follow_the_principal) {
  bound b;
  tooluse::testing::gate_opener opener{b.gate};
  auto init = b.in_session("alice", "",
                           req(0, "initialize", {{"protocolVersion", "2025-11-25"},
                                                 {"capabilities", json::object()},
                                                 {"clientInfo", {{"name", "t"}, {"version", "1"}}}}));
  ASSERT_EQ(init.status, 200) << init.body;
  std::string sid = init.header("mcp-session-id");
  ASSERT_FALSE(sid.empty());
  EXPECT_EQ(b.in_session("alice", sid, notif("notifications/initialized")).status, 202);
  auto created = b.in_session("alice", sid,
                              req(1, "tools/call", {{"name", "job"}, {"task", json::object()}}));
  ASSERT_EQ(created.status, 200) << created.body;
  std::string id = created.rpc()["result"]["task"]["taskId"];
  ASSERT_FALSE(id.empty()) << created.body;

  // Bob holds the session id too, but not alice's token.
  auto listed = b.in_session("bob", sid, req(2, "tasks/list"));
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_EQ(listed.rpc()["result"]["tasks"], json::array()) << listed.body;
  auto peek = b.in_session("bob", sid, req(3, "tasks/get", {{"taskId", id}}));
  EXPECT_EQ(peek.rpc()["error"]["code"], -32602) << peek.body;
  auto take = b.in_session("bob", sid, req(4, "tasks/result", {{"taskId", id}}));
  EXPECT_EQ(take.rpc()["error"]["code"], -32602) << take.body;

  auto mine = b.in_session("alice", sid, req(5, "tasks/list"));
  ASSERT_EQ(mine.rpc()["result"]["tasks"].size(), 1u) << mine.body;
  EXPECT_EQ(mine.rpc()["result"]["tasks"][0]["taskId"], id);
  b.gate.open();
  auto result = b.in_session("alice", sid, req(6, "tasks/result", {{"taskId", id}}));
  ASSERT_EQ(result.status, 200) << result.body;
  EXPECT_EQ(result.rpc()["result"]["content"][0]["text"], "finished") << result.body;
}

TEST(mcp_task_binding, a_hook_without_a_principal_binds_nothing_beyond_the_id) {
  tooluse::testing::response_gate gate;
  std::mutex mu;
  std::string seen = "unset";
  mcp::server server{{.name = "open", .version = "1"}};
  mcp::http_server http{server, {.authorize = [](const mcp::http_auth_request&) { return mcp::http_auth_decision{}; }}};
  server.add_tool({.name = "job"}, [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    {
      std::lock_guard lock(mu);
      seen = ctx.principal();
    }
    gate.wait();
    return tool_result::text("done");
  }, mcp::task_support::optional);
  ASSERT_TRUE(http.start());
  tooluse::testing::gate_opener opener{gate};
  auto post = [&](const json& body, const std::string& name) {
    header_fields h = {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", body["method"].get<std::string>()},
                       {"Mcp-Name", name}};
    return exchange(http.port(), "POST", json_post(h), body.dump());
  };
  auto created = post(req(1, "tools/call", with_meta({{"name", "job"}}, tasks_caps())), "job");
  std::string id = created.rpc()["result"]["taskId"];
  ASSERT_TRUE(gate.wait_arrival());
  {
    std::lock_guard lock(mu);
    EXPECT_EQ(seen, "");
  }
  // Any request that holds the id reaches the task, as before binding existed.
  auto got = post(req(2, "tasks/get", with_meta({{"taskId", id}}, tasks_caps())), id);
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_EQ(got.rpc()["result"]["status"], "working") << got.body;
}

TEST(mcp_task_binding, the_live_task_bound_counts_per_principal_not_per_client_name) {
  bound b;  // one live task per requestor
  tooluse::testing::gate_opener opener{b.gate};
  auto as_app = [](int id) {
    json p = with_meta({{"name", "job"}}, tasks_caps());
    p["_meta"]["io.modelcontextprotocol/clientInfo"] = {{"name", "same-app"}, {"version", "1"}};
    return req(id, "tools/call", p);
  };
  auto first = b.stateless("alice", as_app(1), "job");
  ASSERT_EQ(first.rpc()["result"]["resultType"], "task") << first.body;
  auto again = b.stateless("alice", as_app(2), "job");
  EXPECT_EQ(again.rpc()["error"]["code"], -32600) << again.body;  // alice's bound is reached
  // Bob sends the same client name: his bound is his own.
  auto other = b.stateless("bob", as_app(3), "job");
  EXPECT_EQ(other.rpc()["result"]["resultType"], "task") << other.body;
}
