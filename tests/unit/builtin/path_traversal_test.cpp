// Security corpus: every path here leads (or may lead, after some decoding) outside the root;
// every file tool must refuse it and nothing outside may change.
#include <gtest/gtest.h>

#include "builtin/path_guard.hpp"
#include "builtin_test_util.hpp"
#include "support/test_support.hpp"
#include "tooluse/builtin/files.hpp"

namespace {
using tooluse::json;
using tooluse::testing::call_tool;
using tooluse::testing::read_file;
using tooluse::testing::write_text;
namespace fs = std::filesystem;

const std::vector<std::string> lexical_corpus = {
    "..", "../", "../secret.txt", "../../etc/passwd", "./../secret.txt", "a/../../secret.txt",
    "src/../../secret.txt", "/etc/passwd", "//etc/passwd", "/", "~/secret.txt", "~root/.bashrc",
    "..\\secret.txt", "..\\..\\etc\\passwd", "C:\\Windows\\win.ini", "c:/windows",
    "%2e%2e/secret.txt", "%2e%2e%2fsecret.txt", "..%2fsecret.txt", "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
    "%252e%252e%252fsecret.txt", "%2fetc%2fpasswd", "..%5csecret.txt", "src/%2e%2e/%2e%2e/secret.txt",
    std::string("ok\0/../../etc/passwd", 20)};

struct traversal_fixture : ::testing::Test {
  tooluse::testing::temp_dir base;
  fs::path root, outside;
  tooluse::tool_registry registry;
  void SetUp() override {
    root = base.path() / "root";
    outside = base.path() / "outside";
    write_text(base.path() / "secret.txt", "top secret\n");
    write_text(outside / "secret.txt", "outside secret\n");
    write_text(root / "src/ok.txt", "fine\n");
    fs::create_directory_symlink(outside, root / "out_link");
    fs::create_symlink(outside / "secret.txt", root / "secret_link");
    fs::create_symlink("/etc/passwd", root / "abs_link");
    fs::create_symlink(outside / "created_through_link.txt", root / "dangling_link");
    fs::create_hard_link(outside / "secret.txt", root / "hard_link");
    tooluse::builtin::register_file_tools(registry, {.root = root});
    tooluse::builtin::register_project_structure(registry, {.root = root});
  }
  void expect_outside_untouched() {
    EXPECT_EQ(read_file(base.path() / "secret.txt"), "top secret\n");
    EXPECT_EQ(read_file(outside / "secret.txt"), "outside secret\n");
    EXPECT_FALSE(fs::exists(outside / "created_through_link.txt"));
    EXPECT_FALSE(fs::exists(base.path() / "pwned.txt"));
    EXPECT_TRUE(fs::exists(outside));
  }
};

std::vector<std::pair<std::string, json>> calls_for(const std::string& p) {
  return {{"file_read", {{"path", p}}},
          {"file_list", {{"path", p}}},
          {"file_search", {{"path", p}, {"content", "secret"}}},
          {"project_structure", {{"path", p}}},
          {"file_write", {{"path", p}, {"content", "pwned"}, {"overwrite", true}}},
          {"file_write", {{"path", p + "/pwned.txt"}, {"content", "pwned"}}},
          {"file_edit", {{"path", p}, {"old_text", "secret"}, {"new_text", "pwned"}}},
          {"file_delete", {{"path", p}, {"recursive", true}}}};
}

TEST_F(traversal_fixture, lexical_corpus_is_refused_by_every_tool) {
  for (const auto& p : lexical_corpus) {
    for (const auto& [tool, args] : calls_for(p)) {
      auto r = call_tool(registry, tool, args);
      EXPECT_TRUE(r.is_error) << tool << " accepted " << json(p).dump() << ": " << r.all_text();
    }
  }
  expect_outside_untouched();
}

TEST_F(traversal_fixture, symlinks_leading_outside_are_refused_for_reads_and_writes) {
  for (const std::string p : {"out_link", "out_link/secret.txt", "secret_link", "abs_link",
                              "dangling_link", "out_link/new.txt"}) {
    for (const auto& [tool, args] : calls_for(p)) {
      if (tool == "file_delete") continue;  // deleting a link removes the link: checked below
      auto r = call_tool(registry, tool, args);
      EXPECT_TRUE(r.is_error) << tool << " accepted " << p << ": " << r.all_text();
    }
  }
  expect_outside_untouched();
}

TEST_F(traversal_fixture, deleting_a_symlink_removes_only_the_link) {
  auto r = call_tool(registry, "file_delete", {{"path", "out_link"}, {"recursive", true}});
  EXPECT_FALSE(r.is_error) << r.all_text();
  EXPECT_FALSE(fs::exists(fs::symlink_status(root / "out_link")));
  EXPECT_TRUE(call_tool(registry, "file_delete", {{"path", "out_link/secret.txt"}}).is_error);
  call_tool(registry, "file_delete", {{"path", "secret_link"}});
  expect_outside_untouched();
}

TEST_F(traversal_fixture, hard_links_are_refused_for_read_write_and_edit) {
  EXPECT_TRUE(call_tool(registry, "file_read", {{"path", "hard_link"}}).is_error);
  auto w = call_tool(registry, "file_write", {{"path", "hard_link"}, {"content", "x"}, {"overwrite", true}});
  EXPECT_TRUE(w.is_error);
  EXPECT_NE(w.all_text().find("hard links"), std::string::npos);
  EXPECT_TRUE(call_tool(registry, "file_edit",
                        {{"path", "hard_link"}, {"old_text", "outside"}, {"new_text", "x"}}).is_error);
  auto s = call_tool(registry, "file_search", {{"content", "outside secret"}});
  EXPECT_EQ((*s.structured_content)["matches"].size(), 0u);
  expect_outside_untouched();
}

TEST_F(traversal_fixture, symlinks_inside_the_root_still_work) {
  fs::create_symlink(root / "src/ok.txt", root / "inner_link");
  auto r = call_tool(registry, "file_read", {{"path", "inner_link"}});
  EXPECT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(r.all_text(), "fine\n");
}

TEST(path_guard, resolves_inside_paths_and_names_refusals) {
  tooluse::testing::temp_dir dir;
  tooluse::builtin::detail::path_guard guard(dir.path());
  auto ok = guard.resolve("a/b.txt");
  ASSERT_TRUE(ok);
  EXPECT_EQ(guard.relative(*ok), "a/b.txt");
  EXPECT_EQ(guard.relative(*guard.resolve("")), ".");
  auto bad = guard.resolve("../x");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, tooluse::errc::permission_denied);
  EXPECT_NE(bad.error().message.find("\"..\" segments are not allowed"), std::string::npos);
}

TEST(path_guard, binary_detection) {
  using tooluse::builtin::detail::looks_binary;
  EXPECT_FALSE(looks_binary("plain text\nwith lines\n"));
  EXPECT_FALSE(looks_binary("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac"));
  EXPECT_TRUE(looks_binary(std::string("ab\0cd", 5)));
  EXPECT_TRUE(looks_binary("\xff\xfe\xfd\xfc\x80\x81\x82\x83"));
}

}  // namespace
