// Hostile stdio peers: a client that writes one endless line or a JSON document nested 100 000
// deep to the MCP stdio server, or 12 MB requests it never reads the answers of; a child MCP server that writes a 200 MB line or stops answering.
// Real pipes and real child processes; each test asserts the error names the limit, memory
// stayed bounded, and the connection (or process) carried on.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <fstream>
#include <iostream>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

#include "hostile_support.hpp"
#include "support/test_support.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/stdio_client_transport.hpp"
#include "tooluse/mcp/transport.hpp"
#include "tooluse_test_paths.hpp"

namespace tooluse::hostile::stdio_peers_test {
namespace {

using namespace std::chrono_literals;

bool contains(const std::string& s, std::string_view what) { return s.find(what) != std::string::npos; }

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Runs serve_fd on pipes; `client` writes to the server and closes; returns the output lines.
std::vector<json> serve(const mcp::stream_options& o, const std::function<void(int)>& client) {
  mcp::server srv({.name = "hostile", .version = "1"});
  int in[2], out[2];
  EXPECT_EQ(::pipe(in), 0);
  EXPECT_EQ(::pipe(out), 0);
  std::thread server([&] {
    (void)mcp::serve_fd(srv, in[0], out[1], o);
    ::close(out[1]);
  });
  std::thread writer([&] {
    client(in[1]);
    ::close(in[1]);
  });
  std::string text;
  char buf[65536];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  writer.join();
  server.join();
  ::close(in[0]);
  ::close(out[0]);
  std::vector<json> lines;
  for (std::size_t start = 0, nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    if (auto j = parse_json(std::string_view(text).substr(start, nl - start))) lines.push_back(*j);
  return lines;
}

const json* by_id(const std::vector<json>& lines, int id) {
  for (const auto& l : lines)
    if (l.is_object() && l.contains("id") && l["id"] == id) return &l;
  return nullptr;
}

std::string ping(int id) {
  return "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) + ",\"method\":\"ping\"}\n";
}

TEST(HostileStdioServer, AnEndlessLineCostsMaxLineBytesAndTheConnectionCarriesOn) {
  const long before = peak_rss_kb();
  auto lines = serve({.max_line_bytes = 1u << 20}, [](int fd) {
    write_all(fd, ping(1));
    write_all(fd, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":{\"x\":\"");
    const std::string chunk(1 << 20, 'a');
    for (int i = 0; i < 200; ++i) write_all(fd, chunk);  // 200 MiB in one line
    write_all(fd, "\"}}\n");
    write_all(fd, ping(8));
  });
  EXPECT_LT(peak_rss_kb() - before, 64 * 1024) << "the server buffered the endless line";
  ASSERT_TRUE(by_id(lines, 1));
  const json* refused = by_id(lines, 7);
  ASSERT_TRUE(refused) << "the oversized request's id was not read from its start";
  EXPECT_EQ((*refused)["error"]["code"], -32600);
  EXPECT_TRUE(contains((*refused)["error"]["message"].get<std::string>(),
                       "mcp::stream_options::max_line_bytes = 1048576"));
  const json* after = by_id(lines, 8);
  ASSERT_TRUE(after) << "the connection did not carry on after the endless line";
  EXPECT_TRUE(after->contains("result"));
}

TEST(HostileStdioServer, JsonNestedAHundredThousandDeepIsRefusedNamingTheLimit) {
  auto lines = serve({}, [](int fd) {
    write_all(fd, std::string(100000, '[') + std::string(100000, ']') + "\n");
    write_all(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":" +
                      std::string(5000, '[') + std::string(5000, ']') + "}\n");
    write_all(fd, ping(2));
  });
  ASSERT_GE(lines.size(), 3u);
  EXPECT_TRUE(contains(dump_json(lines[0]), "json_limits::max_depth")) << dump_json(lines[0]);
  EXPECT_TRUE(contains(dump_json(lines[1]), "json_limits::max_depth")) << dump_json(lines[1]);
  const json* after = by_id(lines, 2);
  ASSERT_TRUE(after);
  EXPECT_TRUE(after->contains("result"));
}

// child_vm_hwm_kb reads the peak resident set of process `pid` (0 when it cannot be read).
long child_vm_hwm_kb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string key; in >> key;) {
    if (key == "VmHWM:") {
      long kb = 0;
      in >> kb;
      return kb;
    }
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

TEST(HostileStdioServer, TwelveMegabyteRequestsNeverReadBackStayWithinTheMemoryBound) {
  // The real `tooluse mcp serve --stdio`: a client writes 12 requests of 12 MB each (a tool and
  // a method named with 12 MB) and reads nothing until a final ping. Unknown names are quoted
  // cut in the answers and requests held at once are bounded by stream_options::
  // max_pending_bytes (64 MiB), so the server's peak memory stays far below the 144 MB sent plus what parsing them costs
  // (before: each answer echoed its 12 MB name, 1.7 GB in a release build).
  if (::access(TOOLUSE_CLI_PATH, X_OK) != 0)
    TOOLUSE_PEER_MISSING(std::string("the CLI is not built at ") + TOOLUSE_CLI_PATH);
  int in[2], out[2];
  ASSERT_EQ(::pipe2(in, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    const char* argv[] = {TOOLUSE_CLI_PATH, "mcp", "serve", "--stdio", "--tools", "calculator", nullptr};
    ::execv(argv[0], const_cast<char* const*>(argv));
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  std::thread writer([fd = in[1]] {
    write_all(fd, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
                  R"("capabilities":{},"clientInfo":{"name":"flood","version":"1"}}})" "\n");
    const std::string name(12'000'000, 'n');
    for (int i = 1; i <= 12; ++i) {
      std::string line = i % 2 ? R"({"jsonrpc":"2.0","id":)" + std::to_string(i) +
                                     R"(,"method":"tools/call","params":{"name":")" + name + "\"}}\n"
                               : R"({"jsonrpc":"2.0","id":)" + std::to_string(i) + R"(,"method":")" + name +
                                     "\"}\n";
      if (!write_all(fd, line)) return;
    }
    write_all(fd, ping(99));
  });
  std::string text;
  char buf[65536];
  while (text.find(R"("id":99)") == std::string::npos) {
    ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  const long peak_kb = child_vm_hwm_kb(pid);
  writer.join();
  ::close(in[1]);
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  ASSERT_NE(text.find(R"("id":99)"), std::string::npos) << "the final ping got no answer";
  EXPECT_LT(text.size(), 64u * 1024) << "answers echoed the names";
  EXPECT_TRUE(contains(text, "(12000000 bytes)")) << text.substr(0, 2000);
  ASSERT_GT(peak_kb, 0);
  // A sanitized build keeps freed memory in quarantine (256 MB) on top of the bound.
  EXPECT_LT(peak_kb, 768 * 1024) << "peak resident set " << peak_kb / 1024 << " MB";
  std::cout << "server peak resident set: " << peak_kb / 1024 << " MB\n";
}

// collects what a stdio child transport reports.
struct observed {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<json> messages;
  std::vector<std::pair<json, error>> failed;
  std::optional<error> closed;

  mcp::transport_handlers handlers() {
    return {.on_message = [this](json m) {
              std::lock_guard l(mu);
              messages.push_back(std::move(m));
              cv.notify_all();
            },
            .on_closed = [this](const error& e) {
              std::lock_guard l(mu);
              closed = e;
              cv.notify_all();
            },
            .on_send_failed = [this](const json& id, const error& e) {
              std::lock_guard l(mu);
              failed.emplace_back(id, e);
              cv.notify_all();
            }};
  }
  template <class P>
  bool wait(P pred, std::chrono::seconds limit = 60s) {
    std::unique_lock l(mu);
    return cv.wait_for(l, limit, pred);
  }
};

TEST(HostileStdioChild, A200MegabyteLineIsSkippedAsItArrivesAndItsRequestFails) {
  observed seen;
  const long before = peak_rss_kb();
  mcp::stdio_client_transport t(
      {.command = {"sh", "-c",
                   "printf '{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"x\":\"'; "
                   "head -c 200000000 /dev/zero | tr '\\000' a; "
                   "printf '\"}}\\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/done\"}\\n'; "
                   "exec sleep 100"},
       .on_log = [](std::string_view) {},
       .shutdown_grace = 200ms,
       .max_line_bytes = 1u << 20});
  ASSERT_TRUE(t.start(seen.handlers()));
  ASSERT_TRUE(seen.wait([&] { return !seen.messages.empty(); })) << "the line after was not read";
  EXPECT_LT(peak_rss_kb() - before, 64 * 1024) << "the client buffered the 200 MB line";
  std::lock_guard l(seen.mu);
  EXPECT_EQ(seen.messages[0]["method"], "notifications/done");
  ASSERT_EQ(seen.failed.size(), 1u);
  EXPECT_EQ(seen.failed[0].first, 7);
  EXPECT_EQ(seen.failed[0].second.code, errc::limit_exceeded);
  EXPECT_TRUE(contains(seen.failed[0].second.message, "stdio_server_options::max_line_bytes"))
      << seen.failed[0].second.message;
}

TEST(HostileStdioChild, AnAnswerNestedAHundredThousandDeepFailsItsRequestNamingTheLimit) {
  observed seen;
  // The answer to our request 7 is nested 100,000 deep; a server request nested as deep (its
  // id 8 is the server's own numbering) must not fail a request of ours; a notification follows.
  mcp::stdio_client_transport t(
      {.command = {"sh", "-c",
                   "deep() { head -c 100000 /dev/zero | tr '\\000' \"$1\"; }; "
                   "printf '{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"x\":'; deep '['; deep ']'; "
                   "printf '}}\\n{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"roots/list\",\"params\":{\"x\":'; "
                   "deep '['; deep ']'; "
                   "printf '}}\\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/done\"}\\n'; "
                   "exec sleep 100"},
       .on_log = [](std::string_view) {},
       .shutdown_grace = 200ms});
  ASSERT_TRUE(t.start(seen.handlers()));
  ASSERT_TRUE(seen.wait([&] { return !seen.messages.empty(); })) << "the line after was not read";
  std::lock_guard l(seen.mu);
  EXPECT_EQ(seen.messages[0]["method"], "notifications/done");
  ASSERT_EQ(seen.failed.size(), 1u) << "only the answer to our request fails it";
  EXPECT_EQ(seen.failed[0].first, 7);
  EXPECT_TRUE(contains(seen.failed[0].second.message, "json_limits::max_depth"))
      << seen.failed[0].second.message;
}

TEST(HostileStdioChild, AServerThatStopsAnsweringIsKilledWithSigkillAfterSigterm) {
  observed seen;
  // Ignores SIGTERM (and its exec'd sleep inherits that), so only SIGKILL ends it. It says so on
  // stdout once the trap is set, and the test waits for that: a SIGTERM sent earlier would end
  // the shell before it ignores the signal.
  mcp::stdio_client_transport t({.command = {"sh", "-c",
                                             "trap '' TERM; echo "
                                             "'{\"jsonrpc\":\"2.0\",\"method\":\"notifications/ready\"}'; "
                                             "exec sleep 1000"},
                                 .on_log = [](std::string_view) {},
                                 .shutdown_grace = 300ms,
                                 .max_unanswered = 3});
  ASSERT_TRUE(t.start(seen.handlers()));
  ASSERT_TRUE(seen.wait([&] { return !seen.messages.empty(); })) << "the child did not start";
  for (int id = 1; id <= 3; ++id) {
    ASSERT_TRUE(t.send(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "ping"}}));
    // What the client does when its request deadline passes: the cancellation names the
    // request it gives up on in the envelope.
    const json request_id = id;
    const json cancel = {{"jsonrpc", "2.0"},
                         {"method", "notifications/cancelled"},
                         {"params", {{"requestId", id}, {"reason", "timed out"}}}};
    ASSERT_TRUE(t.write({.message = cancel, .request = &request_id}));
  }
  ASSERT_TRUE(seen.wait([&] { return seen.closed.has_value(); })) << "the hung child was not killed";
  auto e = t.exit_status();
  ASSERT_TRUE(e);
  EXPECT_EQ(e->signal, SIGKILL);
  EXPECT_TRUE(contains(seen.closed->message, "stdio_server_options::max_unanswered = 3"))
      << seen.closed->message;
}

}  // namespace
}  // namespace tooluse::hostile
