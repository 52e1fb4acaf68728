// The 2026-07-28 tasks extension over real loopback HTTP: a task handle from tools/call, then
// tasks/get and tasks/cancel routed by the Mcp-Name header carrying the taskId (a mismatch is
// 400), and the result inlined once the task completes. The tool waits on a response_gate.
#include <gtest/gtest.h>

#include "support/response_gate.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "unit/mcp/http_test_util.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace http_tasks_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;

namespace {

struct served {
  tooluse::testing::response_gate gate;
  mcp::server server{{.name = "tasks-http", .version = "1"}};
  mcp::http_server http{server};
  unsigned short port = 0;
  served() {
    server.add_tool({.name = "job"}, [this](const json&, mcp::request_context&) -> mcp::tool_outcome {
      gate.wait();
      return tool_result::text("finished");
    }, mcp::task_support::optional);
    EXPECT_TRUE(http.start());
    port = http.port();
  }
  http_reply call(const json& body, const std::string& name) {
    header_fields h = {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", body["method"].get<std::string>()}};
    if (!name.empty()) h.emplace_back("Mcp-Name", name);
    return exchange(port, "POST", json_post(h), body.dump());
  }
};

}  // namespace

TEST(mcp_http_tasks, a_task_is_created_polled_and_completed_over_http) {
  served s;
  tooluse::testing::gate_opener opener{s.gate};
  auto created = s.call(req(1, "tools/call", with_meta({{"name", "job"}}, tasks_caps())), "job");
  ASSERT_EQ(created.status, 200) << created.body;
  json task = created.rpc()["result"];
  ASSERT_EQ(task["resultType"], "task");
  std::string id = task["taskId"];
  ASSERT_TRUE(s.gate.wait_arrival());
  auto working = s.call(req(2, "tasks/get", with_meta({{"taskId", id}}, tasks_caps())), id);
  EXPECT_EQ(working.status, 200);
  EXPECT_EQ(working.rpc()["result"]["status"], "working");
  auto mismatch = s.call(req(3, "tasks/get", with_meta({{"taskId", id}}, tasks_caps())), "another-id");
  EXPECT_EQ(mismatch.status, 400);
  EXPECT_NE(mismatch.body.find("Mcp-Name"), std::string::npos);
  s.gate.open();
  json done;
  for (int i = 0; i < 20000; ++i) {
    auto r = s.call(req(4, "tasks/get", with_meta({{"taskId", id}}, tasks_caps())), id);
    done = r.rpc()["result"];
    if (done["status"] != "working") break;
  }
  EXPECT_EQ(done["status"], "completed");
  EXPECT_EQ(done["result"]["content"][0]["text"], "finished");
}

TEST(mcp_http_tasks, cancel_over_http_is_acknowledged_and_sticks) {
  served s;
  tooluse::testing::gate_opener opener{s.gate};
  auto created = s.call(req(1, "tools/call", with_meta({{"name", "job"}}, tasks_caps())), "job");
  std::string id = created.rpc()["result"]["taskId"];
  ASSERT_TRUE(s.gate.wait_arrival());
  auto cancelled = s.call(req(2, "tasks/cancel", with_meta({{"taskId", id}}, tasks_caps())), id);
  EXPECT_EQ(cancelled.status, 200);
  EXPECT_EQ(cancelled.rpc()["result"]["resultType"], "complete");
  s.gate.open();
  auto got = s.call(req(3, "tasks/get", with_meta({{"taskId", id}}, tasks_caps())), id);
  EXPECT_EQ(got.rpc()["result"]["status"], "cancelled");
}

TEST(mcp_http_tasks, tasks_methods_without_the_extension_are_400) {
  served s;
  auto r = s.call(req(1, "tasks/get", with_meta({{"taskId", "abc"}})), "abc");
  EXPECT_EQ(r.status, 400);  // -32021 missing capability is a 400
  EXPECT_EQ(json::parse(r.body)["error"]["code"], -32021);
}
}  // namespace http_tasks_test
