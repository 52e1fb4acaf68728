// Replicas behind a load balancer, with real parts: nginx (round robin, the configuration
// docs/deploy.md shows) in front of three `tooluse mcp serve --http ... --store LOC` processes
// that share a PostgreSQL database (a throwaway cluster) or a SQLite file. A 2025-11-25
// session initialized on one replica serves tools/call, resources/read and subscribe,
// logging/setLevel and tasks on all three; a task made on one is polled, cancelled and read on
// the others, and the session's GET stream (on a third) hears of it; after kill -9 of a
// replica the session goes on through nginx; a client whose session is deleted starts a new
// one by itself.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <fstream>
#include <mutex>
#include <thread>

#include "support/cli_process.hpp"
#include "support/postgres_fixture.hpp"
#include "support/test_support.hpp"
#include "tooluse/http/client.hpp"
#include "tooluse/mcp/client.hpp"
#include "tooluse/mcp/http_client_transport.hpp"

namespace replicas_nginx_test {
namespace {

using namespace std::chrono_literals;
using tooluse::json;
namespace mcp = tooluse::mcp;
namespace http = tooluse::http;
namespace fs = std::filesystem;

int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

std::string nginx_binary() {
  for (const char* p : {"/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"})
    if (::access(p, X_OK) == 0) return p;
  return "";
}

// nginx_config is the tested configuration of docs/deploy.md, with this test's paths.
std::string nginx_config(const fs::path& dir, int port, const std::vector<int>& replicas) {
  std::string upstream;
  for (int p : replicas) upstream += "    server 127.0.0.1:" + std::to_string(p) + ";\n";
  const std::string d = dir.string();
  return (::geteuid() == 0 ? "user root root;\n" : "") +
         std::string("daemon off;\nmaster_process on;\n") + "worker_processes 1;\npid " + d +
         "/nginx.pid;\nerror_log " + d + "/error.log;\n" +
         "events { worker_connections 1024; }\n"
         "http {\n"
         "  access_log off;\n"
         "  client_body_temp_path " +
         d + "/body;\n  proxy_temp_path " + d +
         "/proxy;\n"
         "  fastcgi_temp_path " +
         d + "/fastcgi;\n  uwsgi_temp_path " + d +
         "/uwsgi;\n"
         "  scgi_temp_path " +
         d +
         "/scgi;\n"
         "  upstream tooluse_mcp {\n" +
         upstream +
         "    keepalive 32;\n  }\n"
         "  server {\n"
         "    listen 127.0.0.1:" +
         std::to_string(port) +
         ";\n"
         "    location /mcp {\n"
         "      proxy_pass http://tooluse_mcp;\n"
         "      proxy_http_version 1.1;\n"
         "      proxy_set_header Connection \"\";\n"
         "      proxy_set_header Host $host;\n"
         "      proxy_buffering off;\n"
         "      proxy_read_timeout 1h;\n"
         "      proxy_next_upstream error timeout;\n"
         "    }\n"
         "  }\n"
         "}\n";
}

// nginx runs nginx in the foreground with a configuration in `dir`; stopped on destruction.
class nginx {
 public:
  nginx(const std::string& bin, const fs::path& dir, int port, const std::vector<int>& replicas)
      : port_(port) {
    { std::ofstream(dir / "nginx.conf") << nginx_config(dir, port, replicas); }
    std::vector<std::string> args = {bin,
                                     "-p",
                                     dir.string(),
                                     "-c",
                                     (dir / "nginx.conf").string(),
                                     "-e",
                                     (dir / "error.log").string()};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (posix_spawn(&pid_, argv[0], &fa, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&fa);
    log_ = dir / "error.log";
  }
  ~nginx() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int st = 0;
      ::waitpid(pid_, &st, 0);
    }
  }
  nginx(const nginx&) = delete;
  nginx& operator=(const nginx&) = delete;
  /// ready polls the endpoint until nginx answers (any status) or 20 s pass.
  bool ready() {
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < deadline) {
      auto r = http::send({.url = url(), .connect_timeout = 1s, .total_timeout = 2s});
      if (r) return true;
      int st = 0;
      if (pid_ > 0 && ::waitpid(pid_, &st, WNOHANG) == pid_) {
        pid_ = -1;
        return false;
      }
      std::this_thread::yield();
    }
    return false;
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/mcp"; }
  std::string log() const { return tooluse::testing::read_file(log_); }

 private:
  pid_t pid_ = -1;
  int port_;
  fs::path log_;
};

struct reply {
  int status = 0;
  json body;
};

reply post(const std::string& url, const std::string& session, const json& message) {
  std::vector<http::header> headers = {{"Content-Type", "application/json"},
                                       {"Accept", "application/json, text/event-stream"},
                                       {"MCP-Protocol-Version", "2025-11-25"}};
  if (!session.empty()) headers.push_back({"Mcp-Session-Id", session});
  auto r = http::send({.method = "POST", .url = url, .headers = headers, .body = message.dump()});
  reply out;
  if (!r) {
    out.body = r.error().message;
    return out;
  }
  out.status = r->status;
  std::string body = r->body;
  if (!body.empty() && body.front() != '{')
    if (auto pos = body.rfind("data: "); pos != std::string::npos)
      body = body.substr(pos + 6, body.find('\n', pos) - pos - 6);
  auto parsed = json::parse(body, nullptr, false);
  out.body = parsed.is_discarded() ? json(r->body) : parsed;
  if (auto sid = r->header_value("Mcp-Session-Id"); sid && session.empty())
    out.body["__session"] = *sid;
  return out;
}

json rpc(int id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json call(const std::string& tool, json args, bool task = false) {
  json p = {{"name", tool}, {"arguments", std::move(args)}};
  if (task) p["task"] = json::object();
  return p;
}

// get_stream reads a session's GET stream on a thread of its own until destroyed.
class get_stream {
 public:
  get_stream(const std::string& url, const std::string& session) {
    thread_ = std::thread([this, url, session] {
      (void)http::send({.url = url,
                        .headers = {{"Accept", "text/event-stream"},
                                    {"Mcp-Session-Id", session},
                                    {"MCP-Protocol-Version", "2025-11-25"}},
                        .read_timeout = 0ms,
                        .total_timeout = 0ms},
                       {.on_body =
                            [this](std::string_view chunk) {
                              std::lock_guard lock(mu_);
                              text_.append(chunk);
                              cv_.notify_all();
                              return true;
                            },
                        .on_headers =
                            [this](int status, const std::vector<http::header>&) {
                              std::lock_guard lock(mu_);
                              status_ = status;
                              cv_.notify_all();
                            },
                        .stop = stop_.get_token()});
    });
  }
  ~get_stream() {
    stop_.request_stop();
    thread_.join();
  }
  int open() {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, 20s, [&] { return status_ != 0; });
    return status_;
  }
  bool wait_for(const std::string& needle) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 30s, [&] { return text_.find(needle) != std::string::npos; });
  }
  std::string text() {
    std::lock_guard lock(mu_);
    return text_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::string text_;
  int status_ = 0;
  std::stop_source stop_;
  std::thread thread_;
};

// poll_task reads a task on `url` until its status is `want` (or 30 s pass); the last body.
json poll_task(const std::string& url, const std::string& sid, const std::string& task,
               const std::string& want) {
  auto deadline = std::chrono::steady_clock::now() + 30s;
  json last;
  for (int id = 1000; std::chrono::steady_clock::now() < deadline; ++id) {
    last = post(url, sid, rpc(id, "tasks/get", {{"taskId", task}})).body;
    if (last.contains("result") && last["result"].value("status", "") == want) return last;
    std::this_thread::yield();
  }
  return last;
}

// replica_set is three `tooluse mcp serve --http 127.0.0.1:0 --store LOC` and nginx in front.
struct replica_set {
  tooluse::testing::temp_dir dir;
  std::vector<std::unique_ptr<tooluse::testing::background_tooluse>> procs;
  std::vector<std::string> urls;
  std::unique_ptr<nginx> lb;
  fs::path doc;

  bool start(const std::string& bin, const std::string& store) {
    doc = dir.path() / "doc.txt";
    std::ofstream(doc) << "the shared document";
    std::vector<int> ports;
    for (int i = 0; i < 3; ++i) {
      procs.push_back(std::make_unique<tooluse::testing::background_tooluse>(
          std::vector<std::string>{"mcp", "serve", "--http", "127.0.0.1:0", "--store", store,
                                   "--tools", "calculator,shell", "--shell", "--yes", "--task-tool",
                                   "calculator", "--task-tool", "shell", "--resource",
                                   doc.string()},
          dir.path()));
      std::string line = procs.back()->wait_for_line("MCP endpoint");
      auto at = line.find("http://");
      EXPECT_NE(at, std::string::npos) << procs.back()->stderr_so_far();
      if (at == std::string::npos) return false;
      urls.push_back(line.substr(at));
      ports.push_back(std::stoi(urls.back().substr(urls.back().rfind(':') + 1)));
    }
    auto ngx = dir.path() / "nginx";
    fs::create_directories(ngx);
    lb = std::make_unique<nginx>(bin, ngx, free_port(), ports);
    bool up = lb->ready();
    EXPECT_TRUE(up) << lb->log();
    return up;
  }
};

void replicas_share_sessions(const std::string& bin, const std::string& store) {
  replica_set rs;
  ASSERT_TRUE(rs.start(bin, store));
  const auto& u = rs.urls;
  const std::string doc_uri = "file://" + fs::absolute(rs.doc).string();

  auto init = post(u[0], "",
                   rpc(1, "initialize",
                       {{"protocolVersion", "2025-11-25"},
                        {"capabilities", {{"tasks", json::object()}}},
                        {"clientInfo", {{"name", "replicas"}, {"version", "1"}}}}));
  ASSERT_EQ(init.status, 200) << init.body.dump();
  const std::string sid = init.body.value("__session", "");
  ASSERT_FALSE(sid.empty());
  EXPECT_EQ(post(u[1], sid, {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).status,
            202);

  // The GET stream is on the third replica.
  get_stream stream(u[2], sid);
  ASSERT_EQ(stream.open(), 200);

  int id = 10;
  for (const auto& url : u) {
    auto sum =
        post(url, sid, rpc(++id, "tools/call", call("calculator", {{"expression", "20+22"}})));
    ASSERT_EQ(sum.status, 200) << url << ": " << sum.body.dump();
    EXPECT_NE(sum.body["result"]["content"][0].value("text", "").find("42"), std::string::npos)
        << sum.body.dump();
    auto read = post(url, sid, rpc(++id, "resources/read", {{"uri", doc_uri}}));
    ASSERT_EQ(read.status, 200) << read.body.dump();
    EXPECT_EQ(read.body["result"]["contents"][0]["text"], "the shared document");
    EXPECT_EQ(post(url, sid, rpc(++id, "resources/subscribe", {{"uri", doc_uri}})).status, 200);
    auto level = post(url, sid, rpc(++id, "logging/setLevel", {{"level", "warning"}}));
    EXPECT_EQ(level.status, 200) << level.body.dump();
    EXPECT_TRUE(level.body.contains("result")) << level.body.dump();
  }
  // Through nginx, round robin over the three.
  for (int i = 0; i < 6; ++i) {
    auto sum = post(rs.lb->url(), sid,
                    rpc(++id, "tools/call", call("calculator", {{"expression", "1+1"}})));
    EXPECT_EQ(sum.status, 200) << sum.body.dump() << rs.lb->log();
  }

  // A quick task made on replica 0: polled on 1, its result read on 2.
  auto quick =
      post(u[0], sid, rpc(++id, "tools/call", call("calculator", {{"expression", "6*7"}}, true)));
  ASSERT_EQ(quick.status, 200) << quick.body.dump();
  const std::string quick_id = quick.body["result"]["task"].value("taskId", "");
  ASSERT_FALSE(quick_id.empty()) << quick.body.dump();
  EXPECT_EQ(poll_task(u[1], sid, quick_id, "completed")["result"]["status"], "completed");
  auto result = post(u[2], sid, rpc(++id, "tasks/result", {{"taskId", quick_id}}));
  ASSERT_EQ(result.status, 200) << result.body.dump();
  EXPECT_NE(result.body["result"]["content"][0].value("text", "").find("42"), std::string::npos)
      << result.body.dump();

  // A long task made on replica 1: polled on 2, cancelled on 0, read on 2; the stream (on 2)
  // hears of the cancellation.
  auto slow =
      post(u[1], sid, rpc(++id, "tools/call", call("shell", {{"command", "sleep 60"}}, true)));
  ASSERT_EQ(slow.status, 200) << slow.body.dump();
  const std::string slow_id = slow.body["result"]["task"].value("taskId", "");
  ASSERT_FALSE(slow_id.empty()) << slow.body.dump();
  EXPECT_EQ(post(u[2], sid, rpc(++id, "tasks/get", {{"taskId", slow_id}})).body["result"]["status"],
            "working");
  auto cancel = post(u[0], sid, rpc(++id, "tasks/cancel", {{"taskId", slow_id}}));
  ASSERT_EQ(cancel.status, 200) << cancel.body.dump();
  EXPECT_EQ(cancel.body["result"]["status"], "cancelled");
  EXPECT_EQ(post(u[2], sid, rpc(++id, "tasks/get", {{"taskId", slow_id}})).body["result"]["status"],
            "cancelled");
  auto listed = post(u[1], sid, rpc(++id, "tasks/list"));
  EXPECT_EQ(listed.body["result"]["tasks"].size(), 2u) << listed.body.dump();
  EXPECT_TRUE(stream.wait_for("\"taskId\":\"" + slow_id + "\"")) << stream.text();
  EXPECT_TRUE(stream.wait_for("\"status\":\"cancelled\"")) << stream.text();

  // kill -9 of replica 1: the session goes on, directly and through nginx.
  rs.procs[1]->signal(SIGKILL);
  EXPECT_EQ(rs.procs[1]->wait(), 128 + SIGKILL);
  for (int i = 0; i < 6; ++i) {
    auto sum = post(rs.lb->url(), sid,
                    rpc(++id, "tools/call", call("calculator", {{"expression", "2+2"}})));
    EXPECT_EQ(sum.status, 200) << sum.body.dump() << rs.lb->log();
  }
  EXPECT_EQ(
      post(u[0], sid, rpc(++id, "tasks/get", {{"taskId", quick_id}})).body["result"]["status"],
      "completed");
  EXPECT_EQ(post(u[2], sid, rpc(++id, "ping")).status, 200);

  // A client through nginx whose session is deleted starts a new one by itself.
  std::mutex mu;
  std::vector<std::string> sessions_used;
  int initializes = 0;
  http::transport recorder = [&](const http::request& req, const http::send_options& so) {
    {
      std::lock_guard lock(mu);
      if (req.body.find("\"method\":\"initialize\"") != std::string::npos) ++initializes;
      if (auto s = http::find_header(req.headers, "Mcp-Session-Id")) sessions_used.push_back(*s);
    }
    return http::send(req, so);
  };
  auto client =
      mcp::client::connect(mcp::make_http_client_transport(
                               {.url = rs.lb->url(), .open_get_stream = false, .sender = recorder}),
                           {.protocol_version = "2025-11-25"});
  ASSERT_TRUE(client) << client.error().what();
  auto first = (*client)->call_tool("calculator", {{"expression", "3+4"}});
  ASSERT_TRUE(first) << first.error().what();
  std::string old_session;
  {
    std::lock_guard lock(mu);
    ASSERT_FALSE(sessions_used.empty());
    old_session = sessions_used.back();
  }
  auto del = http::send(
      {.method = "DELETE",
       .url = u[2],
       .headers = {{"Mcp-Session-Id", old_session}, {"MCP-Protocol-Version", "2025-11-25"}}});
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 200);
  auto again = (*client)->call_tool("calculator", {{"expression", "3+4"}});
  ASSERT_TRUE(again) << again.error().what();
  EXPECT_NE(again->all_text().find("7"), std::string::npos);
  std::lock_guard lock(mu);
  EXPECT_EQ(initializes, 2);
  EXPECT_NE(sessions_used.back(), old_session);
}

}  // namespace

#define REQUIRE_NGINX(bin)                \
  const std::string bin = nginx_binary(); \
  if (bin.empty()) TOOLUSE_PEER_MISSING("nginx is not installed (apt-get install nginx-light)")

TEST(mcp_replicas_nginx, three_replicas_share_sessions_and_tasks_over_postgres) {
  REQUIRE_NGINX(bin);
  tooluse::testing::postgres_cluster pg;
  TOOLUSE_REQUIRE_POSTGRES(pg);
  replicas_share_sessions(bin, pg.url("replicas"));
}

TEST(mcp_replicas_nginx, three_replicas_on_one_machine_share_a_sqlite_file) {
  REQUIRE_NGINX(bin);
  tooluse::testing::temp_dir dir;
  replicas_share_sessions(bin, (dir.path() / "shared.db").string());
}

}  // namespace replicas_nginx_test
