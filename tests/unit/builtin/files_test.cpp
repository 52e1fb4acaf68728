#include <gtest/gtest.h>

#include "builtin_test_util.hpp"
#include "support/test_support.hpp"
#include "tooluse/builtin/files.hpp"

namespace {
using tooluse::json;
using tooluse::testing::call_tool;
using tooluse::testing::write_text;
namespace fs = std::filesystem;

struct files_fixture : ::testing::Test {
  tooluse::testing::temp_dir dir;
  tooluse::tool_registry registry;
  void SetUp() override {
    write_text(dir.path() / "a.txt", "one\ntwo\nthree\nfour\n");
    write_text(dir.path() / "src/main.cpp", "int main() {\n  return helper();\n}\n");
    write_text(dir.path() / "src/helper.cpp", "int helper() { return 42; }\n");
    write_text(dir.path() / ".hidden", "secret\n");
    tooluse::builtin::register_file_tools(registry, {.root = dir.path()});
  }
};

TEST_F(files_fixture, read_returns_whole_file_with_line_counts) {
  auto r = call_tool(registry, "file_read", {{"path", "a.txt"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(r.all_text(), "one\ntwo\nthree\nfour\n");
  EXPECT_EQ((*r.structured_content)["total_lines"], 4);
}

TEST_F(files_fixture, read_returns_line_range_with_numbers) {
  auto r = call_tool(registry, "file_read",
                     {{"path", "a.txt"}, {"start_line", 2}, {"end_line", 3}, {"line_numbers", true}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(r.all_text(), "2\ttwo\n3\tthree\n");
}

TEST_F(files_fixture, read_past_end_is_an_error) {
  auto r = call_tool(registry, "file_read", {{"path", "a.txt"}, {"start_line", 10}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("has 4 lines"), std::string::npos);
}

TEST_F(files_fixture, read_refuses_binary_files) {
  write_text(dir.path() / "img.bin", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  auto r = call_tool(registry, "file_read", {{"path", "img.bin"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("binary"), std::string::npos);
}

TEST_F(files_fixture, read_refuses_files_over_the_size_limit) {
  tooluse::tool_registry small;
  tooluse::builtin::register_file_tools(small, {.root = dir.path(), .max_file_bytes = 8});
  auto r = call_tool(small, "file_read", {{"path", "a.txt"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("over the limit"), std::string::npos);
}

TEST_F(files_fixture, read_truncates_output_and_says_where_to_continue) {
  tooluse::tool_registry small;
  tooluse::builtin::register_file_tools(small, {.root = dir.path(), .max_read_bytes = 9});
  auto r = call_tool(small, "file_read", {{"path", "a.txt"}});
  ASSERT_FALSE(r.is_error);
  EXPECT_EQ((*r.structured_content)["truncated"], true);
  EXPECT_NE(r.all_text().find("start_line=3"), std::string::npos);
}

TEST_F(files_fixture, list_shows_entries_and_hides_dotfiles) {
  auto r = call_tool(registry, "file_list", json::object());
  ASSERT_FALSE(r.is_error) << r.all_text();
  std::string t = r.all_text();
  EXPECT_NE(t.find("a.txt"), std::string::npos);
  EXPECT_NE(t.find("src/"), std::string::npos);
  EXPECT_EQ(t.find(".hidden"), std::string::npos);
  EXPECT_EQ(t.find("main.cpp"), std::string::npos);  // not recursive
  auto rec = call_tool(registry, "file_list", {{"recursive", true}, {"include_hidden", true}});
  EXPECT_NE(rec.all_text().find("src/main.cpp"), std::string::npos);
  EXPECT_NE(rec.all_text().find(".hidden"), std::string::npos);
}

TEST_F(files_fixture, search_by_name_and_content) {
  auto by_name = call_tool(registry, "file_search", {{"name", "*.cpp"}});
  ASSERT_FALSE(by_name.is_error);
  EXPECT_EQ((*by_name.structured_content)["matches"].size(), 2u);
  auto by_content = call_tool(registry, "file_search", {{"content", "HELPER()"}});
  ASSERT_FALSE(by_content.is_error);
  auto m = (*by_content.structured_content)["matches"];
  ASSERT_EQ(m.size(), 2u);
  EXPECT_NE(by_content.all_text().find("src/main.cpp:2:"), std::string::npos);
  auto regex = call_tool(registry, "file_search",
                         {{"content", "return [0-9]+"}, {"regex", true}, {"name", "*.cpp"}});
  ASSERT_EQ((*regex.structured_content)["matches"].size(), 1u);
  EXPECT_EQ((*regex.structured_content)["matches"][0]["path"], "src/helper.cpp");
}

TEST_F(files_fixture, search_needs_name_or_content_and_valid_regex) {
  EXPECT_TRUE(call_tool(registry, "file_search", json::object()).is_error);
  auto bad = call_tool(registry, "file_search", {{"content", "("}, {"regex", true}});
  EXPECT_TRUE(bad.is_error);
  EXPECT_NE(bad.all_text().find("regex is invalid"), std::string::npos);
}

TEST_F(files_fixture, write_creates_and_refuses_overwrite_unless_asked) {
  auto r = call_tool(registry, "file_write", {{"path", "new/dir/n.md"}, {"content", "hi\n"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(tooluse::testing::read_file(dir.path() / "new/dir/n.md"), "hi\n");
  auto again = call_tool(registry, "file_write", {{"path", "new/dir/n.md"}, {"content", "x"}});
  EXPECT_TRUE(again.is_error);
  EXPECT_NE(again.all_text().find("overwrite"), std::string::npos);
  auto over = call_tool(registry, "file_write",
                        {{"path", "new/dir/n.md"}, {"content", "x"}, {"overwrite", true}});
  ASSERT_FALSE(over.is_error) << over.all_text();
  EXPECT_EQ(tooluse::testing::read_file(dir.path() / "new/dir/n.md"), "x");
}

TEST_F(files_fixture, edit_replaces_exactly_one_occurrence) {
  auto r = call_tool(registry, "file_edit",
                     {{"path", "src/helper.cpp"}, {"old_text", "42"}, {"new_text", "7"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(tooluse::testing::read_file(dir.path() / "src/helper.cpp"),
            "int helper() { return 7; }\n");
}

TEST_F(files_fixture, edit_refuses_ambiguous_or_missing_text) {
  write_text(dir.path() / "dup.txt", "x = 1\nx = 1\n");
  auto amb = call_tool(registry, "file_edit", {{"path", "dup.txt"}, {"old_text", "x = 1"}, {"new_text", "y"}});
  EXPECT_TRUE(amb.is_error);
  EXPECT_NE(amb.all_text().find("occurs 2 times"), std::string::npos);
  auto all = call_tool(registry, "file_edit",
                       {{"path", "dup.txt"}, {"old_text", "x = 1"}, {"new_text", "y"}, {"replace_all", true}});
  ASSERT_FALSE(all.is_error);
  EXPECT_EQ(tooluse::testing::read_file(dir.path() / "dup.txt"), "y\ny\n");
  auto missing = call_tool(registry, "file_edit", {{"path", "dup.txt"}, {"old_text", "zzz"}, {"new_text", "y"}});
  EXPECT_TRUE(missing.is_error);
  EXPECT_NE(missing.all_text().find("not found"), std::string::npos);
}

TEST_F(files_fixture, delete_removes_files_and_needs_recursive_for_full_folders) {
  auto f = call_tool(registry, "file_delete", {{"path", "a.txt"}});
  ASSERT_FALSE(f.is_error) << f.all_text();
  EXPECT_FALSE(fs::exists(dir.path() / "a.txt"));
  EXPECT_TRUE(call_tool(registry, "file_delete", {{"path", "src"}}).is_error);
  EXPECT_FALSE(call_tool(registry, "file_delete", {{"path", "src"}, {"recursive", true}}).is_error);
  EXPECT_FALSE(fs::exists(dir.path() / "src"));
  EXPECT_TRUE(call_tool(registry, "file_delete", {{"path", "."}}).is_error);
  EXPECT_TRUE(fs::exists(dir.path()));
}

TEST_F(files_fixture, write_edit_delete_are_dangerous_and_reads_are_read_only) {
  for (const char* n : {"file_write", "file_edit", "file_delete"}) {
    auto e = registry.find(n);
    ASSERT_TRUE(e) << n;
    EXPECT_TRUE(e->definition.dangerous) << n;
    EXPECT_EQ(e->definition.annotations.destructive, true) << n;
  }
  for (const char* n : {"file_read", "file_list", "file_search"}) {
    auto e = registry.find(n);
    ASSERT_TRUE(e) << n;
    EXPECT_FALSE(e->definition.dangerous) << n;
    EXPECT_EQ(e->definition.annotations.read_only, true) << n;
  }
}

TEST(files_tools, missing_root_throws_at_registration) {
  tooluse::tool_registry registry;
  EXPECT_THROW(tooluse::builtin::register_file_tools(registry, {.root = "/nonexistent/tooluse/x"}),
               std::invalid_argument);
}

}  // namespace
