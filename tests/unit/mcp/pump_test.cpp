// mcp::serve / serve_fd and the message pump over real pipes and memory pipes: framing (CRLF,
// blank lines, several messages in one write), -32700 / -32600 answers for bad input (with
// the request id when a too-long line lets it be read), batches and invalid messages, the
// max_concurrent_requests pool and the max_pending_bytes bound, unknown names quoted cut, running requests finishing after the input ends, server
// requests failed at the end of input, and a failed write reported by serve_fd.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <future>
#include <set>
#include <string>
#include <thread>

#include "support/response_gate.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using namespace std::chrono_literals;
using tooluse::errc;
using tooluse::json;
using tooluse::tool_result;
using tooluse::testing::gate_opener;
using tooluse::testing::response_gate;

namespace {

// piped_server runs serve_fd on a thread over two pipes; the test writes requests and reads
// replies line by line.
struct piped_server {
  int to_server[2]{-1, -1}, from_server[2]{-1, -1};
  std::future<tooluse::status> served;
  std::string buffer;

  piped_server(mcp::server& srv, mcp::stream_options o = {}) {
    EXPECT_EQ(::pipe2(to_server, O_CLOEXEC), 0);
    EXPECT_EQ(::pipe2(from_server, O_CLOEXEC), 0);
    served = std::async(std::launch::async, [&srv, o, in = to_server[0], out = from_server[1]] {
      return mcp::serve_fd(srv, in, out, o);
    });
  }
  ~piped_server() {
    end_input();
    if (served.valid()) served.wait();
    for (int fd : {to_server[0], from_server[0], from_server[1]})
      if (fd >= 0) ::close(fd);
  }
  void write_text(const std::string& s) {
    ASSERT_EQ(::write(to_server[1], s.data(), s.size()), static_cast<ssize_t>(s.size()));
  }
  void write(const json& j) { write_text(j.dump() + "\n"); }
  void end_input() {
    if (to_server[1] >= 0) ::close(to_server[1]);
    to_server[1] = -1;
  }
  // read_line reads one reply line (blocking; the server always answers or the test fails by
  // ctest's timeout, never by a sleep).
  json read() {
    for (;;) {
      auto nl = buffer.find('\n');
      if (nl != std::string::npos) {
        std::string line = buffer.substr(0, nl);
        buffer.erase(0, nl + 1);
        return json::parse(line);
      }
      char chunk[4096];
      ssize_t n = ::read(from_server[0], chunk, sizeof chunk);
      if (n <= 0) return nullptr;
      buffer.append(chunk, static_cast<std::size_t>(n));
    }
  }
};

}  // namespace

TEST(mcp_pump, frames_crlf_blank_lines_and_several_messages_per_write) {
  mcp::server srv({.name = "p", .version = "1"});
  piped_server p(srv);
  p.write_text("\r\n   \n" + req(1, "ping").dump() + "\r\n" + req(2, "ping").dump() + "\n" + req(3, "ping").dump());
  p.write_text("\n");
  for (int id : {1, 2, 3}) EXPECT_EQ(p.read()["id"], id);
  p.end_input();
  auto status = p.served.get();
  EXPECT_TRUE(status) << status.error().message;
}

TEST(mcp_pump, bad_input_gets_parse_and_invalid_request_errors) {
  mcp::server srv({.name = "p", .version = "1"});
  piped_server p(srv, {.max_line_bytes = 200});
  p.write_text("{not json\n");
  json e1 = p.read();
  EXPECT_EQ(e1["error"]["code"], -32700);
  EXPECT_TRUE(e1["id"].is_null());
  // Too long: the id at the start of the line is still answered.
  std::string padded = R"({"jsonrpc":"2.0","id":77,"method":"ping","params":{"pad":")" + std::string(400, 'x') + "\"}}";
  p.write_text(padded + "\n");
  json e2 = p.read();
  EXPECT_EQ(e2["error"]["code"], -32600);
  EXPECT_EQ(e2["id"], 77);
  EXPECT_NE(e2["error"]["message"].get<std::string>().find("max_line_bytes"), std::string::npos);
  // The connection still works.
  p.write(req(5, "ping"));
  EXPECT_EQ(p.read()["id"], 5);
}

TEST(mcp_pump, non_messages_and_batches_are_invalid_requests) {
  mcp::server srv({.name = "p", .version = "1"});
  piped_server p(srv);
  p.write_text("42\n");
  EXPECT_EQ(p.read()["error"]["code"], -32600);
  p.write_text(R"({"jsonrpc":"1.0","id":3,"method":"ping"})" "\n");
  json old = p.read();
  EXPECT_EQ(old["error"]["code"], -32600);
  p.write_text(R"({"jsonrpc":"2.0","id":4})" "\n");
  EXPECT_EQ(p.read()["error"]["code"], -32600);
  p.write_text("[]\n");
  EXPECT_EQ(p.read()["error"]["code"], -32600);
  p.write(req(6, "ping"));
  EXPECT_EQ(p.read()["id"], 6);
}

TEST(mcp_pump, quick_requests_are_not_stuck_behind_a_blocked_tool) {
  mcp::server srv({.name = "p", .version = "1"});
  response_gate gate;
  gate_opener opener{gate};
  srv.add_tool({.name = "block"}, [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
    gate.wait();
    return tool_result::text("unblocked");
  });
  piped_server p(srv);
  p.write(req(1, "initialize", {{"protocolVersion", "2025-11-25"}}));
  EXPECT_EQ(p.read()["id"], 1);
  p.write(req(2, "tools/call", {{"name", "block"}}));
  ASSERT_TRUE(gate.wait_arrival());
  p.write(req(3, "ping"));
  EXPECT_EQ(p.read()["id"], 3);  // answered while the tool waits
  gate.open();
  json r = p.read();
  EXPECT_EQ(r["id"], 2);
  EXPECT_EQ(r["result"]["content"][0]["text"], "unblocked");
}

TEST(mcp_pump, the_request_pool_is_bounded) {
  mcp::server srv({.name = "p", .version = "1"});
  response_gate gate;
  gate_opener opener{gate};
  std::atomic<int> running{0}, peak{0};
  srv.add_tool({.name = "block"}, [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
    int now = ++running;
    int old = peak.load();
    while (now > old && !peak.compare_exchange_weak(old, now)) {}
    gate.wait();
    --running;
    return tool_result::text("ok");
  });
  piped_server p(srv, {.max_concurrent_requests = 2});
  p.write(req(0, "initialize", {{"protocolVersion", "2025-11-25"}}));
  p.read();
  for (int i = 1; i <= 5; ++i) p.write(req(i, "tools/call", {{"name", "block"}}));
  ASSERT_TRUE(gate.wait_arrival());
  gate.open();
  std::set<int> ids;
  for (int i = 0; i < 5; ++i) ids.insert(p.read()["id"].get<int>());
  EXPECT_EQ(ids, (std::set<int>{1, 2, 3, 4, 5}));
  EXPECT_LE(peak.load(), 2);
}

TEST(mcp_pump, large_requests_pause_reading_at_max_pending_bytes) {
  // A client sending large requests it never waits for: at 1 MiB of requests held, reading
  // pauses (so the pipe fills and the client's writes block) instead of taking all six.
  mcp::server srv({.name = "p", .version = "1"});
  response_gate gate;
  gate_opener opener{gate};
  std::mutex mu;
  std::condition_variable cv;
  int running = 0, peak = 0;
  srv.add_tool({.name = "hold"}, [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
    {
      std::lock_guard lock(mu);
      peak = std::max(peak, ++running);
      cv.notify_all();
    }
    gate.wait();
    std::lock_guard lock(mu);
    --running;
    return tool_result::text("ok");
  });
  piped_server p(srv, {.max_pending_bytes = 1 << 20});
  p.write(req(0, "initialize", {{"protocolVersion", "2025-11-25"}}));
  p.read();
  const std::string pad(400 * 1024, 'x');
  std::thread writer([&] {
    for (int i = 1; i <= 6; ++i)
      p.write(req(i, "tools/call", {{"name", "hold"}, {"arguments", {{"pad", pad}}}}));
  });
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 30s, [&] { return running == 2; }));
    // Nothing may start a third while two (800 KiB) are held; a regression shows within this
    // window (without the bound all six start at once), the correct code just waits it out.
    EXPECT_FALSE(cv.wait_for(lock, 300ms, [&] { return running > 2; })) << running << " running";
  }
  gate.open();
  std::set<int> ids;
  for (int i = 0; i < 6; ++i) ids.insert(p.read()["id"].get<int>());
  writer.join();
  EXPECT_EQ(ids, (std::set<int>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(peak, 2);
}

TEST(mcp_pump, an_unknown_name_is_quoted_cut_not_echoed_whole) {
  // A 1 MB method or tool name gets an answer of a few hundred bytes naming the size, so a
  // client cannot make the server write back what it sent.
  mcp::server srv({.name = "p", .version = "1"});
  piped_server p(srv);
  p.write(req(0, "initialize", {{"protocolVersion", "2025-11-25"}}));
  p.read();
  const std::string name(1000 * 1000, 'n');
  p.write(req(1, name));
  json r = p.read();
  EXPECT_EQ(r["error"]["code"], -32601);
  EXPECT_LT(r.dump().size(), 500u);
  EXPECT_NE(r["error"]["message"].get<std::string>().find("(1000000 bytes)"), std::string::npos) << r;
  p.write(req(2, "tools/call", {{"name", name}}));
  r = p.read();
  EXPECT_LT(r.dump().size(), 500u);
  EXPECT_NE(r["error"]["message"].get<std::string>().find("Unknown tool: nnn"), std::string::npos) << r;
}

TEST(mcp_pump, running_requests_answer_after_the_input_ends) {
  mcp::server srv({.name = "p", .version = "1"});
  response_gate gate;
  gate_opener opener{gate};
  srv.add_tool({.name = "block"}, [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
    gate.wait();
    return tool_result::text("finished");
  });
  piped_server p(srv);
  p.write(req(1, "initialize", {{"protocolVersion", "2025-11-25"}}));
  p.read();
  p.write(req(2, "tools/call", {{"name", "block"}}));
  ASSERT_TRUE(gate.wait_arrival());
  p.end_input();
  gate.open();
  json r = p.read();
  EXPECT_EQ(r["result"]["content"][0]["text"], "finished");
  EXPECT_TRUE(p.served.get());
}

TEST(mcp_pump, a_server_request_fails_when_the_input_ends) {
  mcp::server srv({.name = "p", .version = "1"});
  srv.add_tool({.name = "ask"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    auto r = ctx.request_client("roots/list", json::object(), 30s);
    return tool_result::text(r ? "answered" : r.error().code == errc::cancelled ? "cancelled" : r.error().message);
  });
  piped_server p(srv);
  p.write(req(1, "initialize", {{"protocolVersion", "2025-11-25"}}));
  p.read();
  p.write(req(2, "tools/call", {{"name", "ask"}}));
  json ask = p.read();
  ASSERT_EQ(ask["method"], "roots/list");
  p.end_input();
  json r = p.read();
  EXPECT_EQ(r["id"], 2);
  EXPECT_EQ(r["result"]["content"][0]["text"], "cancelled");
}

TEST(mcp_pump, serve_fd_reports_a_failed_write) {
  signal(SIGPIPE, SIG_IGN);
  mcp::server srv({.name = "p", .version = "1"});
  int in[2], out[2];
  ASSERT_EQ(::pipe2(in, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
  ::close(out[0]);  // nobody reads the output
  std::string line = req(1, "ping").dump() + "\n";
  ASSERT_EQ(::write(in[1], line.data(), line.size()), static_cast<ssize_t>(line.size()));
  ::close(in[1]);
  auto status = mcp::serve_fd(srv, in[0], out[1]);
  ::close(in[0]);
  ::close(out[1]);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code, errc::io_error);
}

TEST(mcp_pump, serve_on_a_started_connection_fails) {
  mcp::server srv({.name = "p", .version = "1"});
  auto [a, b] = mcp::memory_pipe();
  ASSERT_TRUE(b->start({}));
  auto status = mcp::serve(srv, *b);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code, errc::invalid_argument);
}

TEST(mcp_pump, memory_client_lines_over_the_limit_are_invalid_requests) {
  mcp::server srv({.name = "p", .version = "1"});
  // Both ends share the limit, so it must leave room for the error reply itself.
  mcp::memory_client c(srv, {.max_line_bytes = 1024});
  c.send_text(R"({"jsonrpc":"2.0","id":"big","method":"ping","params":{"p":")" + std::string(2000, 'y') + "\"}}");
  auto e = c.receive();
  ASSERT_TRUE(e);
  EXPECT_EQ((*e)["error"]["code"], -32600);
  EXPECT_EQ((*e)["id"], "big");
  c.send_text("   ");  // blank: ignored
  auto ping = c.request(req(1, "ping"));
  ASSERT_TRUE(ping);
  EXPECT_EQ((*ping)["result"], json::object());
}

TEST(mcp_pump, a_closed_memory_client_sends_nothing_more) {
  mcp::server srv({.name = "p", .version = "1"});
  mcp::memory_client c(srv);
  auto ping = c.request(req(1, "ping"));
  ASSERT_TRUE(ping);
  c.close();
  c.send(req(2, "ping"));
  EXPECT_FALSE(c.receive(0ms));
  c.close();  // idempotent
}
