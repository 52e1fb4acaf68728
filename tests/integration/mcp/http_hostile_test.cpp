// Hostile peers against the MCP HTTP server, over real loopback sockets: slowloris headers,
// thousands of half-sent requests, oversize headers and bodies, a slow body, a session flood,
// too many pending requests, a stream reader that never reads. Each test asserts that the
// server answered the peer with the status and the limit's name, that another client was
// served meanwhile, and (where memory is at stake) that RSS stayed under a bound.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tooluse/http/client.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "tooluse/mcp/server.hpp"

namespace mcp = tooluse::mcp;
namespace thttp = tooluse::http;
using tooluse::json;
using namespace std::chrono_literals;

namespace {

long rss_bytes() {
  std::ifstream f("/proc/self/statm");
  long pages = 0, resident = 0;
  f >> pages >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

// raw is a plain TCP client: send what a hostile peer sends, read what comes back.
struct raw {
  int fd = -1;
  explicit raw(unsigned short port, std::chrono::milliseconds recv_timeout = 10s) {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      ::close(fd);
      fd = -1;
      return;
    }
    timeval tv{static_cast<time_t>(recv_timeout.count() / 1000),
               static_cast<suseconds_t>((recv_timeout.count() % 1000) * 1000)};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  ~raw() {
    if (fd >= 0) ::close(fd);
  }
  raw(const raw&) = delete;
  bool send(const std::string& s) {
    return fd >= 0 && ::send(fd, s.data(), s.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(s.size());
  }
  // read_all reads until the server closes (or the receive timeout).
  std::string read_all() {
    std::string out;
    char buf[4096];
    for (;;) {
      ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
  }
  // closed_by_peer tells whether the server closed the connection (EOF or reset).
  bool closed_by_peer() {
    char c;
    ssize_t n = ::recv(fd, &c, 1, 0);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
  }
};

std::string post_text(const std::string& body, const std::string& extra = "") {
  return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
         "Accept: application/json, text/event-stream\r\n" +
         extra + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

json init_body() {
  return {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
          {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                      {"clientInfo", {{"name", "hostile"}, {"version", "1"}}}}}};
}

struct server_fixture {
  tooluse::tool_registry tools;
  mcp::server server;
  mcp::http_server http;
  explicit server_fixture(mcp::http_options o)
      : server({.name = "hostile", .version = "1"}, &tools), http(server, std::move(o)) {
    tools.add({.name = "hello", .description = "Say hi", .synchronous = true},
              [](const json&, tooluse::call_context&) { return tooluse::tool_result::text("hi"); });
    auto ok = http.start();
    EXPECT_TRUE(ok);
  }
  thttp::response post(const json& body, std::vector<thttp::header> extra = {}) {
    thttp::request r{.method = "POST", .url = http.url(), .body = tooluse::dump_json(body)};
    r.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
    for (auto& h : extra) r.headers.push_back(h);
    r.total_timeout = 20s;
    auto res = thttp::send(r);
    EXPECT_TRUE(res) << (res ? "" : res.error().message);
    return res ? *res : thttp::response{};
  }
  // served tells whether a complete session handshake and a tool call get answered.
  bool served() {
    auto init = post(init_body());
    if (init.status != 200) return false;
    auto sid = init.header_value("Mcp-Session-Id");
    if (!sid) return false;
    auto call = post({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", {{"name", "hello"}}}},
                     {{"Mcp-Session-Id", *sid}});
    return call.status == 200 && call.body.find("\"hi\"") != std::string::npos;
  }
};

template <class F>
bool eventually(F f, std::chrono::seconds limit = 30s) {
  auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (f()) return true;
    std::this_thread::sleep_for(10ms);  // polling a counter, not ordering events
  }
  return f();
}

}  // namespace

TEST(mcp_http_hostile, slowloris_header_is_cut_at_the_header_deadline_while_others_are_served) {
  server_fixture s({.header_timeout = 1s});
  raw slow(s.http.port());
  ASSERT_GE(slow.fd, 0);
  std::atomic<bool> done{false};
  std::thread dribble([&] {
    const std::string req = post_text(tooluse::dump_json(init_body()));
    for (char c : req) {
      if (done || !slow.send(std::string(1, c))) break;
      std::this_thread::sleep_for(250ms);  // the attack: one byte every 250 ms
    }
  });
  EXPECT_TRUE(s.served());  // another client meanwhile
  std::string reply = slow.read_all();
  done = true;
  dribble.join();
  EXPECT_NE(reply.find("408"), std::string::npos) << reply;
  EXPECT_NE(reply.find("header_timeout"), std::string::npos) << reply;
  EXPECT_TRUE(s.served());
}

TEST(mcp_http_hostile, slow_body_is_cut_at_the_body_deadline) {
  server_fixture s({.body_timeout = 500ms});
  raw slow(s.http.port());
  ASSERT_TRUE(slow.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        "Content-Length: 1000\r\n\r\n{\"jsonrpc\""));
  std::string reply = slow.read_all();
  EXPECT_NE(reply.find("408"), std::string::npos) << reply;
  EXPECT_NE(reply.find("body_timeout"), std::string::npos) << reply;
  EXPECT_TRUE(s.served());
}

TEST(mcp_http_hostile, oversize_header_and_body_get_431_and_413_naming_the_limit) {
  server_fixture s({.max_header_bytes = 8 * 1024, .max_header_count = 50, .max_body_bytes = 64 * 1024});
  {
    raw c(s.http.port());
    ASSERT_TRUE(c.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + std::string(20000, 'a') + "\r\n\r\n"));
    std::string reply = c.read_all();
    EXPECT_NE(reply.find("431"), std::string::npos) << reply;
    EXPECT_NE(reply.find("max_header_bytes"), std::string::npos) << reply;
  }
  {
    std::string many;
    for (int i = 0; i < 80; ++i) many += "X-H" + std::to_string(i) + ": v\r\n";
    raw c(s.http.port());
    ASSERT_TRUE(c.send(post_text(tooluse::dump_json(init_body()), many)));
    std::string reply = c.read_all();
    EXPECT_NE(reply.find("431"), std::string::npos) << reply;
    EXPECT_NE(reply.find("max_header_count"), std::string::npos) << reply;
  }
  {
    // Declared too large: refused from the header, before a byte of the body is read.
    raw c(s.http.port());
    ASSERT_TRUE(c.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       "Content-Length: 1000000000\r\n\r\n{"));
    std::string reply = c.read_all();
    EXPECT_NE(reply.find("413"), std::string::npos) << reply;
    EXPECT_NE(reply.find("max_body_bytes"), std::string::npos) << reply;
  }
  {
    // Chunked, no length: cut where the bytes arrive.
    raw c(s.http.port());
    std::string req = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      "Transfer-Encoding: chunked\r\n\r\n";
    for (int i = 0; i < 40; ++i) req += "1000\r\n" + std::string(4096, ' ') + "\r\n";
    c.send(req);  // the server may close before all of it is sent
    std::string reply = c.read_all();
    EXPECT_NE(reply.find("413"), std::string::npos) << reply;
  }
  EXPECT_TRUE(s.served());
}

TEST(mcp_http_hostile, ten_thousand_half_requests_do_not_lock_out_a_real_client) {
  rlimit lim{};
  getrlimit(RLIMIT_NOFILE, &lim);
  lim.rlim_cur = lim.rlim_max;
  setrlimit(RLIMIT_NOFILE, &lim);
  getrlimit(RLIMIT_NOFILE, &lim);
  // Each half-request uses two descriptors here (client and server side).
  const std::size_t n = std::min<std::size_t>(10000, (lim.rlim_cur - 256) / 2);
  ASSERT_GE(n, 500u) << "RLIMIT_NOFILE is too low for this test: " << lim.rlim_cur;
  server_fixture s({.header_timeout = 120s});
  const long before = rss_bytes();
  std::vector<std::unique_ptr<raw>> half;
  half.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    half.push_back(std::make_unique<raw>(s.http.port()));
    ASSERT_GE(half.back()->fd, 0) << "connect " << i;
    half.back()->send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty");
  }
  ASSERT_TRUE(eventually([&] { return s.http.stats().idle_connections >= n; }))
      << s.http.stats().idle_connections << " of " << n;
  EXPECT_TRUE(s.served());
  const long grown = rss_bytes() - before;
  EXPECT_LT(grown, 200L * 1024 * 1024) << "RSS grew by " << grown << " bytes for " << n << " sockets";
  std::cout << "[ figures  ] " << n << " half-request sockets: RSS grew by " << grown / 1024 << " KiB\n";
}

TEST(mcp_http_hostile, at_max_connections_the_oldest_idle_connection_makes_room) {
  server_fixture s({.max_connections = 20, .header_timeout = 60s});
  std::vector<std::unique_ptr<raw>> half;
  for (int i = 0; i < 20; ++i) {
    half.push_back(std::make_unique<raw>(s.http.port(), 5s));
    half.back()->send("GET /mcp HTTP/1.1\r\nHo");
  }
  ASSERT_TRUE(eventually([&] { return s.http.stats().connections >= 20; }));
  EXPECT_TRUE(s.served());
  EXPECT_LE(s.http.stats().connections, 20u);
  EXPECT_TRUE(half.front()->closed_by_peer());  // the oldest half-request was evicted
}

TEST(mcp_http_hostile, session_flood_cannot_push_out_live_sessions_or_pass_the_limit) {
  server_fixture s({.max_sessions = 8});
  // A live session: initialized and used.
  auto init = s.post(init_body());
  auto sid = init.header_value("Mcp-Session-Id");
  ASSERT_TRUE(sid);
  std::vector<thttp::header> h = {{"Mcp-Session-Id", *sid}};
  EXPECT_EQ(s.post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, h).status, 202);
  // From a foreign origin nothing is made.
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(s.post(init_body(), {{"Origin", "http://evil.example"}}).status, 403);
  EXPECT_EQ(s.http.stats().sessions, 1u);
  // A flood of handshakes that never go further: each evicts an unused one.
  const long before = rss_bytes();
  for (int i = 0; i < 500; ++i) EXPECT_EQ(s.post(init_body()).status, 200);
  EXPECT_LE(s.http.stats().sessions, 8u);
  EXPECT_LT(rss_bytes() - before, 64L * 1024 * 1024);
  auto call = s.post({{"jsonrpc", "2.0"}, {"id", 9}, {"method", "tools/call"}, {"params", {{"name", "hello"}}}}, h);
  EXPECT_EQ(call.status, 200);  // the live session survived the flood
  // When every session is live, a new one is refused with the limit named.
  for (int i = 0; i < 7; ++i) {
    auto r = s.post(init_body());
    auto id = r.header_value("Mcp-Session-Id");
    ASSERT_TRUE(id);
    s.post({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}}, {{"Mcp-Session-Id", *id}});
  }
  auto refused = s.post(init_body());
  EXPECT_EQ(refused.status, 503);
  EXPECT_NE(refused.body.find("max_sessions"), std::string::npos) << refused.body;
  EXPECT_EQ(s.post({{"jsonrpc", "2.0"}, {"id", 10}, {"method", "ping"}}, h).status, 200);
}

TEST(mcp_http_hostile, pending_requests_per_session_are_bounded) {
  server_fixture s({.max_pending_per_session = 2});
  std::mutex m;
  std::condition_variable cv;
  int started = 0;
  bool open = false;
  s.server.add_tool({.name = "hold"}, [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
    std::unique_lock lock(m);
    ++started;
    cv.notify_all();
    cv.wait(lock, [&] { return open; });
    return tooluse::tool_result::text("released");
  });
  auto init = s.post(init_body());
  auto sid = init.header_value("Mcp-Session-Id");
  ASSERT_TRUE(sid);
  std::vector<thttp::header> h = {{"Mcp-Session-Id", *sid}};
  // Distinct ids: an id still in flight in the session would be refused (400) before the bound.
  auto hold = [](int id) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", {{"name", "hold"}}}};
  };
  std::vector<std::thread> holders;
  std::vector<int> statuses(2);
  for (int i = 0; i < 2; ++i) holders.emplace_back([&, i] { statuses[i] = s.post(hold(5 + i), h).status; });
  {
    std::unique_lock lock(m);
    // Bounded, so a refused holder fails the test instead of hanging it.
    if (!cv.wait_for(lock, 60s, [&] { return started == 2; })) {
      open = true;
      cv.notify_all();
      lock.unlock();
      for (auto& t : holders) t.join();
      FAIL() << "the two holding calls did not both start; statuses " << statuses[0] << ", " << statuses[1];
    }
  }
  auto third = s.post(hold(7), h);
  EXPECT_EQ(third.status, 429);
  EXPECT_NE(third.body.find("max_pending_per_session"), std::string::npos) << third.body;
  EXPECT_TRUE(s.served());  // other sessions are not held up
  {
    std::lock_guard lock(m);
    open = true;
    cv.notify_all();
  }
  for (auto& t : holders) t.join();
  EXPECT_EQ(statuses, (std::vector<int>{200, 200}));
}

// A client that opens the GET stream and never reads it: once max_outbound_bytes are queued for
// it, the connection is dropped; memory stays bounded and others are served.
TEST(mcp_http_hostile, a_stream_reader_that_never_reads_is_dropped) {
  server_fixture s({.max_outbound_bytes = 256 * 1024, .write_timeout = 1s});
  // The handshake's connections close after their answers (the HTTP pool would keep them alive):
  // the test counts the server's connections.
  auto init = s.post(init_body(), {{"Connection", "close"}});
  auto sid = init.header_value("Mcp-Session-Id");
  ASSERT_TRUE(sid);
  s.post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
         {{"Mcp-Session-Id", *sid}, {"Connection", "close"}});
  raw reader(s.http.port());
  int small = 4096;
  ::setsockopt(reader.fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  ASSERT_TRUE(reader.send("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nMcp-Session-Id: " +
                          *sid + "\r\n\r\n"));
  // Only the stream's connection is left once the handshake's connections are closed.
  ASSERT_TRUE(eventually([&] { return s.http.stats().connections == 1 && s.http.stats().idle_connections == 0; }));
  const long before = rss_bytes();
  // Log messages go to the session's GET stream, which is never read.
  const std::string big(16 * 1024, 'x');
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < 5s) {
    s.server.log(mcp::log_level::emergency, big);
    if (s.http.stats().connections == 0) break;
  }
  EXPECT_EQ(s.http.stats().connections, 0u) << "the stalled stream was not dropped";
  EXPECT_LT(rss_bytes() - before, 64L * 1024 * 1024);
  EXPECT_TRUE(s.served());
}
