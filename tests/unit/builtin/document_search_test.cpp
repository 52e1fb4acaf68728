#include <gtest/gtest.h>

#include "builtin_test_util.hpp"
#include "support/test_support.hpp"
#include "tooluse/builtin/document_search.hpp"

namespace {
using tooluse::json;
using tooluse::builtin::document_index;
using tooluse::testing::call_tool;
using tooluse::testing::write_text;

TEST(document_index, ranks_by_bm25_with_title_weight_and_snippets) {
  auto index = document_index::open(":memory:");
  ASSERT_TRUE(index) << index.error().message;
  auto& ix = **index;
  auto added = ix.add_text("moon", "The Moon orbits the Earth. Its perigee is 356,400 km.", "Moon");
  ASSERT_TRUE(added) << added.error().message;
  ASSERT_TRUE(ix.add_text("mars", "Mars is the fourth planet. It has two moons, Phobos and Deimos.", "Mars"));
  ASSERT_TRUE(ix.add_text("cook", "A recipe for bread: flour, water, salt and yeast.", "Bread"));
  auto hits = ix.search("moon perigee distance");
  ASSERT_TRUE(hits);
  ASSERT_GE(hits->size(), 1u);
  EXPECT_EQ((*hits)[0].id, "moon");
  EXPECT_NE((*hits)[0].snippet.find("[perigee]"), std::string::npos) << (*hits)[0].snippet;
  EXPECT_GT((*hits)[0].score, 0);
  auto bread = ix.search("yeast!!! (flour) AND \"NEAR\"");  // punctuation is never FTS5 syntax
  ASSERT_TRUE(bread) << bread.error().message;
  ASSERT_GE(bread->size(), 1u);  // "and" also matches the Mars text
  EXPECT_EQ((*bread)[0].id, "cook");
  EXPECT_FALSE(ix.search("!!!"));
}

TEST(document_index, replace_and_remove) {
  auto index = document_index::open(":memory:");
  ASSERT_TRUE(index);
  auto& ix = **index;
  ASSERT_TRUE(ix.add_text("a", "alpha text"));
  ASSERT_TRUE(ix.add_text("a", "beta text"));
  EXPECT_EQ(*ix.size(), 1u);
  EXPECT_TRUE(ix.search("alpha")->empty());
  EXPECT_EQ(ix.search("beta")->size(), 1u);
  EXPECT_TRUE(*ix.remove("a"));
  EXPECT_FALSE(*ix.remove("a"));
  EXPECT_EQ(*ix.size(), 0u);
  EXPECT_FALSE(ix.add_text("", "x"));
}

TEST(document_index, persists_in_its_file) {
  tooluse::testing::temp_dir dir;
  auto file = dir.path() / "sub/index.sqlite";
  {
    auto ix = document_index::open(file);
    ASSERT_TRUE(ix) << ix.error().message;
    ASSERT_TRUE((*ix)->add_text("n1", "persistent kangaroo notes"));
  }
  auto again = document_index::open(file);
  ASSERT_TRUE(again);
  auto hits = (*again)->search("kangaroo");
  ASSERT_TRUE(hits);
  ASSERT_EQ(hits->size(), 1u);
  EXPECT_EQ((*hits)[0].id, "n1");
}

TEST(document_index, add_files_skips_binary_and_hidden) {
  tooluse::testing::temp_dir dir;
  write_text(dir.path() / "a.md", "walrus facts");
  write_text(dir.path() / "sub/b.txt", "walrus habitat");
  write_text(dir.path() / ".git/c.txt", "walrus hidden");
  write_text(dir.path() / "d.bin", std::string("wal\0rus", 7));
  auto ix = document_index::open(":memory:");
  auto ids = tooluse::builtin::add_files(**ix, dir.path());
  ASSERT_TRUE(ids);
  EXPECT_EQ(ids->size(), 2u);
  EXPECT_EQ((*ix)->search("walrus")->size(), 2u);
}

TEST(document_search_tool, actions_through_the_registry) {
  tooluse::testing::temp_dir dir;
  write_text(dir.path() / "docs/guide.md", "How to configure the zebra scheduler.");
  tooluse::tool_registry registry;
  tooluse::builtin::register_document_search(
      registry, {.index_path = dir.path() / "ix.sqlite", .root = dir.path()});
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "ix.sqlite"));  // opened lazily
  auto add = call_tool(registry, "document_search",
                       {{"action", "add_text"}, {"id", "note"}, {"text", "zebra stripes are unique"}});
  ASSERT_FALSE(add.is_error) << add.all_text();
  auto file = call_tool(registry, "document_search", {{"action", "add_file"}, {"path", "docs"}});
  ASSERT_FALSE(file.is_error) << file.all_text();
  auto outside = call_tool(registry, "document_search", {{"action", "add_file"}, {"path", "../"}});
  EXPECT_TRUE(outside.is_error);
  auto r = call_tool(registry, "document_search", {{"query", "zebra scheduler"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  auto results = (*r.structured_content)["results"];
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0]["title"], "guide.md");
  auto list = call_tool(registry, "document_search", {{"action", "list"}});
  EXPECT_EQ((*list.structured_content)["total"], 2);
  EXPECT_FALSE(call_tool(registry, "document_search", {{"action", "remove"}, {"id", "note"}}).is_error);
  EXPECT_TRUE(call_tool(registry, "document_search", {{"action", "remove"}, {"id", "note"}}).is_error);
}

TEST(document_search_tool, read_only_index_refuses_changes) {
  tooluse::testing::temp_dir dir;
  tooluse::tool_registry registry;
  tooluse::builtin::register_document_search(
      registry, {.index_path = dir.path() / "ix.sqlite", .root = dir.path(), .allow_changes = false});
  auto r = call_tool(registry, "document_search", {{"action", "add_text"}, {"id", "x"}, {"text", "y"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("read-only"), std::string::npos);
}

}  // namespace
