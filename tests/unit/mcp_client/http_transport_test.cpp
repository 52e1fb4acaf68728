// Streamable HTTP client transport against tooluse's own server on loopback: a forgotten
// session is re-initialised, a cut SSE stream is resumed with Last-Event-ID, the negotiated
// revision is sent after initialize, close DELETEs the session, bearer tokens and custom headers
// are sent, 2026-07-28 request headers are mirrored, the handshake waits for the GET stream.

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>

#include "client_test_support.hpp"

namespace mcp = tooluse::mcp;
namespace http = tooluse::http;
using tooluse::json;
using namespace mcp::testing;

namespace {

// recorder keeps every request the client made (method, headers, body).
struct recorder {
  std::mutex mu;
  std::vector<http::request> requests;
  std::function<void(http::request&)> rewrite;  // may change a request before it is sent

  http::transport sender() {
    return [this](const http::request& in, const http::send_options& so) {
      http::request req = in;
      {
        std::lock_guard lock(mu);
        if (rewrite) rewrite(req);
        requests.push_back(req);
      }
      return http::send(req, so);
    };
  }
  std::vector<http::request> all() {
    std::lock_guard lock(mu);
    return requests;
  }
};

int count_method(const std::vector<http::request>& rs, const std::string& rpc_method) {
  int n = 0;
  for (const auto& r : rs)
    if (r.body.find("\"method\":\"" + rpc_method + "\"") != std::string::npos) ++n;
  return n;
}

}  // namespace

TEST(mcp_http_transport, forgotten_session_is_reinitialised_and_the_call_retried) {
  http_fixture f;
  add_text_tool(f.srv, "hello", "hi");
  ASSERT_TRUE(f.start());
  recorder rec;
  bool done = false;
  rec.rewrite = [&](http::request& r) {
    if (done || r.body.find("tools/list") == std::string::npos) return;
    done = true;
    for (auto& h : r.headers)
      if (h.name == "Mcp-Session-Id") h.value = "forgotten-session";
  };
  auto c = mcp::client::connect(f.transport({.open_get_stream = false, .sender = rec.sender()}),
                                {.protocol_version = "2025-11-25"});
  ASSERT_TRUE(c) << c.error().what();
  auto tools = (*c)->list_tools();
  ASSERT_TRUE(tools) << tools.error().what();
  EXPECT_EQ(tools->size(), 1u);
  auto all = rec.all();
  EXPECT_EQ(count_method(all, "initialize"), 2);
  EXPECT_EQ(count_method(all, "tools/list"), 2);
}

TEST(mcp_http_transport, cut_sse_stream_is_resumed_with_last_event_id) {
  http_fixture f({}, {.sse_retry = std::chrono::milliseconds(20)});
  std::mutex mu;
  std::condition_variable cv;
  bool cut = false;
  f.srv.add_tool({.name = "after_cut", .description = "answers once the stream was cut"},
                 [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
                   ctx.progress(1);  // makes the server answer with an SSE stream
                   std::unique_lock lock(mu);
                   cv.wait_for(lock, std::chrono::seconds(10), [&] { return cut; });
                   return tooluse::tool_result::text("resumed");
                 });
  ASSERT_TRUE(f.start());
  recorder rec;
  http::transport cutter = [&](const http::request& req, const http::send_options& so) {
    if (req.method != "POST" || req.body.find("after_cut") == std::string::npos)
      return rec.sender()(req, so);
    http::send_options mine = so;
    mine.on_body = [&, inner = so.on_body](std::string_view chunk) {
      inner(chunk);  // the priming event (id + retry) arrives, then the connection is cut
      std::lock_guard lock(mu);
      cut = true;
      cv.notify_all();
      return false;
    };
    return rec.sender()(req, mine);
  };
  auto c = mcp::client::connect(f.transport({.open_get_stream = false, .sender = cutter}),
                                {.protocol_version = "2025-11-25"});
  ASSERT_TRUE(c) << c.error().what();
  auto r = (*c)->call_tool("after_cut", json::object(), {.on_progress = [](const auto&) {}});
  ASSERT_TRUE(r) << r.error().what();
  EXPECT_EQ(r->all_text(), "resumed");
  std::string last_event_id;
  for (const auto& req : rec.all())
    if (req.method == "GET")
      last_event_id = http::find_header(req.headers, "Last-Event-ID").value_or("");
  EXPECT_FALSE(last_event_id.empty());
}

TEST(mcp_http_transport, the_negotiated_revision_is_sent_after_initialize) {
  http_fixture f;
  add_text_tool(f.srv, "hello", "hi");
  ASSERT_TRUE(f.start());
  recorder rec;
  auto c = mcp::client::connect(f.transport({.open_get_stream = false, .sender = rec.sender()}),
                                {.protocol_version = "2025-06-18"});
  ASSERT_TRUE(c) << c.error().what();
  ASSERT_TRUE((*c)->list_tools());
  auto all = rec.all();
  ASSERT_EQ(all.size(), 3u);  // initialize, notifications/initialized, tools/list
  EXPECT_EQ(count_method({all[0]}, "initialize"), 1);
  EXPECT_FALSE(http::find_header(all[0].headers, "MCP-Protocol-Version").has_value());
  for (std::size_t i : {1u, 2u})
    EXPECT_EQ(http::find_header(all[i].headers, "MCP-Protocol-Version"), "2025-06-18") << i;
}

TEST(mcp_http_transport, close_deletes_the_session) {
  http_fixture f;
  ASSERT_TRUE(f.start());
  recorder rec;
  auto c = mcp::client::connect(f.transport({.sender = rec.sender()}),
                                {.protocol_version = "2025-11-25"});
  ASSERT_TRUE(c) << c.error().what();
  (*c)->close();
  auto all = rec.all();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.back().method, "DELETE");
  EXPECT_TRUE(http::find_header(all.back().headers, "Mcp-Session-Id").has_value());
  EXPECT_EQ(http::find_header(all.back().headers, "MCP-Protocol-Version"), "2025-11-25");
}

TEST(mcp_http_transport, bearer_token_and_custom_headers_are_sent) {
  http_fixture f({}, {.bearer_token = "s3cret"});
  add_text_tool(f.srv, "hello", "hi");
  ASSERT_TRUE(f.start());
  recorder rec;
  auto c = mcp::client::connect(
      f.transport(
          {.headers = {{"X-Trace", "42"}}, .bearer_token = "s3cret", .sender = rec.sender()}),
      {});
  ASSERT_TRUE(c) << c.error().what();
  ASSERT_TRUE((*c)->call_tool("hello"));
  for (const auto& r : rec.all()) {
    EXPECT_EQ(http::find_header(r.headers, "Authorization"), "Bearer s3cret");
    EXPECT_EQ(http::find_header(r.headers, "X-Trace"), "42");
  }
  auto denied = mcp::client::connect(f.transport({.bearer_token = "wrong"}),
                                     {.protocol_version = "2025-11-25"});
  ASSERT_FALSE(denied);
  EXPECT_EQ(denied.error().code, tooluse::errc::http_error);
  EXPECT_NE(denied.error().message.find(f.http.url()), std::string::npos);
}

TEST(mcp_http_transport, stateless_requests_mirror_method_name_and_params_into_headers) {
  http_fixture f;
  json schema = {{"type", "object"},
                 {"properties",
                  {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                   {"n", {{"type", "integer"}}}}}};
  f.srv.add_tool({.name = "located", .description = "d", .input_schema = schema},
                 [](const json&, mcp::request_context&) -> mcp::tool_outcome {
                   return tooluse::tool_result::text("ok");
                 });
  json bad = {{"type", "object"},
              {"properties", {{"x", {{"type", "number"}, {"x-mcp-header", "X"}}}}}};
  f.srv.add_tool({.name = "bad_header", .description = "d", .input_schema = bad},
                 [](const json&, mcp::request_context&) -> mcp::tool_outcome {
                   return tooluse::tool_result::text("ok");
                 });
  ASSERT_TRUE(f.start());
  recorder rec;
  auto c = mcp::client::connect(f.transport({.sender = rec.sender()}), {});
  ASSERT_TRUE(c) << c.error().what();
  auto tools = (*c)->list_tools();
  ASSERT_TRUE(tools) << tools.error().what();
  ASSERT_EQ(tools->size(), 1u);  // the tool with an x-mcp-header on a number is dropped
  EXPECT_EQ((*tools)[0]["name"], "located");
  auto r = (*c)->call_tool("located", {{"region", "Zürich"}, {"n", 1}});
  ASSERT_TRUE(r) << r.error().what();
  const auto call = rec.all().back();
  EXPECT_EQ(http::find_header(call.headers, "Mcp-Method"), "tools/call");
  EXPECT_EQ(http::find_header(call.headers, "Mcp-Name"), "located");
  EXPECT_EQ(http::find_header(call.headers, "MCP-Protocol-Version"), "2026-07-28");
  EXPECT_EQ(http::find_header(call.headers, "Mcp-Param-Region"), "=?base64?WsO8cmljaA==?=");
}

// A server's request sent on the GET stream before that stream is open is lost (the
// TypeScript SDK's server drops it), so the handshake returns only once the server has
// answered the GET. Here the GET goes out only after the notifications/initialized POST came
// back: without the wait, connect() returns before the GET is answered.
TEST(mcp_http_transport, the_handshake_returns_once_the_get_stream_is_answered) {
  http_fixture f;
  ASSERT_TRUE(f.start());
  std::mutex mu;
  std::condition_variable cv;
  bool initialized_sent = false;
  std::atomic<bool> get_answered{false};
  http::transport sender = [&](const http::request& req, const http::send_options& so) {
    if (req.method == "GET") {
      {
        std::unique_lock lock(mu);
        cv.wait_for(lock, std::chrono::seconds(30), [&] { return initialized_sent; });
      }
      http::send_options mine = so;
      mine.on_headers = [&, inner = so.on_headers](int st, const std::vector<http::header>& hs) {
        get_answered = true;
        if (inner) inner(st, hs);
      };
      return http::send(req, mine);
    }
    auto r = http::send(req, so);
    if (req.body.find("notifications/initialized") != std::string::npos) {
      std::lock_guard lock(mu);
      initialized_sent = true;
      cv.notify_all();
    }
    return r;
  };
  auto c = mcp::client::connect(
      f.transport({.get_stream_wait = std::chrono::seconds(30), .sender = sender}),
      {.protocol_version = "2025-11-25"});
  ASSERT_TRUE(c) << c.error().what();
  EXPECT_TRUE(get_answered);
  (*c)->close();
}
