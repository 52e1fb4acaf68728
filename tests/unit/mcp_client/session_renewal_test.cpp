// A real HTTP MCP server that forgets the client's session (it is deleted behind the client's
// back): on the 404 the client starts a new session, sends the request again when that is
// safe, says so on its warning log, and does not repeat a tool call the server may have run.

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "client_test_support.hpp"

namespace session_renewal_test {
namespace mcp = tooluse::mcp;
namespace http = tooluse::http;
using tooluse::json;
using namespace mcp::testing;

namespace {

bool contains(const std::string& s, std::string_view what) { return s.find(what) != std::string::npos; }

// watcher records the client's requests and the session ids it used.
struct watcher {
  std::mutex mu;
  std::vector<http::request> requests;
  std::vector<std::string> warnings;

  http::transport sender(http::transport inner = nullptr) {
    return [this, inner](const http::request& req, const http::send_options& so) {
      {
        std::lock_guard lock(mu);
        requests.push_back(req);
      }
      return inner ? inner(req, so) : http::send(req, so);
    };
  }
  std::function<void(std::string_view)> on_warning() {
    return [this](std::string_view line) {
      std::lock_guard lock(mu);
      warnings.emplace_back(line);
    };
  }
  int count(const std::string& rpc_method) {
    std::lock_guard lock(mu);
    int n = 0;
    for (const auto& r : requests)
      n += r.body.find("\"method\":\"" + rpc_method + "\"") != std::string::npos;
    return n;
  }
  std::string last_session() {
    std::lock_guard lock(mu);
    for (auto it = requests.rbegin(); it != requests.rend(); ++it)
      if (auto sid = http::find_header(it->headers, "Mcp-Session-Id")) return *sid;
    return "";
  }
  std::string all_warnings() {
    std::lock_guard lock(mu);
    std::string out;
    for (const auto& w : warnings) out += w + "\n";
    return out;
  }
};

// forget has the server end `session`, as a restart or an expiry would.
void forget(const std::string& url, const std::string& session) {
  auto r = http::send({.method = "DELETE",
                       .url = url,
                       .headers = {{"Mcp-Session-Id", session},
                                   {"MCP-Protocol-Version", "2025-11-25"}}});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_LT(r->status, 300) << r->body;
}

TEST(mcp_session_renewal, a_forgotten_session_is_renewed_and_the_call_sent_again) {
  http_fixture f;
  add_text_tool(f.srv, "hello", "hi");
  ASSERT_TRUE(f.start());
  watcher w;
  auto c = mcp::client::connect(f.transport({.open_get_stream = false, .sender = w.sender()}),
                                {.protocol_version = "2025-11-25", .on_warning = w.on_warning()});
  ASSERT_TRUE(c) << c.error().what();
  ASSERT_TRUE((*c)->list_tools());
  const std::string old_session = w.last_session();
  ASSERT_FALSE(old_session.empty());
  forget(f.http.url(), old_session);

  auto r = (*c)->call_tool("hello", json::object());
  ASSERT_TRUE(r) << r.error().what();
  EXPECT_EQ(r->all_text(), "hi");
  EXPECT_EQ(w.count("initialize"), 2);
  EXPECT_EQ(w.count("tools/call"), 2) << "refused unseen, so sent again";
  EXPECT_NE(w.last_session(), old_session);
  EXPECT_TRUE(contains(w.all_warnings(), "started a new session and sent tools/call again"))
      << w.all_warnings();
  // The new session serves what follows without another handshake.
  ASSERT_TRUE((*c)->call_tool("hello", json::object()));
  EXPECT_EQ(w.count("initialize"), 2);
}

TEST(mcp_session_renewal, a_call_the_server_may_have_run_is_not_sent_again) {
  http_fixture f({}, {.sse_retry = std::chrono::milliseconds(20)});
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  int runs = 0;
  f.srv.add_tool({.name = "charge", .description = "has an effect"},
                 [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
                   {
                     std::lock_guard lock(mu);
                     ++runs;
                   }
                   ctx.progress(1);  // the answer is an SSE stream, with an event id
                   std::unique_lock lock(mu);
                   cv.wait(lock, [&] { return release; });
                   return tooluse::tool_result::text("charged");
                 });
  ASSERT_TRUE(f.start());
  watcher w;
  // Cut the tool call's stream after its first event, and have the server forget the session
  // before the client resumes it.
  http::transport cutter = [&](const http::request& req, const http::send_options& so) {
    if (req.method != "POST" || !contains(req.body, "\"charge\"")) return http::send(req, so);
    http::send_options mine = so;
    const std::string session = http::find_header(req.headers, "Mcp-Session-Id").value_or("");
    mine.on_body = [&, session, inner = so.on_body](std::string_view chunk) {
      inner(chunk);
      forget(f.http.url(), session);
      {
        std::lock_guard lock(mu);
        release = true;
      }
      cv.notify_all();
      return false;
    };
    return http::send(req, mine);
  };
  auto c = mcp::client::connect(
      f.transport({.open_get_stream = false, .sender = w.sender(cutter)}),
      {.protocol_version = "2025-11-25", .on_warning = w.on_warning()});
  ASSERT_TRUE(c) << c.error().what();
  auto r = (*c)->call_tool("charge", json::object(), {.on_progress = [](const auto&) {}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, tooluse::errc::not_found);
  EXPECT_TRUE(contains(r.error().message, "was not sent again because it may have taken effect"))
      << r.error().message;
  EXPECT_EQ(w.count("tools/call"), 1);
  EXPECT_EQ(w.count("initialize"), 2) << "a new session was started all the same";
  EXPECT_TRUE(contains(w.all_warnings(), "did not send tools/call again")) << w.all_warnings();
  {
    std::lock_guard lock(mu);
    EXPECT_EQ(runs, 1);
  }
  // A read-only request is safe to repeat, and the renewed session serves it.
  ASSERT_TRUE((*c)->list_tools());
}

}  // namespace
}  // namespace session_renewal_test
