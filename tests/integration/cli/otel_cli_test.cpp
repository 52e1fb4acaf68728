// OpenTelemetry export through the real binary: `tooluse run --mcp` against tooluse's own MCP
// server (a child process), both exporting OTLP/HTTP JSON to a loopback receiver. The spans
// must form one trace: tooluse run > invoke_agent > {chat, execute_tool} > MCP client
// tools/call > (the server process) MCP server tools/call > execute_tool, with the GenAI and MCP
// attributes, and tool arguments only when opted in.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"
#include "tooluse/json.hpp"

namespace tooluse::testing {
namespace {

struct span_view {
  json raw;
  std::string service;
  std::string name() const { return raw.value("name", ""); }
  std::string id() const { return raw.value("spanId", ""); }
  std::string parent() const { return raw.value("parentSpanId", ""); }
  int kind() const { return raw.value("kind", 0); }
  std::optional<json> attr(const std::string& key) const {
    for (const auto& a : raw["attributes"])
      if (a["key"] == key) return a["value"];
    return std::nullopt;
  }
};

// spans_received checks every export's OTLP JSON shape and returns the spans.
std::vector<span_view> spans_received(const fake_llm_server& receiver) {
  std::vector<span_view> out;
  for (const auto& req : receiver.requests()) {
    EXPECT_EQ(req.method, "POST");
    EXPECT_EQ(req.target, "/v1/traces");
    EXPECT_NE(req.header("content-type").find("application/json"), std::string::npos);
    json body = req.json_body();
    EXPECT_TRUE(body.contains("resourceSpans")) << req.body;
    for (const auto& rs : body["resourceSpans"]) {
      std::string service;
      for (const auto& a : rs["resource"]["attributes"])
        if (a["key"] == "service.name") service = a["value"]["stringValue"];
      EXPECT_FALSE(service.empty());
      for (const auto& ss : rs["scopeSpans"]) {
        EXPECT_EQ(ss["scope"]["name"], "tooluse");
        for (const auto& s : ss["spans"]) {
          EXPECT_TRUE(std::regex_match(s.value("traceId", ""), std::regex("[0-9a-f]{32}"))) << s;
          EXPECT_TRUE(std::regex_match(s.value("spanId", ""), std::regex("[0-9a-f]{16}"))) << s;
          EXPECT_TRUE(s["startTimeUnixNano"].is_string()) << s;
          EXPECT_TRUE(s["endTimeUnixNano"].is_string()) << s;
          EXPECT_LE(std::stoull(s["startTimeUnixNano"].get<std::string>()),
                    std::stoull(s["endTimeUnixNano"].get<std::string>()));
          EXPECT_TRUE(s["kind"].is_number_integer()) << s;
          out.push_back({s, service});
        }
      }
    }
  }
  return out;
}

const span_view* find(const std::vector<span_view>& spans, const std::string& name, int kind = 0) {
  for (const auto& s : spans)
    if (s.name() == name && (kind == 0 || s.kind() == kind)) return &s;
  return nullptr;
}

class otel_cli : public ::testing::Test {
 protected:
  fake_llm_server model;
  fake_llm_server receiver;
  temp_dir dir;

  void SetUp() override {
    receiver.set_responder([](const recorded_request&) {
      return scripted_response{.headers = {{"Content-Type", "application/json"}}, .body = "{}"};
    });
  }
};

TEST_F(otel_cli, run_against_own_mcp_server_exports_one_trace_with_server_spans_under_client) {
  // A stdio server gets only the environment allowlist; the entry names what it exports to.
  json config = {{"mcpServers",
                  {{"self",
                    {{"command", TOOLUSE_CLI_PATH},
                     {"args", {"mcp", "serve", "--stdio", "--tools", "calculator"}},
                     {"env", {{"OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url()}}}}}}}};
  auto cfg = dir.path() / "mcp.json";
  std::ofstream(cfg) << dump_json(config);
  model.push(openai_response({.calls = {{"call_1", "self__calculator", R"({"expression":"6*7"})"}}},
                             false));
  model.push(openai_response({.text = "42"}, false));
  auto r = run_tooluse({"run", "What is 6*7?", "--base-url", model.url("/v1"), "--model", "m",
                        "--no-stream", "--mcp", cfg.string(), "--tools", "self__calculator"},
                       {{"OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url()}}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "42\n");
  auto spans = spans_received(receiver);
  ASSERT_FALSE(spans.empty()) << "no spans exported";

  std::set<std::string> traces;
  for (const auto& s : spans) traces.insert(s.raw["traceId"].get<std::string>());
  EXPECT_EQ(traces.size(), 1u) << "spans of one run must share one trace";

  const auto* root = find(spans, "tooluse run");
  const auto* agent = find(spans, "invoke_agent tooluse");
  const auto* tool = find(spans, "execute_tool self__calculator");
  const auto* client = find(spans, "tools/call calculator", 3);
  const auto* server = find(spans, "tools/call calculator", 2);
  const auto* inner = find(spans, "execute_tool calculator");
  ASSERT_TRUE(root && agent && tool && client && server && inner) << [&] {
    std::string names;
    for (const auto& s : spans) names += s.name() + " (kind " + std::to_string(s.kind()) + ")\n";
    return names;
  }();
  const span_view* chat = nullptr;
  for (const auto& s : spans)
    if (s.name().rfind("chat", 0) == 0) chat = &s;
  ASSERT_TRUE(chat);

  EXPECT_EQ(root->parent(), "");
  EXPECT_EQ(agent->parent(), root->id());
  EXPECT_EQ(chat->parent(), agent->id());
  EXPECT_EQ(tool->parent(), agent->id());
  EXPECT_EQ(client->parent(), tool->id());
  EXPECT_EQ(server->parent(), client->id()) << "the server's span must be the client's child";
  EXPECT_EQ(inner->parent(), server->id());

  EXPECT_EQ(chat->kind(), 3);
  EXPECT_EQ(chat->attr("gen_ai.operation.name").value_or(json())["stringValue"], "chat");
  EXPECT_TRUE(chat->attr("gen_ai.usage.input_tokens").has_value());
  EXPECT_TRUE(chat->attr("gen_ai.usage.output_tokens").has_value());
  EXPECT_EQ(tool->attr("gen_ai.tool.call.id").value_or(json())["stringValue"], "call_1");
  EXPECT_EQ(tool->attr("gen_ai.operation.name").value_or(json())["stringValue"], "execute_tool");
  EXPECT_EQ(client->attr("mcp.method.name").value_or(json())["stringValue"], "tools/call");
  EXPECT_EQ(server->attr("mcp.method.name").value_or(json())["stringValue"], "tools/call");
  EXPECT_FALSE(tool->attr("gen_ai.tool.call.arguments").has_value()) << "arguments need opt-in";
  EXPECT_FALSE(inner->attr("gen_ai.tool.call.result").has_value()) << "results need opt-in";
}

TEST_F(otel_cli, tool_arguments_and_results_only_when_opted_in) {
  auto r = run_tooluse({"tools", "call", "calculator", "expression=1/0"},
                       {{"OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url()},
                        {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true"},
                        {"OTEL_SERVICE_NAME", "calc-check"}},
                       dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto spans = spans_received(receiver);
  const auto* tool = find(spans, "execute_tool calculator");
  ASSERT_TRUE(tool);
  EXPECT_EQ(tool->service, "calc-check");
  EXPECT_EQ(tool->raw["status"]["code"], 2) << tool->raw;
  EXPECT_NE(tool->attr("gen_ai.tool.call.arguments")
                .value_or(json())["stringValue"]
                .get<std::string>()
                .find("1/0"),
            std::string::npos);
  EXPECT_TRUE(tool->attr("gen_ai.tool.call.result").has_value());
}

}  // namespace
}  // namespace tooluse::testing
