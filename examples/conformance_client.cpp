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

#include "tooluse/auth/oauth.hpp"
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

// follow_redirect plays the browser: it asks for the authorization URL and returns where the
// authorization server redirects (the callback URL with code, state and iss).
tooluse::result<std::string> follow_redirect(const std::string& url) {
  auto r = tooluse::http::send({.method = "GET", .url = url});
  if (!r) return tooluse::fail(r.error());
  auto location = r->header_value("location");
  if (r->status / 100 != 3 || !location)
    return tooluse::fail(tooluse::errc::protocol_error,
                         "the authorization endpoint answered HTTP " + std::to_string(r->status) +
                             " without a redirect");
  return *location;
}

// authorizer sets up OAuth from the scenario's context (MCP_CONFORMANCE_CONTEXT): credentials
// for pre-registration and the extension grants, or none (dynamic registration / CIMD).
std::shared_ptr<tooluse::auth::oauth_authorizer> authorizer(const std::string& url,
                                                            const std::string& scenario,
                                                            const json& ctx) {
  namespace auth = tooluse::auth;
  auth::oauth_options o;
  o.client_name = "tooluse-conformance-client";
  o.redirect_uri = "http://localhost:3000/callback";
  o.client_metadata_url = "https://conformance-test.local/client-metadata.json";
  o.open_browser = follow_redirect;
  o.log = [](const std::string& line) { std::cerr << line << "\n"; };
  auto str = [&](const char* k) { return ctx.is_object() ? ctx.value(k, "") : std::string(); };
  if (!str("client_id").empty())
    o.preregistered = auth::client_credentials{.client_id = str("client_id"),
                                               .client_secret = str("client_secret"),
                                               .issuer = str("issuer")};
  if (!str("private_key_pem").empty()) {
    o.grant_type = auth::grant::client_credentials;
    o.private_key_pem = str("private_key_pem");
    o.signing_alg = str("signing_algorithm");
  } else if (scenario.starts_with("auth/client-credentials")) {
    o.grant_type = auth::grant::client_credentials;
  } else if (!str("idp_id_token").empty()) {
    o.grant_type = auth::grant::enterprise;
    o.idp_token_endpoint = str("idp_token_endpoint");
    o.idp_client_id = str("idp_client_id");
    o.id_token = str("idp_id_token");
  } else if (!str("valid_jwt").empty()) {
    o.grant_type = auth::grant::jwt_bearer;
    std::string jwt = str("valid_jwt");
    o.assertion = [jwt]() -> tooluse::result<std::string> { return jwt; };
  }
  return auth::make_oauth_authorizer(url, std::move(o));
}

int run(const std::string& url, const std::string& scenario) {
  const char* ctx_env = std::getenv("MCP_CONFORMANCE_CONTEXT");
  json context = ctx_env ? json::parse(ctx_env, nullptr, false) : json();
  mcp::http_client_options http{.url = url};
  if (scenario.starts_with("auth/")) http.authorizer = authorizer(url, scenario, context);
  auto c =
      mcp::client::connect(mcp::make_http_client_transport(std::move(http)), options(scenario));
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
