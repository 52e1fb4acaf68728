// stdio_client_transport's edges against real children (small shell scripts): starting twice,
// sending before start and after close, stdout lines that are blank, scalar or over the limit,
// a last line without a newline, stderr lines over their limit, the stderr tail kept for the
// exit report, which writes count as a request given up (max_unanswered), and the names a
// transport describes itself by.
#include <gtest/gtest.h>

#include <condition_variable>
#include <csignal>
#include <mutex>

#include "tooluse/mcp/stdio_client_transport.hpp"
#include "unit/mcp_client/stdio_recorder.hpp"

namespace stdio_transport_edges_test {
using namespace tooluse;
using namespace std::chrono_literals;

namespace {

using seen = tooluse::testing::recorder;
using tooluse::testing::shell;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST(stdio_transport_edges, a_second_start_is_refused) {
  seen s;
  mcp::stdio_client_transport t(shell("exec cat >/dev/null", s));
  ASSERT_TRUE(t.start(s.handlers()));
  auto again = t.start(s.handlers());
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, errc::invalid_argument);
  EXPECT_EQ(again.error().message, "stdio server `sh`: start() called twice");
  t.close();
  EXPECT_EQ(t.exit_status()->code, 0);  // the one child ended on stdin EOF
}

TEST(stdio_transport_edges, sending_before_start_or_after_close_says_it_is_not_running) {
  seen s;
  mcp::stdio_client_transport t(shell("exec cat >/dev/null", s));
  auto early = t.send(json{{"jsonrpc", "2.0"}, {"method", "ping"}});
  ASSERT_FALSE(early);
  EXPECT_EQ(early.error().code, errc::io_error);
  EXPECT_EQ(early.error().message, "stdio server `sh` is not running");
  EXPECT_EQ(t.pid(), 0);
  EXPECT_FALSE(t.exit_status());

  ASSERT_TRUE(t.start(s.handlers()));
  EXPECT_GT(t.pid(), 0);
  t.close();
  auto late = t.send(json{{"jsonrpc", "2.0"}, {"method", "ping"}});
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().message, "stdio server `sh` is not running");
  EXPECT_FALSE(s.closed);  // close() by us is not reported as the connection ending
}

TEST(stdio_transport_edges, close_before_start_does_nothing) {
  seen s;
  mcp::stdio_client_transport t(shell("exit 0", s));
  t.close();
  EXPECT_FALSE(t.exit_status());
  EXPECT_TRUE(t.start(s.handlers()));  // still usable
  ASSERT_TRUE(s.wait([&] { return s.closed.has_value(); }));
  EXPECT_TRUE(contains(s.closed->message, "stdio server `sh` exited with status 0"))
      << s.closed->message;
}

TEST(stdio_transport_edges, blank_and_scalar_lines_are_not_messages) {
  seen s;
  mcp::stdio_client_transport t(
      shell("echo '   '; echo 42; echo '\"just a string\"'; echo "
            "'{\"jsonrpc\":\"2.0\",\"method\":\"a\"}';"
            " echo '[{\"jsonrpc\":\"2.0\",\"method\":\"b\"}]'; exec cat >/dev/null",
            s));
  ASSERT_TRUE(t.start(s.handlers()));
  ASSERT_TRUE(s.wait([&] { return s.messages.size() == 2; }));
  t.close();
  EXPECT_EQ(s.messages[0]["method"], "a");
  ASSERT_TRUE(s.messages[1].is_array());  // a batch is passed on whole
  EXPECT_EQ(s.messages[1][0]["method"], "b");
  ASSERT_EQ(s.logs.size(), 2u);  // the blank line is skipped silently
  EXPECT_TRUE(contains(s.logs[0], "not JSON-RPC on stdout: 42")) << s.logs[0];
  EXPECT_TRUE(contains(s.logs[1], "not JSON-RPC on stdout: \"just a string\"")) << s.logs[1];
}

TEST(stdio_transport_edges, a_last_line_without_newline_is_delivered_before_the_exit) {
  seen s;
  mcp::stdio_client_transport t(
      shell("printf '{\"jsonrpc\":\"2.0\",\"method\":\"bye\"}'; exit 0", s));
  ASSERT_TRUE(t.start(s.handlers()));
  ASSERT_TRUE(s.wait([&] { return s.closed.has_value(); }));
  ASSERT_EQ(s.messages.size(), 1u);
  EXPECT_EQ(s.messages[0]["method"], "bye");
  EXPECT_EQ(s.closed->code, errc::io_error);
  EXPECT_TRUE(contains(s.closed->message, "exited with status 0")) << s.closed->message;
  auto sent = t.send(json{{"jsonrpc", "2.0"}, {"method", "ping"}});
  ASSERT_FALSE(sent);  // after the exit, a send reports how the server ended
  EXPECT_TRUE(contains(sent.error().message, "exited with status 0")) << sent.error().message;
}

TEST(stdio_transport_edges, an_overlong_line_without_an_id_is_skipped_and_logged) {
  seen s;
  auto o = shell(
      "printf '{\"jsonrpc\":\"2.0\",\"method\":\"big\",\"params\":\"'; head -c 300 /dev/zero | "
      "tr '\\0' x; echo '\"}'; echo '{\"jsonrpc\":\"2.0\",\"method\":\"after\"}'; "
      "exec cat >/dev/null",
      s);
  o.max_line_bytes = 100;
  mcp::stdio_client_transport t(o);
  ASSERT_TRUE(t.start(s.handlers()));
  ASSERT_TRUE(s.wait([&] { return !s.messages.empty(); }));
  t.close();
  EXPECT_EQ(s.messages[0]["method"], "after");
  EXPECT_EQ(s.messages.size(), 1u);
  EXPECT_TRUE(s.failed.empty());  // no id: no request to fail
  EXPECT_TRUE(s.logged("skipping a line longer than the limit"));
  EXPECT_TRUE(s.logged("stdio_server_options::max_line_bytes"));
}

TEST(stdio_transport_edges, an_overlong_reply_fails_the_request_it_answers) {
  seen s;
  auto o = shell(
      "printf '{\"jsonrpc\":\"2.0\",\"id\":\"r-1\",\"result\":\"'; head -c 300 /dev/zero | "
      "tr '\\0' y; echo '\"}'; exec cat >/dev/null",
      s);
  o.max_line_bytes = 100;
  mcp::stdio_client_transport t(o);
  ASSERT_TRUE(t.start(s.handlers()));
  ASSERT_TRUE(s.wait([&] { return !s.failed.empty(); }));
  t.close();
  EXPECT_EQ(s.failed[0].first, "r-1");
  EXPECT_EQ(s.failed[0].second.code, errc::limit_exceeded);
  EXPECT_TRUE(contains(s.failed[0].second.message, "stdio server `sh`"))
      << s.failed[0].second.message;
  EXPECT_TRUE(s.messages.empty());
}

TEST(stdio_transport_edges, an_overlong_stderr_line_is_cut_and_the_next_kept) {
  seen s;
  auto o = shell(
      "head -c 5000 /dev/zero | tr '\\0' x >&2; echo >&2; echo next >&2; "
      "exec cat >/dev/null",
      s);
  o.max_stderr_line_bytes = 100;
  mcp::stdio_client_transport t(o);
  ASSERT_TRUE(t.start(s.handlers()));
  ASSERT_TRUE(s.wait([&] { return s.logs.size() == 2; }));
  t.close();
  EXPECT_EQ(s.logs[0].rfind("xxxx", 0), 0u) << s.logs[0];
  EXPECT_TRUE(contains(s.logs[0],
                       "... (line cut at stdio_server_options::max_stderr_line_bytes = 100 bytes)"))
      << s.logs[0];
  EXPECT_LT(s.logs[0].size(), 400u);  // not the 5000 bytes
  EXPECT_EQ(s.logs[1], "next");
  auto tail = t.stderr_tail();
  ASSERT_EQ(tail.size(), 2u);
  EXPECT_EQ(tail[1], "next");
}

TEST(stdio_transport_edges, the_exit_report_shows_only_the_last_stderr_lines) {
  seen s;
  auto o = shell("echo line-1 >&2; echo line-2 >&2; echo line-3 >&2; exit 4", s);
  o.stderr_tail_lines = 2;
  mcp::stdio_client_transport t(o);
  ASSERT_TRUE(t.start(s.handlers()));
  ASSERT_TRUE(s.wait([&] { return s.closed.has_value(); }));
  EXPECT_TRUE(contains(s.closed->message,
                       "stdio server `sh` exited with status 4; last stderr lines:\n  line-2\n"
                       "  line-3"))
      << s.closed->message;
  EXPECT_FALSE(contains(s.closed->message, "line-1"));
  EXPECT_EQ(t.stderr_tail(), (std::vector<std::string>{"line-2", "line-3"}));
  EXPECT_EQ(s.logs.size(), 3u);  // every line still reached the log
}

TEST(stdio_transport_edges, a_child_killed_by_a_signal_is_reported_so) {
  seen s;
  mcp::stdio_client_transport t(shell("echo dying >&2; kill -9 $$", s));
  ASSERT_TRUE(t.start(s.handlers()));
  ASSERT_TRUE(s.wait([&] { return s.closed.has_value(); }));
  EXPECT_TRUE(contains(s.closed->message, "stdio server `sh` was killed by signal 9"))
      << s.closed->message;
  EXPECT_TRUE(contains(s.closed->message, "dying"));
  ASSERT_TRUE(t.exit_status());
  EXPECT_EQ(t.exit_status()->signal, 9);
}

TEST(stdio_transport_edges, only_a_cancellation_naming_its_request_counts_as_given_up) {
  seen s;
  // Reads everything and answers nothing, its stdout kept open: a child that gives up its stdout
  // (`exec cat >/dev/null`) ends the connection as soon as the reader sees the pipe close.
  auto o = shell("while read -r line; do :; done", s);
  o.max_unanswered = 2;
  mcp::stdio_client_transport t(o);
  ASSERT_TRUE(t.start(s.handlers()));
  const json one = 1, two = 2;
  auto cancel = [](const json& id) {
    return json{{"jsonrpc", "2.0"},
                {"method", "notifications/cancelled"},
                {"params", {{"requestId", id}, {"reason", "timed out"}}}};
  };
  const json ping = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}};
  // A cancellation without the envelope (a user's notify) and another message written with a
  // request id are not the client giving up: they count nothing.
  ASSERT_TRUE(t.send(cancel(one)));
  ASSERT_TRUE(t.write({.message = ping, .request = &one}));
  ASSERT_TRUE(t.write({.message = cancel(one), .request = &one}));
  EXPECT_FALSE(s.logged("stopped answering"));  // one of two
  ASSERT_TRUE(t.write({.message = cancel(two), .request = &two}));
  EXPECT_TRUE(s.logged("stdio server `sh` stopped answering: 2 requests in a row got no reply "
                       "(stdio_server_options::max_unanswered = 2), so it was killed"));
  ASSERT_TRUE(s.wait([&] { return s.closed.has_value(); })) << "the child was not killed";
  EXPECT_EQ(t.exit_status()->signal, SIGTERM);
}

TEST(stdio_transport_edges, it_describes_itself_by_name_or_by_its_command) {
  seen s;
  mcp::stdio_client_transport named(shell("exit 0", s));
  EXPECT_EQ(named.describe(), "stdio server `sh`");
  mcp::stdio_client_transport unnamed({.command = {"/bin/sh", "-c", "exit 0"}});
  EXPECT_EQ(unnamed.describe(), "stdio server `/bin/sh -c exit 0`");
  EXPECT_THROW(mcp::stdio_client_transport({.command = {""}}), std::invalid_argument);
}
}  // namespace stdio_transport_edges_test
