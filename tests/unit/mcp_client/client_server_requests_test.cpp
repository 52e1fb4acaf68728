// mcp::client handlers for what the server asks: sampling, elicitation (schema defaults
// applied), roots; as server requests (2025 sessions) and as 2026-07-28 input-required rounds;
// and a server cancelling a request it sent.

#include <gtest/gtest.h>

#include <atomic>

#include "client_test_support.hpp"

namespace mcp = tooluse::mcp;
using tooluse::json;
using namespace mcp::testing;

namespace {

const json defaults_schema = {{"type", "object"},
                              {"properties",
                               {{"name", {{"type", "string"}, {"default", "John Doe"}}},
                                {"age", {{"type", "integer"}, {"default", 30}}},
                                {"verified", {{"type", "boolean"}, {"default", true}}},
                                {"note", {{"type", "string"}}}}}};

mcp::client_options handlers() {
  return {
      .on_sampling = [](const json& p, std::stop_token) -> tooluse::result<json> {
        std::string prompt = p["messages"][0]["content"]["text"];
        return json{{"role", "assistant"},
                    {"content", {{"type", "text"}, {"text", "echo " + prompt}}},
                    {"model", "test"}};
      },
      .on_elicitation = [](const json&, std::stop_token) -> tooluse::result<json> {
        return json{{"action", "accept"}, {"content", {{"name", "Ann"}}}};
      },
      .roots = {{.uri = "file:///work", .name = "work"}},
  };
}

json ask(const std::string& method, json params) {
  return {{"method", method}, {"params", std::move(params)}};
}

json sampling_params() {
  return {{"messages",
           json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", "hi"}}}}})},
          {"maxTokens", 10}};
}

}  // namespace

TEST(mcp_client_server_requests, session_revision_answers_sampling_elicitation_and_roots) {
  http_fixture f;
  f.srv.add_tool({.name = "ask_all", .description = "asks the client"},
                 [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
                   auto s = ctx.request_client("sampling/createMessage", sampling_params());
                   auto e = ctx.request_client(
                       "elicitation/create",
                       {{"message", "who?"}, {"requestedSchema", defaults_schema}});
                   auto r = ctx.request_client("roots/list", json::object());
                   if (!s || !e || !r)
                     return tooluse::tool_result::error("a client request failed");
                   return tooluse::tool_result::structured(
                       {{"sampling", *s}, {"elicitation", *e}, {"roots", *r}});
                 });
  ASSERT_TRUE(f.start());
  auto o = handlers();
  o.protocol_version = "2025-11-25";
  auto c = mcp::client::connect(f.transport(), o);
  ASSERT_TRUE(c) << c.error().what();
  auto r = (*c)->call_tool("ask_all");
  ASSERT_TRUE(r) << r.error().what();
  ASSERT_FALSE(r->is_error) << r->all_text();
  const json& out = *r->structured_content;
  EXPECT_EQ(out["sampling"]["content"]["text"], "echo hi");
  // The handler filled `name`; the schema's defaults fill the rest; `note` has no default.
  EXPECT_EQ(out["elicitation"]["content"],
            (json{{"name", "Ann"}, {"age", 30}, {"verified", true}}));
  EXPECT_EQ(out["roots"]["roots"][0]["uri"], "file:///work");
}

TEST(mcp_client_server_requests, stateless_revision_resolves_input_required_rounds) {
  http_fixture f;
  std::atomic<int> rounds{0};
  f.srv.add_tool({.name = "ask_all", .description = "asks the client"},
                 [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
                   ++rounds;
                   const json* s = ctx.input_response("s");
                   const json* e = ctx.input_response("e");
                   const json* r = ctx.input_response("r");
                   if (!s || !e || !r)
                     return mcp::input_required{
                         .input_requests = {{"s", ask("sampling/createMessage", sampling_params())},
                                            {"e", ask("elicitation/create",
                                                      {{"message", "who?"},
                                                       {"requestedSchema", defaults_schema}})},
                                            {"r", ask("roots/list", json::object())}},
                         .state = json{{"round", 1}}};
                   if (!ctx.request_state()) return tooluse::tool_result::error("state lost");
                   return tooluse::tool_result::structured(
                       {{"sampling", *s}, {"elicitation", *e}, {"roots", *r}});
                 });
  ASSERT_TRUE(f.start());
  auto c = mcp::client::connect(f.transport(), handlers());
  ASSERT_TRUE(c) << c.error().what();
  ASSERT_TRUE((*c)->stateless());
  auto r = (*c)->call_tool("ask_all");
  ASSERT_TRUE(r) << r.error().what();
  ASSERT_FALSE(r->is_error) << r->all_text();
  EXPECT_EQ(rounds.load(), 2);
  const json& out = *r->structured_content;
  EXPECT_EQ(out["sampling"]["content"]["text"], "echo hi");
  EXPECT_EQ(out["elicitation"]["content"]["age"], 30);
  EXPECT_EQ(out["roots"]["roots"][0]["name"], "work");
}

TEST(mcp_client_server_requests, input_rounds_are_bounded) {
  http_fixture f;
  f.srv.add_tool(
      {.name = "never_done", .description = "always asks again"},
      [](const json&, mcp::request_context&) -> mcp::tool_outcome {
        return mcp::input_required{.input_requests = {{"r", ask("roots/list", json::object())}}};
      });
  ASSERT_TRUE(f.start());
  auto o = handlers();
  o.max_input_rounds = 3;
  auto c = mcp::client::connect(f.transport(), o);
  ASSERT_TRUE(c) << c.error().what();
  auto r = (*c)->call_tool("never_done");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, tooluse::errc::protocol_error);
  EXPECT_NE(r.error().message.find("still needs input after 3 rounds"), std::string::npos);
}

TEST(mcp_client_server_requests, missing_handler_answers_method_not_found) {
  auto t = std::make_unique<scripted_transport>(legacy_script());
  auto* raw = t.get();
  auto c = mcp::client::connect(std::move(t), {});
  ASSERT_TRUE(c) << c.error().what();
  raw->deliver({{"jsonrpc", "2.0"},
                {"id", "q1"},
                {"method", "sampling/createMessage"},
                {"params", sampling_params()}});
  auto reply = raw->wait_for_sent([](const json& m) { return m.value("id", json()) == "q1"; });
  ASSERT_TRUE(reply);
  EXPECT_EQ((*reply)["error"]["code"], -32601);
}

TEST(mcp_client_server_requests, server_cancelling_its_request_stops_the_handler) {
  std::mutex mu;
  std::condition_variable cv;
  bool saw_stop = false;
  auto t = std::make_unique<scripted_transport>(legacy_script());
  auto* raw = t.get();
  auto c = mcp::client::connect(
      std::move(t),
      {.on_elicitation = [&](const json&, std::stop_token stop) -> tooluse::result<json> {
        std::condition_variable_any wait;
        std::unique_lock lock(mu);
        wait.wait(lock, stop, [] { return false; });
        saw_stop = true;
        cv.notify_all();
        return json{{"action", "cancel"}};
      }});
  ASSERT_TRUE(c) << c.error().what();
  raw->deliver({{"jsonrpc", "2.0"},
                {"id", 7},
                {"method", "elicitation/create"},
                {"params", {{"message", "?"}, {"requestedSchema", defaults_schema}}}});
  raw->deliver({{"jsonrpc", "2.0"},
                {"method", "notifications/cancelled"},
                {"params", {{"requestId", 7}, {"reason", "user left"}}}});
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return saw_stop; }));
  }
  (*c)->close();  // joins the handler's thread
  for (const auto& m : raw->sent()) EXPECT_NE(m.value("id", json()), 7) << m.dump();
}

TEST(mcp_client_server_requests, apply_schema_defaults_keeps_given_values) {
  json content = mcp::apply_schema_defaults(defaults_schema, {{"age", 41}});
  EXPECT_EQ(content, (json{{"age", 41}, {"name", "John Doe"}, {"verified", true}}));
  EXPECT_EQ(mcp::apply_schema_defaults(json::object(), nullptr), json::object());
}
