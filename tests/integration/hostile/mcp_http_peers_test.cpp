// Hostile MCP servers over Streamable HTTP against tooluse's MCP client: a real loopback server
// that handshakes normally and then misbehaves on tools/call (an SSE event that never ends, a
// response stream kept alive forever with comments). Each test asserts the call fails naming the
// limit, memory stayed bounded, and the same client is still served afterwards.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "hostile_support.hpp"
#include "support/cli_process.hpp"
#include "tooluse/mcp/client.hpp"
#include "tooluse/mcp/http_client_transport.hpp"

namespace tooluse::hostile::mcp_http_peers_test {
namespace {

using namespace std::chrono_literals;

bool contains(const std::string& s, std::string_view what) { return s.find(what) != std::string::npos; }

// The JSON-RPC id of the request in an HTTP request's body ("id":N), or -1.
long request_id(const std::string& req) {
  auto p = req.find("\"id\":");
  if (p == std::string::npos) return -1;
  return std::stol(req.substr(p + 5));
}

std::string json_reply(const std::string& body, const std::string& extra_headers = "") {
  return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n" + extra_headers + "Connection: close\r\n\r\n" + body;
}

// A Streamable HTTP MCP server (2025-11-25, one request per connection) that answers initialize,
// notifications and ping like a good server and hands tools/call to `misbehave`.
tcp_peer mcp_peer(std::function<void(int fd, long id, const std::atomic<bool>& stopping)> misbehave) {
  return tcp_peer([misbehave](int fd, const std::atomic<bool>& stopping) {
    std::string req = read_request(fd);
    if (req.rfind("GET ", 0) == 0 || req.rfind("DELETE ", 0) == 0) {
      send_all(fd, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      return;
    }
    long id = request_id(req);
    if (contains(req, "\"method\":\"initialize\"")) {
      send_all(fd, json_reply(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
                                  R"(,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},)"
                                  R"("serverInfo":{"name":"hostile","version":"1"}}})",
                              "Mcp-Session-Id: s1\r\n"));
    } else if (contains(req, "\"method\":\"tools/call\"")) {
      misbehave(fd, id, stopping);
    } else if (id >= 0) {
      send_all(fd, json_reply(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"result":{}})"));
    } else {
      send_all(fd, "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    }
  });
}

std::shared_ptr<mcp::client> connect_to(const tcp_peer& peer, mcp::http_client_options o) {
  o.url = peer.url("/mcp");
  o.open_get_stream = false;
  auto c = mcp::client::connect(mcp::make_http_client_transport(std::move(o)), {.client_info = {"hostile-test", "1"}});
  EXPECT_TRUE(c) << (c ? "" : c.error().message);
  return c ? *c : nullptr;
}

TEST(HostileMcpHttpServer, AnSseEventThatNeverEndsIsRefusedAtMaxMessageBytes) {
  auto peer = mcp_peer([](int fd, long, const std::atomic<bool>& stopping) {
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: ");
    const std::string chunk(64 * 1024, 'x');
    while (!stopping && send_all(fd, chunk)) {
    }
  });
  const long rss_before = peak_rss_kb();
  auto client = connect_to(peer, {.max_message_bytes = 4u << 20});
  ASSERT_TRUE(client);
  auto r = client->call_tool("anything", json::object());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::limit_exceeded) << r.error().message;
  EXPECT_TRUE(contains(r.error().message, "max_message_bytes")) << r.error().message;
  // Memory stayed within a small multiple of the limit, not the gigabytes the peer offered.
  EXPECT_LT(peak_rss_kb() - rss_before, 64 * 1024) << "KiB";
  // The client carries on: the next request is answered.
  EXPECT_TRUE(client->ping()) << "the client was not served after the refused message";
}

TEST(HostileMcpHttpServer, AJsonBodyThatNeverEndsIsRefusedAtMaxMessageBytes) {
  auto peer = mcp_peer([](int fd, long, const std::atomic<bool>& stopping) {
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
                 R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":")");
    const std::string chunk(64 * 1024, 'y');
    while (!stopping && send_all(fd, chunk)) {
    }
  });
  auto client = connect_to(peer, {.max_message_bytes = 1u << 20});
  ASSERT_TRUE(client);
  auto r = client->call_tool("anything", json::object());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::limit_exceeded) << r.error().message;
  EXPECT_TRUE(contains(r.error().message, "max_message_bytes")) << r.error().message;
  EXPECT_TRUE(client->ping());
}

TEST(HostileMcpHttpServer, AResponseStreamKeptAliveForeverEndsAtMaxStreamDuration) {
  auto peer = mcp_peer([](int fd, long, const std::atomic<bool>& stopping) {
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n");
    // Keep-alive comments forever: never idle, never an answer.
    while (!stopping && send_all(fd, ": still working\n\n")) std::this_thread::sleep_for(50ms);
  });
  auto client = connect_to(peer, {.idle_timeout = 60s, .max_stream_duration = 1s, .max_reconnects = 0});
  ASSERT_TRUE(client);
  const auto start = std::chrono::steady_clock::now();
  auto r = client->call_tool("anything", json::object(), {.timeout = 60s});
  ASSERT_FALSE(r);
  EXPECT_TRUE(contains(r.error().message, "max_stream_duration")) << r.error().message;
  // Well before the request's own 60 s timeout.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 30s);
  EXPECT_TRUE(client->ping());
}

// A server that answers every POST with a response stream of keep-alive comments, nothing else:
// never idle, never an answer.
tcp_peer comments_only_peer() {
  return tcp_peer([](int fd, const std::atomic<bool>& stopping) {
    read_request(fd);
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n");
    while (!stopping && send_all(fd, ": keep-alive\n\n")) std::this_thread::sleep_for(50ms);
  });
}

TEST(HostileMcpHttpServer, AGivenUpRequestIsCancelledWithoutWaitingOnThePeer) {
  auto peer = comments_only_peer();
  const auto start = std::chrono::steady_clock::now();
  {
    mcp::http_client_options o;
    o.url = peer.url("/mcp");
    o.open_get_stream = false;
    auto c = mcp::client::connect(mcp::make_http_client_transport(std::move(o)),
                                  {.client_info = {"hostile-test", "1"},
                                   .protocol_version = "2025-11-25",
                                   .request_timeout = 500ms});
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().code, errc::timeout) << c.error().message;
    EXPECT_TRUE(contains(c.error().message, "initialize within 500 ms")) << c.error().message;
  }
  // The cancellation's POST, which this peer never answers either, held the caller for its own
  // 30 s bound; now the caller is back, and the transport closed, at the request's deadline.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);
}

TEST(HostileMcpHttpServer, TheCliTimeoutBoundsEveryStepOfTheHandshake) {
  auto peer = comments_only_peer();
  testing::temp_dir dir;
  const auto start = std::chrono::steady_clock::now();
  auto r = testing::run_tooluse({"mcp", "list", "--url", peer.url("/mcp"), "--timeout", "1s"}, {},
                                dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "within 1000 ms")) << r.err;
  // It took 41 s: server/discover waited its own 10 s, initialize 1 s, the cancellation 30 s.
  // Each of those alone now breaks this bound.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 9s);
}

}  // namespace
}  // namespace tooluse::hostile
