// The newline-delimited connections (line_connection.cpp) at their edges: start() twice,
// sending on a closed end, a peer that closed, memory_send_text on another kind of connection,
// close() from inside a handler, no on_closed after close(), an fd_connection whose output is
// gone, and describe() naming each end.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>

#include "tooluse/mcp/connection.hpp"

namespace line_connection_test {
namespace mcp = tooluse::mcp;
using namespace std::chrono_literals;
using tooluse::errc;
using tooluse::error;
using tooluse::json;

namespace {

struct inbox {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<json> messages;
  int closed = 0;
  std::optional<errc> closed_code;
  mcp::connection_handlers handlers() {
    mcp::connection_handlers h;
    h.on_message = [this](json m) {
      std::lock_guard lock(mu);
      messages.push_back(std::move(m));
      cv.notify_all();
    };
    h.on_closed = [this](const error& e) {
      std::lock_guard lock(mu);
      ++closed;
      closed_code = e.code;
      cv.notify_all();
    };
    return h;
  }
  template <class F>
  bool wait_until(F pred) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, 10s, pred);
  }
};

json note(int n) { return {{"jsonrpc", "2.0"}, {"method", "n"}, {"params", {{"n", n}}}}; }

}  // namespace

TEST(mcp_line_connection, start_twice_is_an_error) {
  auto [a, b] = mcp::memory_pipe();
  ASSERT_TRUE(a->start({}));
  auto again = a->start({});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, errc::invalid_argument);
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  auto fd = mcp::fd_connection(fds[0], fds[1], {}, "pipe");
  ASSERT_TRUE(fd->start({}));
  auto fd_again = fd->start({});
  ASSERT_FALSE(fd_again);
  EXPECT_NE(fd_again.error().message.find("pipe"), std::string::npos);
  fd->close();
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(mcp_line_connection, ends_describe_themselves) {
  auto [a, b] = mcp::memory_pipe();
  EXPECT_NE(a->describe().find("client"), std::string::npos);
  EXPECT_NE(b->describe().find("server"), std::string::npos);
  auto fd = mcp::fd_connection(0, 1, {}, "my stdio");
  EXPECT_EQ(fd->describe(), "my stdio");
}

TEST(mcp_line_connection, a_closed_end_refuses_to_send_and_its_peer_sees_the_end) {
  inbox in;
  auto [a, b] = mcp::memory_pipe();
  ASSERT_TRUE(b->start(in.handlers()));
  ASSERT_TRUE(a->start({}));
  ASSERT_TRUE(a->send(note(1)));
  ASSERT_TRUE(in.wait_until([&] { return in.messages.size() == 1; }));
  a->close();
  auto after = a->send(note(2));
  ASSERT_FALSE(after);
  EXPECT_EQ(after.error().code, errc::io_error);
  EXPECT_FALSE(mcp::memory_send_text(*a, "{}"));
  ASSERT_TRUE(in.wait_until([&] { return in.closed == 1; }));
  EXPECT_EQ(in.closed_code, errc::cancelled);  // an orderly end
  // The survivor cannot reach the closed end either.
  EXPECT_FALSE(b->send(note(3)));
  a->close();  // idempotent
}

TEST(mcp_line_connection, close_does_not_report_on_closed) {
  inbox in;
  auto [a, b] = mcp::memory_pipe();
  ASSERT_TRUE(b->start(in.handlers()));
  ASSERT_TRUE(a->start({}));
  b->close();
  a->close();
  EXPECT_EQ(in.closed, 0);
}

TEST(mcp_line_connection, close_from_inside_a_handler_returns) {
  auto [a, b] = mcp::memory_pipe();
  std::promise<void> closed;
  mcp::connection* self = b.get();
  mcp::connection_handlers h;
  h.on_message = [&](json) {
    self->close();  // must not wait for the reader it runs on
    closed.set_value();
  };
  ASSERT_TRUE(b->start(std::move(h)));
  ASSERT_TRUE(a->start({}));
  ASSERT_TRUE(a->send(note(1)));
  EXPECT_EQ(closed.get_future().wait_for(10s), std::future_status::ready);
}

TEST(mcp_line_connection, memory_send_text_needs_a_memory_end) {
  auto fd = mcp::fd_connection(0, 1);
  EXPECT_FALSE(mcp::memory_send_text(*fd, "{}"));
}

TEST(mcp_line_connection, an_fd_connection_reports_a_write_to_a_closed_pipe) {
  signal(SIGPIPE, SIG_IGN);
  int in[2], out[2];
  ASSERT_EQ(::pipe2(in, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
  ::close(out[0]);
  auto c = mcp::fd_connection(in[0], out[1], {}, "broken");
  ASSERT_TRUE(c->start({}));
  auto sent = c->send(note(1));
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, errc::io_error);
  EXPECT_NE(sent.error().message.find("broken"), std::string::npos);
  c->close();
  for (int fd : {in[0], in[1], out[1]}) ::close(fd);
}

TEST(mcp_line_connection, an_fd_connection_reads_messages_and_the_end_of_input) {
  int in[2], out[2];
  ASSERT_EQ(::pipe2(in, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
  inbox box;
  auto c = mcp::fd_connection(in[0], out[1], {.max_line_bytes = 1024});
  ASSERT_TRUE(c->start(box.handlers()));
  std::string text = note(1).dump() + "\n\n  \n" + note(2).dump();  // the last line has no newline
  ASSERT_EQ(::write(in[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  ::close(in[1]);
  ASSERT_TRUE(box.wait_until([&] { return box.closed == 1; }));
  ASSERT_EQ(box.messages.size(), 2u);  // blank lines are skipped; the unterminated one arrives
  EXPECT_EQ(box.messages[1]["params"]["n"], 2);
  EXPECT_EQ(box.closed_code, errc::cancelled);
  // What the connection writes is one line per message.
  ASSERT_TRUE(c->send(note(7)));
  char buf[256];
  ssize_t n = ::read(out[0], buf, sizeof buf);
  ASSERT_GT(n, 0);
  std::string line(buf, static_cast<std::size_t>(n));
  EXPECT_EQ(line, note(7).dump() + "\n");
  c->close();
  for (int fd : {in[0], out[0], out[1]}) ::close(fd);
}

TEST(mcp_line_connection, many_threads_send_whole_lines) {
  inbox in;
  auto [a, b] = mcp::memory_pipe();
  ASSERT_TRUE(b->start(in.handlers()));
  ASSERT_TRUE(a->start({}));
  std::vector<std::thread> senders;
  for (int t = 0; t < 4; ++t)
    senders.emplace_back([&, t, &sender = a] {
      for (int i = 0; i < 50; ++i) (void)sender->send(note(t * 1000 + i));
    });
  for (auto& s : senders) s.join();
  ASSERT_TRUE(in.wait_until([&] { return in.messages.size() == 200; }));
  // Each sender's messages arrive in its own order.
  std::map<int, int> last;
  for (const auto& m : in.messages) {
    int n = m["params"]["n"];
    int t = n / 1000;
    if (last.count(t)) {
      EXPECT_LT(last[t], n);
    }
    last[t] = n;
  }
}
}  // namespace line_connection_test
