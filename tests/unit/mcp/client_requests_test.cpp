// Server-to-client requests (request_context::request_client) over a served memory_client
// connection, 2025-11-25 sessions: answers routed by id when several calls wait at once, client
// errors keeping their code, a timeout cancelled at the client, a cancelled tools/call waking
// its handler, a closed connection failing the wait, and answers that match nothing. Tools
// wait on the client, and the test answers when it sees their requests; nothing sleeps.
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "unit/mcp/mcp_test_util.hpp"

namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::errc;
using tooluse::json;
using tooluse::tool_result;

namespace {

// outcome records how a tool's request to the client ended, for the test to read afterwards.
struct outcome {
  std::mutex mu;
  std::condition_variable cv;
  bool set = false;
  errc code = errc::internal;
  int jsonrpc_code = 0;
  std::string message;
  void record(const tooluse::error& e) {
    std::lock_guard lock(mu);
    set = true;
    code = e.code;
    jsonrpc_code = e.jsonrpc_code;
    message = e.message;
    cv.notify_all();
  }
  bool wait() {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(30), [&] { return set; });
  }
};

struct fixture {
  mcp::server server{{.name = "asks", .version = "1"}};
  outcome seen;
  std::chrono::milliseconds ask_timeout{std::chrono::seconds(30)};
  fixture() {
    // ask sends the request named by its arguments and reports the answer (or the failure).
    server.add_tool(
        {.name = "ask"}, [this](const json& a, mcp::request_context& ctx) -> mcp::tool_outcome {
          json params = a.contains("params") ? a["params"] : json(nullptr);
          auto reply = ctx.request_client(a.value("method", "roots/list"), params, ask_timeout);
          if (!reply) {
            seen.record(reply.error());
            return tool_result::error("client: " + reply.error().message);
          }
          return tool_result::text(reply->dump());
        });
  }
};

json call_ask(const std::string& method, json params = nullptr) {
  json args = {{"method", method}};
  if (!params.is_null()) args["params"] = std::move(params);
  return {{"name", "ask"}, {"arguments", std::move(args)}};
}

json answer(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

// receive_method returns the next message with `method`, keeping the others in `skipped`.
std::optional<json> receive_method(mcp::memory_client& c, const std::string& method,
                                   std::vector<json>* skipped = nullptr) {
  for (int i = 0; i < 10; ++i) {
    auto m = c.receive();
    if (!m) return std::nullopt;
    if (m->value("method", "") == method) return m;
    if (skipped) skipped->push_back(*m);
  }
  return std::nullopt;
}

}  // namespace

TEST(mcp_client_requests, answers_reach_the_call_that_asked_when_several_wait) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c, {{"roots", json::object()}, {"elicitation", json::object()}});
  c.send(req(1, "tools/call", call_ask("roots/list")));
  c.send(req(2, "tools/call", call_ask("elicitation/create", {{"message", "name?"}})));
  // Both server requests arrive (in either order); answer them in reverse order of arrival.
  std::map<std::string, json> asked;
  for (int i = 0; i < 2; ++i) {
    auto m = c.receive();
    ASSERT_TRUE(m);
    asked[(*m)["method"].get<std::string>()] = *m;
  }
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked["elicitation/create"]["params"]["message"], "name?");
  EXPECT_NE(asked["roots/list"]["id"], asked["elicitation/create"]["id"]);
  c.send(answer(asked["elicitation/create"]["id"],
                {{"action", "accept"}, {"content", {{"n", "Ada"}}}}));
  c.send(answer(asked["roots/list"]["id"], {{"roots", json::array({{{"uri", "file:///w"}}})}}));
  std::map<int, json> responses;
  for (int i = 0; i < 2; ++i) {
    auto r = c.receive();
    ASSERT_TRUE(r);
    responses[(*r)["id"].get<int>()] = *r;
  }
  json roots = json::parse(responses[1]["result"]["content"][0]["text"].get<std::string>());
  EXPECT_EQ(roots["roots"][0]["uri"], "file:///w");
  json elicited = json::parse(responses[2]["result"]["content"][0]["text"].get<std::string>());
  EXPECT_EQ(elicited["content"]["n"], "Ada");
}

TEST(mcp_client_requests, a_request_without_params_has_no_params_member) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c, {{"roots", json::object()}});
  c.send(req(1, "tools/call", call_ask("roots/list")));
  auto asked = receive_method(c, "roots/list");
  ASSERT_TRUE(asked);
  EXPECT_FALSE(asked->contains("params")) << asked->dump();
  EXPECT_EQ((*asked)["jsonrpc"], "2.0");
  EXPECT_TRUE((*asked)["id"].is_number_integer());
  c.send(answer((*asked)["id"], {{"roots", json::array()}}));
  auto r = c.receive();
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["id"], 1);
  EXPECT_FALSE((*r)["result"].value("isError", false));
}

TEST(mcp_client_requests, a_client_error_keeps_its_code_and_message) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c, {{"sampling", json::object()}});
  c.send(req(1, "tools/call", call_ask("sampling/createMessage", {{"maxTokens", 1}})));
  auto asked = receive_method(c, "sampling/createMessage");
  ASSERT_TRUE(asked);
  c.send({{"jsonrpc", "2.0"},
          {"id", (*asked)["id"]},
          {"error", {{"code", -1}, {"message", "User rejected sampling request"}}}});
  auto r = c.receive();
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["id"], 1);
  EXPECT_TRUE((*r)["result"]["isError"].get<bool>());
  EXPECT_EQ((*r)["result"]["content"][0]["text"], "client: User rejected sampling request");
  ASSERT_TRUE(f.seen.wait());
  EXPECT_EQ(f.seen.code, errc::protocol_error);
  EXPECT_EQ(f.seen.jsonrpc_code, -1);
}

TEST(mcp_client_requests, an_unanswered_request_times_out_and_a_late_answer_is_ignored) {
  fixture f;
  f.ask_timeout = std::chrono::milliseconds(1);  // the client below never answers in time
  mcp::memory_client c(f.server);
  handshake(c, {{"roots", json::object()}});
  std::vector<json> before;
  auto r = c.request(req(1, "tools/call", call_ask("roots/list")), &before);
  ASSERT_TRUE(r);
  EXPECT_TRUE((*r)["result"]["isError"].get<bool>());
  EXPECT_EQ((*r)["result"]["content"][0]["text"],
            "client: roots/list: the client did not answer in time");
  ASSERT_TRUE(f.seen.wait());
  EXPECT_EQ(f.seen.code, errc::timeout);
  // What came before the response: the request, then its cancellation with the reason.
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(before[0]["method"], "roots/list");
  EXPECT_EQ(before[1]["method"], "notifications/cancelled");
  EXPECT_EQ(before[1]["params"]["requestId"], before[0]["id"]);
  EXPECT_EQ(before[1]["params"]["reason"], "timeout");
  // The answer that comes too late matches nothing; the connection still serves.
  c.send(answer(before[0]["id"], {{"roots", json::array()}}));
  auto ping = c.request(req(2, "ping"));
  ASSERT_TRUE(ping);
  EXPECT_EQ((*ping)["result"], json::object());
}

TEST(mcp_client_requests, cancelling_the_call_wakes_its_handler_and_cancels_its_request) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c, {{"roots", json::object()}});
  c.send(req(5, "tools/call", call_ask("roots/list")));
  auto asked = receive_method(c, "roots/list");
  ASSERT_TRUE(asked);
  c.send(notif("notifications/cancelled", {{"requestId", 5}, {"reason", "user"}}));
  ASSERT_TRUE(f.seen.wait());
  EXPECT_EQ(f.seen.code, errc::cancelled);
  EXPECT_EQ(f.seen.message, "roots/list: the request was cancelled");
  // The server withdraws its own request; the cancelled call gets no response at all.
  std::vector<json> others;
  auto ping = c.request(req(6, "ping"), &others);
  ASSERT_TRUE(ping);
  ASSERT_EQ(others.size(), 1u) << json(others).dump();
  EXPECT_EQ(others[0]["method"], "notifications/cancelled");
  EXPECT_EQ(others[0]["params"]["requestId"], (*asked)["id"]);
  EXPECT_EQ(others[0]["params"]["reason"], "cancelled");
}

TEST(mcp_client_requests, closing_the_connection_fails_a_waiting_request) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c, {{"roots", json::object()}});
  c.send(req(1, "tools/call", call_ask("roots/list")));
  ASSERT_TRUE(receive_method(c, "roots/list"));
  c.close();  // returns once the running call has ended
  ASSERT_TRUE(f.seen.wait());
  EXPECT_EQ(f.seen.code, errc::cancelled);
}

TEST(mcp_client_requests, answers_and_errors_that_match_no_request_are_ignored) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  c.send(answer(12345, {{"roots", json::array()}}));
  c.send(answer("not-ours", json::object()));
  c.send({{"jsonrpc", "2.0"}, {"id", 7}, {"error", {{"code", -32000}, {"message", "stray"}}}});
  // No reply to any of them: the next message is the ping's response.
  auto next = c.request(req(1, "ping"));
  ASSERT_TRUE(next);
  EXPECT_EQ((*next)["id"], 1);
  EXPECT_EQ((*next)["result"], json::object());
}

TEST(mcp_client_requests, malformed_cancellations_are_ignored) {
  fixture f;
  f.server.add_tool({.name = "echo"}, text_tool("echoed"));
  mcp::memory_client c(f.server);
  handshake(c);
  c.send(notif("notifications/cancelled", {{"requestId", json::object()}}));
  c.send(notif("notifications/cancelled", {{"reason", "no id"}}));
  c.send(notif("notifications/cancelled", json::array()));
  c.send(notif("notifications/somethingElse"));
  auto r = c.request(req(3, "tools/call", {{"name", "echo"}}));
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"]["content"][0]["text"], "echoed");
}

TEST(mcp_client_requests, stateless_calls_cannot_ask_the_client) {
  fixture f;
  mcp::memory_client c(f.server);  // no initialize: every request carries its own _meta
  auto r = c.request(
      req(1, "tools/call", with_meta(call_ask("roots/list"), {{"roots", json::object()}})));
  ASSERT_TRUE(r);
  EXPECT_TRUE((*r)["result"]["isError"].get<bool>());
  EXPECT_NE(
      (*r)["result"]["content"][0]["text"].get<std::string>().find("return input_required instead"),
      std::string::npos);
  EXPECT_EQ((*r)["result"]["resultType"], "complete");
  ASSERT_TRUE(f.seen.wait());
  EXPECT_EQ(f.seen.code, errc::unsupported);
}
