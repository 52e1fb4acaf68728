// record_table (src/store/records.cpp) on both backends: a SQLite file and a throwaway
// PostgreSQL database. put/get/list/erase, kinds kept apart in one database, a replaced record
// keeping its creation time, list order, data that survives a reopen, and the errors of
// open_records.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "store_pg.hpp"
#include "support/test_support.hpp"
#include "tooluse/store/records.hpp"

namespace tooluse::testing {
namespace {

std::vector<std::string> ids_of(const std::vector<store::record>& rs) {
  std::vector<std::string> ids;
  for (const auto& r : rs) ids.push_back(r.id);
  return ids;
}

// The behaviour both backends share; `location` is a fresh store.
void put_get_list_erase(const std::string& location) {
  auto tasks = store::open_records(location, "task");
  ASSERT_TRUE(tasks) << tasks.error().message;
  auto notes = store::open_records(location, "note");
  ASSERT_TRUE(notes) << notes.error().message;

  ASSERT_TRUE((*tasks)->put({.id = "t2", .owner = "alice", .data = {{"n", 2}}, .created_ms = 200}));
  ASSERT_TRUE((*tasks)->put({.id = "t1", .owner = "alice", .data = {{"n", 1}}, .created_ms = 100}));
  ASSERT_TRUE((*tasks)->put({.id = "t3", .owner = "bob", .data = json::array({1, "x", nullptr}),
                             .created_ms = 150}));
  ASSERT_TRUE((*notes)->put({.id = "t1", .owner = "alice", .data = "a note", .created_ms = 50}));

  auto t1 = (*tasks)->get("t1");
  ASSERT_TRUE(t1) << t1.error().message;
  ASSERT_TRUE(t1->has_value());
  EXPECT_EQ((*t1)->owner, "alice");
  EXPECT_EQ((*t1)->data, json({{"n", 1}}));
  EXPECT_EQ((*t1)->created_ms, 100);
  auto note = (*notes)->get("t1");  // the same id in another kind is another record
  ASSERT_TRUE(note && note->has_value());
  EXPECT_EQ((*note)->data, "a note");
  auto none = (*tasks)->get("t9");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());

  auto all = (*tasks)->list(std::nullopt);
  ASSERT_TRUE(all);
  EXPECT_EQ(ids_of(*all), (std::vector<std::string>{"t1", "t3", "t2"}));  // oldest first
  EXPECT_EQ((*all)[1].data, json::array({1, "x", nullptr}));
  auto alice = (*tasks)->list(std::string("alice"));
  ASSERT_TRUE(alice);
  EXPECT_EQ(ids_of(*alice), (std::vector<std::string>{"t1", "t2"}));
  auto nobody = (*tasks)->list(std::string("carol"));
  ASSERT_TRUE(nobody);
  EXPECT_TRUE(nobody->empty());

  // Replacing moves the record to its new owner and data but keeps when it was created.
  ASSERT_TRUE((*tasks)->put({.id = "t1", .owner = "bob", .data = {{"n", 10}}, .created_ms = 999}));
  auto replaced = (*tasks)->get("t1");
  ASSERT_TRUE(replaced && replaced->has_value());
  EXPECT_EQ((*replaced)->owner, "bob");
  EXPECT_EQ((*replaced)->data, json({{"n", 10}}));
  EXPECT_EQ((*replaced)->created_ms, 100);
  auto bob = (*tasks)->list(std::string("bob"));
  ASSERT_TRUE(bob);
  EXPECT_EQ(ids_of(*bob), (std::vector<std::string>{"t1", "t3"}));

  auto erased = (*tasks)->erase("t1");
  ASSERT_TRUE(erased);
  EXPECT_TRUE(*erased);
  auto again = (*tasks)->erase("t1");
  ASSERT_TRUE(again);
  EXPECT_FALSE(*again);
  auto kept = (*notes)->get("t1");  // erasing a task leaves the note of the same id
  ASSERT_TRUE(kept);
  EXPECT_TRUE(kept->has_value());
}

TEST(store_records, sqlite_put_get_list_and_erase) {
  temp_dir dir;
  put_get_list_erase((dir.path() / "records.db").string());
}

TEST(store_records, postgres_put_get_list_and_erase) {
  auto& pg = shared_postgres();
  TOOLUSE_REQUIRE_POSTGRES(pg);
  put_get_list_erase(pg.url("records_basic"));
}

TEST(store_records, a_record_without_a_creation_time_gets_the_current_one) {
  temp_dir dir;
  auto t = store::open_records((dir.path() / "r.db").string(), "k");
  ASSERT_TRUE(t) << t.error().message;
  const auto before = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  ASSERT_TRUE((*t)->put({.id = "a", .data = {{"x", 1}}}));
  auto a = (*t)->get("a");
  ASSERT_TRUE(a && a->has_value());
  EXPECT_GE((*a)->created_ms, before);
  EXPECT_EQ((*a)->owner, "");
  // An old record listed before a new one whatever the ids.
  ASSERT_TRUE((*t)->put({.id = "z", .data = nullptr, .created_ms = 1}));
  auto all = (*t)->list(std::nullopt);
  ASSERT_TRUE(all);
  EXPECT_EQ(ids_of(*all), (std::vector<std::string>{"z", "a"}));
  EXPECT_TRUE((*all)[0].data.is_null());
}

TEST(store_records, records_survive_a_reopen_and_share_the_file_with_runs) {
  temp_dir dir;
  const std::string path = (dir.path() / "shared.db").string();
  {
    auto t = store::open_records(path, "mcp_task");
    ASSERT_TRUE(t) << t.error().message;
    ASSERT_TRUE((*t)->put({.id = "task-1", .owner = "session-a",
                           .data = {{"status", "working"}, {"text", "caf\xc3\xa9 \xe2\x9c\x93"}}}));
    EXPECT_EQ((*t)->location(), path);
  }
  auto runs = store::open_store(path);  // the same database holds the durable runs
  ASSERT_TRUE(runs) << runs.error().message;
  ASSERT_TRUE((*runs)->create_run({.id = "run-1"}));
  auto t = store::open_records(path, "mcp_task");
  ASSERT_TRUE(t) << t.error().message;
  auto task = (*t)->get("task-1");
  ASSERT_TRUE(task && task->has_value());
  EXPECT_EQ((*task)->data["text"], "caf\xc3\xa9 \xe2\x9c\x93");
  EXPECT_EQ((*task)->owner, "session-a");
  auto listed = (*runs)->runs();
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->size(), 1u);
}

TEST(store_records, tables_of_two_connections_see_each_others_writes) {
  temp_dir dir;
  const std::string path = (dir.path() / "two.db").string();
  auto a = store::open_records(path, "k");
  auto b = store::open_records(path, "k");
  ASSERT_TRUE(a && b);
  ASSERT_TRUE((*a)->put({.id = "x", .data = 1}));
  auto seen = (*b)->get("x");
  ASSERT_TRUE(seen && seen->has_value());
  EXPECT_EQ((*seen)->data, 1);
  auto gone = (*b)->erase("x");
  ASSERT_TRUE(gone);
  EXPECT_TRUE(*gone);
  auto after = (*a)->get("x");
  ASSERT_TRUE(after);
  EXPECT_FALSE(after->has_value());
}

TEST(store_records, open_errors_name_what_is_wrong) {
  auto empty = store::open_records("", "k");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, errc::invalid_argument);
  EXPECT_EQ(empty.error().message, "no store given: pass a SQLite file or a postgresql:// URL");

  temp_dir dir;
  auto junk = dir.path() / "junk.db";
  std::ofstream(junk) << std::string(4096, 'j');
  auto not_db = store::open_records(junk.string(), "k");
  ASSERT_FALSE(not_db);
  EXPECT_EQ(not_db.error().code, errc::io_error);
  EXPECT_NE(not_db.error().message.find(junk.string()), std::string::npos)
      << not_db.error().message;

  auto pg = store::open_records("postgresql://u:hunter2@127.0.0.1:1/none", "k");
  ASSERT_FALSE(pg);
  EXPECT_EQ(pg.error().code, errc::io_error);
  EXPECT_EQ(pg.error().message.find("hunter2"), std::string::npos) << pg.error().message;
}

TEST(store_records, a_bad_durability_in_the_environment_is_refused) {
  temp_dir dir;
  ::setenv("TOOLUSE_STORE_DURABILITY", "sometimes", 1);
  auto t = store::open_records((dir.path() / "d.db").string(), "k");
  ::unsetenv("TOOLUSE_STORE_DURABILITY");
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("sometimes"), std::string::npos) << t.error().message;
  auto explicit_full =
      store::open_records((dir.path() / "d.db").string(), "k", {.durability = store::durability::full});
  EXPECT_TRUE(explicit_full) << explicit_full.error().message;
}

}  // namespace
}  // namespace tooluse::testing
