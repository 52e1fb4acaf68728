// The sandbox through the real binary: `tooluse sandbox check`, the python tool's flag, the shell with a relative --root (once "execvp /bin/true"), and a python
// memory hog stopped with the limit's name.
#include <gtest/gtest.h>

#include "support/cli_process.hpp"
#include "support/test_support.hpp"
#include "tooluse/json.hpp"
#include "tooluse/sandbox/check.hpp"

namespace tooluse::testing {
namespace {

bool sandbox_usable() {
  static const bool usable = sandbox::check().usable;
  return usable;
}

TEST(sandbox_cli, check_reports_each_part_and_exits_0_when_usable) {
  temp_dir dir;
  auto text = run_tooluse({"sandbox", "check"}, {}, dir.path());
  for (const char* part : {"bubblewrap", "user namespaces", "seccomp", "landlock", "pids cgroup"})
    EXPECT_NE(text.out.find(part), std::string::npos) << part << "\n" << text.out;
  auto j = run_tooluse({"sandbox", "check", "--json"}, {}, dir.path());
  json doc = json::parse(j.out);
  EXPECT_EQ(j.exit_code, doc["usable"].get<bool>() ? 0 : 1);
  EXPECT_EQ(text.exit_code, j.exit_code);
  if (!sandbox_usable()) TOOLUSE_PEER_MISSING("the sandbox does not work here:\n" + text.out);
  EXPECT_NE(text.out.find("the sandbox works here"), std::string::npos) << text.out;
}

TEST(sandbox_cli, python_is_off_until_enabled) {
  temp_dir dir;
  auto hint = run_tooluse({"tools", "list", "--tools", "python"}, {}, dir.path());
  EXPECT_EQ(hint.exit_code, 2);
  EXPECT_NE(hint.err.find("add --python to enable it"), std::string::npos) << hint.err;
  auto on = run_tooluse({"tools", "list", "--python", "--tools", "python"}, {}, dir.path());
  EXPECT_EQ(on.exit_code, 0) << on.err;
  EXPECT_NE(on.out.find("python [dangerous]"), std::string::npos) << on.out;
}

TEST(sandbox_cli, the_shell_works_with_a_relative_root) {
  if (!sandbox_usable()) TOOLUSE_PEER_MISSING("the sandbox does not work here (tooluse sandbox check)");
  temp_dir dir;
  for (const char* root : {".", "./"}) {
    auto r = run_tooluse({"tools", "call", "--shell", "--root", root, "--yes", "shell", R"({"command": "pwd; echo made > f"})"},
                         {}, dir.path());
    EXPECT_EQ(r.exit_code, 0) << root << ": " << r.err << r.out;
    EXPECT_NE(r.out.find(dir.path().string()), std::string::npos) << r.out;
    EXPECT_EQ(read_file(dir.path() / "f"), "made\n");
  }
}

TEST(sandbox_cli, a_python_memory_hog_is_stopped_and_named) {
  if (!sandbox_usable()) TOOLUSE_PEER_MISSING("the sandbox does not work here (tooluse sandbox check)");
  temp_dir dir;
  auto r = run_tooluse({"tools", "call", "--python", "--yes", "python", R"j({"code": "x = ' ' * (4 * 10**9)"})j"}, {},
                       dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE((r.out + r.err).find("the memory limit (512 MB) was reached"), std::string::npos) << r.out << r.err;
}

}  // namespace
}  // namespace tooluse::testing
