// `tooluse tools list` shows every built-in tool with its schema; switches gate the network
// tools and the shell; `tools call` runs a built-in tool end to end.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "support/test_support.hpp"
#include "tooluse/json.hpp"

namespace tools_list_test {
namespace {

std::string run(const std::string& command, int& status) {
  return tooluse::testing::run_shell(command, status);
}

std::set<std::string> listed(const std::string& flags) {
  int status = -1;
  std::string out = run(std::string(TOOLUSE_CLI_PATH) + " tools list --json " + flags, status);
  EXPECT_EQ(status, 0) << out;
  auto tools = tooluse::parse_json(out);
  std::set<std::string> names;
  if (!tools) return names;
  for (const auto& t : *tools) {
    EXPECT_EQ(t["inputSchema"]["type"], "object") << t["name"];
    EXPECT_GT(t["description"].get<std::string>().size(), 80u) << t["name"];
    if (t["name"] != "calculator") {  // another module's tool, with its own description style
      EXPECT_NE(t["description"].get<std::string>().find("Example"), std::string::npos) << t["name"];
    }
    names.insert(t["name"].get<std::string>());
  }
  return names;
}

TEST(builtin_cli, tools_list_shows_every_tool_with_its_schema) {
  auto offline = listed("");
  for (const char* n : {"file_read", "file_list", "file_search", "file_write", "file_edit", "file_delete",
                        "project_structure", "datetime", "document_search"})
    EXPECT_TRUE(offline.count(n)) << n;
  for (const char* n : {"web_search", "http_fetch", "shell"}) EXPECT_FALSE(offline.count(n)) << n;
  auto all = listed("--network --shell");
  for (const char* n : {"web_search", "wikipedia_search", "wikipedia_page", "http_fetch", "weather", "shell"})
    EXPECT_TRUE(all.count(n)) << n;
}

TEST(builtin_cli, tools_call_runs_a_file_tool_inside_the_root) {
  tooluse::testing::temp_dir dir;
  {
    FILE* f = std::fopen((dir.path() / "hello.txt").c_str(), "w");
    std::fputs("line one\nline two\n", f);
    std::fclose(f);
  }
  int status = -1;
  std::string cli = TOOLUSE_CLI_PATH;
  std::string out = run(cli + " tools call --root " + dir.path().string() +
                            " file_read '{\"path\": \"hello.txt\", \"start_line\": 2}'",
                        status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_EQ(out, "line two\n\n");
  out = run(cli + " tools call --root " + dir.path().string() + " file_read '{\"path\": \"../etc/passwd\"}' 2>&1", status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("refused"), std::string::npos) << out;
}

}  // namespace
}  // namespace tools_list_test
