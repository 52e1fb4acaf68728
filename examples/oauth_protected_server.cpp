// oauth_protected_server: an MCP server over HTTP that is an OAuth resource server, and what
// clients see. A key pair stands in for the authorization server that would sign the tokens
// (in production: --oauth-issuer and its JWKS). docs/mcp-auth.md walks through it.

#include <chrono>
#include <iostream>

#include "tooluse/auth/oauth.hpp"
#include "tooluse/auth/resource_server.hpp"
#include "tooluse/http/client.hpp"
#include "tooluse/mcp/client.hpp"
#include "tooluse/mcp/http_client_transport.hpp"
#include "tooluse/mcp/http_server.hpp"

namespace auth = tooluse::auth;
namespace mcp = tooluse::mcp;
using tooluse::json;

int main() {
  // 1. The tools, and the MCP HTTP server with the authorization hook.
  tooluse::tool_registry tools;
  tools.add({.name = "hello", .description = "Say hi"},
            [](const json&, tooluse::call_context&) { return tooluse::tool_result::text("hi"); });
  tools.add({.name = "wipe", .description = "Dangerous"}, [](const json&, tooluse::call_context&) {
    return tooluse::tool_result::text("wiped");
  });
  mcp::server server({.name = "protected", .version = "1.0.0"}, &tools);
  std::shared_ptr<auth::resource_server> rs;
  mcp::http_server http(
      server, {.authorize = [&rs](const mcp::http_auth_request& r) {
        auto d = rs->check(r.method, r.target, r.headers, r.body, r.is_endpoint);
        return mcp::http_auth_decision{d.status, d.headers, d.body, d.content_type, d.principal};
      }});
  if (!http.start()) return 1;

  // 2. Who may call: tokens from https://as.example for this server, with scope mcp:tools;
  //    "wipe" also needs mcp:admin.
  auto as_key = *auth::signing_key::generate("ES256");
  json jwk = as_key.public_jwk();
  jwk["kid"] = "as-key-1";
  rs = std::make_shared<auth::resource_server>(
      auth::resource_server_options{.resource = http.url(),
                                    .issuer = "https://as.example",
                                    .jwks = {{"keys", {jwk}}},
                                    .required_scopes = {"mcp:tools"},
                                    .tool_scopes = {{"wipe", {"mcp:admin"}}}});
  auto now = std::chrono::duration_cast<std::chrono::seconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  auto token = [&](const std::string& aud, const std::string& scope) {
    return *auth::sign_jwt({{"kid", "as-key-1"}},
                           {{"iss", "https://as.example"},
                            {"aud", aud},
                            {"sub", "alice"},
                            {"exp", now + 600},
                            {"scope", scope}},
                           as_key);
  };

  // 3. What clients see.
  auto call = [&](const std::string& label, const std::string& bearer, const std::string& tool) {
    json body = {{"jsonrpc", "2.0"},
                 {"id", 1},
                 {"method", "tools/call"},
                 {"params", {{"name", tool}, {"arguments", json::object()}}}};
    tooluse::http::request req{.method = "POST", .url = http.url(), .body = body.dump()};
    req.headers = {{"Content-Type", "application/json"},
                   {"Accept", "application/json, text/event-stream"},
                   {"MCP-Protocol-Version", "2025-11-25"}};
    if (!bearer.empty()) req.headers.push_back({"Authorization", "Bearer " + bearer});
    auto r = tooluse::http::send(req);
    auto c = auth::parse_www_authenticate(r->header_value("www-authenticate").value_or(""));
    std::cout << label << ": HTTP " << r->status;
    if (!c.empty())
      std::cout << " error=\"" << c[0].param("error") << "\" scope=\"" << c[0].param("scope")
                << "\"";
    std::cout << "\n";
  };
  call("no token", "", "hello");
  call("token for another server", token("https://other.example/mcp", "mcp:tools"), "hello");
  call("token without mcp:admin, calling wipe", token(http.url(), "mcp:tools"), "wipe");

  // A client holding a good token (a real one gets it with tooluse::auth::make_oauth_authorizer
  // or `tooluse mcp login`).
  mcp::http_client_options o{.url = http.url(), .bearer_token = token(http.url(), "mcp:tools")};
  auto client = mcp::client::connect(mcp::make_http_client_transport(o),
                                     {.client_info = {.name = "example", .version = "1"}});
  if (!client) return 1;
  auto r = (*client)->call_tool_raw("hello", json::object());
  std::cout << "good token, calling hello: " << (*r)["content"][0]["text"].get<std::string>()
            << "\n";
  auto meta = tooluse::http::send({.method = "GET", .url = rs->metadata_url()});
  json m = json::parse(meta->body);
  std::cout << "metadata: authorization_servers=" << m["authorization_servers"].dump()
            << " scopes_supported=" << m["scopes_supported"].dump() << "\n";
  (*client)->close();
  http.stop();
  return 0;
}
