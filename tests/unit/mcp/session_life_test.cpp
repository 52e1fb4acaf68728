// Sessions over served memory_client connections while the server changes under them: a tool
// removed while a call to it runs, a resource added (list_changed to initialized sessions
// only), server log messages after one of two clients has gone, a stateless prompt that seals
// state between rounds, and a stateless call that is not answered as cacheable. Tools block on
// a response_gate, never on sleeps.
#include <gtest/gtest.h>

#include "support/response_gate.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace session_life_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;
using tooluse::testing::gate_opener;
using tooluse::testing::response_gate;

namespace {

using contents = std::vector<mcp::resource_contents>;

mcp::resource_handler fixed(std::string text) {
  return [text](const std::string& uri, const json&,
                mcp::request_context&) -> tooluse::result<contents> {
    return contents{{uri, "text/plain", text, {}}};
  };
}

}  // namespace

TEST(mcp_session_life, a_tool_removed_while_its_call_runs_still_answers_that_call) {
  mcp::server server({.name = "life", .version = "1"});
  response_gate gate;
  gate_opener opener{gate};
  server.add_tool({.name = "held"}, [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
    gate.wait();
    return tool_result::text("finished anyway");
  });
  mcp::memory_client c(server);
  handshake(c);
  c.send(req(1, "tools/call", {{"name", "held"}}));
  ASSERT_TRUE(gate.wait_arrival());
  EXPECT_TRUE(server.remove_tool("held"));
  auto note = c.receive();
  ASSERT_TRUE(note);
  EXPECT_EQ((*note)["method"], "notifications/tools/list_changed");
  gate.open();
  auto r = c.receive();
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["id"], 1);
  EXPECT_EQ((*r)["result"]["content"][0]["text"], "finished anyway");
  auto again = c.request(req(2, "tools/call", {{"name", "held"}}));
  EXPECT_EQ(error_code(again), -32602);
}

TEST(mcp_session_life, adding_a_resource_tells_initialized_sessions_only) {
  mcp::server server({.name = "life", .version = "1"});
  mcp::memory_client ready(server), never(server);
  handshake(ready);
  // `never` talks to the server (ping needs no handshake) but never initializes.
  auto before = never.request(req(1, "ping"));
  ASSERT_TRUE(before);
  server.add_resource({.uri = "mem://new", .name = "new"}, fixed("fresh"));
  auto note = ready.receive();
  ASSERT_TRUE(note);
  EXPECT_EQ((*note)["method"], "notifications/resources/list_changed");
  // The client that never initialized gets nothing; its next reply is its own request's.
  std::vector<json> told;
  auto next = never.request(req(2, "ping"), &told);
  ASSERT_TRUE(next);
  EXPECT_TRUE(told.empty()) << json(told).dump();
  std::vector<json> others;
  auto list = ready.request(req(3, "resources/list"), &others);
  EXPECT_TRUE(others.empty());
  ASSERT_EQ((*list)["result"]["resources"].size(), 1u);
  EXPECT_EQ((*list)["result"]["resources"][0]["uri"], "mem://new");
}

TEST(mcp_session_life, server_log_after_one_client_left_reaches_the_other) {
  mcp::server server({.name = "life", .version = "1"});
  mcp::memory_client stays(server);
  handshake(stays);
  {
    mcp::memory_client leaves(server);
    handshake(leaves);
    leaves.close();
  }
  server.log(mcp::log_level::warning, {{"disk", "full"}}, "storage");
  auto m = stays.receive();
  ASSERT_TRUE(m);
  EXPECT_EQ((*m)["method"], "notifications/message");
  EXPECT_EQ((*m)["params"]["level"], "warning");
  EXPECT_EQ((*m)["params"]["logger"], "storage");
  EXPECT_EQ((*m)["params"]["data"]["disk"], "full");
  auto ping = stays.request(req(1, "ping"));
  ASSERT_TRUE(ping);
  EXPECT_EQ((*ping)["id"], 1);
}

TEST(mcp_session_life, a_stateless_prompt_gets_its_sealed_state_back) {
  mcp::server server({.name = "life", .version = "1"});
  server.add_prompt(
      {.name = "survey", .arguments = {{.name = "topic", .required = true}}},
      [](const json& args, mcp::request_context& ctx) -> tooluse::result<mcp::prompt_outcome> {
        const json* answer = ctx.input_response("mood");
        if (!answer || !ctx.request_state())
          return mcp::input_required{
              .input_requests = {{"mood", {{"method", "elicitation/create"}}}},
              .state = json{{"round", 1}, {"topic", args["topic"]}}};
        const json& st = *ctx.request_state();
        return mcp::prompt_result{
            .messages = {{"user", tooluse::text_content{st["topic"].get<std::string>() + " / " +
                                                        (*answer)["content"].value("m", "") +
                                                        " / round " + st["round"].dump()}}}};
      });
  mcp::memory_client c(server);
  auto r1 = c.request(
      req(1, "prompts/get", with_meta({{"name", "survey"}, {"arguments", {{"topic", "tea"}}}})));
  ASSERT_TRUE(r1 && r1->contains("result")) << r1->dump();
  EXPECT_EQ((*r1)["result"]["resultType"], "input_required");
  EXPECT_EQ((*r1)["result"]["inputRequests"]["mood"]["method"], "elicitation/create");
  ASSERT_TRUE((*r1)["result"]["requestState"].is_string());
  json again = with_meta({{"name", "survey"},
                          {"arguments", {{"topic", "tea"}}},
                          {"inputResponses", {{"mood", {{"content", {{"m", "calm"}}}}}}},
                          {"requestState", (*r1)["result"]["requestState"]}});
  auto r2 = c.request(req(2, "prompts/get", again));
  ASSERT_TRUE(r2 && r2->contains("result")) << r2->dump();
  EXPECT_EQ((*r2)["result"]["resultType"], "complete");
  EXPECT_EQ((*r2)["result"]["messages"][0]["content"]["text"], "tea / calm / round 1");
  // prompts/get is not a cacheable method: no cache hints.
  EXPECT_FALSE((*r2)["result"].contains("ttlMs"));
  // The required argument is still checked on every round.
  auto missing = c.request(req(3, "prompts/get", with_meta({{"name", "survey"}})));
  EXPECT_EQ(error_code(missing), -32602);
  EXPECT_TRUE(error_mentions(missing, "needs argument \"topic\""));
}

TEST(mcp_session_life, a_stateless_read_that_fails_carries_no_cache_hints) {
  mcp::server server({.name = "life", .version = "1"}, nullptr,
                     {.read_cache = {.ttl_ms = 5000, .scope = "private"}});
  server.add_resource({.uri = "mem://here", .name = "here"}, fixed("present"));
  mcp::memory_client c(server);
  auto ok = c.request(req(1, "resources/read", with_meta({{"uri", "mem://here"}})));
  ASSERT_TRUE(ok && ok->contains("result"));
  EXPECT_EQ((*ok)["result"]["ttlMs"], 5000);
  EXPECT_EQ((*ok)["result"]["cacheScope"], "private");
  auto missing = c.request(req(2, "resources/read", with_meta({{"uri", "mem://gone"}})));
  EXPECT_EQ(error_code(missing), -32602);
  EXPECT_EQ((*missing)["error"]["data"]["uri"], "mem://gone");
  EXPECT_FALSE(missing->contains("result"));
}
}  // namespace session_life_test
