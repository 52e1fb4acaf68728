// The run store on both backends: a journal written step by step rebuilds into the snapshot a
// resumed agent needs; approvals; ids; schema version. PostgreSQL runs on a throwaway cluster.
#include "tooluse/store/store.hpp"

#include <gtest/gtest.h>

#include "support/postgres_fixture.hpp"
#include "support/test_support.hpp"

namespace tooluse::testing {
namespace {

llm::chat_response reply_with_calls(std::vector<tool_call> calls) {
  llm::chat_response r;
  r.reply.role = llm::role::assistant;
  r.reply.tool_calls = std::move(calls);
  r.usage.input_tokens = 10;
  r.usage.output_tokens = 2;
  return r;
}

void journal_and_rebuild(store::run_store& s) {
  auto j = s.create_run({.id = "run-a", .settings = {{"model", "m"}}});
  ASSERT_TRUE(j) << j.error().message;
  EXPECT_EQ((*j)->run_id(), "run-a");
  auto again = s.create_run({.id = "run-a"});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, errc::already_exists);

  ASSERT_TRUE((*j)->started({llm::message::system("sys"), llm::message::user("q?")}));
  ASSERT_TRUE((*j)->model_request(1));
  auto c1 = tool_call::from_text("c1", "add", R"({"a":1})");
  auto c2 = tool_call::from_text("c2", "add", R"({"a":2})");
  ASSERT_TRUE((*j)->model_response(1, reply_with_calls({c1, c2})));
  ASSERT_TRUE((*j)->tool_started(1, c1));
  ASSERT_TRUE((*j)->tool_finished(1, c1, tool_result::text("one"), std::chrono::milliseconds(3)));
  ASSERT_TRUE((*j)->tool_started(1, c2));

  // Crashed here: c1's result is kept, c2 must run again.
  auto snap = s.snapshot("run-a");
  ASSERT_TRUE(snap) << snap.error().message;
  EXPECT_FALSE(snap->done);
  EXPECT_EQ(snap->turns, 1);
  ASSERT_EQ(snap->history.size(), 3u);
  EXPECT_EQ(snap->history[0].text(), "sys");
  EXPECT_EQ(snap->history[2].tool_calls.size(), 2u);
  ASSERT_EQ(snap->results.size(), 1u);
  EXPECT_EQ(snap->results.at("c1").all_text(), "one");
  EXPECT_EQ(snap->usage.input_tokens, 10);

  j->reset();  // the crashed run's journal is gone (the lock to other processes with it)

  // Resumed: a new journal continues the sequence.
  auto j2 = s.open_run("run-a");
  ASSERT_TRUE(j2) << j2.error().message;
  ASSERT_TRUE((*j2)->tool_finished(1, c2, tool_result::text("two"), std::chrono::milliseconds(1)));
  ASSERT_TRUE((*j2)->model_request(2));
  llm::chat_response fin;
  fin.reply = llm::message::assistant("three");
  ASSERT_TRUE((*j2)->model_response(2, fin));
  ASSERT_TRUE((*j2)->answered(2, "three", {}));
  snap = s.snapshot("run-a");
  ASSERT_TRUE(snap);
  EXPECT_TRUE(snap->done);
  EXPECT_EQ(snap->answer, "three");
  ASSERT_EQ(snap->history.size(), 6u);  // sys, user, assistant, 2 tool results, assistant
  EXPECT_EQ(snap->history[3].tool_call_id, "c1");
  EXPECT_EQ(snap->history[4].text(), "two");
  EXPECT_EQ(snap->tool_calls.size(), 2u);
  auto info = s.run("run-a");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->status, store::run_status::done);
  EXPECT_EQ(info->question, "q?");
  EXPECT_EQ(info->answer, "three");
  EXPECT_EQ(info->settings["model"], "m");
  auto steps = s.steps("run-a");
  ASSERT_TRUE(steps);
  EXPECT_EQ(steps->size(), 10u);
  EXPECT_EQ(steps->front().kind, "started");
  EXPECT_EQ(steps->back().kind, "answered");
  EXPECT_EQ(steps->back().seq, 10);
}

void approvals(store::run_store& s) {
  auto j = s.create_run({.id = "run-b"});
  ASSERT_TRUE(j);
  ASSERT_TRUE((*j)->started({llm::message::user("delete it")}));
  auto c = tool_call::from_text("c9", "rm", R"({"path":"x"})");
  EXPECT_EQ(s.decision_for("run-b", "c9")->first, store::decision::none);
  ASSERT_TRUE((*j)->approval_waiting(1, c, "dangerous"));
  EXPECT_EQ(s.run("run-b")->status, store::run_status::waiting);
  auto w = s.waiting("run-b");
  ASSERT_TRUE(w);
  ASSERT_EQ(w->size(), 1u);
  EXPECT_EQ((*w)[0].first.name, "rm");
  EXPECT_EQ((*w)[0].second, "dangerous");
  auto wrong = s.decide("run-b", "nope", store::decision::approved);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().code, errc::not_found);
  ASSERT_TRUE(s.decide("run-b", "c9", store::decision::denied, "not today"));
  auto d = s.decision_for("run-b", "c9");
  EXPECT_EQ(d->first, store::decision::denied);
  EXPECT_EQ(d->second, "not today");
  EXPECT_FALSE(s.decide("run-b", "c9", store::decision::approved));  // decided once
  EXPECT_FALSE(s.run("missing"));
  EXPECT_EQ(s.run("missing").error().code, errc::not_found);
  auto all = s.runs();
  ASSERT_TRUE(all);
  EXPECT_GE(all->size(), 1u);
}

TEST(store_sqlite, journal_rebuilds_the_run_and_resume_continues_it) {
  temp_dir dir;
  auto s = store::open_store((dir.path() / "runs.db").string());
  ASSERT_TRUE(s) << s.error().message;
  journal_and_rebuild(**s);
}

TEST(store_sqlite, approvals_are_recorded_once) {
  temp_dir dir;
  auto s = store::open_store((dir.path() / "runs.db").string());
  ASSERT_TRUE(s) << s.error().message;
  approvals(**s);
}

TEST(store_sqlite, reopening_keeps_the_runs_and_the_schema) {
  temp_dir dir;
  std::string path = (dir.path() / "runs.db").string();
  {
    auto s = store::open_store(path);
    ASSERT_TRUE(s);
    ASSERT_TRUE((*s)->create_run({.id = "kept"}));
  }
  auto s = store::open_store(path);
  ASSERT_TRUE(s);
  EXPECT_TRUE((*s)->run("kept"));
}

// The run lock: a second connection (as another process has) is refused while a journal of
// the run lives; this connection's own journals share it; it is free once they are gone.
TEST(store_sqlite, a_run_is_locked_to_the_connection_whose_journal_runs_it) {
  temp_dir dir;
  std::string path = (dir.path() / "runs.db").string();
  auto a = store::open_store(path);
  auto b = store::open_store(path);
  ASSERT_TRUE(a && b);
  auto j = (*a)->create_run({.id = "locked"});
  ASSERT_TRUE(j) << j.error().message;
  auto other = (*b)->open_run("locked");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().code, errc::already_exists);
  EXPECT_NE(other.error().message.find("is being run by another process"), std::string::npos);
  auto same = (*a)->open_run("locked");
  ASSERT_TRUE(same) << same.error().message;
  j->reset();
  EXPECT_FALSE((*b)->open_run("locked"));  // `same` still holds it
  same->reset();
  auto now = (*b)->open_run("locked");
  EXPECT_TRUE(now) << now.error().message;
}

TEST(store_sqlite, an_unwritable_path_is_an_io_error_naming_it) {
  auto s = store::open_store("/nonexistent-dir/x/runs.db");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::io_error);
  EXPECT_NE(s.error().message.find("/nonexistent-dir/x/runs.db"), std::string::npos);
}

TEST(store_ids, fresh_ids_differ) {
  auto a = store::new_run_id(), b = store::new_run_id();
  EXPECT_NE(a, b);
  EXPECT_EQ(a.rfind("run-", 0), 0u);
  EXPECT_EQ(a.size(), 20u);
  EXPECT_TRUE(store::is_postgres("postgresql://u@h/db"));
  EXPECT_FALSE(store::is_postgres("runs.db"));
}

class store_postgres : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cluster = new postgres_cluster(); }
  static void TearDownTestSuite() { delete cluster; }
  static postgres_cluster* cluster;
};
postgres_cluster* store_postgres::cluster = nullptr;

TEST_F(store_postgres, journal_rebuilds_the_run_and_resume_continues_it) {
  TOOLUSE_REQUIRE_POSTGRES(*cluster);
  auto s = store::open_store(cluster->url("journal"));
  ASSERT_TRUE(s) << s.error().message;
  journal_and_rebuild(**s);
}

TEST_F(store_postgres, approvals_are_recorded_once) {
  TOOLUSE_REQUIRE_POSTGRES(*cluster);
  auto s = store::open_store(cluster->url("approvals"));
  ASSERT_TRUE(s) << s.error().message;
  approvals(**s);
}

TEST_F(store_postgres, a_bad_url_is_an_io_error_without_the_password) {
  TOOLUSE_REQUIRE_POSTGRES(*cluster);
  auto s = store::open_store("postgresql://postgres:secret@127.0.0.1:1/none");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::io_error);
  EXPECT_EQ(s.error().message.find("secret"), std::string::npos);
}

}  // namespace
}  // namespace tooluse::testing
