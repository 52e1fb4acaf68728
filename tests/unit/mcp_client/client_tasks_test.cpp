// MCP tasks end to end: tooluse's client against tooluse's server, 2026-07-28 (extension) over
// HTTP and 2025-11-25 (core tasks) over HTTP and an in-memory session: task creation, polling,
// input inside a task, cancellation seen by the tool, and fetching a result after reconnecting.
#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <mutex>

#include "client_test_support.hpp"

namespace tooluse::mcp {
namespace {

using testing::http_fixture;

// gate lets a test hold a tool until it opens the gate (no sleeps).
struct gate {
  std::mutex mu;
  std::condition_variable_any cv;
  bool open = false;
  void release() {
    {
      std::lock_guard lock(mu);
      open = true;
    }
    cv.notify_all();
  }
  // wait returns true when released, false when `stop` fired first.
  bool wait(std::stop_token stop) {
    std::unique_lock lock(mu);
    return cv.wait(lock, stop, [&] { return open; });
  }
};

tool job(std::string name) { return {.name = std::move(name), .description = "a long job"}; }

std::shared_ptr<client> connect_http(http_fixture& f, std::string version, client_options o = {}) {
  o.protocol_version = std::move(version);
  auto c = client::connect(f.transport(), std::move(o));
  EXPECT_TRUE(c) << (c ? "" : c.error().message);
  return c ? *c : nullptr;
}

class client_tasks : public ::testing::TestWithParam<std::string> {};

TEST_P(client_tasks, call_tool_waits_for_a_task_and_reports_its_status) {
  http_fixture f;
  auto g = std::make_shared<gate>();
  f.srv.add_tool(job("job"), [g](const json& args, request_context& ctx) -> tool_outcome {
    if (ctx.task_id().empty()) return tool_result::error("not run as a task");
    if (!g->wait(ctx.stop())) return tool_result::error("stopped");
    return tool_result::text("done " + args.value("n", std::string()));
  }, task_support::required);
  ASSERT_TRUE(f.start());
  auto c = connect_http(f, GetParam());
  ASSERT_TRUE(c);
  std::vector<std::string> seen;
  std::mutex seen_mu;
  call_options o;
  o.on_task = [&](const task_update& u) {
    std::lock_guard lock(seen_mu);
    seen.push_back(u.status);
    if (u.status == "working") g->release();  // the task exists and runs: let it finish
  };
  auto r = c->call_tool("job", {{"n", "7"}}, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->is_error);
  EXPECT_EQ(r->all_text(), "done 7");
  std::lock_guard lock(seen_mu);
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front(), "working");
  EXPECT_EQ(seen.back(), "completed");
}

TEST_P(client_tasks, a_cancelled_task_stops_its_tool) {
  http_fixture f;
  std::promise<bool> stopped;
  auto g = std::make_shared<gate>();
  f.srv.add_tool(job("job"), [&stopped, g](const json&, request_context& ctx) -> tool_outcome {
    bool released = g->wait(ctx.stop());
    stopped.set_value(!released && ctx.stop().stop_requested());
    return tool_result::text("finished");
  }, task_support::optional);
  ASSERT_TRUE(f.start());
  auto c = connect_http(f, GetParam());
  ASSERT_TRUE(c);
  call_options o;
  o.as_task = true;
  auto t = c->start_tool_task("job", json::object(), o);
  ASSERT_TRUE(t) << t.error().message;
  std::string id = t->value("taskId", "");
  ASSERT_FALSE(id.empty()) << dump_json(*t);
  ASSERT_TRUE(c->cancel_task(id));
  auto fut = stopped.get_future();
  ASSERT_EQ(fut.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_TRUE(fut.get()) << "the tool did not see the cancellation";
  auto r = c->wait_task(id);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::cancelled);
  auto got = c->get_task(id);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got->value("status", ""), "cancelled");
}

TEST_P(client_tasks, a_task_outlives_its_connection_and_a_new_one_fetches_the_result) {
  http_fixture f;
  auto g = std::make_shared<gate>();
  f.srv.add_tool(job("job"), [g](const json&, request_context& ctx) -> tool_outcome {
    if (!g->wait(ctx.stop())) return tool_result::error("stopped");
    return tool_result::text("survived");
  }, task_support::optional);
  ASSERT_TRUE(f.start());
  std::string id;
  {
    auto c = connect_http(f, GetParam());
    ASSERT_TRUE(c);
    call_options o;
    o.as_task = true;
    auto t = c->start_tool_task("job", json::object(), o);
    ASSERT_TRUE(t) << t.error().message;
    id = t->value("taskId", "");
    ASSERT_FALSE(id.empty());
    c->close();  // the client goes away mid-task (HTTP: its session is deleted)
  }
  g->release();
  auto c2 = connect_http(f, GetParam());
  ASSERT_TRUE(c2);
  auto r = c2->wait_task(id);
  ASSERT_TRUE(r) << r.error().message;
  auto tr = result_from_json(*r);
  ASSERT_TRUE(tr);
  EXPECT_EQ(tr->all_text(), "survived");
}

TEST_P(client_tasks, unknown_task_ids_are_invalid_params) {
  http_fixture f;
  ASSERT_TRUE(f.start());
  auto c = connect_http(f, GetParam());
  ASSERT_TRUE(c);
  auto r = c->get_task("0123456789abcdef0123456789abcdef");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().jsonrpc_code, -32602);
}

INSTANTIATE_TEST_SUITE_P(revisions, client_tasks, ::testing::Values("2026-07-28", "2025-11-25"),
                         [](const auto& info) { return info.param == "2026-07-28" ? std::string("extension") : std::string("core_2025_11_25"); });

TEST(client_tasks_2026, input_inside_a_task_goes_through_the_elicitation_handler) {
  http_fixture f;
  f.srv.add_tool(job("confirm"), [](const json&, request_context& ctx) -> tool_outcome {
    const json* r = ctx.input_response("ok");
    if (!r) {
      json schema = {{"type", "object"}};
      json params = {{"message", "sure?"}, {"requestedSchema", schema}};
      json ask = {{"method", "elicitation/create"}, {"params", params}};
      json requests = json::object();
      requests["ok"] = ask;
      return input_required{.input_requests = requests};
    }
    return tool_result::text("answer " + r->value("action", ""));
  }, task_support::optional);
  ASSERT_TRUE(f.start());
  client_options o;
  o.on_elicitation = [](const json&, std::stop_token) -> result<json> {
    return json{{"action", "accept"}, {"content", json::object()}};
  };
  auto c = connect_http(f, "2026-07-28", o);
  ASSERT_TRUE(c);
  std::vector<std::string> seen;
  call_options co;
  co.on_task = [&](const task_update& u) { seen.push_back(u.status); };
  auto r = c->call_tool("confirm", json::object(), co);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->all_text(), "answer accept");
  EXPECT_NE(std::find(seen.begin(), seen.end(), "input_required"), seen.end());
}

TEST(client_tasks_2026, a_required_task_tool_refuses_clients_without_the_extension) {
  http_fixture f;
  f.srv.add_tool(job("job"),
                 [](const json&, request_context&) -> tool_outcome { return tool_result::text("x"); }, task_support::required);
  ASSERT_TRUE(f.start());
  client_options o;
  o.tasks = false;
  auto c = connect_http(f, "2026-07-28", o);
  ASSERT_TRUE(c);
  auto r = c->call_tool("job");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().jsonrpc_code, -32021);
}

TEST(client_tasks_2025, tasks_list_shows_only_the_sessions_own_tasks) {
  http_fixture f;
  f.srv.add_tool(job("job"),
                 [](const json&, request_context&) -> tool_outcome { return tool_result::text("x"); }, task_support::optional);
  ASSERT_TRUE(f.start());
  auto a = connect_http(f, "2025-11-25");
  auto b = connect_http(f, "2025-11-25");
  ASSERT_TRUE(a && b);
  call_options o;
  o.as_task = true;
  auto t = a->start_tool_task("job", json::object(), o);
  ASSERT_TRUE(t) << t.error().message;
  auto la = a->request("tasks/list", json::object());
  auto lb = b->request("tasks/list", json::object());
  ASSERT_TRUE(la && lb);
  ASSERT_EQ((*la)["tasks"].size(), 1u);
  EXPECT_EQ((*la)["tasks"][0]["taskId"], (*t)["taskId"]);
  EXPECT_TRUE((*lb)["tasks"].empty());
  EXPECT_EQ(t->value("taskId", "").size(), 32u);  // 128 random bits
}

TEST(client_tasks_2025, a_client_may_not_run_more_live_tasks_than_the_bound) {
  server_options so;
  so.tasks.max_live_per_client = 1;
  http_fixture f(so);
  auto g = std::make_shared<gate>();
  f.srv.add_tool(job("job"), [g](const json&, request_context& ctx) -> tool_outcome {
    g->wait(ctx.stop());
    return tool_result::text("x");
  }, task_support::optional);
  ASSERT_TRUE(f.start());
  auto c = connect_http(f, "2025-11-25");
  ASSERT_TRUE(c);
  call_options o;
  o.as_task = true;
  ASSERT_TRUE(c->start_tool_task("job", json::object(), o));
  auto second = c->start_tool_task("job", json::object(), o);
  ASSERT_FALSE(second);
  EXPECT_NE(second.error().message.find("Too many live tasks"), std::string::npos) << second.error().message;
  g->release();
}

}  // namespace
}  // namespace tooluse::mcp
