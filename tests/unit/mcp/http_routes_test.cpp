// The Streamable HTTP server's routes over real loopback sockets: session creation and use,
// the required headers (Content-Type 415, Accept 406, Mcp-Session-Id 400, unknown session 404,
// MCP-Protocol-Version 400), DELETE ending a session, notifications answered 202, the GET
// stream (one per session: 409; Last-Event-ID), methods other than GET/POST/DELETE (405),
// other paths (404), and a sessions-off server.
#include <gtest/gtest.h>

#include "tooluse/mcp/http_server.hpp"
#include "unit/mcp/http_test_util.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace http_routes_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;

namespace {

struct served {
  mcp::server server;
  mcp::http_server http;
  unsigned short port = 0;
  explicit served(mcp::server_options so = {}, mcp::http_options ho = {})
      : server({.name = "h", .version = "1"}, nullptr, std::move(so)), http(server, std::move(ho)) {
    server.add_tool({.name = "echo"}, [](const json& a, mcp::request_context& ctx) -> mcp::tool_outcome {
      ctx.log(mcp::log_level::info, "echoing");
      return tool_result::text(a.dump());
    });
    auto ok = http.start();
    EXPECT_TRUE(ok) << (ok ? "" : ok.error().message);
    port = http.port();
  }
  // open_session runs initialize and returns the session id.
  std::string open_session(const std::string& version = "2025-11-25") {
    auto r = exchange(port, "POST", json_post(),
                      req(1, "initialize", {{"protocolVersion", version}, {"capabilities", json::object()}}).dump());
    EXPECT_EQ(r.status, 200) << r.body;
    return r.header("mcp-session-id");
  }
  http_reply post(const json& body, header_fields extra = {}) {
    return exchange(port, "POST", json_post(std::move(extra)), body.dump());
  }
};

}  // namespace

TEST(mcp_http_routes, initialize_creates_a_session_and_later_requests_use_it) {
  served s;
  EXPECT_EQ(s.http.url(), "http://127.0.0.1:" + std::to_string(s.port) + "/mcp");
  std::string sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  EXPECT_EQ(s.http.stats().sessions, 1u);
  auto list = s.post(req(2, "tools/list"), {{"Mcp-Session-Id", sid}, {"MCP-Protocol-Version", "2025-11-25"}});
  EXPECT_EQ(list.status, 200);
  EXPECT_EQ(list.header("mcp-session-id"), sid);
  EXPECT_EQ(list.rpc()["result"]["tools"][0]["name"], "echo");
}

TEST(mcp_http_routes, a_call_with_log_messages_streams_them_before_the_response) {
  served s;
  std::string sid = s.open_session();
  auto r = s.post(req(3, "tools/call", {{"name", "echo"}, {"arguments", {{"x", 1}}}}), {{"Mcp-Session-Id", sid}});
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.header("content-type").find("text/event-stream"), std::string::npos);
  auto log_at = r.body.find("notifications/message");
  auto result_at = r.body.find("\"result\"");
  ASSERT_NE(log_at, std::string::npos) << r.body;
  ASSERT_NE(result_at, std::string::npos);
  EXPECT_LT(log_at, result_at);
  EXPECT_EQ(r.rpc()["result"]["content"][0]["text"], R"({"x":1})");
  EXPECT_NE(r.body.find("id: "), std::string::npos);  // resumable events carry ids
}

TEST(mcp_http_routes, post_needs_json_content_and_a_fitting_accept) {
  served s;
  auto wrong_type = exchange(s.port, "POST", {{"Content-Type", "text/plain"}, {"Accept", "application/json"}},
                             req(1, "ping").dump());
  EXPECT_EQ(wrong_type.status, 415);
  EXPECT_EQ(json::parse(wrong_type.body)["error"]["code"], -32600);
  auto wrong_accept = exchange(s.port, "POST", {{"Content-Type", "application/json"}, {"Accept", "text/html"}},
                               req(1, "ping").dump());
  EXPECT_EQ(wrong_accept.status, 406);
  auto not_json = exchange(s.port, "POST", json_post(), "{oops");
  EXPECT_EQ(not_json.status, 400);
  EXPECT_EQ(json::parse(not_json.body)["error"]["code"], -32700);
  auto batch = exchange(s.port, "POST", json_post(), "[" + req(1, "ping").dump() + "," + req(2, "ping").dump() + "]");
  EXPECT_EQ(batch.status, 400);
}

TEST(mcp_http_routes, requests_outside_a_session_are_refused) {
  served s;
  auto no_session = s.post(req(1, "tools/list"));
  EXPECT_EQ(no_session.status, 400);
  EXPECT_NE(no_session.body.find("Mcp-Session-Id"), std::string::npos);
  auto unknown = s.post(req(1, "tools/list"), {{"Mcp-Session-Id", "not-a-session"}});
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(json::parse(unknown.body)["error"]["code"], -32001);
  std::string sid = s.open_session();
  auto bad_version = s.post(req(2, "tools/list"), {{"Mcp-Session-Id", sid}, {"MCP-Protocol-Version", "1999-01-01"}});
  EXPECT_EQ(bad_version.status, 400);
  EXPECT_NE(bad_version.body.find("MCP-Protocol-Version"), std::string::npos);
}

TEST(mcp_http_routes, notifications_and_responses_are_accepted_with_202) {
  served s;
  std::string sid = s.open_session();
  auto n = s.post(notif("notifications/initialized"), {{"Mcp-Session-Id", sid}});
  EXPECT_EQ(n.status, 202);
  EXPECT_TRUE(n.body.empty());
  auto resp = s.post({{"jsonrpc", "2.0"}, {"id", 99}, {"result", json::object()}}, {{"Mcp-Session-Id", sid}});
  EXPECT_EQ(resp.status, 202);
}

TEST(mcp_http_routes, delete_ends_the_session) {
  served s;
  std::string sid = s.open_session();
  auto del = exchange(s.port, "DELETE", {{"Mcp-Session-Id", sid}});
  EXPECT_EQ(del.status, 200);
  EXPECT_EQ(s.http.stats().sessions, 0u);
  auto after = s.post(req(2, "ping"), {{"Mcp-Session-Id", sid}});
  EXPECT_EQ(after.status, 404);
  auto again = exchange(s.port, "DELETE", {{"Mcp-Session-Id", sid}});
  EXPECT_EQ(again.status, 404);
  auto none = exchange(s.port, "DELETE", {});
  EXPECT_EQ(none.status, 400);
}

TEST(mcp_http_routes, get_opens_one_event_stream_per_session) {
  served s;
  std::string sid = s.open_session();
  auto missing = exchange(s.port, "GET", {{"Accept", "text/event-stream"}});
  EXPECT_EQ(missing.status, 400);
  auto unknown = exchange(s.port, "GET", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", "nope"}});
  EXPECT_EQ(unknown.status, 404);
  auto wrong_accept = exchange(s.port, "GET", {{"Accept", "application/json"}, {"Mcp-Session-Id", sid}});
  EXPECT_EQ(wrong_accept.status, 406);
  raw_conn stream(s.port);
  ASSERT_TRUE(stream.send_all(request_text("GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}}, "", s.port)));
  ASSERT_NE(stream.read_until("retry:").find("200"), std::string::npos);
  auto second = exchange(s.port, "GET", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}});
  EXPECT_EQ(second.status, 409);
  // Messages not tied to a request arrive on the GET stream.
  s.server.log(mcp::log_level::warning, "to the stream");
  EXPECT_NE(stream.read_until("to the stream").find("notifications/message"), std::string::npos);
}

TEST(mcp_http_routes, last_event_id_must_name_a_stream_of_the_session) {
  served s;
  std::string sid = s.open_session();
  auto unknown = exchange(s.port, "GET", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", "zzz_3"}});
  EXPECT_EQ(unknown.status, 404);
  auto no_separator = exchange(s.port, "GET", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", "plain"}});
  EXPECT_EQ(no_separator.status, 404);
}

TEST(mcp_http_routes, replays_a_finished_post_stream_after_its_last_event_id) {
  served s;
  std::string sid = s.open_session();
  auto r = s.post(req(3, "tools/call", {{"name", "echo"}, {"arguments", json::object()}}), {{"Mcp-Session-Id", sid}});
  ASSERT_EQ(r.status, 200);
  // The first event id of the stream (the priming event), then resume after it.
  auto at = r.body.find("id: ");
  ASSERT_NE(at, std::string::npos);
  std::string first_id = r.body.substr(at + 4, r.body.find('\n', at) - at - 4);
  auto replay = exchange(s.port, "GET", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", first_id}});
  EXPECT_EQ(replay.status, 200);
  EXPECT_NE(replay.body.find("notifications/message"), std::string::npos) << replay.body;
  EXPECT_NE(replay.body.find("\"result\""), std::string::npos);
}

TEST(mcp_http_routes, other_methods_and_paths_are_refused) {
  served s;
  auto put = exchange(s.port, "PUT", json_post(), "{}");
  EXPECT_EQ(put.status, 405);
  EXPECT_NE(put.header("allow").find("POST"), std::string::npos);
  auto elsewhere = exchange(s.port, "POST", json_post(), req(1, "ping").dump(), "/other");
  EXPECT_EQ(elsewhere.status, 404);
  auto with_query = exchange(s.port, "POST", json_post(),
                             req(1, "initialize", {{"protocolVersion", "2025-11-25"}}).dump(), "/mcp?x=1");
  EXPECT_EQ(with_query.status, 200);
}

TEST(mcp_http_routes, a_stateless_only_server_has_no_get_or_delete) {
  served s({.sessions = false});
  auto get = exchange(s.port, "GET", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", "x"}});
  EXPECT_EQ(get.status, 405);
  EXPECT_EQ(get.header("allow"), "POST");
  auto del = exchange(s.port, "DELETE", {{"Mcp-Session-Id", "x"}});
  EXPECT_EQ(del.status, 405);
  auto init = s.post(req(1, "initialize", {{"protocolVersion", "2025-11-25"}}));
  EXPECT_EQ(init.status, 400);  // no session era: initialize finds no session to create
}

TEST(mcp_http_routes, stop_is_idempotent_and_refuses_new_connections) {
  served s;
  s.open_session();
  s.http.stop();
  s.http.stop();
  raw_conn c(s.port);
  if (c.ok()) {
    c.send_all(request_text("POST", "/mcp", json_post(), req(1, "ping").dump(), s.port));
    EXPECT_EQ(parse_reply(c.read_all()).status, 0);
  }
  EXPECT_EQ(s.http.stats().sessions, 0u);
}

TEST(mcp_http_routes, start_refuses_a_host_that_is_not_an_address) {
  mcp::server srv({.name = "x", .version = "1"});
  mcp::http_server http(srv, {.host = "not-an-ip"});
  auto ok = http.start();
  ASSERT_FALSE(ok);
  EXPECT_EQ(ok.error().code, tooluse::errc::invalid_argument);
}
}  // namespace http_routes_test
