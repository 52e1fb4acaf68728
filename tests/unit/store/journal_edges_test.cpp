// The store journal when the database changes under it, with a real SQLite file and a second
// connection playing the other process: a step whose transaction fails leaves no trace (no
// step row, no status change, its number reused by the next step), and a run deleted while
// its journal writes is reported as deleted, not as another writer.
#include <gtest/gtest.h>

#include "store/db.hpp"
#include "support/test_support.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::testing {
namespace {

using store::run_status;

struct two_connections {
  temp_dir dir;
  std::string path = (dir.path() / "runs.db").string();
  std::unique_ptr<store::run_store> s;
  std::unique_ptr<store::detail::sql_db> other;  // the other process
  two_connections() {
    auto r = store::open_store(path);
    if (!r) throw std::runtime_error(r.error().message);
    s = std::move(*r);
    auto o = store::detail::open_sqlite(path, store::durability::process);
    if (!o) throw std::runtime_error(o.error().message);
    other = std::move(*o);
  }
};

std::vector<std::string> kinds(const std::vector<store::step>& steps) {
  std::vector<std::string> out;
  for (const auto& s : steps) out.push_back(s.kind);
  return out;
}

TEST(store_journal_edges, a_step_whose_transaction_fails_leaves_no_trace) {
  two_connections db;
  auto j = db.s->create_run({.id = "run-tx"});
  ASSERT_TRUE(j) << j.error().message;
  ASSERT_TRUE((*j)->started({llm::message::user("clean up")}));
  ASSERT_TRUE(db.other->script("DROP TABLE tooluse_approvals"));

  auto call = tool_call::from_text("c1", "rm", R"({"path":"/tmp/x"})");
  auto waiting = (*j)->approval_waiting(1, call, "dangerous");
  ASSERT_FALSE(waiting);
  EXPECT_EQ(waiting.error().code, errc::io_error);
  EXPECT_NE(waiting.error().message.find(db.path), std::string::npos) << waiting.error().message;
  EXPECT_NE(waiting.error().message.find("tooluse_approvals"), std::string::npos)
      << waiting.error().message;

  // Neither the step nor the status change of the failed transaction was kept.
  auto info = db.s->run("run-tx");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->status, run_status::running);
  auto steps = db.s->steps("run-tx");
  ASSERT_TRUE(steps);
  EXPECT_EQ(kinds(*steps), (std::vector<std::string>{"started"}));

  // The next step takes the number the failed one would have had.
  ASSERT_TRUE((*j)->model_request(1));
  ASSERT_TRUE((*j)->answered(1, "nothing removed", {}));
  steps = db.s->steps("run-tx");
  ASSERT_TRUE(steps);
  ASSERT_EQ(steps->size(), 3u);
  EXPECT_EQ((*steps)[1].seq, 2);
  EXPECT_EQ((*steps)[1].kind, "model_request");
  EXPECT_EQ((*steps)[2].seq, 3);
  info = db.s->run("run-tx");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->status, run_status::done);
  EXPECT_EQ(info->answer, "nothing removed");
}

TEST(store_journal_edges, a_run_deleted_while_its_journal_writes_is_reported_as_deleted) {
  two_connections db;
  auto j = db.s->create_run({.id = "run-gone"});
  ASSERT_TRUE(j) << j.error().message;
  ASSERT_TRUE((*j)->started({llm::message::user("hello")}));
  ASSERT_TRUE(db.other->script("PRAGMA foreign_keys=ON; DELETE FROM tooluse_runs"));

  auto r = (*j)->model_request(1);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::not_found) << r.error().message;
  EXPECT_NE(r.error().message.find("run-gone"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("deleted"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().message.find("another process"), std::string::npos) << r.error().message;
  auto info = db.s->run("run-gone");
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error().code, errc::not_found);
}

TEST(store_journal_edges, a_step_number_taken_by_another_writer_is_still_reported_so) {
  two_connections db;
  auto j = db.s->create_run({.id = "run-two"});
  ASSERT_TRUE(j) << j.error().message;
  ASSERT_TRUE((*j)->started({llm::message::user("hello")}));
  // Another writer (not holding the run's lock, as a buggy or old tooluse would) adds step 2.
  auto added = db.other->exec(
      "INSERT INTO tooluse_steps (run_id, seq, kind, turn, call_id, data, ts_ms) "
      "VALUES ($1, 2, 'model_request', 1, '', '{}', 0)",
      {std::string("run-two")});
  ASSERT_TRUE(added) << added.error().message;
  auto r = (*j)->model_request(1);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::already_exists);
  EXPECT_NE(r.error().message.find("was written by another process"), std::string::npos)
      << r.error().message;
}

}  // namespace
}  // namespace tooluse::testing
