// Two MCP HTTP servers in this process sharing one store (a SQLite file, each with its own
// connections, as two replica processes have): a 2025-11-25 session initialized on one is
// served by the other; its GET stream on one replica carries what the other sends it (resource
// updates for its subscriptions, log messages at the level set on either, task status); a task
// created on one is read and cancelled on the other, which stops it where it runs; DELETE on one
// ends the session everywhere; and a server without a store knows only its own sessions.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "support/test_support.hpp"
#include "tooluse/http/client.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "tooluse/mcp_store/shared_state.hpp"

namespace replicas_test {
namespace {

using namespace std::chrono_literals;
using tooluse::json;
namespace mcp = tooluse::mcp;
namespace http = tooluse::http;

constexpr const char* doc_uri = "mem://doc";

// replica is one server process's worth: its own store connections, server and HTTP server.
struct replica {
  std::shared_ptr<mcp::session_store> sessions;
  std::unique_ptr<mcp::server> srv;
  std::unique_ptr<mcp::http_server> http;
  std::mutex mu;
  std::condition_variable_any cv;
  bool job_stopped = false;  ///< the long task's handler saw its stop token

  explicit replica(const std::string& store) {
    auto shared = tooluse::mcp_store::open_shared_state(store, {.poll_interval = 20ms});
    EXPECT_TRUE(shared) << shared.error().message;
    if (!shared) return;
    sessions = shared->sessions;
    srv = std::make_unique<mcp::server>(mcp::implementation{.name = "replica", .version = "1"},
                                        nullptr,
                                        mcp::server_options{.tasks = {.store = shared->tasks}});
    srv->add_resource(
        {.uri = doc_uri, .name = "doc", .mime_type = "text/plain"},
        [](const std::string& uri, const json&,
           mcp::request_context&) -> tooluse::result<std::vector<mcp::resource_contents>> {
          return std::vector<mcp::resource_contents>{
              {.uri = uri, .mime_type = "text/plain", .text = "doc"}};
        });
    srv->add_tool(
        {.name = "long_job", .description = "waits until cancelled"},
        [this](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
          std::unique_lock lock(mu);
          cv.wait_for(lock, ctx.stop(), 60s, [] { return false; });
          job_stopped = ctx.stop().stop_requested();
          cv.notify_all();
          return tooluse::tool_result::text("done");
        },
        mcp::task_support::required);
    http = std::make_unique<mcp::http_server>(*srv, mcp::http_options{.session_store = sessions});
    auto ok = http->start();
    EXPECT_TRUE(ok) << ok.error().message;
  }
  ~replica() {
    if (http) http->stop();
  }
  bool wait_stopped() {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, 20s, [&] { return job_stopped; });
  }
};

struct reply {
  int status = 0;
  json body;
  std::string session;
};

reply post(const std::string& url, const std::string& session, json message) {
  std::vector<http::header> headers = {{"Content-Type", "application/json"},
                                       {"Accept", "application/json, text/event-stream"},
                                       {"MCP-Protocol-Version", "2025-11-25"}};
  if (!session.empty()) headers.push_back({"Mcp-Session-Id", session});
  auto r = http::send({.method = "POST", .url = url, .headers = headers, .body = message.dump()});
  EXPECT_TRUE(r) << r.error().message;
  reply out;
  if (!r) return out;
  out.status = r->status;
  out.session = r->header_value("Mcp-Session-Id").value_or("");
  // A JSON body, or an SSE stream whose last data line is the response.
  std::string body = r->body;
  if (auto pos = body.rfind("data: "); pos != std::string::npos && body.front() != '{')
    body = body.substr(pos + 6, body.find('\n', pos) - pos - 6);
  auto parsed = json::parse(body, nullptr, false);
  out.body = parsed.is_discarded() ? json(r->body) : parsed;
  return out;
}

json rpc(int id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

// stream is a session's GET stream, read on a thread of its own until destroyed.
class stream {
 public:
  stream(const std::string& url, const std::string& session) {
    thread_ = std::thread([this, url, session] {
      http::request req{.url = url,
                        .headers = {{"Accept", "text/event-stream"},
                                    {"Mcp-Session-Id", session},
                                    {"MCP-Protocol-Version", "2025-11-25"}},
                        .read_timeout = 0ms,
                        .total_timeout = 0ms};
      (void)http::send(req, {.on_body =
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
  ~stream() {
    stop_.request_stop();
    thread_.join();
  }
  /// open waits for the response header; its status.
  int open() {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, 20s, [&] { return status_ != 0; });
    return status_;
  }
  /// wait_for waits until the stream carried `needle`.
  bool wait_for(const std::string& needle) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 20s, [&] { return text_.find(needle) != std::string::npos; });
  }
  bool saw(const std::string& needle) {
    std::lock_guard lock(mu_);
    return text_.find(needle) != std::string::npos;
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

std::string initialize(const std::string& url) {
  auto init = post(url, "",
                   rpc(1, "initialize",
                       {{"protocolVersion", "2025-11-25"},
                        {"capabilities", {{"tasks", json::object()}}},
                        {"clientInfo", {{"name", "replicas-test"}, {"version", "1"}}}}));
  EXPECT_EQ(init.status, 200) << init.body.dump();
  EXPECT_FALSE(init.session.empty());
  return init.session;
}

}  // namespace

TEST(mcp_replicas, a_session_made_on_one_replica_is_served_by_the_other) {
  tooluse::testing::temp_dir dir;
  const std::string store = (dir.path() / "shared.db").string();
  replica a(store), b(store);
  ASSERT_TRUE(a.http && b.http);
  const std::string sid = initialize(a.http->url());
  ASSERT_FALSE(sid.empty());
  EXPECT_EQ(post(b.http->url(), sid, {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}})
                .status,
            202);

  auto tools = post(b.http->url(), sid, rpc(2, "tools/list"));
  ASSERT_EQ(tools.status, 200) << tools.body.dump();
  EXPECT_EQ(tools.body["result"]["tools"][0]["name"], "long_job");
  auto read = post(b.http->url(), sid, rpc(3, "resources/read", {{"uri", doc_uri}}));
  ASSERT_EQ(read.status, 200);
  EXPECT_EQ(read.body["result"]["contents"][0]["text"], "doc");

  // The GET stream is on b; a subscribes and a's resource changes; b writes the update.
  stream s(b.http->url(), sid);
  ASSERT_EQ(s.open(), 200);
  ASSERT_EQ(post(a.http->url(), sid, rpc(4, "resources/subscribe", {{"uri", doc_uri}})).status,
            200);
  a.srv->notify_resource_updated(doc_uri);
  EXPECT_TRUE(s.wait_for("notifications/resources/updated")) << s.text();

  // The level set through b holds on a: a's warning is dropped, its error arrives.
  ASSERT_EQ(post(b.http->url(), sid, rpc(5, "logging/setLevel", {{"level", "error"}})).status, 200);
  ASSERT_EQ(post(a.http->url(), sid, rpc(6, "ping")).status, 200);
  a.srv->log(mcp::log_level::warning, "below the level");
  a.srv->log(mcp::log_level::error, "at the level");
  EXPECT_TRUE(s.wait_for("at the level")) << s.text();
  EXPECT_FALSE(s.saw("below the level")) << s.text();

  // DELETE on b: a no longer knows the session.
  auto del =
      http::send({.method = "DELETE",
                  .url = b.http->url(),
                  .headers = {{"Mcp-Session-Id", sid}, {"MCP-Protocol-Version", "2025-11-25"}}});
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 200);
  EXPECT_EQ(post(a.http->url(), sid, rpc(7, "ping")).status, 404);
}

TEST(mcp_replicas, a_task_made_on_one_replica_is_read_and_cancelled_on_the_other) {
  tooluse::testing::temp_dir dir;
  const std::string store = (dir.path() / "shared.db").string();
  replica a(store), b(store);
  ASSERT_TRUE(a.http && b.http);
  const std::string sid = initialize(a.http->url());
  ASSERT_FALSE(sid.empty());
  stream s(a.http->url(), sid);
  ASSERT_EQ(s.open(), 200);

  auto made =
      post(a.http->url(), sid,
           rpc(2, "tools/call",
               {{"name", "long_job"}, {"arguments", json::object()}, {"task", json::object()}}));
  ASSERT_EQ(made.status, 200) << made.body.dump();
  const std::string task = made.body["result"]["task"].value("taskId", "");
  ASSERT_FALSE(task.empty()) << made.body.dump();

  auto got = post(b.http->url(), sid, rpc(3, "tasks/get", {{"taskId", task}}));
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(got.body["result"]["status"], "working") << got.body.dump();
  auto listed = post(b.http->url(), sid, rpc(4, "tasks/list"));
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(listed.body["result"]["tasks"].size(), 1u) << listed.body.dump();

  auto cancelled = post(b.http->url(), sid, rpc(5, "tasks/cancel", {{"taskId", task}}));
  ASSERT_EQ(cancelled.status, 200) << cancelled.body.dump();
  EXPECT_EQ(cancelled.body["result"]["status"], "cancelled");
  EXPECT_TRUE(a.wait_stopped()) << "the task kept running on the replica that made it";
  // The stream (on a) hears of the cancellation b made.
  EXPECT_TRUE(s.wait_for("\"status\":\"cancelled\"")) << s.text();
  auto after = post(a.http->url(), sid, rpc(6, "tasks/get", {{"taskId", task}}));
  EXPECT_EQ(after.body["result"]["status"], "cancelled") << after.body.dump();
}

TEST(mcp_replicas, without_a_store_a_session_is_known_only_where_it_was_made) {
  mcp::server sa({.name = "a", .version = "1"}), sb({.name = "b", .version = "1"});
  mcp::http_server a(sa), b(sb);
  ASSERT_TRUE(a.start());
  ASSERT_TRUE(b.start());
  const std::string sid = initialize(a.url());
  ASSERT_FALSE(sid.empty());
  EXPECT_EQ(post(a.url(), sid, rpc(2, "ping")).status, 200);
  EXPECT_EQ(post(b.url(), sid, rpc(2, "ping")).status, 404);
}

TEST(mcp_replicas, an_unreachable_store_is_an_error_naming_it) {
  auto shared = tooluse::mcp_store::open_shared_state("/no/such/dir/shared.db");
  ASSERT_FALSE(shared);
  EXPECT_NE(shared.error().message.find("/no/such/dir/shared.db"), std::string::npos)
      << shared.error().message;
}

}  // namespace replicas_test
