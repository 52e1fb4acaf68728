// Task flows the other task tests leave out, through a served memory_client: 2025-11-25
// messages a task sends (log and progress related to the task), tasks/result asked before the
// task ends, a failed task's error and status message, cancelling a finished task; the
// 2026-07-28 tasks/update checks, keys that are unknown or already answered, a throwing or
// inputless task, and a server destroyed under a running task. Tools block on a response_gate
// or on their stop token, never on sleeps.
#include <gtest/gtest.h>

#include <condition_variable>

#include "support/response_gate.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace task_flows_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;
using tooluse::testing::gate_opener;
using tooluse::testing::response_gate;

namespace {

constexpr const char* related = "io.modelcontextprotocol/related-task";

struct fixture {
  response_gate gate;
  mcp::server server{
      {.name = "flows", .version = "1"}, nullptr, {.tasks = {.poll_interval_ms = 100}}};
  std::string seen_task_id;
  fixture() {
    server.add_tool(
        {.name = "chatty"},
        [this](const json& a, mcp::request_context& ctx) -> mcp::tool_outcome {
          seen_task_id = ctx.task_id();
          ctx.log(mcp::log_level::info, "working on it", "chatty");
          ctx.progress(1, 2, "half");
          if (a.value("wait", false)) gate.wait();
          if (a.value("fail", false))
            return tooluse::jsonrpc::error_object{-32042, "upstream refused",
                                                  json{{"why", "quota"}}};
          if (a.value("throw", false)) throw std::runtime_error("exploded");
          if (a.value("empty_ask", false))
            return mcp::input_required{.input_requests = json::object()};
          return tool_result::text("chatty done");
        },
        mcp::task_support::optional);
    // two asks for "a" and "b" in one round, then reports the answers it got.
    server.add_tool(
        {.name = "two"},
        [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
          if (!ctx.input_response("a") || !ctx.input_response("b"))
            return mcp::input_required{.input_requests = {{"a", {{"method", "elicitation/create"}}},
                                                          {"b", {{"method", "roots/list"}}}}};
          return tool_result::text(ctx.input_response("a")->dump() +
                                   ctx.input_response("b")->dump());
        },
        mcp::task_support::optional);
  }
};

json task_call(const std::string& tool, json args = json::object()) {
  return {{"name", tool}, {"arguments", std::move(args)}, {"task", json::object()}};
}

json v2(json params) { return with_meta(std::move(params), tasks_caps()); }

// poll_until asks tasks/get (2026-07-28) until `status`; each answer is a real state.
std::optional<json> poll_until(mcp::memory_client& c, const std::string& id,
                               const std::string& status) {
  for (int i = 0; i < 20000; ++i) {
    auto r = c.request(req(5000 + i, "tasks/get", v2({{"taskId", id}})));
    if (!r || !r->contains("result")) return r;
    if ((*r)["result"]["status"] == status) return r;
  }
  return std::nullopt;
}

}  // namespace

TEST(mcp_task_flows_v1, log_and_progress_of_a_task_are_related_to_it) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  json params = task_call("chatty");
  params["_meta"] = {{"progressToken", "tok-1"}};
  // The task's worker may write before the tools/call response: collect from the start.
  std::vector<json> notes;
  auto created = c.request(req(1, "tools/call", params), &notes);
  ASSERT_TRUE(created && created->contains("result")) << created->dump();
  std::string id = (*created)["result"]["task"]["taskId"];
  auto result = c.request(req(2, "tasks/result", {{"taskId", id}}), &notes);
  ASSERT_TRUE(result);
  EXPECT_EQ((*result)["result"]["content"][0]["text"], "chatty done");
  EXPECT_EQ(f.seen_task_id, id);
  std::map<std::string, json> by_method;
  for (auto& n : notes) by_method[n.value("method", "")] = n;
  ASSERT_TRUE(by_method.count("notifications/message")) << json(notes).dump();
  const json& log = by_method["notifications/message"]["params"];
  EXPECT_EQ(log["data"], "working on it");
  EXPECT_EQ(log["logger"], "chatty");
  EXPECT_EQ(log["_meta"][related]["taskId"], id);
  ASSERT_TRUE(by_method.count("notifications/progress"));
  const json& progress = by_method["notifications/progress"]["params"];
  EXPECT_EQ(progress["progressToken"], "tok-1");
  EXPECT_EQ(progress["progress"], 1);
  EXPECT_EQ(progress["total"], 2);
  EXPECT_EQ(progress["message"], "half");
  EXPECT_EQ(progress["_meta"][related]["taskId"], id);
}

TEST(mcp_task_flows_v1, tasks_result_asked_early_answers_when_the_task_ends) {
  fixture f;
  gate_opener opener{f.gate};
  mcp::memory_client c(f.server);
  handshake(c);
  auto created = c.request(req(1, "tools/call", task_call("chatty", {{"wait", true}})));
  std::string id = (*created)["result"]["task"]["taskId"];
  ASSERT_TRUE(f.gate.wait_arrival());
  c.send(req(2, "tasks/result", {{"taskId", id}}));
  // The task is still working: tasks/get says so, and tasks/result has not answered.
  std::vector<json> before;
  auto got = c.request(req(3, "tasks/get", {{"taskId", id}}), &before);
  ASSERT_TRUE(got);
  EXPECT_EQ((*got)["result"]["status"], "working");
  for (auto& m : before) EXPECT_FALSE(m.contains("id")) << m.dump();
  f.gate.open();
  std::optional<json> result;
  for (int i = 0; i < 10 && !result; ++i) {
    auto m = c.receive();
    ASSERT_TRUE(m);
    if (m->value("id", json()) == 2) result = m;
  }
  ASSERT_TRUE(result);
  EXPECT_EQ((*result)["result"]["content"][0]["text"], "chatty done");
  EXPECT_EQ((*result)["result"]["_meta"][related]["taskId"], id);
}

TEST(mcp_task_flows_v1, a_failed_task_reports_its_error_and_status_message) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  auto created = c.request(req(1, "tools/call", task_call("chatty", {{"fail", true}})));
  std::string id = (*created)["result"]["task"]["taskId"];
  auto result = c.request(req(2, "tasks/result", {{"taskId", id}}));
  EXPECT_EQ(error_code(result), -32042);
  EXPECT_EQ((*result)["error"]["message"], "upstream refused");
  EXPECT_EQ((*result)["error"]["data"]["why"], "quota");
  auto got = c.request(req(3, "tasks/get", {{"taskId", id}}));
  EXPECT_EQ((*got)["result"]["status"], "failed");
  EXPECT_EQ((*got)["result"]["statusMessage"], "upstream refused");
  auto cancel = c.request(req(4, "tasks/cancel", {{"taskId", id}}));
  EXPECT_EQ(error_code(cancel), -32602);
  EXPECT_TRUE(error_mentions(cancel, "already failed"));
}

TEST(mcp_task_flows_v1, a_completed_task_cannot_be_cancelled_and_keeps_its_result) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  auto created = c.request(req(1, "tools/call", task_call("chatty")));
  std::string id = (*created)["result"]["task"]["taskId"];
  ASSERT_TRUE(c.request(req(2, "tasks/result", {{"taskId", id}})));
  auto cancel = c.request(req(3, "tasks/cancel", {{"taskId", id}}));
  EXPECT_EQ(error_code(cancel), -32602);
  EXPECT_TRUE(error_mentions(cancel, "already completed"));
  EXPECT_TRUE(error_mentions(cancel, id));
  auto again = c.request(req(4, "tasks/result", {{"taskId", id}}));
  EXPECT_EQ((*again)["result"]["content"][0]["text"], "chatty done");
  auto list = c.request(req(5, "tasks/list"));
  ASSERT_EQ((*list)["result"]["tasks"].size(), 1u);
  EXPECT_EQ((*list)["result"]["tasks"][0]["status"], "completed");
  EXPECT_EQ((*list)["result"]["tasks"][0]["pollInterval"], 100);
}

TEST(mcp_task_flows_v1, another_session_cannot_list_a_sessions_tasks) {
  fixture f;
  mcp::memory_client mine(f.server), theirs(f.server);
  handshake(mine);
  handshake(theirs);
  auto created = mine.request(req(1, "tools/call", task_call("chatty")));
  std::string id = (*created)["result"]["task"]["taskId"];
  ASSERT_TRUE(mine.request(req(2, "tasks/result", {{"taskId", id}})));
  auto list = theirs.request(req(3, "tasks/list"));
  ASSERT_TRUE(list);
  EXPECT_TRUE((*list)["result"]["tasks"].empty());
  EXPECT_FALSE((*list)["result"].contains("nextCursor"));
}

TEST(mcp_task_flows_v2, tasks_update_checks_its_params) {
  fixture f;
  mcp::memory_client c(f.server);
  auto missing = c.request(req(1, "tasks/update", v2({{"taskId", "x"}})));
  EXPECT_EQ(error_code(missing), -32602);
  EXPECT_TRUE(error_mentions(missing, "inputResponses"));
  auto not_object = c.request(req(2, "tasks/update", v2({{"taskId", "x"}, {"inputResponses", 3}})));
  EXPECT_EQ(error_code(not_object), -32602);
  EXPECT_TRUE(error_mentions(not_object, "params.inputResponses"));
  auto unknown = c.request(
      req(3, "tasks/update", v2({{"taskId", "nope"}, {"inputResponses", json::object()}})));
  EXPECT_EQ(error_code(unknown), -32602);
  EXPECT_TRUE(error_mentions(unknown, "unknown task \"nope\""));
  auto no_id = c.request(req(4, "tasks/update", v2({{"inputResponses", json::object()}})));
  EXPECT_EQ(error_code(no_id), -32602);
  EXPECT_TRUE(error_mentions(no_id, "taskId"));
  for (const char* m : {"tasks/result", "tasks/list"}) {
    auto r = c.request(req(5, m, v2({{"taskId", "x"}})));
    EXPECT_EQ(error_code(r), -32601) << m;
    EXPECT_TRUE(error_mentions(r, "2026-07-28")) << m;
  }
}

TEST(mcp_task_flows_v2, answers_are_taken_key_by_key_and_unknown_keys_are_ignored) {
  fixture f;
  mcp::memory_client c(f.server);
  auto created =
      c.request(req(1, "tools/call", v2({{"name", "two"}, {"arguments", json::object()}})));
  ASSERT_TRUE(created && created->contains("result")) << created->dump();
  ASSERT_EQ((*created)["result"]["resultType"], "task");
  std::string id = (*created)["result"]["taskId"];
  auto waiting = poll_until(c, id, "input_required");
  ASSERT_TRUE(waiting);
  EXPECT_EQ((*waiting)["result"]["inputRequests"].size(), 2u);
  // An unknown key changes nothing; a known one is taken and no longer asked.
  auto u1 = c.request(
      req(2, "tasks/update", v2({{"taskId", id}, {"inputResponses", {{"zzz", {{"x", 1}}}}}})));
  EXPECT_EQ((*u1)["result"]["resultType"], "complete");
  auto u2 =
      c.request(req(3, "tasks/update",
                    v2({{"taskId", id}, {"inputResponses", {{"a", {{"action", "accept"}}}}}})));
  ASSERT_TRUE(u2 && u2->contains("result"));
  auto still = c.request(req(4, "tasks/get", v2({{"taskId", id}})));
  EXPECT_EQ((*still)["result"]["status"], "input_required");
  ASSERT_EQ((*still)["result"]["inputRequests"].size(), 1u);
  EXPECT_TRUE((*still)["result"]["inputRequests"].contains("b"));
  // Answering "a" again does not replace the first answer.
  c.request(req(5, "tasks/update",
                v2({{"taskId", id}, {"inputResponses", {{"a", {{"action", "decline"}}}}}})));
  c.request(req(6, "tasks/update",
                v2({{"taskId", id}, {"inputResponses", {{"b", {{"roots", json::array()}}}}}})));
  auto done = poll_until(c, id, "completed");
  ASSERT_TRUE(done);
  EXPECT_EQ((*done)["result"]["result"]["content"][0]["text"],
            R"({"action":"accept"}{"roots":[]})");
  // Updating a finished task is acknowledged and changes nothing.
  auto late = c.request(
      req(7, "tasks/update", v2({{"taskId", id}, {"inputResponses", {{"b", json::object()}}}})));
  ASSERT_TRUE(late && late->contains("result"));
  auto after = c.request(req(8, "tasks/get", v2({{"taskId", id}})));
  EXPECT_EQ((*after)["result"]["status"], "completed");
}

TEST(mcp_task_flows_v2, a_throwing_task_completes_with_a_tool_error) {
  fixture f;
  mcp::memory_client c(f.server);
  auto created =
      c.request(req(1, "tools/call", v2({{"name", "chatty"}, {"arguments", {{"throw", true}}}})));
  std::string id = (*created)["result"]["taskId"];
  auto done = poll_until(c, id, "completed");
  ASSERT_TRUE(done);
  const json& result = (*done)["result"]["result"];
  EXPECT_TRUE(result["isError"].get<bool>());
  EXPECT_EQ(result["content"][0]["text"], "tool \"chatty\" failed: exploded");
}

TEST(mcp_task_flows_v2, asking_for_input_without_requests_fails_the_task) {
  fixture f;
  mcp::memory_client c(f.server);
  auto created = c.request(
      req(1, "tools/call", v2({{"name", "chatty"}, {"arguments", {{"empty_ask", true}}}})));
  std::string id = (*created)["result"]["taskId"];
  auto failed = poll_until(c, id, "failed");
  ASSERT_TRUE(failed);
  EXPECT_EQ((*failed)["result"]["error"]["code"], -32603);
  EXPECT_NE(
      (*failed)["result"]["error"]["message"].get<std::string>().find("without input requests"),
      std::string::npos);
  EXPECT_EQ((*failed)["result"]["statusMessage"], (*failed)["result"]["error"]["message"]);
  EXPECT_EQ((*failed)["result"]["pollIntervalMs"], 100);
}

TEST(mcp_task_flows, destroying_the_server_stops_a_running_task) {
  std::mutex mu;
  std::condition_variable_any cv;
  bool started = false, saw_stop = false;
  {
    mcp::server server{{.name = "short-lived", .version = "1"}};
    server.add_tool(
        {.name = "forever"},
        [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
          std::unique_lock lock(mu);
          started = true;
          cv.notify_all();
          std::stop_token stop = ctx.stop();
          cv.wait(lock, stop, [] { return false; });  // only the stop token ends this wait
          saw_stop = stop.stop_requested();
          return tool_result::text("stopped");
        },
        mcp::task_support::required);
    {
      mcp::memory_client c(server);
      handshake(c);
      auto created = c.request(req(1, "tools/call", task_call("forever")));
      ASSERT_TRUE(created && created->contains("result")) << created->dump();
      std::unique_lock lock(mu);
      ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(30), [&] { return started; }));
    }
  }  // the server's destructor stops the task and joins its worker
  std::lock_guard lock(mu);
  EXPECT_TRUE(saw_stop);
}
}  // namespace task_flows_test
