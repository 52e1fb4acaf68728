// mcp::client facing a server whose messages do not decode, with the test playing a 2025
// server (scripted_transport): a malformed server request is answered -32602 with the codec's
// path, a malformed notification is logged (client_options::on_warning) and dropped while the
// client keeps working, and malformed error objects and input requests name their path.
#include <gtest/gtest.h>

#include "client_test_support.hpp"
#include "log_sink.hpp"

namespace client_malformed_server_test {
namespace mcp = tooluse::mcp;
using tooluse::errc;
using tooluse::json;
using tooluse::result;
using namespace mcp::testing;

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

json request(const json& id, const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json notification(const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

// reply_to waits for the client's answer to the server request `id`.
std::optional<json> reply_to(scripted_transport& t, const json& id) {
  return t.wait_for_sent(
      [&](const json& m) { return !m.contains("method") && m.value("id", json()) == id; });
}

mcp::client_options answering() {
  return {.on_sampling = [](const json&, std::stop_token) -> result<json> {
            return json{{"role", "assistant"},
                        {"content", {{"type", "text"}, {"text", "ok"}}},
                        {"model", "m"}};
          },
          .on_elicitation = [](const json&, std::stop_token) -> result<json> {
            return json{{"action", "decline"}};
          }};
}

}  // namespace

TEST(mcp_client_malformed, a_malformed_server_request_is_answered_invalid_params_with_the_path) {
  auto t = std::make_unique<scripted_transport>(legacy_script());
  auto* raw = t.get();
  auto c = mcp::client::connect(std::move(t), answering());
  ASSERT_TRUE(c) << c.error().what();
  raw->deliver(
      request("s1", "sampling/createMessage", {{"messages", json::array()}, {"maxTokens", "ten"}}));
  raw->deliver(request("e1", "elicitation/create", {{"message", "who?"}}));
  raw->deliver(
      request("e2", "elicitation/create", {{"message", "who?"}, {"requestedSchema", "a form"}}));
  raw->deliver(request("s2", "sampling/createMessage",
                       {{"messages", json::array()}, {"maxTokens", 5}}));  // a good one
  auto s1 = reply_to(*raw, "s1");
  ASSERT_TRUE(s1);
  EXPECT_EQ((*s1)["error"]["code"], -32602);
  EXPECT_EQ((*s1)["error"]["message"],
            "Invalid params: params.maxTokens: expected integer, got string \"ten\"");
  auto e1 = reply_to(*raw, "e1");
  ASSERT_TRUE(e1);
  EXPECT_EQ((*e1)["error"]["code"], -32602);
  EXPECT_EQ((*e1)["error"]["message"],
            "Invalid params: params: missing required property \"requestedSchema\"");
  auto e2 = reply_to(*raw, "e2");
  ASSERT_TRUE(e2);
  EXPECT_EQ((*e2)["error"]["message"],
            "Invalid params: params.requestedSchema: expected object, got string \"a form\"");
  auto s2 = reply_to(*raw, "s2");
  ASSERT_TRUE(s2);
  EXPECT_EQ((*s2)["result"]["content"]["text"], "ok");
}

TEST(mcp_client_malformed, a_request_without_a_handler_is_method_not_found_even_if_malformed) {
  auto t = std::make_unique<scripted_transport>(legacy_script());
  auto* raw = t.get();
  auto c = mcp::client::connect(std::move(t), {});
  ASSERT_TRUE(c) << c.error().what();
  raw->deliver(request(41, "sampling/createMessage", {{"maxTokens", "ten"}}));
  raw->deliver(request(42, "ping", {{"_meta", "not an object"}}));
  auto a = reply_to(*raw, 41);
  ASSERT_TRUE(a);
  EXPECT_EQ((*a)["error"]["code"], -32601);
  auto b = reply_to(*raw, 42);
  ASSERT_TRUE(b);
  EXPECT_EQ((*b)["error"]["code"], -32602);
  EXPECT_EQ((*b)["error"]["message"],
            "Invalid params: params._meta: expected object, got string \"not an object\"");
}

TEST(mcp_client_malformed, a_malformed_notification_is_logged_and_dropped) {
  tooluse::testing::log_sink warnings;
  std::vector<mcp::log_entry> logs;
  std::vector<std::string> seen;  // on_notification, same thread as deliver()
  auto t = std::make_unique<scripted_transport>(legacy_script(
      [](const json& m) -> json { return m["method"] == "ping" ? json::object() : json(); }));
  auto* raw = t.get();
  mcp::client_options o;
  o.on_log = [&](const mcp::log_entry& e) { logs.push_back(e); };
  o.on_notification = [&](const json& n) { seen.push_back(n["method"]); };
  o.on_warning = warnings.fn();
  auto c = mcp::client::connect(std::move(t), o);
  ASSERT_TRUE(c) << c.error().what();
  raw->deliver(notification("notifications/message", {{"level", 3}, {"data", "x"}}));
  raw->deliver(notification("notifications/resources/updated", {{"uri", 5}}));
  raw->deliver(notification("notifications/tasks/status", {{"taskId", "t1"}}));
  raw->deliver(
      notification("notifications/progress", {{"progressToken", 1}, {"progress", "half"}}));
  raw->deliver(notification("notifications/tools/list_changed", json::array()));
  EXPECT_TRUE(
      warnings.has("scripted server: notifications/message dropped: params.level: "
                   "expected string, got integer 3"));
  EXPECT_TRUE(warnings.has(
      "notifications/resources/updated dropped: params.uri: expected string, got integer 5"));
  EXPECT_TRUE(warnings.has(
      "notifications/tasks/status dropped: params: missing required property \"status\""));
  EXPECT_TRUE(warnings.has(
      "notifications/progress dropped: params.progress: expected number, got string \"half\""));
  EXPECT_TRUE(
      warnings.has("notifications/tools/list_changed dropped: params: expected object, got array"));
  EXPECT_TRUE(logs.empty());
  EXPECT_TRUE(seen.empty());  // dropped, not passed on
  // The client still works: a good notification arrives, a request gets its answer.
  raw->deliver(notification("notifications/message", {{"level", "warning"}, {"data", "fine"}}));
  ASSERT_EQ(logs.size(), 1u);
  EXPECT_EQ(logs[0].level, mcp::log_level::warning);
  EXPECT_EQ(logs[0].data, "fine");
  EXPECT_EQ(seen, std::vector<std::string>{"notifications/message"});
  EXPECT_TRUE((*c)->ping());
}

TEST(mcp_client_malformed, a_malformed_error_object_names_its_path) {
  auto t = std::make_unique<scripted_transport>([](const json& m, scripted_transport& st) {
    if (!m.contains("id") || !m.contains("method")) return;
    json reply = {{"jsonrpc", "2.0"}, {"id", m["id"]}};
    if (m["method"] == "initialize")
      reply["result"] = {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}};
    else if (m["method"] == "server/discover")
      reply["error"] = {{"code", -32601}, {"message", "Method not found"}};
    else if (m["method"] == "ping")
      reply["error"] = {{"code", "oops"}, {"message", "bad"}};
    else
      reply["error"] = {{"code", -32602}};  // no message: read as "(no message)"
    st.deliver(reply);
  });
  auto c = mcp::client::connect(std::move(t), {});
  ASSERT_TRUE(c) << c.error().what();
  auto p = (*c)->ping();
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code, errc::protocol_error);
  EXPECT_EQ(p.error().message,
            "scripted server: ping failed with a malformed JSON-RPC error: error.code: expected "
            "integer, got string \"oops\"");
  auto r = (*c)->request("tools/list", json::object());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::invalid_argument);
  EXPECT_EQ(r.error().message,
            "scripted server: tools/list failed: (no message) (JSON-RPC error -32602)");
}

TEST(mcp_client_malformed, malformed_input_requests_fail_the_request_with_their_path) {
  auto c = mcp::client::connect(
      std::make_unique<scripted_transport>(legacy_script([](const json& m) -> json {
        const std::string tool = m["params"].value("name", "");
        if (tool == "no_method")
          return {{"resultType", "input_required"},
                  {"inputRequests", {{"a", {{"params", json::object()}}}}}};
        if (tool == "bad_sampling")
          return {
              {"resultType", "input_required"},
              {"inputRequests",
               {{"s", {{"method", "sampling/createMessage"}, {"params", {{"maxTokens", 1}}}}}}}};
        return json();
      })),
      answering());
  ASSERT_TRUE(c) << c.error().what();
  auto a = (*c)->request("tools/call", {{"name", "no_method"}});
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code, errc::protocol_error);
  EXPECT_TRUE(contains(a.error().message,
                       "tools/call result is malformed: result.inputRequests.a: missing "
                       "required property \"method\""))
      << a.error().message;
  auto b = (*c)->request("tools/call", {{"name", "bad_sampling"}});
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code, errc::invalid_argument);
  EXPECT_EQ(b.error().message,
            "Invalid params: result.inputRequests.s.params: missing required property "
            "\"messages\"");
}

TEST(mcp_client_malformed, null_params_count_as_none) {
  auto t = std::make_unique<scripted_transport>(legacy_script());
  auto* raw = t.get();
  auto c = mcp::client::connect(std::move(t), {.roots = {{.uri = "file:///w", .name = "w"}}});
  ASSERT_TRUE(c) << c.error().what();
  raw->deliver(request(51, "roots/list", nullptr));
  auto r = reply_to(*raw, 51);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"]["roots"][0]["uri"], "file:///w") << r->dump();
}
}  // namespace client_malformed_server_test
