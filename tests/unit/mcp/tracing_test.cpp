// MCP server spans (dispatch): one SERVER span per request named "{method} {target}", parented
// by the client's _meta.traceparent, with the MCP semantic-convention attributes; an error
// response marks the span failed; a registry tool's execution span is its child. Spans go to a
// real OTLP collector on loopback (tests/support fake server).
#include <gtest/gtest.h>

#include "support/fake_llm_server.hpp"
#include "tooluse/telemetry/trace.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace tracing_test {
namespace mcp = tooluse::mcp;
namespace tel = tooluse::telemetry;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;

namespace {

namespace t = tooluse::testing;

const std::string trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string parent_id = "00f067aa0ba902b7";

struct collector {
  t::fake_llm_server server;
  collector() {
    server.set_responder([](const t::recorded_request&) { return t::scripted_response{.status = 200, .body = "{}"}; });
  }
  std::vector<json> spans() const {
    std::vector<json> out;
    for (const auto& r : server.requests()) {
      json body = r.json_body();
      for (const auto& s : body["resourceSpans"][0]["scopeSpans"][0]["spans"]) out.push_back(s);
    }
    return out;
  }
};

json find_span(const std::vector<json>& spans, const std::string& name) {
  for (const auto& s : spans)
    if (s["name"] == name) return s;
  return nullptr;
}

std::string attribute(const json& span, const std::string& key) {
  for (const auto& a : span["attributes"])
    if (a["key"] == key) return a["value"].value("stringValue", a["value"].dump());
  return "";
}

}  // namespace

TEST(mcp_tracing, a_request_span_carries_mcp_attributes_and_the_callers_parent) {
  collector c;
  auto exporter = tel::install_exporter({.endpoint = c.server.url("/v1/traces")});
  tooluse::tool_registry tools;
  tools.add({.name = "add"}, [](const json&, tooluse::call_context&) { return tool_result::text("3"); });
  {
    mcp::server server({.name = "traced", .version = "1"}, &tools);
    mcp::memory_client client(server);
    handshake(client);
    json meta = {{"traceparent", "00-" + trace_id + "-" + parent_id + "-01"}};
    auto r = client.request(req("call-1", "tools/call", {{"name", "add"}, {"_meta", meta}}));
    ASSERT_TRUE(r);
    EXPECT_EQ((*r)["result"]["content"][0]["text"], "3");
  }
  exporter.flush();
  auto spans = c.spans();
  json server_span = find_span(spans, "tools/call add");
  ASSERT_FALSE(server_span.is_null()) << json(spans).dump();
  EXPECT_EQ(server_span["traceId"], trace_id);
  EXPECT_EQ(server_span["parentSpanId"], parent_id);
  EXPECT_EQ(server_span["kind"], 2);  // SERVER
  EXPECT_EQ(attribute(server_span, "mcp.method.name"), "tools/call");
  EXPECT_EQ(attribute(server_span, "gen_ai.operation.name"), "execute_tool");
  EXPECT_EQ(attribute(server_span, "gen_ai.tool.name"), "add");
  EXPECT_EQ(attribute(server_span, "jsonrpc.request.id"), "\"call-1\"");
  EXPECT_EQ(attribute(server_span, "mcp.session.id"), "");  // memory sessions have no id
  // The registry tool's execution is a child of the request span.
  bool child = false;
  for (const auto& s : spans)
    if (s["name"] != "tools/call add" && s.value("parentSpanId", "") == server_span["spanId"]) child = true;
  EXPECT_TRUE(child) << json(spans).dump();
}

TEST(mcp_tracing, an_error_response_marks_the_span_failed) {
  collector c;
  auto exporter = tel::install_exporter({.endpoint = c.server.url("/v1/traces")});
  {
    mcp::server server({.name = "traced", .version = "1"});
    mcp::memory_client client(server);
    handshake(client);
    auto r = client.request(req(5, "resources/read", {{"uri", "mem://nothing"}}));
    EXPECT_EQ(error_code(r), -32602);
    auto ok = client.request(req(6, "tools/list"));
    ASSERT_TRUE(ok);
  }
  exporter.flush();
  auto spans = c.spans();
  json failed = find_span(spans, "resources/read mem://nothing");
  ASSERT_FALSE(failed.is_null()) << json(spans).dump();
  EXPECT_EQ(failed["status"]["code"], 2);
  EXPECT_EQ(attribute(failed, "error.type"), "-32602");
  EXPECT_EQ(attribute(failed, "jsonrpc.request.id"), "5");
  json fine = find_span(spans, "tools/list");
  ASSERT_FALSE(fine.is_null());
  EXPECT_NE(fine["status"].value("code", 0), 2);
  // Without a traceparent the request starts its own trace.
  EXPECT_FALSE(fine.contains("parentSpanId") && !fine["parentSpanId"].get<std::string>().empty());
}

TEST(mcp_tracing, a_malformed_traceparent_starts_a_new_trace) {
  collector c;
  auto exporter = tel::install_exporter({.endpoint = c.server.url("/v1/traces")});
  {
    mcp::server server({.name = "traced", .version = "1"});
    server.add_prompt({.name = "p"}, [](const json&, mcp::request_context&) -> tooluse::result<mcp::prompt_outcome> {
      return mcp::prompt_result{};
    });
    mcp::memory_client client(server);
    handshake(client);
    (void)client.request(req(1, "prompts/get", {{"name", "p"}, {"_meta", {{"traceparent", "00-zz-yy-01"}}}}));
    (void)client.request(req(2, "prompts/get", {{"name", "p"}, {"_meta", {{"traceparent", 17}}}}));
  }
  exporter.flush();
  auto spans = c.spans();
  int found = 0;
  for (const auto& s : spans)
    if (s["name"] == "prompts/get p") {
      ++found;
      EXPECT_NE(s["traceId"], "zz");
      EXPECT_TRUE(s.value("parentSpanId", "").empty()) << s.dump();
    }
  EXPECT_EQ(found, 2);
}
}  // namespace tracing_test
