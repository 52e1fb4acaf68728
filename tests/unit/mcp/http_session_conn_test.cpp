// The server side of the transport model (connection.hpp, design/transport.md): a server_session
// (server::connect) writes what a request emits through connection::write with the request's id
// in the envelope, the rest without; over real HTTP on loopback, an HTTP session routes each
// response to the POST that asked by id (two requests in flight in one session, answered out of
// order), refuses an id already in flight, and sends a server request made during a tools/call
// on that POST's SSE stream; a stateless POST is a one-message connection whose notifications
// and response are its own reply.
#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <thread>

#include "support/response_gate.hpp"
#include "tooluse/jsonrpc/framing.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "unit/mcp/http_session_server.hpp"
#include "unit/mcp/http_test_util.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace http_session_conn_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using namespace std::chrono_literals;
using tooluse::json;
using tooluse::tool_result;

namespace {

// recording_connection keeps what the server sends, and whether it came as related (with the
// request id) or not. It stands for the transport; the thing under test is server_session.
class recording_connection : public mcp::connection {
 public:
  struct sent {
    json message;
    json related;  ///< the request id in the envelope; null for none
  };
  tooluse::result<mcp::connection_info> start(mcp::connection_handlers) override { return {}; }
  tooluse::status write(const mcp::outgoing& o) override {
    std::lock_guard lock(mu);
    out.push_back({o.message, o.request ? *o.request : json(nullptr)});
    return {};
  }
  void close() override {}
  std::string describe() const override { return "recording"; }
  std::mutex mu;
  std::vector<sent> out;
};

tooluse::jsonrpc::message parse(const json& j) {
  auto p = tooluse::jsonrpc::parse_value(j);
  return std::move(p.messages.front());
}

// served is a session_server named "conn".
struct served : session_server {
  explicit served(mcp::http_options ho = {}) : session_server("conn", std::move(ho)) {}
};

}  // namespace

TEST(mcp_answer, a_requests_messages_are_related_to_its_id_and_the_response_comes_last) {
  mcp::server server{{.name = "conn", .version = "1"}};
  server.add_tool({.name = "chatty"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    ctx.progress(1, 2);
    ctx.log(mcp::log_level::info, "working");
    return tool_result::text("done");
  });
  recording_connection conn;
  auto s = server.connect(conn);
  ASSERT_TRUE(s->handle(parse(req(0, "initialize", {{"protocolVersion", "2025-11-25"}}))));
  ASSERT_TRUE(s->handle(parse(notif("notifications/initialized"))));
  server.log(mcp::log_level::warning, "not tied to a request");
  ASSERT_TRUE(s->handle(
      parse(req("call-7", "tools/call", {{"name", "chatty"}, {"_meta", {{"progressToken", "tok"}}}}))));
  s->close();

  ASSERT_EQ(conn.out.size(), 5u);
  EXPECT_EQ(conn.out[0].related, 0);  // the initialize response
  EXPECT_TRUE(conn.out[0].message.contains("result"));
  EXPECT_TRUE(conn.out[1].related.is_null());  // the server's log outside any request: send
  EXPECT_EQ(conn.out[1].message["method"], "notifications/message");
  EXPECT_EQ(conn.out[2].message["method"], "notifications/progress");
  EXPECT_EQ(conn.out[2].related, "call-7");
  EXPECT_EQ(conn.out[3].message["method"], "notifications/message");
  EXPECT_EQ(conn.out[3].related, "call-7");
  EXPECT_EQ(conn.out[4].related, "call-7");
  EXPECT_EQ(conn.out[4].message["id"], "call-7");
  EXPECT_EQ(conn.out[4].message["result"]["content"][0]["text"], "done");
}

TEST(mcp_http_session_conn, responses_go_to_the_post_that_asked_by_id) {
  served s;
  tooluse::testing::response_gate gate;
  tooluse::testing::gate_opener opener{gate};
  s.server.add_tool({.name = "slow"}, [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
    gate.wait();
    return tool_result::text("slow done");
  });
  s.server.add_tool({.name = "quick"}, [](const json&, mcp::request_context&) -> mcp::tool_outcome {
    return tool_result::text("quick done");
  });
  s.start();
  std::string sid = s.open_session();
  auto slow = std::async(std::launch::async, [&] { return s.post(sid, req(11, "tools/call", {{"name", "slow"}})); });
  ASSERT_TRUE(gate.wait_arrival());
  // The slow request is still being handled; another POST in the session gets its own answer.
  auto quick = s.post(sid, req(12, "tools/call", {{"name", "quick"}}));
  EXPECT_EQ(quick.status, 200);
  EXPECT_EQ(quick.rpc()["id"], 12);
  EXPECT_EQ(quick.rpc()["result"]["content"][0]["text"], "quick done");
  gate.open();
  auto first = slow.get();
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(first.rpc()["id"], 11);
  EXPECT_EQ(first.rpc()["result"]["content"][0]["text"], "slow done");
  // Its id is free again once answered.
  EXPECT_EQ(s.post(sid, req(11, "tools/call", {{"name", "quick"}})).status, 200);
}

TEST(mcp_http_session_conn, an_id_in_flight_in_the_session_is_refused) {
  served s;
  tooluse::testing::response_gate gate;
  tooluse::testing::gate_opener opener{gate};
  s.server.add_tool({.name = "slow"}, [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
    gate.wait();
    return tool_result::text("slow done");
  });
  s.start();
  std::string sid = s.open_session();
  auto slow = std::async(std::launch::async, [&] { return s.post(sid, req(21, "tools/call", {{"name", "slow"}})); });
  ASSERT_TRUE(gate.wait_arrival());
  auto twin = s.post(sid, req(21, "ping"));
  EXPECT_EQ(twin.status, 400);
  EXPECT_EQ(twin.rpc()["error"]["code"], -32600);
  EXPECT_NE(twin.rpc()["error"]["message"].get<std::string>().find("21"), std::string::npos);
  gate.open();
  EXPECT_EQ(slow.get().rpc()["result"]["content"][0]["text"], "slow done");
  // Another session may use the same id meanwhile: ids are per session.
  std::string other = s.open_session();
  EXPECT_EQ(s.post(other, req(21, "ping")).status, 200);
}

TEST(mcp_http_session_conn, a_server_request_during_a_call_goes_on_that_posts_stream_only) {
  served s;
  s.server.add_tool({.name = "ask"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    auto r = ctx.request_client("roots/list", json::object(), 30s);
    if (!r) return tool_result::error(r.error().message);
    return tool_result::text("roots: " + std::to_string((*r)["roots"].size()));
  });
  s.start();
  std::string sid = s.open_session();
  // The GET stream of the session is open: the server request must not go there.
  raw_conn get(s.port);
  ASSERT_TRUE(get.send_all(request_text("GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}}, "", s.port)));
  get.read_until("retry:");  // the priming event: the stream is attached
  raw_conn call(s.port);
  ASSERT_TRUE(call.send_all(request_text("POST", "/mcp", json_post({{"Mcp-Session-Id", sid}}),
                                         req(31, "tools/call", {{"name", "ask"}}).dump(), s.port)));
  const std::string tail = R"("method":"roots/list")";
  const std::string& so_far = call.read_until(tail);
  auto at = so_far.find(tail);
  ASSERT_NE(at, std::string::npos) << so_far;
  auto id_at = so_far.rfind("\"id\":", at);
  ASSERT_NE(id_at, std::string::npos) << so_far;
  json ask_id = json::parse(so_far.substr(id_at + 5, so_far.find(',', id_at) - id_at - 5));
  EXPECT_EQ(s.post(sid, {{"jsonrpc", "2.0"}, {"id", ask_id}, {"result", {{"roots", json::array({{{"uri", "file:///a"}}})}}}})
                .status,
            202);
  auto reply = parse_reply(call.read_all());
  EXPECT_EQ(reply.status, 200);
  EXPECT_NE(reply.header("content-type").find("text/event-stream"), std::string::npos);
  EXPECT_EQ(reply.rpc()["id"], 31);
  EXPECT_EQ(reply.rpc()["result"]["content"][0]["text"], "roots: 1");
  // A message not tied to a request does go to the GET stream; read up to it, and the server
  // request is not before it.
  s.server.log(mcp::log_level::warning, "after the call");
  ASSERT_NE(get.read_until("after the call").find("after the call"), std::string::npos) << get.received();
  EXPECT_EQ(get.received().find("roots/list"), std::string::npos) << get.received();
}

TEST(mcp_http_session_conn, a_stateless_post_is_a_one_message_connection) {
  served s;
  s.server.add_tool({.name = "chatty"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    ctx.progress(1, 2, "half");
    return tool_result::text("stateless done");
  });
  s.start();
  auto call = [&](const json& id) {
    json body = req(id, "tools/call", with_meta({{"name", "chatty"}}));
    body["params"]["_meta"]["progressToken"] = "p";
    return exchange(s.port, "POST",
                    json_post({{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/call"}, {"Mcp-Name", "chatty"}}),
                    body.dump());
  };
  // Two POSTs with the same id at once are two connections: no session, no clash.
  auto a = std::async(std::launch::async, [&] { return call(1); });
  auto b = call(1);
  for (const auto& r : {a.get(), b}) {
    EXPECT_EQ(r.status, 200);
    EXPECT_NE(r.header("content-type").find("text/event-stream"), std::string::npos);
    EXPECT_NE(r.body.find("notifications/progress"), std::string::npos) << r.body;
    EXPECT_EQ(r.rpc()["result"]["content"][0]["text"], "stateless done");
    EXPECT_TRUE(r.header("mcp-session-id").empty());
  }
  EXPECT_EQ(s.http.stats().sessions, 0u);
}
}  // namespace http_session_conn_test
