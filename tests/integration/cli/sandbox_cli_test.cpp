// The sandbox through the real binary: `tooluse sandbox check`, the python tool's flag, the shell with a relative --root (once "execvp /bin/true"), and a python
// memory hog stopped with the limit's name.
#include <gtest/gtest.h>

#include <filesystem>

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

// find_tool returns the definition named `name` in `tools list --json` output.
json find_tool(const std::string& list, const std::string& name) {
  for (const auto& t : json::parse(list))
    if (t["name"] == name) return t;
  return json();
}

TEST(sandbox_cli, tools_list_json_shows_sandboxed_and_memory_limit) {
  temp_dir dir;
  auto r = run_tooluse({"tools", "list", "--json", "--shell", "--sandbox", "shell=1024"}, {}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json shell = find_tool(r.out, "shell");
  EXPECT_EQ(shell["policy"]["sandboxed"], true);
  EXPECT_EQ(shell["policy"]["memory_limit_mb"], 1024);
  EXPECT_EQ(shell["policy"]["sandbox"]["by"], "handler");
  json calc = find_tool(r.out, "calculator");
  EXPECT_EQ(calc["policy"]["sandboxed"], false);  // in-process: no limit shown
  EXPECT_FALSE(calc["policy"].contains("memory_limit_mb"));
}

TEST(sandbox_cli, a_built_in_tool_runs_in_a_worker_with_the_sandbox_flag) {
  temp_dir dir;
  auto listed = run_tooluse({"tools", "list", "--json", "--sandbox", "calculator=256"}, {}, dir.path());
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  json calc = find_tool(listed.out, "calculator");
  EXPECT_EQ(calc["policy"]["sandboxed"], true);
  EXPECT_EQ(calc["policy"]["memory_limit_mb"], 256);
  EXPECT_EQ(calc["policy"]["sandbox"]["by"], "handler");  // bound to the workers
  EXPECT_EQ(calc["policy"]["sandbox"]["write"][0], std::filesystem::canonical(dir.path()).string());
  auto r = run_tooluse({"tools", "call", "--sandbox", "calculator", "calculator", "expression=6*7"}, {},
                       dir.path());
  if (r.err.find("could not be sandboxed") != std::string::npos) TOOLUSE_PEER_MISSING(r.err);
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("42"), std::string::npos) << r.out;
}

TEST(sandbox_cli, the_sandbox_flag_names_a_bad_item) {
  temp_dir dir;
  auto unknown = run_tooluse({"tools", "list", "--sandbox", "calculatr"}, {}, dir.path());
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--sandbox: no built-in tool named \"calculatr\""), std::string::npos)
      << unknown.err;
  auto bad = run_tooluse({"tools", "list", "--sandbox", "calculator=lots"}, {}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--sandbox calculator=lots: the memory limit must be a positive number of MB"),
            std::string::npos)
      << bad.err;
}

}  // namespace
}  // namespace tooluse::testing
