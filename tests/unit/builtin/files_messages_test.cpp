// The file tools' error results, word for word (they are what the model reads to correct its
// next call), their limits, and the results' text and structured content on success:
// file_write, file_edit and file_delete, plus writable=false.
#include <gtest/gtest.h>

#include "builtin_test_util.hpp"
#include "support/test_support.hpp"
#include "tooluse/builtin/files.hpp"

namespace {
using tooluse::json;
using tooluse::testing::call_tool;
using tooluse::testing::read_file;
using tooluse::testing::write_text;
namespace fs = std::filesystem;

struct file_messages : ::testing::Test {
  tooluse::testing::temp_dir dir;
  tooluse::tool_registry registry;
  void SetUp() override {
    write_text(dir.path() / "a.txt", "alpha\nbeta\ngamma\nbeta\n");
    write_text(dir.path() / "sub/inner.txt", "x");
    fs::create_directories(dir.path() / "empty");
    tooluse::builtin::register_file_tools(registry, {.root = dir.path(), .max_write_bytes = 16});
  }
  // error calls a tool that must fail and returns its message.
  std::string error(const std::string& tool, const json& args) {
    auto r = call_tool(registry, tool, args);
    EXPECT_TRUE(r.is_error) << tool << " " << args.dump() << ": " << r.all_text();
    return r.all_text();
  }
};

TEST_F(file_messages, write_reports_what_it_did_in_text_and_data) {
  auto r = call_tool(registry, "file_write", {{"path", "n.md"}, {"content", "hello"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(r.all_text(), "created n.md (5 B)");
  EXPECT_EQ(*r.structured_content, json::parse(R"({"path":"n.md","bytes":5,"created":true})"));
  auto again = call_tool(registry, "file_write",
                         {{"path", "n.md"}, {"content", ""}, {"overwrite", true}});
  ASSERT_FALSE(again.is_error) << again.all_text();
  EXPECT_EQ(again.all_text(), "replaced n.md (0 B)");
  EXPECT_EQ((*again.structured_content)["created"], false);
  EXPECT_EQ(read_file(dir.path() / "n.md"), "");
}

TEST_F(file_messages, write_errors_say_what_to_pass_instead) {
  EXPECT_EQ(error("file_write", {{"path", ""}, {"content", "x"}}),
            "give a file path, e.g. \"notes.md\"");
  EXPECT_EQ(error("file_write", {{"path", "."}, {"content", "x"}}),
            "give a file path, e.g. \"notes.md\"");
  EXPECT_EQ(error("file_write", {{"path", "big.txt"}, {"content", std::string(17, 'x')}}),
            "content is 17 B, over the write limit of 16 B");
  EXPECT_FALSE(fs::exists(dir.path() / "big.txt"));
  EXPECT_EQ(error("file_write", {{"path", "a.txt"}, {"content", "x"}}),
            "file \"a.txt\" already exists; pass \"overwrite\": true to replace it, or use "
            "file_edit to change part of it");
  EXPECT_EQ(read_file(dir.path() / "a.txt"), "alpha\nbeta\ngamma\nbeta\n");
  EXPECT_EQ(error("file_write", {{"path", "no/such/f.txt"}, {"content", "x"}, {"create_dirs", false}}),
            "folder \"no/such\" does not exist");
  EXPECT_FALSE(fs::exists(dir.path() / "no"));
}

TEST_F(file_messages, write_at_the_exact_limit_succeeds) {
  auto r = call_tool(registry, "file_write", {{"path", "full.txt"}, {"content", std::string(16, 'y')}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(read_file(dir.path() / "full.txt"), std::string(16, 'y'));
}

TEST_F(file_messages, edit_reports_the_lines_it_changed) {
  auto r = call_tool(registry, "file_edit",
                     {{"path", "a.txt"}, {"old_text", "beta"}, {"new_text", "B"}, {"replace_all", true}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(r.all_text(), "edited a.txt: 2 replacement(s) at line(s) [2,4]");
  EXPECT_EQ(*r.structured_content,
            json::parse(R"({"path":"a.txt","replacements":2,"lines":[2,4]})"));
  EXPECT_EQ(read_file(dir.path() / "a.txt"), "alpha\nB\ngamma\nB\n");
}

TEST_F(file_messages, edit_errors_name_the_problem_and_the_fix) {
  // An empty old_text is refused by the schema (minLength 1) before the tool runs.
  EXPECT_EQ(error("file_edit", {{"path", "a.txt"}, {"old_text", ""}, {"new_text", "x"}}),
            "invalid arguments for tool \"file_edit\":\narguments.old_text: expected at least 1 "
            "character, got 0\nfix the arguments to match the tool's input schema and call again");
  EXPECT_EQ(error("file_edit", {{"path", "a.txt"}, {"old_text", "beta"}, {"new_text", "beta"}}),
            "old_text and new_text are the same; nothing to do");
  EXPECT_EQ(error("file_edit", {{"path", "a.txt"}, {"old_text", "beta"}, {"new_text", "b"}}),
            "old_text occurs 2 times in \"a.txt\" (lines [2,4]); add surrounding lines to make it "
            "unique, or pass \"replace_all\": true");
  EXPECT_EQ(error("file_edit", {{"path", "a.txt"}, {"old_text", "Alpha"}, {"new_text", "b"}}),
            "old_text was not found in \"a.txt\"; it must match exactly, including spaces, tabs "
            "and line breaks; read the file with file_read first");
  // 22 bytes with "alpha" (5) made "alphabet" (8): 25 bytes, over the 16-byte limit.
  EXPECT_EQ(error("file_edit", {{"path", "a.txt"}, {"old_text", "alpha"}, {"new_text", "alphabet"}}),
            "the edited file would be 25 B, over the write limit of 16 B");
  EXPECT_EQ(read_file(dir.path() / "a.txt"), "alpha\nbeta\ngamma\nbeta\n");  // untouched
}

TEST_F(file_messages, edit_matches_are_not_overlapping) {
  write_text(dir.path() / "aaa.txt", "aaaa");
  auto r = call_tool(registry, "file_edit",
                     {{"path", "aaa.txt"}, {"old_text", "aa"}, {"new_text", "b"}, {"replace_all", true}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(read_file(dir.path() / "aaa.txt"), "bb");
  EXPECT_EQ((*r.structured_content)["replacements"], 2);
}

TEST_F(file_messages, delete_errors_and_the_root_is_never_deleted) {
  const std::string give = "give the path of a file or folder inside the root, e.g. \"old.txt\"";
  EXPECT_EQ(error("file_delete", {{"path", ""}}), give);
  EXPECT_EQ(error("file_delete", {{"path", "sub/"}}), give);
  EXPECT_EQ(error("file_delete", {{"path", "sub/."}}), give);
  EXPECT_EQ(error("file_delete", {{"path", "ghost.txt"}}), "\"ghost.txt\" does not exist");
  EXPECT_EQ(error("file_delete", {{"path", "sub"}}),
            "folder \"sub\" is not empty; pass \"recursive\": true to delete it with its contents");
  EXPECT_TRUE(fs::exists(dir.path() / "sub/inner.txt"));
  auto empty = call_tool(registry, "file_delete", {{"path", "empty"}});
  EXPECT_FALSE(empty.is_error) << empty.all_text();  // an empty folder needs no recursive
  EXPECT_FALSE(fs::exists(dir.path() / "empty"));
  EXPECT_TRUE(fs::exists(dir.path()));
}

TEST_F(file_messages, a_path_outside_the_root_is_refused_before_anything_happens) {
  const std::pair<const char*, json> calls[] = {
      {"file_write", {{"path", "../outside.txt"}, {"content", "x"}}},
      {"file_edit", {{"path", "../outside.txt"}, {"old_text", "a"}, {"new_text", "b"}}},
      {"file_delete", {{"path", "../outside.txt"}}},
      {"file_read", {{"path", "../outside.txt"}}},
  };
  for (const auto& [tool, args] : calls) {
    auto r = call_tool(registry, tool, args);
    EXPECT_TRUE(r.is_error) << tool;
    EXPECT_EQ(r.all_text().rfind("path \"..", 0), 0u) << tool << ": " << r.all_text();
    EXPECT_NE(r.all_text().find("\" is refused: "), std::string::npos) << tool;
    EXPECT_NE(r.all_text().find("give a path relative to the root folder"), std::string::npos);
  }
  EXPECT_FALSE(fs::exists(dir.path().parent_path() / "outside.txt"));
}

TEST(files_read_only, writable_false_registers_only_the_reading_tools) {
  tooluse::testing::temp_dir dir;
  tooluse::tool_registry registry;
  tooluse::builtin::register_file_tools(registry, {.root = dir.path(), .writable = false});
  auto names = registry.names();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"file_list", "file_read", "file_search"}));
}

}  // namespace
