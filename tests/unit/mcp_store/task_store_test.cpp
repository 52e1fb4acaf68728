// The durable mcp::task_store on SQLite and PostgreSQL: records round-trip with every field,
// list by owner in creation order, erase, and reopening the store fails the records a dead
// process left running.
#include <gtest/gtest.h>

#include "support/postgres_fixture.hpp"
#include "support/test_support.hpp"
#include "tooluse/mcp_store/task_store.hpp"

namespace tooluse::mcp_store {
namespace {

using namespace std::chrono;

mcp::task_record record(std::string id, std::string owner, mcp::task_status status, long long t) {
  mcp::task_record r;
  r.id = std::move(id);
  r.owner = std::move(owner);
  r.tool = "long_job";
  r.revision = "2025-11-25";
  r.status = status;
  r.created_at = system_clock::time_point(milliseconds(t));
  r.updated_at = r.created_at;
  r.ttl_ms = 60000;
  r.poll_interval_ms = 250;
  return r;
}

void round_trip(const std::string& location) {
  auto store = open_task_store(location);
  ASSERT_TRUE(store) << store.error().message;
  auto done = record("b", "s1", mcp::task_status::completed, 2000);
  done.result = json{{"content", {{{"type", "text"}, {"text", "ok"}}}}};
  done.status_message = "finished";
  auto failed = record("a", "s1", mcp::task_status::failed, 1000);
  failed.error = jsonrpc::error_object{-32603, "boom", json{{"taskId", "a"}}};
  failed.ttl_ms.reset();
  (*store)->put(done);
  (*store)->put(failed);
  (*store)->put(record("c", "s2", mcp::task_status::completed, 3000));

  auto got = (*store)->get("b");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->status, mcp::task_status::completed);
  EXPECT_EQ(got->status_message, "finished");
  EXPECT_EQ(got->result, done.result);
  EXPECT_EQ(got->created_at, done.created_at);
  EXPECT_EQ(got->ttl_ms, 60000);
  EXPECT_EQ(got->poll_interval_ms, 250);
  EXPECT_EQ(got->revision, "2025-11-25");
  auto err = (*store)->get("a");
  ASSERT_TRUE(err && err->error);
  EXPECT_EQ(err->error->code, -32603);
  EXPECT_EQ(err->error->message, "boom");
  EXPECT_FALSE(err->ttl_ms);

  auto s1 = (*store)->list("s1");
  ASSERT_EQ(s1.size(), 2u);
  EXPECT_EQ(s1[0].id, "a");  // oldest first
  EXPECT_EQ(s1[1].id, "b");
  EXPECT_EQ((*store)->list("s2").size(), 1u);

  EXPECT_TRUE((*store)->erase("a"));
  EXPECT_FALSE((*store)->erase("a"));
  EXPECT_FALSE((*store)->get("a"));
  EXPECT_FALSE((*store)->get("nope"));
}

void reopen_fails_running(const std::string& path) {
  {
    auto store = open_task_store(path);
    ASSERT_TRUE(store) << store.error().message;
    (*store)->put(record("w", "s", mcp::task_status::working, 1000));
    auto waiting = record("i", "s", mcp::task_status::input_required, 2000);
    waiting.input_requests = json{{"name", {{"method", "elicitation/create"}}}};
    (*store)->put(waiting);
    (*store)->put(record("d", "s", mcp::task_status::completed, 3000));
  }
  auto store = open_task_store(path);
  ASSERT_TRUE(store) << store.error().message;
  auto w = (*store)->get("w");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->status, mcp::task_status::failed);
  EXPECT_EQ(w->status_message,
            "the server restarted while task w (tool \"long_job\") was working; its work is lost: "
            "call the tool again");
  ASSERT_TRUE(w->error);
  EXPECT_EQ(w->error->message, w->status_message);
  auto i = (*store)->get("i");
  ASSERT_TRUE(i);
  EXPECT_EQ(i->status, mcp::task_status::failed);
  EXPECT_TRUE(i->input_requests.empty());
  EXPECT_EQ((*store)->get("d")->status, mcp::task_status::completed);  // untouched
}

TEST(durable_task_store, records_round_trip_list_by_owner_and_erase) {
  testing::temp_dir dir;
  round_trip((dir.path() / "tasks.db").string());
}

TEST(durable_task_store, reopening_fails_tasks_that_were_running) {
  testing::temp_dir dir;
  reopen_fails_running((dir.path() / "tasks.db").string());
}

class durable_task_store_postgres : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cluster = new testing::postgres_cluster(); }
  static void TearDownTestSuite() { delete cluster; }
  static testing::postgres_cluster* cluster;
};
testing::postgres_cluster* durable_task_store_postgres::cluster = nullptr;

TEST_F(durable_task_store_postgres, records_round_trip_list_by_owner_and_erase) {
  TOOLUSE_REQUIRE_POSTGRES(*cluster);
  round_trip(cluster->url("tasks_round_trip"));
}

TEST_F(durable_task_store_postgres, reopening_fails_tasks_that_were_running) {
  TOOLUSE_REQUIRE_POSTGRES(*cluster);
  reopen_fails_running(cluster->url("tasks_reopen"));
}

TEST(durable_task_store, a_store_that_cannot_be_opened_is_an_error_naming_it) {
  auto store = open_task_store("/nonexistent-dir/tasks.db");
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find("/nonexistent-dir/tasks.db"), std::string::npos)
      << store.error().message;
}

}  // namespace
}  // namespace tooluse::mcp_store
