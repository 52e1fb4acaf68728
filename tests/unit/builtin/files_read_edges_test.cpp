// file_read, file_list and file_search at their edges: line ranges that make no sense, empty
// files and folders, entry and result caps with their notes, globs with regexes and case, the
// folders search skips, and long matching lines cut without breaking a UTF-8 character.
#include <gtest/gtest.h>

#include "builtin_test_util.hpp"
#include "support/test_support.hpp"
#include "tooluse/builtin/files.hpp"

namespace {

using tooluse::json;
using tooluse::testing::call_tool;
using tooluse::testing::write_text;
namespace fs = std::filesystem;

struct files_edges : ::testing::Test {
  tooluse::testing::temp_dir dir;
  tooluse::tool_registry registry;
  void SetUp() override {
    write_text(dir.path() / "notes.txt", "Alpha\nbeta\nALPHA beta\n");
    write_text(dir.path() / "empty.txt", "");
    write_text(dir.path() / "src/a.cpp", "int alpha = 1;\n");
    write_text(dir.path() / "src/b.hpp", "// alpha header\n");
    write_text(dir.path() / "node_modules/x/alpha.js", "alpha\n");
    write_text(dir.path() / ".cache/alpha.txt", "alpha\n");
    fs::create_directories(dir.path() / "void");
    tooluse::builtin::register_file_tools(registry, {.root = dir.path()});
  }
  tooluse::tool_result run(const std::string& tool, const json& args) { return call_tool(registry, tool, args); }
};

TEST_F(files_edges, line_ranges_that_make_no_sense_are_refused) {
  auto zero = run("file_read", {{"path", "notes.txt"}, {"start_line", 0}});
  EXPECT_TRUE(zero.is_error);
  auto backwards = run("file_read", {{"path", "notes.txt"}, {"start_line", 3}, {"end_line", 2}});
  EXPECT_TRUE(backwards.is_error);
  EXPECT_EQ(backwards.all_text(), "end_line must be >= start_line");
  auto past = run("file_read", {{"path", "notes.txt"}, {"start_line", 4}});
  EXPECT_TRUE(past.is_error);
  EXPECT_EQ(past.all_text(), "start_line 4 is past the end: \"notes.txt\" has 3 lines");
  auto tail = run("file_read", {{"path", "notes.txt"}, {"start_line", 3}, {"end_line", 99}});
  ASSERT_FALSE(tail.is_error) << tail.all_text();
  EXPECT_EQ(tail.all_text(), "ALPHA beta\n");
  EXPECT_EQ((*tail.structured_content)["end_line"], 3);
}

TEST_F(files_edges, an_empty_file_reads_as_nothing_and_a_folder_is_not_a_file) {
  auto empty = run("file_read", {{"path", "empty.txt"}});
  ASSERT_FALSE(empty.is_error) << empty.all_text();
  EXPECT_EQ(empty.all_text(), "");
  EXPECT_EQ((*empty.structured_content)["total_lines"], 0);
  EXPECT_EQ((*empty.structured_content)["size_bytes"], 0);
  auto folder = run("file_read", {{"path", "src"}});
  EXPECT_TRUE(folder.is_error);
  EXPECT_NE(folder.all_text().find("\"src\""), std::string::npos) << folder.all_text();
  auto missing = run("file_read", {{"path", "nope.txt"}});
  EXPECT_TRUE(missing.is_error);
}

TEST_F(files_edges, listing_empty_folders_files_and_capped_folders) {
  auto empty = run("file_list", {{"path", "void"}});
  ASSERT_FALSE(empty.is_error) << empty.all_text();
  EXPECT_EQ(empty.all_text(), "(empty folder)\n");
  auto file = run("file_list", {{"path", "notes.txt"}});
  EXPECT_TRUE(file.is_error);
  EXPECT_EQ(file.all_text(), "\"notes.txt\" is not a folder; use file_read for files");
  auto capped = run("file_list", {{"path", "."}, {"recursive", true}, {"max_entries", 2}});
  ASSERT_FALSE(capped.is_error) << capped.all_text();
  EXPECT_EQ((*capped.structured_content)["entries"].size(), 2u);
  EXPECT_EQ((*capped.structured_content)["truncated"], true);
  EXPECT_NE(capped.all_text().find("[stopped at 2 entries]\n"), std::string::npos);
}

TEST_F(files_edges, listing_shows_hidden_entries_only_when_asked_and_recurses_only_when_asked) {
  auto flat = run("file_list", {{"path", "."}});
  ASSERT_FALSE(flat.is_error);
  std::string text = flat.all_text();
  EXPECT_NE(text.find("src/\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("src/a.cpp"), std::string::npos) << text;
  EXPECT_EQ(text.find(".cache"), std::string::npos) << text;
  EXPECT_NE(text.find("notes.txt  (22 B)\n"), std::string::npos) << text;
  auto hidden = run("file_list", {{"path", "."}, {"include_hidden", true}, {"recursive", true}});
  ASSERT_FALSE(hidden.is_error);
  EXPECT_NE(hidden.all_text().find(".cache/alpha.txt"), std::string::npos) << hidden.all_text();
  EXPECT_NE(hidden.all_text().find("src/a.cpp"), std::string::npos);
}

TEST_F(files_edges, search_by_glob_lists_paths_and_skips_hidden_and_dependency_folders) {
  auto r = run("file_search", {{"name", "*alpha*"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(r.all_text(), "no matches\n");  // node_modules and .cache are skipped
  auto cpp = run("file_search", {{"name", "*.?pp"}});
  ASSERT_FALSE(cpp.is_error);
  EXPECT_EQ((*cpp.structured_content)["matches"].size(), 2u);
  EXPECT_EQ((*cpp.structured_content)["files_scanned"], 2);
  auto hidden = run("file_search", {{"name", "alpha.txt"}, {"include_hidden", true}});
  ASSERT_FALSE(hidden.is_error);
  EXPECT_EQ(hidden.all_text(), ".cache/alpha.txt\n");
}

TEST_F(files_edges, content_search_is_plain_text_case_insensitive_by_default) {
  auto plain = run("file_search", {{"content", "alpha"}, {"path", "."}, {"name", "notes.txt"}});
  ASSERT_FALSE(plain.is_error) << plain.all_text();
  EXPECT_EQ(plain.all_text(), "notes.txt:1: Alpha\nnotes.txt:3: ALPHA beta\n");
  auto exact = run("file_search", {{"content", "alpha"}, {"name", "notes.txt"}, {"case_sensitive", true}});
  ASSERT_FALSE(exact.is_error);
  EXPECT_EQ(exact.all_text(), "no matches\n");
  auto literal = run("file_search", {{"content", "a.pha"}, {"name", "notes.txt"}});
  EXPECT_EQ(literal.all_text(), "no matches\n");  // not a regex unless asked
  auto regex = run("file_search", {{"content", "^A.PHA"}, {"regex", true}, {"name", "notes.txt"},
                                   {"case_sensitive", true}});
  EXPECT_EQ(regex.all_text(), "notes.txt:3: ALPHA beta\n");
  auto bad = run("file_search", {{"content", "("}, {"regex", true}});
  EXPECT_TRUE(bad.is_error);
  EXPECT_EQ(bad.all_text().rfind("content regex is invalid: ", 0), 0u) << bad.all_text();
}

TEST_F(files_edges, search_results_are_capped_and_the_folder_must_be_one) {
  auto capped = run("file_search", {{"content", "alpha"}, {"max_results", 1}});
  ASSERT_FALSE(capped.is_error) << capped.all_text();
  EXPECT_EQ((*capped.structured_content)["matches"].size(), 1u);
  EXPECT_NE(capped.all_text().find("[stopped at 1 results]\n"), std::string::npos);
  auto in_file = run("file_search", {{"content", "alpha"}, {"path", "notes.txt"}});
  EXPECT_TRUE(in_file.is_error);
  EXPECT_EQ(in_file.all_text(), "\"notes.txt\" is not a folder; give a folder to search in");
  auto outside = run("file_search", {{"content", "alpha"}, {"path", "../"}});
  EXPECT_TRUE(outside.is_error);
  auto neither = run("file_search", {{"path", "."}});
  EXPECT_TRUE(neither.is_error);
  EXPECT_NE(neither.all_text().find("give \"name\""), std::string::npos);
}

TEST_F(files_edges, long_matching_lines_are_cut_on_a_character_boundary) {
  std::string line = std::string(299, 'x') + "\xc3\xa9" + std::string(50, 'y') + " needle";
  write_text(dir.path() / "long.txt", line + "\n");
  auto r = run("file_search", {{"content", "needle"}, {"name", "long.txt"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  const json& match = (*r.structured_content)["matches"][0];
  EXPECT_EQ(match["text"], std::string(299, 'x') + "...");  // the é across byte 300 is left out
  EXPECT_NO_THROW((void)tooluse::result_to_json(r).dump());
  std::string short_line = std::string(298, 'x') + "\xc3\xa9" + "z needle";
  write_text(dir.path() / "long.txt", short_line + "\n");
  auto kept = run("file_search", {{"content", "needle"}, {"name", "long.txt"}});
  EXPECT_EQ((*kept.structured_content)["matches"][0]["text"], std::string(298, 'x') + "\xc3\xa9" + "...");
}

}  // namespace
