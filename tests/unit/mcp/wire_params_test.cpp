// MCP wire types (tooluse/mcp/wire.hpp) and the server's params decoding: invalid params are
// -32602 with a message that names the path; fields the server does not know are ignored.
#include <gtest/gtest.h>

#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"
#include "tooluse/mcp/wire.hpp"
#include "mcp/params.hpp"

namespace wire_params_test {
namespace mcp = tooluse::mcp;
namespace wire = tooluse::mcp::wire;
using tooluse::json;

namespace {

json req(int id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

struct fixture {
  tooluse::tool_registry tools;
  mcp::server server{{.name = "test", .version = "1.0"}, &tools};
  mcp::memory_client client{server};
  fixture() {
    tools.add({.name = "echo", .description = "Echo",
               .input_schema = json{{"type", "object"}}},
              [](const json& a, tooluse::call_context&) { return tooluse::tool_result::text(a.dump()); });
    auto r = client.request(req(0, "initialize", {{"protocolVersion", "2025-11-25"},
                                                  {"capabilities", json::object()},
                                                  {"clientInfo", {{"name", "t"}, {"version", "1"}}}}));
    EXPECT_TRUE(r);
    client.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  }
  // error_of sends a request and returns "code message" of its error ("" for a result).
  std::string error_of(const std::string& method, json params) {
    auto r = client.request(req(1, method, std::move(params)));
    if (!r) return "no response";
    if (!r->contains("error")) return "";
    return std::to_string((*r)["error"]["code"].get<int>()) + " " +
           (*r)["error"]["message"].get<std::string>();
  }
};

}  // namespace

TEST(mcp_wire_params, tools_call_errors_name_the_path) {
  fixture f;
  EXPECT_EQ(f.error_of("tools/call", {{"name", 3}}),
            "-32602 Invalid params: params.name: expected string, got integer 3");
  EXPECT_EQ(f.error_of("tools/call", json::object()),
            "-32602 Invalid params: params: missing required property \"name\"");
  EXPECT_EQ(f.error_of("tools/call", {{"name", "echo"}, {"arguments", json::array()}}),
            "-32602 Invalid params: params.arguments: expected object, got array");
  EXPECT_EQ(f.error_of("tools/call", {{"name", "echo"}, {"task", {{"ttl", "soon"}}}}),
            "-32602 Invalid params: params.task.ttl: expected integer, got string \"soon\"");
}

TEST(mcp_wire_params, unknown_fields_are_ignored) {
  fixture f;
  auto r = f.client.request(req(2, "tools/call", {{"name", "echo"},
                                                  {"arguments", {{"x", 1}}},
                                                  {"fromTheFuture", {{"a", true}}}}));
  ASSERT_TRUE(r);
  ASSERT_TRUE(r->contains("result")) << r->dump();
  EXPECT_EQ((*r)["result"]["content"][0]["text"], R"({"x":1})");
}

TEST(mcp_wire_params, other_methods_name_the_path) {
  fixture f;
  EXPECT_EQ(f.error_of("logging/setLevel", {{"level", "loud"}}),
            "-32602 Invalid params: params.level: expected one of \"debug\", \"info\", "
            "\"notice\", \"warning\", \"error\", \"critical\", \"alert\", \"emergency\", got "
            "string \"loud\"");
  EXPECT_EQ(f.error_of("logging/setLevel", {{"level", "notice"}}), "");
  EXPECT_EQ(f.error_of("resources/read", {{"uri", 5}}),
            "-32602 Invalid params: params.uri: expected string, got integer 5");
  EXPECT_EQ(f.error_of("resources/subscribe", json::object()),
            "-32602 Invalid params: params: missing required property \"uri\"");
  EXPECT_EQ(f.error_of("prompts/list", {{"cursor", 2}}),
            "-32602 Invalid params: params.cursor: expected string, got integer 2");
  EXPECT_EQ(f.error_of("tasks/get", json::object()),
            "-32602 Invalid params: params: missing required property \"taskId\"");
}

TEST(mcp_wire_params, stateless_meta_errors_name_the_path) {
  tooluse::tool_registry tools;
  mcp::server server{{.name = "test", .version = "1.0"}, &tools};
  mcp::memory_client client{server};  // no initialize: a 2026-07-28 request
  json meta = {{"io.modelcontextprotocol/protocolVersion", 3},
               {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  auto r = client.request(req(1, "tools/list", {{"_meta", meta}}));
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32602) << r->dump();
  EXPECT_EQ((*r)["error"]["message"],
            "Invalid params: params._meta[\"io.modelcontextprotocol/protocolVersion\"]: "
            "expected string, got integer 3");
}

TEST(mcp_wire, call_tool_params_round_trip) {
  auto p = tooluse::decode<wire::call_tool_params>(
      json{{"name", "add"}, {"arguments", {{"b", 2}, {"a", 1}}}, {"task", {{"ttl", 60000}}},
           {"_meta", {{"progressToken", 7}}}},
      "params");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->name, "add");
  EXPECT_EQ(p->arguments->dump(), R"({"b":2,"a":1})");
  ASSERT_TRUE(p->task);
  EXPECT_EQ(p->task->ttl, 60000);
  EXPECT_EQ(tooluse::encode(*p),
            (json{{"name", "add"}, {"arguments", {{"b", 2}, {"a", 1}}}, {"task", {{"ttl", 60000}}}}));
}

TEST(mcp_wire, request_meta_keeps_unknown_keys) {
  auto m = tooluse::decode<wire::request_meta>(
      json{{"progressToken", "p1"}, {"traceparent", "00-x"}, {"vendor/key", 1}}, "params._meta");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(*m->progress_token, "p1");
  EXPECT_EQ(*m->traceparent, "00-x");
  EXPECT_EQ(m->other, (json{{"vendor/key", 1}}));
  EXPECT_EQ(tooluse::encode(*m)["vendor/key"], 1);
}

TEST(mcp_wire, notifications_encode_in_wire_order) {
  wire::progress_params p{.progress_token = 3, .progress = 0.5, .total = 1.0};
  EXPECT_EQ(tooluse::encode(p).dump(), R"({"progressToken":3,"progress":0.5,"total":1.0})");
  auto bad = tooluse::decode<wire::progress_params>(json{{"progressToken", 3}}, "params");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "params: missing required property \"progress\"");
}
// read_params has its own reader for tools/call (params.hpp); over valid and invalid params it
// must give what the general decoder gives: the same fields, or the same -32602 message.
TEST(wire_params, the_tools_call_reader_agrees_with_the_general_decoder) {
  const std::vector<json> corpus = {
      {{"name", "echo"}, {"arguments", {{"a", 1}}}},
      {{"name", "echo"}},
      {{"name", "echo"}, {"arguments", nullptr}},
      {{"arguments", {{"a", 1}}}, {"name", "echo"}, {"_meta", {{"progressToken", 1}}}},
      {{"name", "echo"}, {"arguments", "not an object"}},
      {{"name", "echo"}, {"task", {{"ttl", 1000}}}},
      {{"name", "echo"}, {"task", {{"ttl", "soon"}}}},
      {{"name", "echo"}, {"task", nullptr}},
      {{"name", "echo"}, {"task", 5}},
      {{"name", 7}},
      {{"name", nullptr}},
      {{"arguments", json::object()}},
      json::object(),
      json(nullptr),
      {{"Name", "echo"}, {"name", "x"}, {"extra", true}},
  };
  for (const auto& params : corpus) {
    SCOPED_TRACE(params.dump());
    wire::call_tool_params got;
    auto got_error = mcp::read_params(params, got);
    static const json none = json::object();
    auto want = tooluse::decode<wire::call_tool_params>(params.is_null() ? none : params, "params");
    ASSERT_EQ(got_error.has_value(), !want.has_value());
    if (got_error) {
      EXPECT_EQ(got_error->code, -32602);
      EXPECT_EQ(got_error->message, "Invalid params: " + want.error().message);
      continue;
    }
    EXPECT_EQ(tooluse::encode(got), tooluse::encode(*want));
    EXPECT_EQ(got.arguments, want->arguments);
  }
}

}  // namespace wire_params_test
