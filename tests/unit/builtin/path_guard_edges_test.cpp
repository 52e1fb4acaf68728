// path_guard beyond the traversal corpus: harmless names that look odd are allowed and
// normalised, symlink chains inside the root resolve, loops fail cleanly, dangling links into
// the root are usable for new files, open() refuses what resolve() cannot see, and a root
// that is not a folder is a setup error.
#include <gtest/gtest.h>

#include <unistd.h>

#include "builtin/path_guard.hpp"
#include "builtin_test_util.hpp"
#include "support/test_support.hpp"

namespace {

using tooluse::builtin::detail::open_mode;
using tooluse::builtin::detail::path_guard;
using tooluse::testing::write_text;
namespace fs = std::filesystem;

struct guard_edges : ::testing::Test {
  tooluse::testing::temp_dir dir;
  std::unique_ptr<path_guard> guard;
  void SetUp() override {
    write_text(dir.path() / "a/b.txt", "b");
    write_text(dir.path() / "real.txt", "real");
    fs::create_symlink("real.txt", dir.path() / "l2");
    fs::create_symlink("l2", dir.path() / "l1");
    fs::create_symlink("loop_b", dir.path() / "loop_a");
    fs::create_symlink("loop_a", dir.path() / "loop_b");
    fs::create_symlink("a/new_file.txt", dir.path() / "to_new");
    guard = std::make_unique<path_guard>(dir.path());
  }
  std::string relative(std::string_view p) {
    auto r = guard->resolve(p);
    if (!r) return "refused: " + r.error().message;
    return guard->relative(*r);
  }
};

TEST_F(guard_edges, odd_but_harmless_names_are_allowed_and_normalised) {
  EXPECT_EQ(relative("a/./b.txt"), "a/b.txt");
  EXPECT_EQ(relative("a//b.txt"), "a/b.txt");
  EXPECT_EQ(relative("a/"), "a");
  EXPECT_EQ(relative("."), ".");
  EXPECT_EQ(relative("./"), ".");
  EXPECT_EQ(relative("..hidden"), "..hidden");
  EXPECT_EQ(relative("a..b"), "a..b");
  EXPECT_EQ(relative("..."), "...");
  EXPECT_EQ(relative("100%"), "100%");
  EXPECT_EQ(relative("50%zz"), "50%zz");
  EXPECT_EQ(relative("ab:c"), "ab:c");  // only a letter then ":" reads as a drive
  EXPECT_EQ(relative("caf\xc3\xa9/men\xc3\xbc.txt"), "caf\xc3\xa9/men\xc3\xbc.txt");
}

TEST_F(guard_edges, each_refusal_says_why_and_what_to_give_instead) {
  EXPECT_EQ(relative("c:/x"),
            "refused: path \"c:/x\" is refused: drive paths are not allowed; give a path relative "
            "to the root folder, e.g. \"src/main.cpp\"");
  EXPECT_NE(relative("a\\b").find("back slashes are not allowed; use /"), std::string::npos);
  EXPECT_NE(relative("~").find("home-relative paths are not allowed"), std::string::npos);
  EXPECT_NE(relative("/abs").find("absolute paths are not allowed"), std::string::npos);
  EXPECT_NE(relative("a/%2E%2e/%2e%2E/x").find("percent-encoded"), std::string::npos);
  EXPECT_NE(relative("%25252e%25252e/x").find("percent-encoded"), std::string::npos);  // three rounds
  EXPECT_NE(relative(std::string("a\0b", 3)).find("NUL byte"), std::string::npos);
  auto code = guard->resolve("a/../..");
  ASSERT_FALSE(code);
  EXPECT_EQ(code.error().code, tooluse::errc::permission_denied);
}

TEST_F(guard_edges, symlink_chains_inside_the_root_resolve_to_their_target) {
  EXPECT_EQ(relative("l1"), "real.txt");
  EXPECT_EQ(relative("l2"), "real.txt");
  EXPECT_EQ(relative("to_new"), "a/new_file.txt");  // dangling, but inside: usable for a new file
}

TEST_F(guard_edges, a_symlink_loop_fails_cleanly) {
  auto r = guard->resolve("loop_a");
  if (r) {
    EXPECT_EQ(guard->relative(*r).find(".."), std::string::npos);  // still inside the root
    EXPECT_FALSE(guard->open(*r, open_mode::read));                // and nothing to open
  } else {
    EXPECT_NE(r.error().message.find("loop_a"), std::string::npos) << r.error().message;
  }
}

TEST_F(guard_edges, open_refuses_links_and_respects_the_mode) {
  auto real = guard->resolve("real.txt");
  ASSERT_TRUE(real);
  auto fd = guard->open(*real, open_mode::read);
  ASSERT_TRUE(fd) << fd.error().message;
  char buf[8] = {};
  EXPECT_EQ(::read(*fd, buf, sizeof buf), 4);
  ::close(*fd);
  EXPECT_EQ(std::string(buf), "real");
  auto exists = guard->open(*real, open_mode::write_new);
  EXPECT_FALSE(exists);
  auto replace = guard->open(*real, open_mode::write_replace);
  ASSERT_TRUE(replace) << replace.error().message;
  ::close(*replace);
  auto missing = guard->open(dir.path() / "a/none.txt", open_mode::read);
  EXPECT_FALSE(missing);
  auto fresh = guard->open(dir.path() / "a/fresh.txt", open_mode::write_new);
  ASSERT_TRUE(fresh) << fresh.error().message;
  ::close(*fresh);
  EXPECT_TRUE(fs::exists(dir.path() / "a/fresh.txt"));
  // A symlink given to open (bypassing resolve) is not followed.
  auto link = guard->open(dir.path() / "l2", open_mode::read);
  EXPECT_FALSE(link);
}

TEST_F(guard_edges, a_symlink_swapped_in_after_resolve_is_not_followed) {
  tooluse::testing::temp_dir outside;
  write_text(outside.path() / "secret.txt", "secret");
  auto r = guard->resolve("a/b.txt");
  ASSERT_TRUE(r);
  fs::remove(dir.path() / "a/b.txt");
  fs::create_symlink(outside.path() / "secret.txt", dir.path() / "a/b.txt");
  auto out = guard->open(*r, open_mode::read);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().code, tooluse::errc::permission_denied);
  fs::remove(dir.path() / "a/b.txt");
  fs::create_symlink("../real.txt", dir.path() / "a/b.txt");
  EXPECT_FALSE(guard->open(*r, open_mode::read));
  EXPECT_FALSE(guard->open(*r, open_mode::write_replace));
  EXPECT_EQ(tooluse::testing::read_file(dir.path() / "real.txt"), "real");
  auto elsewhere = guard->open(outside.path() / "secret.txt", open_mode::read);
  ASSERT_FALSE(elsewhere);
  EXPECT_EQ(elsewhere.error().code, tooluse::errc::permission_denied);
}

TEST_F(guard_edges, relative_paths_and_the_root) {
  EXPECT_EQ(guard->relative(guard->root()), ".");
  EXPECT_EQ(guard->relative(guard->root() / "a" / "b.txt"), "a/b.txt");
  EXPECT_EQ(guard->root(), fs::canonical(dir.path()));
}

TEST(guard_setup, a_root_that_is_not_an_existing_folder_is_a_setup_error) {
  tooluse::testing::temp_dir dir;
  write_text(dir.path() / "file", "x");
  EXPECT_THROW(path_guard(dir.path() / "missing"), std::invalid_argument);
  try {
    path_guard g(dir.path() / "file");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "file tools root \"" + (dir.path() / "file").string() + "\" is not an existing folder");
  }
  EXPECT_FALSE(tooluse::builtin::detail::looks_binary(""));
}

}  // namespace
