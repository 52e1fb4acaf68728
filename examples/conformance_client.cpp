// conformance_client: the MCP client the official conformance runner drives
// (`conformance client --command 'conformance_client' --scenario NAME`). The runner appends
// the server URL as the last argument and sets MCP_CONFORMANCE_SCENARIO (and
// MCP_CONFORMANCE_PROTOCOL_VERSION). Whatever the scenario, the client connects (revision
// chosen automatically), lists and calls every tool with arguments made from its schema,
// reads every resource, gets every prompt, and closes; the mock server checks what it sees.
// Without arguments it prints its usage and exits 0.

#include <cstdlib>
#include <iostream>
#include <string>

#include "tooluse/mcp/client.hpp"
#include "tooluse/mcp/http_client_transport.hpp"

namespace mcp = tooluse::mcp;
using tooluse::json;

namespace {

// sample_value makes a plausible value for a property schema.
json sample_value(const json& s) {
  if (!s.is_object()) return "test";
  if (s.contains("default")) return s["default"];
  if (s.contains("enum") && s["enum"].is_array() && !s["enum"].empty()) return s["enum"][0];
  std::string type =
      s.contains("type") && s["type"].is_string() ? s["type"].get<std::string>() : "";
  if (type == "integer") return 3;
  if (type == "number") return 2.5;
  if (type == "boolean") return true;
  if (type == "array") return json::array();
  if (type == "object") {
    json o = json::object();
    if (s.contains("properties") && s["properties"].is_object())
      for (const auto& [k, v] : s["properties"].items()) o[k] = sample_value(v);
    return o;
  }
  return "test";
}

json sample_arguments(const std::string& tool, const json& schema) {
  if (tool == "add_numbers") return {{"a", 5}, {"b", 3}};
  json args = sample_value(schema.is_object() ? schema : json::object());
  return args.is_object() ? args : json::object();
}

mcp::client_options options(const std::string& scenario) {
  const char* v = std::getenv("MCP_CONFORMANCE_PROTOCOL_VERSION");
  std::string version = v && mcp::is_stateless_version(v) ? v : "auto";
  (void)scenario;
  return {
      .client_info = {.name = "tooluse-conformance-client", .version = "0.1.0"},
      .protocol_version = version,
      .request_timeout = std::chrono::seconds(20),
      .on_sampling = [](const json&, std::stop_token) -> tooluse::result<json> {
        return json{{"role", "assistant"},
                    {"content", {{"type", "text"}, {"text", "This is a test response"}}},
                    {"model", "tooluse-conformance"},
                    {"stopReason", "endTurn"}};
      },
      // Accept with nothing filled in: the client applies the schema's defaults (SEP-1034).
      .on_elicitation = [](const json&, std::stop_token) -> tooluse::result<json> {
        return json{{"action", "accept"}, {"content", json::object()}};
      },
      .roots = {{.uri = "file:///tmp/conformance", .name = "conformance"}},
  };
}

int run(const std::string& url, const std::string& scenario) {
  auto c = mcp::client::connect(mcp::make_http_client_transport({.url = url}), options(scenario));
  if (!c) {
    std::cerr << "conformance_client: " << c.error().what() << "\n";
    return 1;
  }
  auto& client = **c;
  std::cerr << "connected: " << client.protocol_version() << " to " << client.server_info().name
            << "\n";
  auto tools = client.list_tools();
  if (!tools) {
    std::cerr << "conformance_client: " << tools.error().what() << "\n";
    return 1;
  }
  auto call = [&](const std::string& name, const json& args) {
    auto r = client.call_tool_raw(name, args);
    std::cerr << "tool " << name << ": " << (r ? r->dump().substr(0, 200) : r.error().what())
              << "\n";
  };
  // The scenario may name the calls to make (MCP_CONFORMANCE_CONTEXT {"toolCalls": [...]}).
  const char* ctx_text = std::getenv("MCP_CONFORMANCE_CONTEXT");
  json ctx = ctx_text ? json::parse(ctx_text, nullptr, false) : json();
  if (ctx.is_object() && ctx.contains("toolCalls") && ctx["toolCalls"].is_array()) {
    for (const auto& tc : ctx["toolCalls"])
      call(tc.value("name", ""), tc.value("arguments", json::object()));
  } else {
    for (const auto& t : *tools) {
      std::string name = t.value("name", "");
      if (name == "json_schema_echo") {
        // Echo back, verbatim, the schema of the other tool: the harness checks we kept it.
        for (const auto& other : *tools)
          if (other.value("name", "") != name)
            call(name, {{"schema", other.value("inputSchema", json::object())}});
        continue;
      }
      call(name, sample_arguments(name, t.value("inputSchema", json::object())));
    }
  }
  json caps = client.capabilities();
  if (caps.contains("resources"))
    if (auto rs = client.list_resources())
      for (const auto& r : *rs) (void)client.read_resource(r.value("uri", ""));
  if (caps.contains("prompts"))
    if (auto ps = client.list_prompts())
      for (const auto& p : *ps) {
        json args = json::object();
        for (const auto& a : p.value("arguments", json::array()))
          if (a.is_object()) args[a.value("name", "")] = "test";
        (void)client.get_prompt(p.value("name", ""), args);
      }
  client.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cout << "usage: conformance_client URL (scenario in MCP_CONFORMANCE_SCENARIO)\n";
    return 0;
  }
  const char* scenario = std::getenv("MCP_CONFORMANCE_SCENARIO");
  return run(argv[argc - 1], scenario ? scenario : "");
}
