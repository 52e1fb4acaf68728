// document_index and the document_search tool at their edges: files that cannot be indexed,
// limits on files and results, listing order and sizes, the index path settings, and each
// action's error message.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>

#include "builtin_test_util.hpp"
#include "support/test_support.hpp"
#include "tooluse/builtin/document_search.hpp"

namespace {

using tooluse::errc;
using tooluse::json;
using tooluse::builtin::document_index;
using tooluse::testing::call_tool;
using tooluse::testing::write_text;
namespace fs = std::filesystem;

std::unique_ptr<document_index> memory_index() {
  auto ix = document_index::open(":memory:");
  EXPECT_TRUE(ix.has_value());
  return std::move(*ix);
}

TEST(document_index_edges, files_that_cannot_be_indexed_say_why) {
  tooluse::testing::temp_dir dir;
  auto ix = memory_index();
  auto missing = ix->add_file(dir.path() / "none.txt");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, errc::not_found);
  EXPECT_EQ(missing.error().message, "file \"" + (dir.path() / "none.txt").string() + "\" does not exist");
  write_text(dir.path() / "big.txt", std::string(100, 'a'));
  auto big = ix->add_file(dir.path() / "big.txt", 10);
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code, errc::invalid_argument);
  EXPECT_NE(big.error().message.find("is too large to index"), std::string::npos);
  write_text(dir.path() / "blob.dat", std::string("\x7f" "ELF\0\0\0", 7));
  auto binary = ix->add_file(dir.path() / "blob.dat");
  ASSERT_FALSE(binary);
  EXPECT_EQ(binary.error().code, errc::unsupported);
  EXPECT_NE(binary.error().message.find("is binary; only text can be indexed"), std::string::npos);
  auto folder = ix->add_file(dir.path());
  ASSERT_FALSE(folder);
  EXPECT_EQ(*ix->size(), 0u);
}

TEST(document_index_edges, add_file_uses_the_absolute_path_and_the_file_name) {
  tooluse::testing::temp_dir dir;
  write_text(dir.path() / "notes/okapi.md", "The okapi is a giraffid.");
  auto ix = memory_index();
  auto id = ix->add_file(dir.path() / "notes/okapi.md");
  ASSERT_TRUE(id) << id.error().message;
  EXPECT_EQ(*id, fs::absolute(dir.path() / "notes/okapi.md").string());
  auto docs = ix->list();
  ASSERT_TRUE(docs);
  ASSERT_EQ(docs->size(), 1u);
  EXPECT_EQ((*docs)[0].title, "okapi.md");
  EXPECT_EQ((*docs)[0].source, *id);
  EXPECT_EQ((*docs)[0].bytes, 24u);
  auto hits = ix->search("okapi");
  ASSERT_TRUE(hits);
  ASSERT_EQ(hits->size(), 1u);
  EXPECT_EQ((*hits)[0].title, "okapi.md");
}

TEST(document_index_edges, add_files_honours_max_files_and_skips_node_modules) {
  tooluse::testing::temp_dir dir;
  for (int i = 0; i < 5; ++i) write_text(dir.path() / ("f" + std::to_string(i) + ".txt"), "lemur " + std::to_string(i));
  write_text(dir.path() / "node_modules/pkg/index.js", "lemur in a dependency");
  write_text(dir.path() / "huge.txt", std::string(64, 'x') + " lemur");
  auto ix = memory_index();
  auto capped = tooluse::builtin::add_files(*ix, dir.path(), 2);
  ASSERT_TRUE(capped);
  EXPECT_EQ(capped->size(), 2u);
  auto ix2 = memory_index();
  auto all = tooluse::builtin::add_files(*ix2, dir.path(), 100, 32);  // huge.txt is over 32 bytes
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 5u);
  for (const auto& id : *all) EXPECT_EQ(id.find("node_modules"), std::string::npos) << id;
  auto one = tooluse::builtin::add_files(*ix2, dir.path() / "f0.txt");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->size(), 1u);
  auto none = tooluse::builtin::add_files(*ix2, dir.path() / "absent");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, errc::not_found);
}

TEST(document_index_edges, list_is_ordered_by_id_and_limited) {
  auto ix = memory_index();
  for (const char* id : {"c", "a", "b"}) ASSERT_TRUE(ix->add_text(id, std::string("text ") + id));
  auto two = ix->list(2);
  ASSERT_TRUE(two);
  ASSERT_EQ(two->size(), 2u);
  EXPECT_EQ((*two)[0].id, "a");
  EXPECT_EQ((*two)[1].id, "b");
  EXPECT_EQ((*two)[0].title, "");
  EXPECT_EQ(*ix->size(), 3u);
}

TEST(document_index_edges, search_limits_and_queries_without_words) {
  auto ix = memory_index();
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(ix->add_text("d" + std::to_string(i), "tapir facts number " + std::to_string(i)));
  auto one = ix->search("tapir", 1);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->size(), 1u);
  auto empty = ix->search("   ");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, errc::invalid_argument);
  EXPECT_EQ(empty.error().message, "the query has no words to search for");
  auto nothing = ix->search("platypus");
  ASSERT_TRUE(nothing);
  EXPECT_TRUE(nothing->empty());
}

TEST(document_index_edges, an_index_in_a_folder_that_cannot_be_created_is_an_io_error) {
  tooluse::testing::temp_dir dir;
  write_text(dir.path() / "file", "x");
  auto ix = document_index::open(dir.path() / "file/sub/index.sqlite");
  ASSERT_FALSE(ix);
  EXPECT_EQ(ix.error().code, errc::io_error);
  EXPECT_NE(ix.error().message.find("index.sqlite"), std::string::npos) << ix.error().message;
}

// env_guard sets an environment variable for one test and restores it.
class env_guard {
 public:
  env_guard(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  ~env_guard() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(document_index_edges, the_default_path_follows_the_environment) {
  {
    env_guard index("TOOLUSE_INDEX", "/tmp/custom.sqlite");
    EXPECT_EQ(tooluse::builtin::default_index_path(), fs::path("/tmp/custom.sqlite"));
  }
  env_guard no_index("TOOLUSE_INDEX", nullptr);
  {
    env_guard xdg("XDG_DATA_HOME", "/data");
    EXPECT_EQ(tooluse::builtin::default_index_path(), fs::path("/data/tooluse/index.sqlite"));
  }
  env_guard no_xdg("XDG_DATA_HOME", nullptr);
  env_guard home("HOME", "/home/u");
  EXPECT_EQ(tooluse::builtin::default_index_path(), fs::path("/home/u/.local/share/tooluse/index.sqlite"));
}

struct document_tool : ::testing::Test {
  tooluse::testing::temp_dir dir;
  tooluse::tool_registry registry;
  void SetUp() override {
    tooluse::builtin::register_document_search(registry, {.index_path = dir.path() / "ix.sqlite", .root = dir.path()});
  }
  tooluse::tool_result call(const json& args) { return call_tool(registry, "document_search", args); }
};

TEST_F(document_tool, each_action_says_what_it_did_or_what_is_missing) {
  auto no_text = call({{"action", "add_text"}, {"id", "x"}});
  EXPECT_TRUE(no_text.is_error);
  EXPECT_EQ(no_text.all_text(), "add_text needs \"text\" (and an \"id\" to find it again)");
  auto added = call({{"action", "add_text"}, {"id", "n1"}, {"text", "quokka smiles"}, {"title", "Quokka"}});
  ASSERT_FALSE(added.is_error) << added.all_text();
  EXPECT_EQ(added.all_text(), "added \"n1\"");
  EXPECT_EQ((*added.structured_content)["added"], json::array({"n1"}));
  auto unknown = call({{"action", "remove"}, {"id", "zz"}});
  EXPECT_TRUE(unknown.is_error);
  EXPECT_EQ(unknown.all_text(), "no document with id \"zz\"; use action list to see the ids");
  auto bad_action = call({{"action", "drop"}});
  EXPECT_TRUE(bad_action.is_error);
}

TEST_F(document_tool, search_results_are_numbered_with_snippets_and_misses_suggest_what_to_do) {
  ASSERT_FALSE(call({{"action", "add_text"}, {"id", "n1"}, {"text", "the quokka is a small marsupial"},
                     {"title", "Quokka"}}).is_error);
  auto hit = call({{"query", "marsupial"}});
  ASSERT_FALSE(hit.is_error) << hit.all_text();
  EXPECT_EQ(hit.all_text().rfind("1. Quokka (n1)\n   ", 0), 0u) << hit.all_text();
  EXPECT_NE(hit.all_text().find("[marsupial]"), std::string::npos);
  EXPECT_EQ((*hit.structured_content)["query"], "marsupial");
  auto miss = call({{"query", "wombat"}});
  ASSERT_FALSE(miss.is_error);
  EXPECT_EQ(miss.all_text(), "no documents match \"wombat\"; try other words, or add documents first\n");
  EXPECT_TRUE((*miss.structured_content)["results"].empty());
  auto limit = call({{"query", "x"}, {"limit", 51}});
  EXPECT_TRUE(limit.is_error);  // the schema caps results at 50
}

TEST_F(document_tool, list_shows_counts_and_human_sizes) {
  ASSERT_FALSE(call({{"action", "add_text"}, {"id", "big"}, {"text", std::string(2048, 'w')}}).is_error);
  ASSERT_FALSE(call({{"action", "add_text"}, {"id", "small"}, {"text", "tiny"}}).is_error);
  auto list = call({{"action", "list"}});
  ASSERT_FALSE(list.is_error) << list.all_text();
  EXPECT_EQ(list.all_text(), "2 documents\n- big (2.0 KiB)\n- small (4 B)\n");
  EXPECT_EQ((*list.structured_content)["total"], 2);
  EXPECT_EQ((*list.structured_content)["documents"][1]["bytes"], 4);
}

TEST_F(document_tool, add_file_reports_a_missing_path) {
  auto missing = call({{"action", "add_file"}, {"path", "nope.md"}});
  EXPECT_TRUE(missing.is_error);
  EXPECT_NE(missing.all_text().find("nope.md"), std::string::npos) << missing.all_text();
  write_text(dir.path() / "a.md", "koala notes");
  auto ok = call({{"action", "add_file"}, {"path", "a.md"}});
  ASSERT_FALSE(ok.is_error) << ok.all_text();
  EXPECT_EQ(ok.all_text(), "added 1 file(s)");
}

}  // namespace
