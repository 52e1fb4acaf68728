// One approval rule across every command that runs tools: a dangerous tool (built-in dangerous,
// named by --confirm, or an MCP server's tool with destructiveHint true and not readOnlyHint)
// is asked about on the terminal before each call, refused without a terminal, and approved
// ahead by one flag spelled the same everywhere (--yes, -y). Through the real binary; the
// terminal is a pty (terminal_session).
#include <gtest/gtest.h>

#include <fstream>

#include "integration/agent/terminal_session.hpp"
#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"
#include "tooluse/json.hpp"

namespace tooluse::testing {
namespace {

class approval_cli : public ::testing::Test {
 protected:
  temp_dir dir;
  cli_outcome tooluse(const std::vector<std::string>& args) {
    return run_tooluse(args, {{"OPENAI_API_KEY", "sk-test"}}, dir.path());
  }
  bool exists(const std::string& name) { return std::filesystem::exists(dir.path() / name); }
  // An mcpServers config mounting `tooluse mcp serve` (the built-in tools, whose file_write
  // declares destructiveHint true and calculator readOnlyHint) as server "fs".
  std::string mcp_config() {
    json config = {{"mcpServers",
                    {{"fs",
                      {{"command", TOOLUSE_CLI_PATH},
                       {"args", json::array({"mcp", "serve", "--stdio", "--yes"})}}}}}};
    std::ofstream(dir.path() / "servers.json") << config.dump();
    return (dir.path() / "servers.json").string();
  }
  std::string served() { return std::string(TOOLUSE_CLI_PATH) + " mcp serve --stdio --yes"; }
};

TEST_F(approval_cli, tools_call_refuses_a_dangerous_tool_without_a_terminal_unless_approved) {
  auto r = tooluse({"tools", "call", "file_write", "path=note.txt", "content=hi"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "tooluse: tools call: tool \"file_write\" is dangerous and needs approval, and there "
            "is no terminal to ask on\nPass --yes to approve its calls (the same flag in every "
            "command that runs tools).\n");
  EXPECT_FALSE(exists("note.txt")) << "refused calls do not run";
  for (const char* flag : {"--yes", "-y"}) {
    r = tooluse({"tools", "call", "file_write", "path=note.txt", "content=hi", flag});
    EXPECT_EQ(r.exit_code, 0) << flag << r.err;
    EXPECT_EQ(read_file(dir.path() / "note.txt"), "hi");
    std::filesystem::remove(dir.path() / "note.txt");
  }
  // --confirm makes any tool ask.
  r = tooluse({"tools", "call", "calculator", "expression=6*7", "--confirm", "calculator"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\"calculator\" is dangerous"), std::string::npos) << r.err;
  r = tooluse({"tools", "call", "calculator", "expression=6*7", "--confirm", "calculator", "-y"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "42\n");
}

TEST_F(approval_cli, on_a_terminal_tools_call_and_batch_ask_before_each_dangerous_call) {
  {
    terminal_session s({"tools", "call", "file_write", "path=no.txt", "content=x"}, dir.path(),
                       {.stdin_on_terminal = true});
    ASSERT_TRUE(s.started());
    ASSERT_TRUE(s.wait_for("? [y/N] ")) << s.output();
    EXPECT_NE(s.output().find("allow file_write"), std::string::npos) << s.output();
    s.type("n\r");
    EXPECT_EQ(s.finish(), 1) << s.output();
    EXPECT_NE(s.output().find("refused"), std::string::npos) << s.output();
  }
  EXPECT_FALSE(exists("no.txt"));
  {
    terminal_session s({"tools", "call", "file_write", "path=yes.txt", "content=y"}, dir.path(),
                       {.stdin_on_terminal = true});
    ASSERT_TRUE(s.wait_for("? [y/N] ")) << s.output();
    s.type("y\r");
    EXPECT_EQ(s.finish(), 0) << s.output();
  }
  EXPECT_EQ(read_file(dir.path() / "yes.txt"), "y");
  std::ofstream(dir.path() / "calls.json")
      << R"([{"name": "file_write", "arguments": {"path": "a.txt", "content": "a"}},
            {"name": "calculator", "arguments": {"expression": "1+1"}},
            {"name": "file_write", "arguments": {"path": "b.txt", "content": "b"}}])";
  {
    terminal_session s({"tools", "batch", "calls.json"}, dir.path(), {.stdin_on_terminal = true});
    ASSERT_TRUE(s.wait_for("? [y/N] ")) << s.output();
    s.type("y\r");
    ASSERT_TRUE(s.wait_for("? [y/N] ", 2)) << s.output();
    s.type("n\r");
    EXPECT_EQ(s.finish(), 1) << s.output();
    std::string out = s.output();
    int asked = 0;
    for (auto at = out.find("? [y/N] "); at != std::string::npos; at = out.find("? [y/N] ", at + 1))
      ++asked;
    EXPECT_EQ(asked, 2) << "calculator is not dangerous: " << out;
  }
  EXPECT_EQ(read_file(dir.path() / "a.txt"), "a");
  EXPECT_FALSE(exists("b.txt"));
}

TEST_F(approval_cli, mcp_tools_marked_destructive_ask_first_in_every_command) {
  auto config = mcp_config();
  auto listed = tooluse({"tools", "list", "--mcp", config});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find("fs__file_write [dangerous]"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("fs__calculator\n"), std::string::npos) << listed.out;
  // tools call over the mounted server.
  auto r = tooluse({"tools", "call", "--mcp", config, "fs__file_write", "path=m.txt", "content=m"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\"fs__file_write\" is dangerous"), std::string::npos) << r.err;
  EXPECT_FALSE(exists("m.txt"));
  r = tooluse(
      {"tools", "call", "--mcp", config, "fs__file_write", "path=m.txt", "content=m", "--yes"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir.path() / "m.txt"), "m");
  // mcp call reads the hints from the server's tools/list.
  r = tooluse({"mcp", "call", "--server", served(), "file_write", "path=c.txt", "content=c"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("mcp call: tool \"file_write\" is dangerous"), std::string::npos) << r.err;
  EXPECT_FALSE(exists("c.txt"));
  r = tooluse({"mcp", "call", "--server", served(), "file_write", "path=c.txt", "content=c", "-y"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir.path() / "c.txt"), "c");
  {
    // On a terminal mcp call asks, as tools call does.
    terminal_session s({"mcp", "call", "--server", served(), "file_write", "path=t.txt", "content=t"},
                       dir.path(), {.stdin_on_terminal = true});
    ASSERT_TRUE(s.wait_for("? [y/N] ")) << s.output();
    EXPECT_NE(s.output().find("allow file_write"), std::string::npos) << s.output();
    s.type("y\r");
    EXPECT_EQ(s.finish(), 0) << s.output();
  }
  EXPECT_EQ(read_file(dir.path() / "t.txt"), "t");
  r = tooluse({"mcp", "call", "--server", served(), "calculator", "expression=6*7"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "42\n");
  // run: the model's call to the destructive tool is refused without a terminal; --yes runs it.
  fake_llm_server server;
  for (const char* file : {"r1.txt", "r2.txt"}) {
    server.push(openai_response(
        {.calls = {{"call_1", "fs__file_write",
                    std::string(R"({"path":")") + file + R"(","content":"r"})"}}},
        false));
    server.push(openai_response({.text = "Done."}, false));
  }
  std::vector<std::string> run = {"run",     "Write r", "--base-url", server.url("/v1"),
                                  "--model", "m",       "--mcp",      config,
                                  "--tools", "fs__file_write", "--no-stream"};
  r = tooluse(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("did not approve \"fs__file_write\""), std::string::npos) << r.err;
  EXPECT_FALSE(exists("r1.txt"));
  run.push_back("--yes");
  r = tooluse(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir.path() / "r2.txt"), "r");
}

// chat --timeout: a deadline for each answer; the job the model started is cancelled when it
// passes, and the session goes on to the next line.
TEST_F(approval_cli, chat_timeout_stops_one_answer_and_the_session_goes_on) {
  json config = {
      {"mcpServers",
       {{"jobs", {{"command", TOOLUSE_TASK_SERVER}, {"args", json::array({"--stdio"})}}}}}};
  std::ofstream(dir.path() / "jobs.json") << config.dump();
  fake_llm_server server;
  server.push(openai_response(
      {.calls = {{"call_1", "jobs__long_job", R"({"label":"t"})"}}}, false));
  std::ofstream(dir.path() / "lines.txt") << "Start the job\n/cost\n";
  auto r = run_tooluse({"chat", "--base-url", server.url("/v1"), "--model", "m", "--mcp",
                        "jobs.json", "--tools", "jobs__long_job", "--no-stream", "--timeout",
                        "500ms"},
                       {{"OPENAI_API_KEY", "sk-test"}}, dir.path(),
                       (dir.path() / "lines.txt").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("error: the answer was stopped at its --timeout of 500ms"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("[usage] 1 request"), std::string::npos) << "/cost ran after: " << r.out;
}

// The habits every command that runs tools shares: --yes/-y with the same words, and the
// --timeout and --json of those that run tools on their own.
TEST_F(approval_cli, every_command_that_runs_tools_takes_the_same_flags) {
  const std::string yes_help =
      "Approve dangerous tools without asking (otherwise each call is asked about on the "
      "terminal, and refused when there is none)";
  std::vector<std::vector<std::string>> commands = {
      {"tools", "call"}, {"tools", "batch"}, {"run"}, {"chat"}, {"mcp", "call"},
      {"runs", "resume"}};
  for (auto cmd : commands) {
    std::string name = cmd.front() + (cmd.size() > 1 ? " " + cmd[1] : "");
    cmd.push_back("--help");
    auto r = tooluse(cmd);
    ASSERT_EQ(r.exit_code, 0) << name << r.err;
    std::string help = r.out;
    // CLI11 wraps help text; compare it with the whitespace folded.
    std::string folded;
    for (char c : help)
      if (!(c == ' ' || c == '\n') || (!folded.empty() && folded.back() != ' '))
        folded += (c == '\n' ? ' ' : c);
    EXPECT_NE(folded.find("-y,--yes"), std::string::npos) << name << "\n" << help;
    EXPECT_NE(folded.find(yes_help), std::string::npos) << name << "\n" << help;
    EXPECT_NE(folded.find("--timeout"), std::string::npos) << name << "\n" << help;
    if (name != "chat") {
      EXPECT_NE(folded.find("--json"), std::string::npos) << name << "\n" << help;
    }
  }
}

}  // namespace
}  // namespace tooluse::testing
