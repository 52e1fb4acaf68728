// What `tooluse run` and `tooluse chat` show on stderr while they work, on a pseudo-terminal and
// on a pipe: the spinner while the model thinks (the scripted model holds its answer until the
// test has seen the spinner turn), and the notifications/progress a mounted MCP server sends
// while its tool runs (tests/programs/progress_mcp_server: `steps` reports 1, 2, 3 of 3).
// On a pipe neither appears: stderr holds one line per tool call and outcome, nothing else.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <fstream>
#include <mutex>

#include "support/fake_llm_server.hpp"
#include "support/response_gate.hpp"
#include "terminal_session.hpp"

namespace tooluse::testing {
namespace {

const std::string tool = "slow__steps";

// progress_model asks for the progress tool (after the gate opens), then answers "Done.".
void script_progress_model(fake_llm_server& server, response_gate& gate) {
  auto n = std::make_shared<std::atomic<int>>(0);
  server.set_responder([n, &gate](const recorded_request&) {
    if ((*n)++ == 0) {
      gate.wait();
      return openai_response({.calls = {{"call_1", tool, "{}"}}}, false);
    }
    return openai_response({.text = "Done."}, false);
  });
}

// mcp_config writes an mcpServers file mounting progress_mcp_server over stdio as "slow".
std::string mcp_config(const std::filesystem::path& dir) {
  auto path = dir / "mcp.json";
  std::ofstream(path) << json{{"mcpServers",
                               {{"slow",
                                 {{"command", TOOLUSE_PROGRESS_SERVER}, {"args", json::array()}}}}}}
                             .dump();
  return path.string();
}

std::vector<std::string> model_args(const fake_llm_server& server, const std::string& mcp) {
  return {"--provider", "openai", "--base-url", server.url("/v1"), "--model", "m", "--tools",
          tool,         "--mcp",  mcp,          "--no-stream"};
}

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// expect_progress_shown checks the three progress lines appear in order after the tool's
// call line and before its outcome line.
void expect_progress_shown(const std::string& err) {
  auto call = err.find("[tool] " + tool + " {}");
  auto outcome = err.find("[tool] " + tool + " -> ");
  ASSERT_NE(call, std::string::npos) << err;
  ASSERT_NE(outcome, std::string::npos) << err;
  size_t at = call;
  for (int p : {1, 2, 3}) {
    auto line =
        "[progress] " + tool + " " + std::to_string(p) + "/3 step " + std::to_string(p) + " of 3";
    auto pos = err.find(line, at);
    ASSERT_NE(pos, std::string::npos) << line << "\n" << err;
    EXPECT_LT(pos, outcome) << err;
    at = pos;
  }
}

// expect_quiet checks stderr as a script sees it: no animation, no progress, no escapes.
void expect_quiet(const std::string& err) {
  EXPECT_EQ(err.find('\x1b'), std::string::npos) << err;
  EXPECT_EQ(err.find('\r'), std::string::npos) << err;
  EXPECT_EQ(err.find("waiting for the model"), std::string::npos) << err;
  EXPECT_EQ(err.find("running"), std::string::npos) << err;
  EXPECT_EQ(err.find("[progress]"), std::string::npos) << err;
  EXPECT_NE(err.find("[tool] " + tool + " {}\n"), std::string::npos) << err;
  EXPECT_NE(err.find("[tool] " + tool + " -> "), std::string::npos) << err;
}

TEST(terminal_progress, run_spins_while_the_model_thinks_and_shows_mcp_progress) {
  response_gate gate;
  fake_llm_server server;
  gate_opener opener{gate};
  temp_dir dir;
  script_progress_model(server, gate);
  terminal_session s(
      with({"run", "Run the progress tool"}, model_args(server, mcp_config(dir.path()))),
      dir.path(), {});
  ASSERT_TRUE(s.started());
  // The first frame is drawn when the request leaves; the next one proves it turns. The model
  // answers only after both were seen.
  ASSERT_TRUE(s.wait_for("\r| waiting for the model\x1b[K")) << s.output();
  ASSERT_TRUE(s.wait_for("\r/ waiting for the model\x1b[K")) << s.output();
  EXPECT_EQ(server.requests().size(), 1u);
  gate.open();
  EXPECT_EQ(s.finish(), 0) << s.output();
  expect_progress_shown(s.output());
  // Every progress line is printed on a cleared line, not after the spinner's text.
  EXPECT_NE(s.output().find("\r\x1b[K[progress] " + tool), std::string::npos) << s.output();
  EXPECT_EQ(s.stdout_text(), "Done.\n");
}

TEST(terminal_progress, run_on_a_pipe_shows_neither_spinner_nor_progress) {
  response_gate gate;
  fake_llm_server server;
  gate_opener opener{gate};
  gate.open();
  temp_dir dir;
  script_progress_model(server, gate);
  terminal_session s(
      with({"run", "Run the progress tool"}, model_args(server, mcp_config(dir.path()))),
      dir.path(), {.stderr_on_terminal = false});
  ASSERT_TRUE(s.started());
  EXPECT_EQ(s.finish(), 0) << s.output();
  expect_quiet(s.output());
  EXPECT_EQ(s.stdout_text(), "Done.\n");
}

TEST(terminal_progress, run_json_on_a_terminal_keeps_stderr_still_and_stdout_parseable) {
  response_gate gate;
  fake_llm_server server;
  gate_opener opener{gate};
  gate.open();
  temp_dir dir;
  script_progress_model(server, gate);
  terminal_session s(
      with({"run", "Run the progress tool", "--json"}, model_args(server, mcp_config(dir.path()))),
      dir.path(), {});
  ASSERT_TRUE(s.started());
  EXPECT_EQ(s.finish(), 0) << s.output();
  EXPECT_EQ(s.output().find('\x1b'), std::string::npos) << s.output();
  EXPECT_EQ(s.output().find("[progress]"), std::string::npos) << s.output();
  auto j = parse_json(s.stdout_text());
  ASSERT_TRUE(j) << s.stdout_text();
  EXPECT_EQ((*j)["answer"], "Done.");
  ASSERT_EQ((*j)["tool_calls"].size(), 1u);
  EXPECT_EQ((*j)["tool_calls"][0]["name"], tool);
}

TEST(terminal_progress, chat_spins_while_the_model_thinks_and_shows_mcp_progress) {
  response_gate gate;
  fake_llm_server server;
  gate_opener opener{gate};
  temp_dir dir;
  script_progress_model(server, gate);
  terminal_session s(
      with(with({"chat"}, model_args(server, mcp_config(dir.path()))), {"--no-history-file"}),
      dir.path(), {.stdin_on_terminal = true});
  ASSERT_TRUE(s.started());
  ASSERT_TRUE(s.wait_for("> ")) << s.output();
  s.type("Run the progress tool\r");
  ASSERT_TRUE(s.wait_for("\r| waiting for the model\x1b[K")) << s.output();
  ASSERT_TRUE(s.wait_for("\r/ waiting for the model\x1b[K")) << s.output();
  gate.open();
  ASSERT_TRUE(s.wait_for("> ", 2)) << s.output();
  s.type("/exit\r");
  EXPECT_EQ(s.finish(), 0) << s.output();
  expect_progress_shown(s.output());
  EXPECT_EQ(s.stdout_text(), "Done.\n");
}

TEST(terminal_progress, chat_on_a_pipe_shows_neither_spinner_nor_progress) {
  response_gate gate;
  fake_llm_server server;
  gate_opener opener{gate};
  gate.open();
  temp_dir dir;
  script_progress_model(server, gate);
  std::ofstream(dir.path() / "questions.txt") << "Run the progress tool\n";
  terminal_session s(
      with({"chat"}, model_args(server, mcp_config(dir.path()))), dir.path(),
      {.stderr_on_terminal = false, .stdin_path = (dir.path() / "questions.txt").string()});
  ASSERT_TRUE(s.started());
  EXPECT_EQ(s.finish(), 0) << s.output();
  expect_quiet(s.output());
  EXPECT_EQ(s.stdout_text(), "Done.\n");
}

}  // namespace
}  // namespace tooluse::testing
