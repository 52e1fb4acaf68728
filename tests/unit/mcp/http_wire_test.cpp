// The HTTP/1.1 layer of the MCP HTTP server over real loopback sockets: pipelined requests on
// one keep-alive connection, chunked request bodies, HTTP/1.0 peers, malformed request lines,
// and the limits that end a request half-way (header bytes, a chunked body over the limit, the
// header and body deadlines), each answered with the status and the option it names. The
// deadlines are made short so the server gives up; the test only reads what it answers.
#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "tooluse/mcp/http_server.hpp"
#include "unit/mcp/http_test_util.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace http_wire_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;

namespace {

struct served {
  mcp::server server;
  mcp::http_server http;
  unsigned short port = 0;
  explicit served(mcp::http_options ho = {})
      : server({.name = "wire", .version = "1"}), http(server, std::move(ho)) {
    server.add_tool({.name = "echo"},
                    [](const json& a, mcp::request_context&) -> mcp::tool_outcome {
                      return tool_result::text(a.dump());
                    });
    EXPECT_TRUE(http.start());
    port = http.port();
  }
};

// list_body is a 2026-07-28 tools/list request with id `id`.
std::string list_body(int id) { return req(id, "tools/list", with_meta(json::object())).dump(); }

// stateless_request is the text of one 2026-07-28 tools/list POST; `version` "HTTP/1.1" or
// "HTTP/1.0", `connection` the Connection header value ("" for none).
std::string stateless_request(unsigned short port, int id, const std::string& version = "HTTP/1.1",
                              const std::string& connection = "") {
  std::string body = list_body(id);
  std::string s =
      "POST /mcp " + version + "\r\nHost: 127.0.0.1:" + std::to_string(port) +
      "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
      "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n";
  if (!connection.empty()) s += "Connection: " + connection + "\r\n";
  s += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  return s;
}

// split_replies cuts what a connection received into complete replies (Content-Length bodies).
std::vector<http_reply> split_replies(const std::string& raw) {
  std::vector<http_reply> out;
  std::size_t pos = 0;
  while (pos < raw.size()) {
    auto head_end = raw.find("\r\n\r\n", pos);
    if (head_end == std::string::npos) break;
    std::string head = raw.substr(pos, head_end + 4 - pos);
    http_reply r = parse_reply(head);
    auto len = r.header("content-length");
    std::size_t n = len.empty() ? 0 : std::stoul(len);
    r.body = raw.substr(head_end + 4, n);
    out.push_back(std::move(r));
    pos = head_end + 4 + n;
  }
  return out;
}

}  // namespace

// The stateless calls of all clients share the server's root session; each I/O thread hands
// out stop tokens of its own (session.hpp, thread_stops), and stopping the server stops them all:
// calls already running on either thread, and one that starts afterwards.
TEST(mcp_http_wire, stopping_the_server_stops_the_stateless_calls_running_on_each_thread) {
  served s;
  constexpr int calls = 4;
  std::mutex mu;
  std::condition_variable cv;
  int running = 0, stopped = 0;
  s.server.add_tool({.name = "wait"}, [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    std::stop_callback wake(ctx.stop(), [&] {
      std::lock_guard lock(mu);
      cv.notify_all();
    });
    std::unique_lock lock(mu);
    ++running;
    cv.notify_all();
    cv.wait_for(lock, std::chrono::seconds(30), [&] { return ctx.stop().stop_requested(); });
    if (ctx.stop().stop_requested()) ++stopped;
    cv.notify_all();
    return tool_result::text("stopped");
  });
  std::string body = req(9, "tools/call", with_meta({{"name", "wait"}, {"arguments", json::object()}})).dump();
  std::vector<std::unique_ptr<raw_conn>> conns;
  for (int i = 0; i < calls; ++i) {
    conns.push_back(std::make_unique<raw_conn>(s.port));
    ASSERT_TRUE(conns.back()->send_all(request_text(
        "POST", "/mcp",
        json_post({{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/call"}, {"Mcp-Name", "wait"}}),
        body, s.port)));
  }
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(30), [&] { return running == calls; }));
  }
  s.http.stop();
  std::unique_lock lock(mu);
  EXPECT_TRUE(cv.wait_for(lock, std::chrono::seconds(30), [&] { return stopped == calls; }))
      << stopped << " of " << calls << " calls saw the stop";
}

TEST(mcp_http_wire, pipelined_requests_on_one_connection_are_answered_in_order) {
  served s;
  raw_conn c(s.port);
  ASSERT_TRUE(c.ok());
  // Three requests in one write; the last asks the server to close afterwards.
  ASSERT_TRUE(c.send_all(stateless_request(s.port, 1) + stateless_request(s.port, 2) +
                         stateless_request(s.port, 3, "HTTP/1.1", "close")));
  auto replies = split_replies(c.read_all());
  ASSERT_EQ(replies.size(), 3u) << c.received();
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(replies[i].status, 200);
    json body = json::parse(replies[i].body, nullptr, false);
    EXPECT_EQ(body["id"], i + 1);
    EXPECT_EQ(body["result"]["tools"][0]["name"], "echo");
  }
  EXPECT_EQ(replies[0].header("connection"), "keep-alive");
  EXPECT_EQ(replies[2].header("connection"), "close");
}

TEST(mcp_http_wire, a_chunked_request_body_is_read_whole) {
  served s;
  std::string body =
      req(4, "tools/call", with_meta({{"name", "echo"}, {"arguments", {{"k", "chunked"}}}})).dump();
  std::string half1 = body.substr(0, body.size() / 2), half2 = body.substr(body.size() / 2);
  auto hex = [](std::size_t n) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%zx", n);
    return std::string(buf);
  };
  std::string text =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(s.port) +
      "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
      "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: echo\r\n"
      "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" +
      hex(half1.size()) + "\r\n" + half1 + "\r\n" + hex(half2.size()) + "\r\n" + half2 +
      "\r\n0\r\n\r\n";
  raw_conn c(s.port);
  ASSERT_TRUE(c.send_all(text));
  http_reply r = parse_reply(c.read_all());
  ASSERT_EQ(r.status, 200) << c.received();
  json rpc = r.rpc();
  EXPECT_EQ(rpc["id"], 4);
  EXPECT_EQ(rpc["result"]["content"][0]["text"], R"({"k":"chunked"})");
}

TEST(mcp_http_wire, http_1_0_peers_get_close_unless_they_ask_for_keep_alive) {
  served s;
  {
    raw_conn c(s.port);
    ASSERT_TRUE(c.send_all(stateless_request(s.port, 1, "HTTP/1.0")));
    auto replies = split_replies(c.read_all());  // the server closes after the reply
    ASSERT_EQ(replies.size(), 1u) << c.received();
    EXPECT_EQ(replies[0].status, 200);
    EXPECT_EQ(replies[0].header("connection"), "close");
  }
  {
    raw_conn c(s.port);
    ASSERT_TRUE(c.send_all(stateless_request(s.port, 1, "HTTP/1.0", "keep-alive") +
                           stateless_request(s.port, 2, "HTTP/1.0")));
    auto replies = split_replies(c.read_all());
    ASSERT_EQ(replies.size(), 2u) << c.received();
    EXPECT_EQ(replies[0].header("connection"), "keep-alive");
    EXPECT_EQ(json::parse(replies[1].body)["id"], 2);
  }
}

TEST(mcp_http_wire, a_malformed_request_line_is_400_and_invalid_request) {
  served s;
  raw_conn c(s.port);
  ASSERT_TRUE(c.send_all("THIS IS NOT HTTP\r\n\r\n"));
  http_reply r = parse_reply(c.read_all());
  EXPECT_EQ(r.status, 400) << c.received();
  json body = json::parse(r.body, nullptr, false);
  EXPECT_EQ(body["error"]["code"], -32600);
  EXPECT_NE(body["error"]["message"].get<std::string>().find("malformed HTTP request"),
            std::string::npos);
}

TEST(mcp_http_wire, a_header_over_max_header_bytes_is_431_naming_the_option) {
  served s({.max_header_bytes = 1024});
  raw_conn c(s.port);
  std::string text =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + std::string(2000, 'p') +
      "\r\nContent-Length: 0\r\n\r\n";
  ASSERT_TRUE(c.send_all(text));
  http_reply r = parse_reply(c.read_all());
  EXPECT_EQ(r.status, 431) << c.received().substr(0, 200);
  json body = json::parse(r.body, nullptr, false);
  EXPECT_EQ(body["error"]["data"]["limit"], "max_header_bytes");
  EXPECT_EQ(body["error"]["data"]["value"], 1024);
}

TEST(mcp_http_wire, a_chunked_body_that_grows_past_the_limit_is_413) {
  served s({.max_body_bytes = 64});
  raw_conn c(s.port);
  std::string chunk(100, 'x');
  std::string text =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(s.port) +
      "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
      "Transfer-Encoding: chunked\r\n\r\n64\r\n" +
      chunk + "\r\n0\r\n\r\n";
  ASSERT_TRUE(c.send_all(text));
  http_reply r = parse_reply(c.read_all());
  EXPECT_EQ(r.status, 413) << c.received().substr(0, 200);
  json body = json::parse(r.body, nullptr, false);
  EXPECT_EQ(body["error"]["data"]["limit"], "max_body_bytes");
  EXPECT_EQ(body["error"]["data"]["value"], 64);
}

TEST(mcp_http_wire, a_header_that_stops_arriving_is_408_after_header_timeout) {
  served s({.header_timeout = std::chrono::milliseconds(50)});
  raw_conn c(s.port);
  ASSERT_TRUE(c.send_all("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"));  // never finished
  http_reply r = parse_reply(c.read_all());
  EXPECT_EQ(r.status, 408) << c.received();
  json body = json::parse(r.body, nullptr, false);
  EXPECT_EQ(body["error"]["data"]["limit"], "header_timeout_ms");
  EXPECT_EQ(body["error"]["data"]["value"], 50);
  EXPECT_EQ(r.header("connection"), "close");
}

TEST(mcp_http_wire, a_body_that_stops_arriving_is_408_after_body_timeout) {
  served s({.body_timeout = std::chrono::milliseconds(50)});
  raw_conn c(s.port);
  ASSERT_TRUE(c.send_all(
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(s.port) +
      "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
      "Content-Length: 100\r\n\r\n{\"jsonrpc\":"));
  http_reply r = parse_reply(c.read_all());
  EXPECT_EQ(r.status, 408) << c.received();
  json body = json::parse(r.body, nullptr, false);
  EXPECT_EQ(body["error"]["data"]["limit"], "body_timeout_ms");
  EXPECT_EQ(body["error"]["data"]["value"], 50);
}

TEST(mcp_http_wire, an_idle_keep_alive_connection_is_closed_after_idle_timeout) {
  served s({.idle_timeout = std::chrono::milliseconds(50)});
  raw_conn c(s.port);
  ASSERT_TRUE(c.send_all(stateless_request(s.port, 1)));  // keep-alive, then nothing more
  auto replies = split_replies(c.read_all());             // returns when the server closes
  ASSERT_EQ(replies.size(), 1u) << c.received();
  EXPECT_EQ(replies[0].header("connection"), "keep-alive");
  // The server closed it, so it leaves the counters (their update follows the close itself).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (s.http.stats().connections != 0 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::yield();
  EXPECT_EQ(s.http.stats().connections, 0u);
}
}  // namespace http_wire_test
