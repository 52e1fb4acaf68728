// The wire types the MCP client reads from the server (src/mcp/include/tooluse/mcp/wire.hpp, the
// client part): each one's decode error names the path and says what was expected, and the
// lenient choices (optional fields, defaults) hold.
#include <gtest/gtest.h>

#include "tooluse/mcp/wire.hpp"

namespace wire = tooluse::mcp::wire;
using tooluse::decode;
using tooluse::json;

namespace {

// error_of decodes `j` as T under `root` and returns the error message ("" if it decoded).
template <class T>
std::string error_of(const json& j, const std::string& root = "params") {
  auto r = decode<T>(j, root);
  return r ? std::string() : r.error().message;
}

}  // namespace

TEST(mcp_client_wire, jsonrpc_error_needs_an_integer_code_and_tolerates_no_message) {
  EXPECT_EQ(error_of<wire::jsonrpc_error>({{"code", "bad"}, {"message", "x"}}, "error"),
            "error.code: expected integer, got string \"bad\"");
  EXPECT_EQ(error_of<wire::jsonrpc_error>({{"message", "x"}}, "error"),
            "error: missing required property \"code\"");
  EXPECT_EQ(error_of<wire::jsonrpc_error>({{"code", -1}, {"message", 2}}, "error"),
            "error.message: expected string, got integer 2");
  auto e = decode<wire::jsonrpc_error>({{"code", -32602}, {"data", {{"k", 1}}}}, "error");
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_EQ(e->code, -32602);
  EXPECT_FALSE(e->message);
  EXPECT_EQ(e->data, (json{{"k", 1}}));
}

TEST(mcp_client_wire, unsupported_version_data_lists_versions) {
  EXPECT_EQ(error_of<wire::unsupported_version_data>({{"supported", "2025-11-25"}}, "error.data"),
            "error.data.supported: expected array, got string \"2025-11-25\"");
  auto d = decode<wire::unsupported_version_data>(json::object(), "error.data");
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->supported.empty());
}

TEST(mcp_client_wire, input_required_result_names_the_input_request) {
  EXPECT_EQ(error_of<wire::result_kind>({{"resultType", 1}}, "result"),
            "result.resultType: expected string, got integer 1");
  json r = {{"resultType", "input_required"},
            {"inputRequests", {{"ok", {{"method", "roots/list"}}}, {"bad", {{"params", {}}}}}}};
  EXPECT_EQ(error_of<wire::input_required_result>(r, "result"),
            "result.inputRequests.bad: missing required property \"method\"");
  EXPECT_EQ(error_of<wire::input_required_result>(
                {{"inputRequests", json::object()}, {"requestState", {{"a", 1}}}}, "result"),
            "result.requestState: expected string, got object");
  EXPECT_EQ(error_of<wire::input_request>({{"method", 3}}, "x"),
            "x.method: expected string, got integer 3");
}

TEST(mcp_client_wire, task_info_needs_an_id_and_a_status) {
  EXPECT_EQ(error_of<wire::task_info>({{"status", "working"}}, "result"),
            "result: missing required property \"taskId\"");
  EXPECT_EQ(error_of<wire::task_info>({{"taskId", "t"}, {"status", 4}}),
            "params.status: expected string, got integer 4");
  EXPECT_EQ(error_of<wire::task_info>(
                {{"taskId", "t"}, {"status", "working"}, {"pollInterval", "soon"}}, "result"),
            "result.pollInterval: expected number, got string \"soon\"");
  auto t = decode<wire::task_info>(
      {{"taskId", "t"}, {"status", "working"}, {"pollIntervalMs", 250}, {"ttlMs", nullptr}},
      "result");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->poll_interval_ms, 250);
  EXPECT_FALSE(t->poll_interval);
}

TEST(mcp_client_wire, created_task_and_tool_ref_name_their_fields) {
  EXPECT_EQ(error_of<wire::created_task>({{"taskId", 1}}, "result"),
            "result.taskId: expected string, got integer 1");
  EXPECT_EQ(
      error_of<wire::tool_ref>({{"name", "t"}, {"execution", {{"taskSupport", true}}}}, "tool"),
      "tool.execution.taskSupport: expected string, got boolean true");
  EXPECT_EQ(error_of<wire::tool_ref>({{"inputSchema", json::object()}}, "tool"),
            "tool: missing required property \"name\"");
}

TEST(mcp_client_wire, create_message_params_need_messages_and_max_tokens) {
  json ok = {{"messages", json::array()}, {"maxTokens", 10}};
  EXPECT_EQ(error_of<wire::create_message_params>(ok), "");
  EXPECT_EQ(error_of<wire::create_message_params>({{"messages", json::array()}}),
            "params: missing required property \"maxTokens\"");
  json bad = ok;
  bad["maxTokens"] = "ten";
  EXPECT_EQ(error_of<wire::create_message_params>(bad),
            "params.maxTokens: expected integer, got string \"ten\"");
  bad = ok;
  bad["stopSequences"] = json::array({"a", 2});
  EXPECT_EQ(error_of<wire::create_message_params>(bad),
            "params.stopSequences[1]: expected string, got integer 2");
  bad = ok;
  bad["messages"] = {{"role", "user"}};
  EXPECT_EQ(error_of<wire::create_message_params>(bad),
            "params.messages: expected array, got object");
}

TEST(mcp_client_wire, elicit_params_and_result) {
  EXPECT_EQ(error_of<wire::elicit_params>({{"requestedSchema", json::object()}}),
            "params: missing required property \"message\"");
  EXPECT_EQ(error_of<wire::elicit_params>({{"message", "m"}, {"url", 5}}),
            "params.url: expected string, got integer 5");
  EXPECT_EQ(error_of<wire::elicit_result>({{"action", 1}}, "result"),
            "result.action: expected string, got integer 1");
  auto r = decode<wire::elicit_result>(json::object(), "result");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->action, "");
}
