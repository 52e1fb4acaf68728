// stdio_client_transport against real children: tooluse's own MCP server and small shell
// scripts that crash, print non-JSON, or ignore the shutdown steps.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <filesystem>
#include <mutex>

#include "support/test_support.hpp"
#include "tooluse/mcp/stdio_client_transport.hpp"
#include "unit/mcp_client/stdio_recorder.hpp"

namespace stdio_transport_test {
using namespace tooluse;
using namespace std::chrono_literals;

using tooluse::testing::recorder;
using tooluse::testing::shell;

TEST(stdio_client_transport, talks_to_tooluse_mcp_server) {
  if (!std::filesystem::exists(TOOLUSE_CLI_PATH)) TOOLUSE_PEER_MISSING(std::string("tooluse CLI not built at ") + TOOLUSE_CLI_PATH);
  recorder r;
  mcp::stdio_client_transport t({.command = {TOOLUSE_CLI_PATH, "mcp", "serve", "--stdio"},
                                 .name = "tooluse", .on_log = r.logger()});
  ASSERT_TRUE(t.start(r.handlers()));
  json init = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
               {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                           {"clientInfo", {{"name", "test"}, {"version", "1"}}}}}};
  ASSERT_TRUE(t.send(init));
  ASSERT_TRUE(r.wait([&] { return !r.messages.empty(); }));
  EXPECT_EQ(r.messages[0]["id"], 1);
  EXPECT_TRUE(r.messages[0]["result"].contains("serverInfo"));
  t.close();
  ASSERT_TRUE(t.exit_status());
  EXPECT_EQ(t.exit_status()->code, 0);  // it exits on stdin EOF: no signal needed
  EXPECT_FALSE(r.closed);
}

TEST(stdio_client_transport, reports_crash_with_status_and_stderr) {
  recorder r;
  mcp::stdio_client_transport t(shell("echo 'fatal: no config' >&2; exit 3", r));
  ASSERT_TRUE(t.start(r.handlers()));
  ASSERT_TRUE(r.wait([&] { return r.closed.has_value(); }));
  EXPECT_EQ(r.closed->code, errc::io_error);
  EXPECT_NE(r.closed->message.find("stdio server `sh` exited with status 3"), std::string::npos)
      << r.closed->message;
  EXPECT_NE(r.closed->message.find("fatal: no config"), std::string::npos);
  EXPECT_EQ(t.exit_status()->code, 3);
  auto sent = t.send(json{{"jsonrpc", "2.0"}, {"method", "x"}});
  EXPECT_FALSE(sent);
}

TEST(stdio_client_transport, skips_non_json_stdout_lines) {
  recorder r;
  mcp::stdio_client_transport t(shell(
      "echo 'Server starting...'; echo '{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}'; exec cat >/dev/null", r));
  ASSERT_TRUE(t.start(r.handlers()));
  ASSERT_TRUE(r.wait([&] { return !r.messages.empty(); }));
  EXPECT_EQ(r.messages[0]["method"], "ping");
  t.close();
  ASSERT_EQ(r.logs.size(), 1u);
  EXPECT_NE(r.logs[0].find("not JSON-RPC on stdout: Server starting..."), std::string::npos);
  EXPECT_EQ(t.exit_status()->code, 0);
}

TEST(stdio_client_transport, passes_stderr_lines_to_log) {
  recorder r;
  mcp::stdio_client_transport t(shell("echo one >&2; echo two >&2; exec cat >/dev/null", r));
  ASSERT_TRUE(t.start(r.handlers()));
  ASSERT_TRUE(r.wait([&] { return r.logs.size() == 2; }));
  EXPECT_EQ(r.logs, (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(t.stderr_tail(), (std::vector<std::string>{"one", "two"}));
}

TEST(stdio_client_transport, sends_sigterm_when_stdin_close_is_ignored) {
  recorder r;
  mcp::stdio_client_transport t(shell("echo '{}'; exec sleep 1000", r));
  ASSERT_TRUE(t.start(r.handlers()));
  ASSERT_TRUE(r.wait([&] { return !r.messages.empty(); }));
  t.close();
  ASSERT_TRUE(t.exit_status());
  EXPECT_EQ(t.exit_status()->signal, SIGTERM);
}

TEST(stdio_client_transport, sends_sigkill_when_sigterm_is_ignored) {
  recorder r;
  mcp::stdio_client_transport t(shell("trap '' TERM; echo '{}'; exec sleep 1000", r));
  ASSERT_TRUE(t.start(r.handlers()));
  ASSERT_TRUE(r.wait([&] { return !r.messages.empty(); }));  // the trap is set by now
  t.close();
  ASSERT_TRUE(t.exit_status());
  EXPECT_EQ(t.exit_status()->signal, SIGKILL);
  EXPECT_FALSE(r.closed);
}

TEST(stdio_client_transport, sets_environment_and_working_folder) {
  recorder r;
  tooluse::testing::temp_dir dir;
  auto o = shell("printf '{\"cwd\":\"%s\",\"v\":\"%s\"}\\n' \"$PWD\" \"$MY_VAR\"; exec cat", r);
  o.env = {{"MY_VAR", "hello world"}};
  o.cwd = dir.path().string();
  mcp::stdio_client_transport t(o);
  ASSERT_TRUE(t.start(r.handlers()));
  ASSERT_TRUE(r.wait([&] { return !r.messages.empty(); }));
  EXPECT_EQ(r.messages[0]["v"], "hello world");
  EXPECT_EQ(std::filesystem::canonical(r.messages[0]["cwd"].get<std::string>()),
            std::filesystem::canonical(dir.path()));
}

TEST(stdio_client_transport, child_inherits_no_other_descriptors) {
  recorder r;
  int fd = ::open("/dev/null", O_RDONLY);  // deliberately without O_CLOEXEC
  ASSERT_GE(fd, 3);
  mcp::stdio_client_transport t(shell("echo '{}'; exec cat", r));
  ASSERT_TRUE(t.start(r.handlers()));
  ASSERT_TRUE(r.wait([&] { return !r.messages.empty(); }));
  auto path = "/proc/" + std::to_string(t.pid()) + "/fd/" + std::to_string(fd);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::exists("/proc/" + std::to_string(t.pid()) + "/fd/0"));
  ::close(fd);
}

TEST(stdio_client_transport, start_fails_clearly_for_missing_program) {
  recorder r;
  mcp::stdio_client_transport t({.command = {"tooluse-no-such-server"}, .on_log = r.logger()});
  auto ok = t.start(r.handlers());
  ASSERT_FALSE(ok);
  EXPECT_EQ(ok.error().code, errc::io_error);
  EXPECT_NE(ok.error().message.find("cannot start stdio server `tooluse-no-such-server`"),
            std::string::npos)
      << ok.error().message;
  EXPECT_NE(ok.error().message.find("PATH"), std::string::npos);
}

TEST(stdio_client_transport, close_from_on_closed_handler_does_not_deadlock) {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  auto t = std::make_shared<mcp::stdio_client_transport>(
      mcp::stdio_server_options{.command = {"/bin/sh", "-c", "exit 0"}, .on_log = [](auto) {}});
  ASSERT_TRUE(t->start({.on_message = [](json) {},
                        .on_closed =
                            [&](const error&) {
                              t->close();
                              std::lock_guard lock(m);
                              done = true;
                              cv.notify_all();
                            }}));
  std::unique_lock lock(m);
  EXPECT_TRUE(cv.wait_for(lock, 20s, [&] { return done; }));
}

TEST(stdio_client_transport, rejects_empty_command) {
  EXPECT_THROW(mcp::stdio_client_transport({}), std::invalid_argument);
}
}  // namespace stdio_transport_test
