#include <gtest/gtest.h>

#include "builtin_test_util.hpp"
#include "support/test_support.hpp"
#include "tooluse/builtin/files.hpp"

namespace {
using tooluse::json;
using tooluse::testing::call_tool;
using tooluse::testing::write_text;
namespace fs = std::filesystem;

struct structure_fixture : ::testing::Test {
  tooluse::testing::temp_dir dir;
  tooluse::tool_registry registry;
  void SetUp() override {
    write_text(dir.path() / "README.md", "# demo\n");
    write_text(dir.path() / "src/main.cpp", "int main() {}\n");
    write_text(dir.path() / "src/deep/er/x.cpp", "x\n");
    write_text(dir.path() / "node_modules/pkg/index.js", "js\n");
    write_text(dir.path() / ".git/HEAD", "ref\n");
    write_text(dir.path() / "out/gen.o", "obj\n");
    write_text(dir.path() / "logs/a.log", "log\n");
    write_text(dir.path() / "logs/keep.log", "log\n");
    write_text(dir.path() / ".gitignore", "out/\n*.log\n!keep.log\n");
    tooluse::builtin::register_project_structure(registry, {.root = dir.path()});
  }
};

TEST_F(structure_fixture, shows_tree_with_sizes_and_counts) {
  auto r = call_tool(registry, "project_structure", json::object());
  ASSERT_FALSE(r.is_error) << r.all_text();
  std::string t = r.all_text();
  EXPECT_NE(t.find("├── src/"), std::string::npos) << t;
  EXPECT_NE(t.find("README.md (7 B)"), std::string::npos) << t;
  auto summary = (*r.structured_content)["summary"];
  EXPECT_EQ(summary["files"], 5);  // README, .gitignore, main.cpp, x.cpp, keep.log
  EXPECT_EQ(summary["by_extension"][".cpp"], 2);
}

TEST_F(structure_fixture, excludes_defaults_and_honours_gitignore_with_negation) {
  auto r = call_tool(registry, "project_structure", json::object());
  std::string t = r.all_text();
  EXPECT_EQ(t.find("index.js"), std::string::npos);
  EXPECT_EQ(t.find("HEAD"), std::string::npos);
  EXPECT_EQ(t.find("gen.o"), std::string::npos);
  EXPECT_EQ(t.find("a.log"), std::string::npos);
  EXPECT_NE(t.find("keep.log"), std::string::npos);
  auto no_ignore = call_tool(registry, "project_structure", {{"use_gitignore", false}});
  EXPECT_NE(no_ignore.all_text().find("gen.o"), std::string::npos);
  auto extra = call_tool(registry, "project_structure", {{"exclude", {"logs"}}});
  EXPECT_EQ(extra.all_text().find("keep.log"), std::string::npos);
}

TEST_F(structure_fixture, depth_and_entry_limits_cut_the_tree_but_not_the_counts) {
  auto r = call_tool(registry, "project_structure", {{"max_depth", 1}});
  ASSERT_FALSE(r.is_error);
  std::string t = r.all_text();
  EXPECT_EQ(t.find("main.cpp"), std::string::npos);
  EXPECT_EQ((*r.structured_content)["summary"]["files"], 5);
  EXPECT_EQ((*r.structured_content)["truncated"], true);
  auto few = call_tool(registry, "project_structure", {{"max_entries", 2}});
  EXPECT_EQ((*few.structured_content)["truncated"], true);
}

TEST_F(structure_fixture, refuses_paths_outside_the_root) {
  EXPECT_TRUE(call_tool(registry, "project_structure", {{"path", ".."}}).is_error);
}

}  // namespace
