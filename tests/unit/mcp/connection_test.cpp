// The transport model (connection.hpp): memory_pipe and fd_connection deliver messages in
// order and report bad input and the end of input; mcp::serve answers over any connection;
// memory_transport gives a server to a connection's other end.
#include <gtest/gtest.h>
#include <unistd.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "tooluse/mcp/connection.hpp"
#include "tooluse/mcp/server.hpp"

namespace mcp = tooluse::mcp;
using tooluse::error;
using tooluse::errc;
using tooluse::json;

namespace {

// inbox collects what a connection delivers to its handlers.
struct inbox {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<json> messages;
  std::vector<std::pair<std::string, errc>> bad;
  std::optional<error> closed;

  mcp::connection_handlers handlers() {
    mcp::connection_handlers h;
    h.on_message = [this](json m) {
      std::lock_guard lock(mu);
      messages.push_back(std::move(m));
      cv.notify_all();
    };
    h.on_bad_input = [this](std::string_view head, const error& why) {
      std::lock_guard lock(mu);
      bad.emplace_back(std::string(head), why.code);
      cv.notify_all();
    };
    h.on_closed = [this](const error& why) {
      std::lock_guard lock(mu);
      closed = why;
      cv.notify_all();
    };
    return h;
  }
  // wait_until waits (10 s bound) for `pred`, under the lock.
  template <class F>
  bool wait_until(F pred) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(10), pred);
  }
  json next() {
    std::unique_lock lock(mu);
    cv.wait_for(lock, std::chrono::seconds(10), [&] { return !messages.empty(); });
    if (messages.empty()) return nullptr;
    json m = std::move(messages.front());
    messages.pop_front();
    return m;
  }
};

json ping(int id) { return {{"jsonrpc", "2.0"}, {"id", id}, {"method", "ping"}}; }

TEST(mcp_connection, memory_pipe_delivers_in_order_and_reports_the_end) {
  inbox in;  // declared first: it must outlive the connections that call into it
  auto [a, b] = mcp::memory_pipe({.max_line_bytes = 64});
  ASSERT_TRUE(b->start(in.handlers()));
  ASSERT_TRUE(a->start({}));
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(a->send(ping(i)));
  ASSERT_TRUE(mcp::memory_send_text(*a, "not json"));
  ASSERT_TRUE(mcp::memory_send_text(*a, std::string(100, 'x')));
  for (int i = 0; i < 100; ++i) EXPECT_EQ(in.next()["id"], i);
  ASSERT_TRUE(in.wait_until([&] { return in.bad.size() == 2; }));
  EXPECT_EQ(in.bad[0].second, errc::parse_error);
  EXPECT_EQ(in.bad[1].second, errc::limit_exceeded);
  a->close();
  ASSERT_TRUE(in.wait_until([&] { return in.closed.has_value(); }));
  EXPECT_EQ(in.closed->code, errc::cancelled);  // an orderly end
  EXPECT_FALSE(b->send(ping(1)));                // the peer closed: nobody would read it
  b->close();
}

TEST(mcp_connection, fd_connection_frames_lines_and_reports_end_of_input) {
  int to_conn[2], from_conn[2];
  ASSERT_EQ(::pipe(to_conn), 0);
  ASSERT_EQ(::pipe(from_conn), 0);
  inbox in;
  auto c = mcp::fd_connection(to_conn[0], from_conn[1], {.max_line_bytes = 1024}, "test pipe");
  ASSERT_TRUE(c->start(in.handlers()));
  std::string input = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n\n{\"jsonrpc\":\"2.0\",\"id\":2,";
  ASSERT_EQ(::write(to_conn[1], input.data(), input.size()), static_cast<ssize_t>(input.size()));
  std::string rest = "\"method\":\"ping\"}\n{oops\n";
  ASSERT_EQ(::write(to_conn[1], rest.data(), rest.size()), static_cast<ssize_t>(rest.size()));
  EXPECT_EQ(in.next()["id"], 1);
  EXPECT_EQ(in.next()["id"], 2);  // split across two writes
  ASSERT_TRUE(in.wait_until([&] { return in.bad.size() == 1; }));
  EXPECT_EQ(in.bad[0].second, errc::parse_error);
  ASSERT_TRUE(c->send(ping(3)));
  char buf[256];
  auto n = ::read(from_conn[0], buf, sizeof buf);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf, static_cast<std::size_t>(n)), "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n");
  ::close(to_conn[1]);
  ASSERT_TRUE(in.wait_until([&] { return in.closed.has_value(); }));
  EXPECT_EQ(in.closed->code, errc::cancelled);
  c->close();
  for (int fd : {to_conn[0], from_conn[0], from_conn[1]}) ::close(fd);
}

TEST(mcp_connection, close_stops_delivery_without_on_closed) {
  inbox in;
  auto [a, b] = mcp::memory_pipe();
  ASSERT_TRUE(b->start(in.handlers()));
  b->close();
  b->close();  // idempotent
  ASSERT_TRUE(a->start({}));
  (void)a->send(ping(1));
  a->close();
  std::lock_guard lock(in.mu);
  EXPECT_FALSE(in.closed.has_value());
}

TEST(mcp_connection, serve_answers_over_a_memory_pipe_and_returns_at_the_end) {
  mcp::server srv({.name = "conn-test", .version = "1"});
  inbox in;
  auto [client, server_end] = mcp::memory_pipe();
  tooluse::status served;
  std::thread t([&, end = server_end.get()] { served = mcp::serve(srv, *end); });
  ASSERT_TRUE(client->start(in.handlers()));
  ASSERT_TRUE(mcp::memory_send_text(*client, "{not json"));
  ASSERT_TRUE(client->send(ping(7)));
  json first = in.next();
  EXPECT_EQ(first["error"]["code"], -32700);
  json second = in.next();
  EXPECT_EQ(second["id"], 7);
  EXPECT_TRUE(second.contains("result"));
  client->close();  // the server sees the end of input
  t.join();
  EXPECT_TRUE(served) << served.error().message;
}

TEST(mcp_connection, memory_transport_makes_independent_served_connections) {
  mcp::server srv({.name = "conn-test", .version = "1"});
  inbox in1, in2;  // outlive the connections, whose reader threads may report the end late
  mcp::memory_transport transport(srv);
  auto c1 = transport.connect();
  auto c2 = transport.connect();
  ASSERT_TRUE(c1 && c2);
  ASSERT_TRUE((*c1)->start(in1.handlers()));
  ASSERT_TRUE((*c2)->start(in2.handlers()));
  ASSERT_TRUE((*c1)->send(ping(1)));
  ASSERT_TRUE((*c2)->send(ping(2)));
  EXPECT_EQ(in1.next()["id"], 1);
  EXPECT_EQ(in2.next()["id"], 2);
  (*c1)->close();
  ASSERT_TRUE((*c2)->send(ping(3)));  // the other connection is unaffected
  EXPECT_EQ(in2.next()["id"], 3);
}

}  // namespace
