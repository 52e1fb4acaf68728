// `tooluse run` and `tooluse chat` on a pseudo-terminal (openpty): the spinner drawn on stderr
// while a tool runs and cleared before the tool's outcome line; readline line editing with the
// session's history (the up arrow recalls the previous line) and the history file; an approval
// prompt for a dangerous tool answered on the same terminal as readline. Waits are for bytes on
// the terminal (poll with a generous deadline), never sleeps.
#include <gtest/gtest.h>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"
#include "terminal_session.hpp"

namespace tooluse::testing {
namespace {

const std::string clear_line = "\r\x1b[K";

TEST(terminal_cli, run_draws_a_spinner_while_the_tool_runs_and_clears_it) {
  fake_llm_server server;
  temp_dir dir;
  server.push(
      openai_response({.calls = {{"call_1", "calculator", R"({"expression":"2*3"})"}}}, false));
  server.push(openai_response({.text = "It is 6."}, false));
  terminal_session s({"run", "What is 2*3?", "--provider", "openai", "--base-url",
                      server.url("/v1"), "--model", "m", "--tools", "calculator", "--no-stream"},
                     dir.path(), {});
  ASSERT_TRUE(s.started());
  EXPECT_EQ(s.finish(), 0) << s.output();
  const std::string& err = s.output();
  auto call_line = err.find("[tool] calculator {\"expression\":\"2*3\"}\n");
  auto first_frame = err.find("\r| running calculator\x1b[K");
  auto outcome = err.find(clear_line + "[tool] calculator -> 6 (");
  ASSERT_NE(call_line, std::string::npos) << err;
  ASSERT_NE(first_frame, std::string::npos) << err;
  ASSERT_NE(outcome, std::string::npos) << err;
  EXPECT_LT(call_line, first_frame);
  EXPECT_LT(first_frame, outcome);
  // After the outcome line nothing is drawn any more: the line is left clean.
  EXPECT_EQ(err.find("running", outcome), std::string::npos) << err;
  EXPECT_EQ(s.stdout_text(), "It is 6.\n");
}

TEST(terminal_cli, run_without_a_terminal_draws_no_spinner) {
  fake_llm_server server;
  temp_dir dir;
  server.push(
      openai_response({.calls = {{"call_1", "calculator", R"({"expression":"2*3"})"}}}, false));
  server.push(openai_response({.text = "It is 6."}, false));
  auto r = run_tooluse({"run", "What is 2*3?", "--provider", "openai", "--base-url",
                        server.url("/v1"), "--model", "m", "--tools", "calculator", "--no-stream"},
                       {{"OPENAI_API_KEY", "sk-test"}}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("running"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[tool] calculator -> 6"), std::string::npos) << r.err;
}

TEST(terminal_cli, chat_recalls_the_previous_line_and_keeps_a_history_file) {
  fake_llm_server server;
  temp_dir dir;
  server.push(openai_response({.text = "Hello Ada."}, true));
  server.push(openai_response({.text = "Hello again."}, true));
  terminal_session s({"chat", "--provider", "openai", "--base-url", server.url("/v1"), "--model",
                      "m", "--tools", "calculator"},
                     dir.path(), {.stdin_on_terminal = true});
  ASSERT_TRUE(s.started());
  ASSERT_TRUE(s.wait_for("> ")) << s.output();
  s.type("My name is Ada.\r");
  ASSERT_TRUE(s.wait_for("> ", 2)) << s.output();
  s.type("\x1b[A\r");  // up arrow: the previous line, then Enter
  ASSERT_TRUE(s.wait_for("> ", 3)) << s.output();
  s.type("/exit\r");
  EXPECT_EQ(s.finish(), 0) << s.output();
  EXPECT_EQ(s.stdout_text(), "Hello Ada.\nHello again.\n");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  json second = reqs[1].json_body()["messages"];
  ASSERT_EQ(second.size(), 3u);
  EXPECT_EQ(second[2]["content"], "My name is Ada.");
  std::string history = read_file(dir.path() / ".local/state/tooluse/chat_history");
  EXPECT_NE(history.find("My name is Ada."), std::string::npos) << history;
  EXPECT_NE(history.find("/exit"), std::string::npos) << history;
}

TEST(terminal_cli, chat_asks_approval_on_the_terminal_alongside_readline) {
  fake_llm_server server;
  temp_dir dir;
  server.push(openai_response(
      {.calls = {{"call_1", "file_write", R"({"path":"note.txt","content":"hi"})"}}}, false));
  server.push(openai_response({.text = "Written."}, false));
  terminal_session s({"chat", "--provider", "openai", "--base-url", server.url("/v1"), "--model",
                      "m", "--tools", "file_write", "--no-stream", "--no-history-file"},
                     dir.path(), {.stdin_on_terminal = true});
  ASSERT_TRUE(s.started());
  ASSERT_TRUE(s.wait_for("> ")) << s.output();
  s.type("Write hi to note.txt\r");
  ASSERT_TRUE(s.wait_for("? [y/N] ")) << s.output();
  EXPECT_NE(s.output().find("allow file_write"), std::string::npos) << s.output();
  s.type("y\r");
  ASSERT_TRUE(s.wait_for("> ", 2)) << s.output();
  s.type("/exit\r");
  EXPECT_EQ(s.finish(), 0) << s.output();
  EXPECT_EQ(read_file(dir.path() / "note.txt"), "hi");
  EXPECT_EQ(s.stdout_text(), "Written.\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / ".local/state/tooluse/chat_history"));
}

}  // namespace
}  // namespace tooluse::testing
