// `tooluse run` and `tooluse chat` on a pseudo-terminal (openpty): the spinner drawn on stderr
// while a tool runs and cleared before the tool's outcome line; readline line editing with the
// session's history (the up arrow recalls the previous line) and the history file; an approval
// prompt for a dangerous tool answered on the same terminal as readline. Waits are for bytes on
// the terminal (poll with a generous deadline), never sleeps.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <spawn.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

// terminal_session runs the CLI with stderr (and, if asked, stdin) on a pty; stdout goes to a
// file. It reads the pty as the program writes. Without stdin on the pty, the pty is in raw
// mode so bytes arrive exactly as written; with it, the pty keeps its normal (cooked) settings,
// as a user's terminal would have them, and readline switches modes itself.
class terminal_session {
 public:
  terminal_session(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                   bool stdin_on_terminal)
      : cwd_(cwd) {
    int slave = -1;
    if (::openpty(&master_, &slave, nullptr, nullptr, nullptr) != 0) return;
    if (!stdin_on_terminal) {
      termios t{};
      ::tcgetattr(slave, &t);
      ::cfmakeraw(&t);  // no \n -> \r\n
      ::tcsetattr(slave, TCSANOW, &t);
    }
    std::vector<std::string> argv_s = {TOOLUSE_CLI_PATH};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_s = {"PATH=/usr/bin:/bin", "HOME=" + cwd.string(), "TERM=xterm",
                                      "XDG_CONFIG_HOME=" + (cwd / "config").string(),
                                      "OPENAI_API_KEY=sk-test"};
    std::vector<char*> envp;
    for (auto& e : env_s) envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (stdin_on_terminal) posix_spawn_file_actions_adddup2(&fa, slave, 0);
    else posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    auto out = (cwd / "stdout.txt").string();
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, slave, 2);
    posix_spawn_file_actions_addclose(&fa, master_);
    posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);  // the pty can become its terminal
    if (posix_spawn(&pid_, argv[0], &fa, &attr, argv.data(), envp.data()) != 0) pid_ = -1;
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    ::close(slave);
  }
  ~terminal_session() {
    if (pid_ > 0) finish();
    if (master_ >= 0) ::close(master_);
  }

  bool started() const { return pid_ > 0; }
  void type(std::string_view keys) { (void)!::write(master_, keys.data(), keys.size()); }

  /// wait_for reads until `needle` has appeared `times` times in the output (false after 30 s
  /// without it or at the end of the output).
  bool wait_for(std::string_view needle, int times = 1) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (count(needle) < times) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || !read_some(static_cast<int>(left.count()))) return false;
    }
    return true;
  }

  /// finish reads to the end of the output and returns the exit status.
  int finish() {
    while (read_some(30000)) {
    }
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  const std::string& output() const { return output_; }
  std::string stdout_text() const { return read_file(cwd_ / "stdout.txt"); }

 private:
  int count(std::string_view needle) const {
    int n = 0;
    for (auto at = output_.find(needle); at != std::string::npos; at = output_.find(needle, at + 1))
      ++n;
    return n;
  }
  bool read_some(int timeout_ms) {
    pollfd p{.fd = master_, .events = POLLIN, .revents = 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return false;
    char buf[4096];
    auto n = ::read(master_, buf, sizeof buf);
    if (n <= 0) return false;  // EIO: every copy of the slave side is closed (program ended)
    output_.append(buf, static_cast<size_t>(n));
    return true;
  }

  std::filesystem::path cwd_;
  int master_ = -1;
  pid_t pid_ = -1;
  std::string output_;
};

const std::string clear_line = "\r\x1b[K";

TEST(terminal_cli, run_draws_a_spinner_while_the_tool_runs_and_clears_it) {
  fake_llm_server server;
  temp_dir dir;
  server.push(openai_response({.calls = {{"call_1", "calculator", R"({"expression":"2*3"})"}}}, false));
  server.push(openai_response({.text = "It is 6."}, false));
  terminal_session s({"run", "What is 2*3?", "--provider", "openai", "--base-url",
                      server.url("/v1"), "--model", "m", "--tools", "calculator", "--no-stream"},
                     dir.path(), false);
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
  server.push(openai_response({.calls = {{"call_1", "calculator", R"({"expression":"2*3"})"}}}, false));
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
                     dir.path(), true);
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
                     dir.path(), true);
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
