// The durable task store under a real MCP server (memory transport, SQLite in a temporary
// folder): a finished task is still readable after the server restarts, a task the dead
// server left running is failed with an error naming it (tasks/get inlines it), and
// the record codec's handling of malformed or partial JSON rows.
#include <gtest/gtest.h>

#include "support/test_support.hpp"
#include "tooluse/mcp/transport.hpp"
#include "tooluse/mcp_store/task_store.hpp"

namespace tooluse::mcp_store {
namespace {

json req(int id, const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json v2_meta() {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientCapabilities",
           {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}}};
}

void handshake(mcp::memory_client& c) {
  auto r = c.request(req(0, "initialize", {{"protocolVersion", "2025-11-25"}}));
  ASSERT_TRUE(r && r->contains("result"));
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
}

std::shared_ptr<mcp::task_store> open_or_fail(const std::string& path) {
  auto s = open_task_store(path);
  EXPECT_TRUE(s) << (s ? "" : s.error().message);
  return s ? *s : nullptr;
}

}  // namespace

TEST(durable_task_store_server, a_finished_task_survives_a_restart) {
  testing::temp_dir dir;
  const std::string path = (dir.path() / "tasks.db").string();
  std::string id;
  {
    mcp::server srv({.name = "a", .version = "1"}, nullptr, {.tasks = {.store = open_or_fail(path)}});
    srv.add_tool({.name = "job"}, [](const json&, mcp::request_context&) -> mcp::tool_outcome {
      return tool_result::text("kept");
    }, mcp::task_support::optional);
    mcp::memory_client c(srv);
    handshake(c);
    auto created = c.request(req(1, "tools/call", {{"name", "job"}, {"task", json::object()}}));
    ASSERT_TRUE(created && (*created)["result"].contains("task")) << created->dump();
    id = (*created)["result"]["task"]["taskId"];
    auto result = c.request(req(2, "tasks/result", {{"taskId", id}}));
    ASSERT_EQ((*result)["result"]["content"][0]["text"], "kept");
  }
  mcp::server srv({.name = "b", .version = "1"}, nullptr, {.tasks = {.store = open_or_fail(path)}});
  mcp::memory_client c(srv);
  auto got = c.request(req(3, "tasks/get", {{"taskId", id}, {"_meta", v2_meta()}}));
  ASSERT_TRUE(got);
  EXPECT_EQ((*got)["result"]["status"], "completed");
  EXPECT_EQ((*got)["result"]["result"]["content"][0]["text"], "kept");
}

TEST(durable_task_store_server, a_task_left_running_reads_as_failed_after_a_restart) {
  testing::temp_dir dir;
  const std::string path = (dir.path() / "tasks.db").string();
  {
    auto store = open_or_fail(path);
    mcp::task_record r;
    r.id = "feedfacefeedfacefeedfacefeedface";
    r.owner = "";
    r.tool = "long_job";
    r.revision = "2026-07-28";
    r.status = mcp::task_status::working;
    r.created_at = r.updated_at = std::chrono::system_clock::now();
    r.ttl_ms = 3600000;
    store->put(r);
  }
  mcp::server srv({.name = "b", .version = "1"}, nullptr, {.tasks = {.store = open_or_fail(path)}});
  mcp::memory_client c(srv);
  auto got = c.request(req(1, "tasks/get", {{"taskId", "feedfacefeedfacefeedfacefeedface"}, {"_meta", v2_meta()}}));
  ASSERT_TRUE(got);
  const json& task = (*got)["result"];
  EXPECT_EQ(task["status"], "failed");
  EXPECT_EQ(task["error"]["code"], -32603);
  EXPECT_EQ(task["error"]["data"]["taskId"], "feedfacefeedfacefeedfacefeedface");
  EXPECT_NE(task["statusMessage"].get<std::string>().find("long_job"), std::string::npos);
}

TEST(durable_task_record_json, refuses_rows_that_are_not_task_records) {
  EXPECT_FALSE(task_record_from_json(json::array()));
  EXPECT_FALSE(task_record_from_json(json{{"id", "x"}}));                          // no status
  EXPECT_FALSE(task_record_from_json(json{{"id", "x"}, {"status", "sleeping"}}));  // unknown status
  EXPECT_FALSE(task_record_from_json(json{{"status", "working"}}));                // no id
  EXPECT_FALSE(task_record_from_json(json{{"id", ""}, {"status", "working"}}));
}

TEST(durable_task_record_json, fills_defaults_for_missing_fields) {
  auto r = task_record_from_json(json{{"id", "x"}, {"status", "completed"}, {"ttlMs", "soon"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, mcp::task_status::completed);
  EXPECT_FALSE(r->ttl_ms);  // not a number: unlimited
  EXPECT_EQ(r->poll_interval_ms, 1000);
  EXPECT_TRUE(r->result.is_null());
  EXPECT_EQ(r->input_requests, json::object());
  EXPECT_FALSE(r->error);
  EXPECT_EQ(r->created_at, std::chrono::system_clock::time_point{});
  auto with_error = task_record_from_json(json{{"id", "y"}, {"status", "failed"}, {"error", json::object()}});
  ASSERT_TRUE(with_error && with_error->error);
  EXPECT_EQ(with_error->error->code, -32603);
  EXPECT_EQ(with_error->error->message, "");
}

TEST(durable_task_record_json, round_trips_every_field) {
  mcp::task_record r;
  r.id = "id1";
  r.owner = "o";
  r.principal = "sub:alice";
  r.tool = "t";
  r.revision = "2025-11-25";
  r.status = mcp::task_status::input_required;
  r.status_message = "waiting";
  r.created_at = std::chrono::system_clock::time_point(std::chrono::milliseconds(1234));
  r.updated_at = std::chrono::system_clock::time_point(std::chrono::milliseconds(5678));
  r.ttl_ms = 99;
  r.poll_interval_ms = 42;
  r.result = json{{"a", 1}};
  r.input_requests = json{{"k", {{"method", "roots/list"}}}};
  r.error = jsonrpc::error_object{-1, "e", json{{"d", true}}};
  json j = task_record_to_json(r);
  EXPECT_EQ(j["createdMs"], 1234);
  EXPECT_EQ(j["status"], "input_required");
  auto back = task_record_from_json(j);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->owner, "o");
  EXPECT_EQ(back->principal, "sub:alice");  // a restored task stays bound to its creator
  EXPECT_EQ(back->tool, "t");
  EXPECT_EQ(back->revision, "2025-11-25");
  EXPECT_EQ(back->status_message, "waiting");
  EXPECT_EQ(back->created_at, r.created_at);
  EXPECT_EQ(back->updated_at, r.updated_at);
  EXPECT_EQ(back->ttl_ms, 99);
  EXPECT_EQ(back->poll_interval_ms, 42);
  EXPECT_EQ(back->result, r.result);
  EXPECT_EQ(back->input_requests, r.input_requests);
  ASSERT_TRUE(back->error);
  EXPECT_EQ(back->error->data, r.error->data);
  r.ttl_ms.reset();
  EXPECT_TRUE(task_record_to_json(r)["ttlMs"].is_null());
  EXPECT_FALSE(task_record_from_json(task_record_to_json(r))->ttl_ms);
}

TEST(durable_task_store_server, put_replaces_a_record) {
  testing::temp_dir dir;
  auto store = open_or_fail((dir.path() / "t.db").string());
  mcp::task_record r;
  r.id = "same";
  r.owner = "o";
  r.status = mcp::task_status::working;
  store->put(r);
  r.status = mcp::task_status::completed;
  r.result = json{{"v", 2}};
  store->put(r);
  auto list = store->list("o");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].status, mcp::task_status::completed);
  EXPECT_EQ(list[0].result["v"], 2);
}

}  // namespace tooluse::mcp_store
