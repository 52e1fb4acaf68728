// Who may see a task (memory transport): on the 2025-11-25 wire a task belongs to the session
// that started it, so another session's tasks/get, tasks/result and tasks/cancel find nothing
// (the same -32602 as an id that never existed), and its tasks/list leaves it out; on the
// stateless 2026-07-28 wire the id is the capability, and a session's task is not reachable
// from it either.
#include <gtest/gtest.h>

#include "support/response_gate.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;
using tooluse::testing::gate_opener;
using tooluse::testing::response_gate;

namespace {

struct fixture {
  response_gate gate;
  mcp::server server{{.name = "owners", .version = "1"}, nullptr};
  fixture() {
    server.add_tool({.name = "job"}, [this](const json& a, mcp::request_context&) -> mcp::tool_outcome {
      if (a.value("wait", false)) gate.wait();
      return tool_result::text("done");
    }, mcp::task_support::optional);
  }
};

json task_call(json args = json::object()) {
  return {{"name", "job"}, {"arguments", std::move(args)}, {"task", json::object()}};
}

std::string start_task(mcp::memory_client& c, json args = json::object()) {
  auto r = c.request(req(1, "tools/call", task_call(std::move(args))));
  if (!r || !(*r)["result"].contains("task")) return {};
  return (*r)["result"]["task"]["taskId"];
}

json v2_meta() {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientCapabilities",
           {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}}};
}

void expect_unknown(const std::optional<json>& r, const std::string& id) {
  ASSERT_TRUE(r);
  EXPECT_EQ(error_code(r), -32602) << r->dump();
  EXPECT_NE((*r)["error"]["message"].get<std::string>().find("unknown task \"" + id + "\""),
            std::string::npos)
      << r->dump();
}

}  // namespace

TEST(mcp_task_owner, another_session_cannot_read_or_cancel_a_running_task) {
  fixture f;
  gate_opener open{f.gate};
  mcp::memory_client owner(f.server), stranger(f.server);
  handshake(owner);
  handshake(stranger);
  const std::string id = start_task(owner, {{"wait", true}});
  ASSERT_FALSE(id.empty());

  expect_unknown(stranger.request(req(2, "tasks/get", {{"taskId", id}})), id);
  expect_unknown(stranger.request(req(3, "tasks/cancel", {{"taskId", id}})), id);
  auto theirs = stranger.request(req(4, "tasks/list"));
  ASSERT_TRUE(theirs);
  EXPECT_TRUE((*theirs)["result"]["tasks"].empty()) << theirs->dump();

  // The stranger's cancel did nothing: the owner still sees it working, then its result.
  auto mine = owner.request(req(5, "tasks/get", {{"taskId", id}}));
  ASSERT_TRUE(mine && mine->contains("result")) << (mine ? mine->dump() : "");
  EXPECT_EQ((*mine)["result"]["status"], "working");
  f.gate.open();
  auto result = owner.request(req(6, "tasks/result", {{"taskId", id}}));
  ASSERT_TRUE(result && result->contains("result")) << (result ? result->dump() : "");
  EXPECT_EQ((*result)["result"]["content"][0]["text"], "done");
}

TEST(mcp_task_owner, another_session_cannot_take_a_finished_result) {
  fixture f;
  mcp::memory_client owner(f.server), stranger(f.server);
  handshake(owner);
  handshake(stranger);
  const std::string id = start_task(owner);
  ASSERT_FALSE(id.empty());
  auto result = owner.request(req(2, "tasks/result", {{"taskId", id}}));
  ASSERT_TRUE(result && result->contains("result"));
  expect_unknown(stranger.request(req(3, "tasks/result", {{"taskId", id}})), id);
  expect_unknown(stranger.request(req(4, "tasks/get", {{"taskId", id}})), id);
}

TEST(mcp_task_owner, the_stateless_wire_cannot_reach_a_sessions_task) {
  fixture f;
  mcp::memory_client owner(f.server), stateless(f.server);
  handshake(owner);
  const std::string id = start_task(owner);
  ASSERT_FALSE(id.empty());
  expect_unknown(stateless.request(req(2, "tasks/get", {{"taskId", id}, {"_meta", v2_meta()}})), id);
  expect_unknown(stateless.request(req(3, "tasks/cancel", {{"taskId", id}, {"_meta", v2_meta()}})), id);
}

TEST(mcp_task_owner, a_stateless_task_is_reachable_by_its_id_alone) {
  fixture f;
  mcp::memory_client maker(f.server), other(f.server);
  auto created = maker.request(req(1, "tools/call", {{"name", "job"}, {"_meta", v2_meta()}}));
  ASSERT_TRUE(created && (*created)["result"]["resultType"] == "task") << created->dump();
  const std::string id = (*created)["result"]["taskId"];
  auto got = other.request(req(2, "tasks/get", {{"taskId", id}, {"_meta", v2_meta()}}));
  ASSERT_TRUE(got && got->contains("result")) << got->dump();
  EXPECT_EQ((*got)["result"]["taskId"], id);
}
