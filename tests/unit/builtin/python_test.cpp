// The python tool: Python 3 in the sandbox, with its limits named when one stops the code.
#include <gtest/gtest.h>

#include "builtin_test_util.hpp"
#include "support/test_support.hpp"
#include "tooluse/builtin/builtins.hpp"
#include "tooluse/builtin/python.hpp"
#include "tooluse/sandbox/check.hpp"

namespace {
using tooluse::json;
using tooluse::testing::call_tool;
namespace fs = std::filesystem;

struct python_fixture : ::testing::Test {
  tooluse::testing::temp_dir dir;
  tooluse::tool_registry registry;
  void SetUp() override {
    static const auto report = tooluse::sandbox::check();
    if (!report.usable) TOOLUSE_PEER_MISSING("the sandbox does not work here (tooluse sandbox check)");
    tooluse::builtin::register_python(
        registry, {.work_dir = dir.path(), .policy = {.memory_limit_mb = 256, .cpu_seconds = 2}});
  }
  tooluse::tool_result run(const std::string& code, double timeout = 20) {
    return call_tool(registry, "python", {{"code", code}, {"timeout_seconds", timeout}});
  }
};

TEST_F(python_fixture, runs_code_in_the_work_folder) {
  auto r = run("import os\nprint(os.getcwd())\nopen('out.txt', 'w').write('made')");
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["stdout"], dir.path().string() + "\n");
  EXPECT_EQ((*r.structured_content)["sandboxed"], true);
  EXPECT_EQ(tooluse::testing::read_file(dir.path() / "out.txt"), "made");
}

TEST_F(python_fixture, an_exception_is_an_error_with_the_traceback) {
  auto r = run("raise ValueError('bad input')");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("ValueError: bad input"), std::string::npos) << r.all_text();
  EXPECT_EQ((*r.structured_content)["killed_by"], nullptr);
}

TEST_F(python_fixture, the_memory_limit_is_named) {
  auto r = run("x = ' ' * (2 * 10**9)");
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ((*r.structured_content)["killed_by"], "memory");
  EXPECT_NE(r.all_text().find("the memory limit (256 MB) was reached"), std::string::npos) << r.all_text();
}

TEST_F(python_fixture, the_cpu_limit_and_the_timeout_are_named) {
  auto spin = run("while True: pass");
  EXPECT_EQ((*spin.structured_content)["killed_by"], "cpu_time") << spin.all_text();
  auto sleep = run("import time\ntime.sleep(60)", 0.5);
  EXPECT_EQ((*sleep.structured_content)["killed_by"], "timeout") << sleep.all_text();
  EXPECT_EQ((*sleep.structured_content)["timed_out"], true);
}

TEST_F(python_fixture, the_host_environment_is_not_visible) {
  ::setenv("TOOLUSE_PYTHON_TEST_SECRET", "s3cret", 1);
  auto r = run("import os\nprint(sorted(os.environ))");
  ::unsetenv("TOOLUSE_PYTHON_TEST_SECRET");
  EXPECT_EQ(r.all_text().find("TOOLUSE_PYTHON_TEST_SECRET"), std::string::npos) << r.all_text();
}

TEST(python_tool, is_dangerous_off_by_default_and_never_unsandboxed) {
  tooluse::testing::temp_dir dir;
  tooluse::tool_registry defaults;
  tooluse::builtin::register_builtins(defaults, {.root = dir.path(), .index_path = dir.path() / "i.sqlite"});
  EXPECT_EQ(defaults.find("python"), nullptr);
  tooluse::tool_registry registry;
  tooluse::builtin::register_python(registry, {.work_dir = dir.path(), .bwrap_path = "/nonexistent/bwrap"});
  EXPECT_TRUE(registry.find("python")->definition.dangerous);
  auto r = call_tool(registry, "python", {{"code", "print(1)"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("apt install bubblewrap"), std::string::npos) << r.all_text();
}

}  // namespace
