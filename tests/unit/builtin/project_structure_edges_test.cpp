// project_structure's exact output: the last entry shown in each folder closes its branch even
// when ignored entries follow it, symlinks show their target, sizes can be left out, and
// excludes, default excludes and anchored .gitignore rules decide what is shown.
#include <gtest/gtest.h>

#include "builtin_test_util.hpp"
#include "support/test_support.hpp"
#include "tooluse/builtin/files.hpp"

namespace {

using tooluse::json;
using tooluse::testing::call_tool;
using tooluse::testing::write_text;
namespace fs = std::filesystem;

struct structure_edges : ::testing::Test {
  tooluse::testing::temp_dir dir;
  tooluse::tool_registry registry;
  void SetUp() override {
    fs::path p = dir.path() / "proj";
    write_text(p / "docs/guide.md", "guide");
    write_text(p / "docs/notes.log", "log");
    write_text(p / "a.txt", "hello");
    write_text(p / "z.log", "log");
    write_text(p / ".gitignore", "*.log\n");
    fs::create_symlink("a.txt", p / "link");
    tooluse::builtin::register_project_structure(registry, {.root = dir.path()});
  }
  tooluse::tool_result run(json args) {
    args["path"] = args.value("path", std::string("proj"));
    return call_tool(registry, "project_structure", args);
  }
};

TEST_F(structure_edges, the_last_shown_entry_closes_its_branch_even_before_ignored_ones) {
  auto r = run(json::object());
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["tree"],
            "proj/\n"
            "├── docs/\n"
            "│   └── guide.md (5 B)\n"
            "├── .gitignore (6 B)\n"
            "├── a.txt (5 B)\n"
            "└── link -> a.txt\n");
  const json& summary = (*r.structured_content)["summary"];
  EXPECT_EQ(summary["folders"], 1);
  EXPECT_EQ(summary["files"], 4);
  EXPECT_EQ(summary["bytes"], 16);
  EXPECT_EQ(summary["by_extension"]["(none)"], 2);
  EXPECT_EQ(summary["by_extension"][".md"], 1);
  EXPECT_EQ((*r.structured_content)["excluded"], json::array({"z.log"}));
  EXPECT_EQ((*r.structured_content)["truncated"], false);
  std::string text = r.all_text();
  EXPECT_NE(text.find("\n1 folders, 4 files, 16 B in total\n"), std::string::npos) << text;
  EXPECT_NE(text.find("excluded at top level: z.log\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("[tree cut"), std::string::npos);
}

TEST_F(structure_edges, sizes_can_be_left_out_and_gitignore_turned_off) {
  auto r = run({{"show_sizes", false}, {"use_gitignore", false}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["tree"],
            "proj/\n"
            "├── docs/\n"
            "│   ├── guide.md\n"
            "│   └── notes.log\n"
            "├── .gitignore\n"
            "├── a.txt\n"
            "├── link -> a.txt\n"
            "└── z.log\n");
  EXPECT_EQ((*r.structured_content)["excluded"], json::array());
}

TEST_F(structure_edges, exclude_globs_and_the_cut_note) {
  auto r = run({{"exclude", {"*.txt", "docs"}}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["tree"], "proj/\n├── .gitignore (6 B)\n└── link -> a.txt\n");
  EXPECT_EQ((*r.structured_content)["excluded"], json::parse(R"(["docs/", "a.txt", "z.log"])"));
  auto cut = run({{"max_entries", 1}});
  ASSERT_FALSE(cut.is_error);
  EXPECT_EQ((*cut.structured_content)["tree"], "proj/\n├── docs/\n");
  EXPECT_NE(cut.all_text().find("[tree cut by max_depth=3 or max_entries=1; counts cover the whole tree]"),
            std::string::npos);
  EXPECT_EQ((*cut.structured_content)["summary"]["files"], 4);
}

TEST_F(structure_edges, anchored_and_folder_only_gitignore_rules) {
  write_text(dir.path() / "proj/.gitignore", "/docs/guide.md\nout/\n");
  write_text(dir.path() / "proj/out/gen.bin", "x");
  write_text(dir.path() / "proj/sub/out", "a file named out");
  write_text(dir.path() / "proj/sub/docs/guide.md", "kept: the rule is anchored to proj/");
  auto r = run(json::object());
  ASSERT_FALSE(r.is_error) << r.all_text();
  std::string tree = (*r.structured_content)["tree"];
  EXPECT_EQ(tree.find("gen.bin"), std::string::npos) << tree;
  EXPECT_NE(tree.find("│   ├── docs/\n│   │   └── guide.md"), std::string::npos) << tree;
  EXPECT_NE(tree.find("│   └── out ("), std::string::npos) << tree;  // a file: out/ does not match
  EXPECT_NE(tree.find("├── docs/\n│   └── notes.log (3 B)\n"), std::string::npos) << tree;
}

TEST_F(structure_edges, default_excludes_can_be_shown_and_a_file_is_not_a_folder) {
  write_text(dir.path() / "proj/node_modules/m/index.js", "js");
  auto hidden = run(json::object());
  EXPECT_EQ((*hidden.structured_content)["tree"].get<std::string>().find("node_modules"), std::string::npos);
  EXPECT_NE(hidden.all_text().find("node_modules/"), std::string::npos);  // named as excluded
  auto shown = run({{"include_default_excludes", true}});
  EXPECT_NE((*shown.structured_content)["tree"].get<std::string>().find("node_modules/"), std::string::npos);
  auto file = run({{"path", "proj/a.txt"}});
  EXPECT_TRUE(file.is_error);
  EXPECT_EQ(file.all_text(), "\"proj/a.txt\" is not a folder");
}

}  // namespace
