// HTTP sessions over real loopback sockets: max_sessions evicts a session unused since
// initialize but refuses (503, data.limit) when every session is in use; a tool's request to
// the client travels on the POST's SSE stream and the client's answer comes back in another
// POST (202); a request cancelled by notifications/cancelled gets 202 and no response; the
// session's log level applies to messages on its streams.
#include <gtest/gtest.h>

#include <future>

#include "support/response_gate.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "unit/mcp/http_session_server.hpp"
#include "unit/mcp/http_test_util.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace http_sessions_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using namespace std::chrono_literals;
using tooluse::json;
using tooluse::tool_result;

namespace {

// served is a session_server named "sess".
struct served : session_server {
  explicit served(mcp::http_options ho = {}) : session_server("sess", std::move(ho)) {}
};

}  // namespace

TEST(mcp_http_sessions, a_new_session_evicts_one_never_used) {
  served s({.max_sessions = 1});
  s.start();
  std::string first = s.open_session();
  std::string second = s.open_session();
  ASSERT_FALSE(second.empty());
  EXPECT_NE(first, second);
  EXPECT_EQ(s.http.stats().sessions, 1u);
  EXPECT_EQ(s.post(first, req(2, "ping")).status, 404);
  EXPECT_EQ(s.post(second, req(3, "ping")).status, 200);
}

TEST(mcp_http_sessions, sessions_in_use_are_kept_and_the_newcomer_gets_503) {
  served s({.max_sessions = 1});
  s.start();
  std::string sid = s.open_session();
  ASSERT_EQ(s.post(sid, req(2, "ping")).status, 200);  // now in use
  auto refused = exchange(s.port, "POST", json_post(), req(9, "initialize", {{"protocolVersion", "2025-11-25"}}).dump());
  EXPECT_EQ(refused.status, 503);
  json body = json::parse(refused.body);
  EXPECT_EQ(body["error"]["data"]["limit"], "max_sessions");
  EXPECT_EQ(body["id"], 9);
  EXPECT_EQ(s.post(sid, req(3, "ping")).status, 200);
}

TEST(mcp_http_sessions, a_client_request_travels_on_the_post_stream) {
  served s;
  s.server.add_tool({.name = "ask"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    auto r = ctx.request_client("sampling/createMessage", {{"maxTokens", 3}}, 30s);
    if (!r) return tool_result::error(r.error().message);
    return tool_result::text("model said " + (*r)["content"]["text"].get<std::string>());
  });
  s.start();
  std::string sid = s.open_session();
  raw_conn call(s.port);
  ASSERT_TRUE(call.send_all(request_text("POST", "/mcp", json_post({{"Mcp-Session-Id", sid}}),
                                         req(5, "tools/call", {{"name", "ask"}}).dump(), s.port)));
  // The request's params come last in its JSON: once they arrived, the event's JSON is whole.
  const std::string tail = R"("params":{"maxTokens":3}})";
  const std::string& so_far = call.read_until(tail);
  auto data = so_far.find("data: {");
  auto end = so_far.find(tail);
  ASSERT_NE(data, std::string::npos) << so_far;
  ASSERT_NE(end, std::string::npos) << so_far;
  json ask = json::parse(so_far.substr(data + 6, end + tail.size() - data - 6));
  ASSERT_EQ(ask["method"], "sampling/createMessage");
  auto answered = s.post(sid, {{"jsonrpc", "2.0"}, {"id", ask["id"]},
                               {"result", {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "hi"}}}}}});
  EXPECT_EQ(answered.status, 202);
  auto reply = parse_reply(call.read_all());
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.rpc()["result"]["content"][0]["text"], "model said hi");
}

TEST(mcp_http_sessions, a_cancelled_request_gets_202_and_no_response) {
  served s;
  tooluse::testing::response_gate started;
  std::promise<void> stopped;
  s.server.add_tool({.name = "wait"}, [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    std::mutex mu;
    std::condition_variable cv;
    std::stop_callback wake(ctx.stop(), [&] {
      std::lock_guard lock(mu);
      cv.notify_all();
    });
    started.open();
    std::unique_lock lock(mu);
    cv.wait_for(lock, 30s, [&] { return ctx.stop().stop_requested(); });
    stopped.set_value();
    return tool_result::text("too late");
  });
  s.start();
  std::string sid = s.open_session();
  raw_conn call(s.port);
  ASSERT_TRUE(call.send_all(request_text("POST", "/mcp", json_post({{"Mcp-Session-Id", sid}}),
                                         req(8, "tools/call", {{"name", "wait"}}).dump(), s.port)));
  started.wait();  // returns at once once open() was called
  auto note = s.post(sid, notif("notifications/cancelled", {{"requestId", 8}}));
  EXPECT_EQ(note.status, 202);
  stopped.get_future().wait();
  auto reply = parse_reply(call.read_all());
  EXPECT_EQ(reply.status, 202);
  EXPECT_EQ(reply.body.find("too late"), std::string::npos);
}

TEST(mcp_http_sessions, the_session_log_level_filters_its_stream) {
  served s;
  s.server.add_tool({.name = "talk"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    ctx.log(mcp::log_level::debug, "quiet detail");
    ctx.log(mcp::log_level::error, "loud problem");
    return tool_result::text("said");
  });
  s.start();
  std::string sid = s.open_session();
  auto set = s.post(sid, req(2, "logging/setLevel", {{"level", "warning"}}));
  EXPECT_EQ(set.status, 200);
  auto r = s.post(sid, req(3, "tools/call", {{"name", "talk"}}));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body.find("quiet detail"), std::string::npos);
  EXPECT_NE(r.body.find("loud problem"), std::string::npos);
  EXPECT_EQ(r.rpc()["result"]["content"][0]["text"], "said");
}

TEST(mcp_http_sessions, older_revisions_get_no_priming_event) {
  served s;
  s.server.add_tool({.name = "talk"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    ctx.log(mcp::log_level::error, "note");
    return tool_result::text("ok");
  });
  s.start();
  auto init = exchange(s.port, "POST", json_post(), req(1, "initialize", {{"protocolVersion", "2025-03-26"}}).dump());
  ASSERT_EQ(init.status, 200);
  EXPECT_EQ(json::parse(init.body)["result"]["protocolVersion"], "2025-03-26");
  std::string sid = init.header("mcp-session-id");
  auto r = s.post(sid, req(2, "tools/call", {{"name", "talk"}}));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body.find("retry:"), std::string::npos) << r.body;
  EXPECT_EQ(r.rpc()["result"]["content"][0]["text"], "ok");
}

TEST(mcp_http_sessions, a_session_version_header_keeps_a_session_request_on_the_session_path) {
  served s;
  s.start();
  std::string sid = s.open_session();
  auto r = exchange(s.port, "POST", json_post({{"Mcp-Session-Id", sid}, {"MCP-Protocol-Version", "2025-11-25"}}),
                    req(2, "tools/list").dump());
  EXPECT_EQ(r.status, 200);
  EXPECT_FALSE(json::parse(r.body)["result"].contains("resultType"));  // not answered statelessly
}
}  // namespace http_sessions_test
