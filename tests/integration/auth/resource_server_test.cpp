// The MCP HTTP server as an OAuth resource server, over real loopback HTTP: a client with a
// valid token lists and calls tools; wrong audience, expired, forged and under-scoped tokens
// get 401/403 with the right WWW-Authenticate; the protected resource metadata is served.

#include "tooluse/auth/resource_server.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "tooluse/auth/oauth.hpp"
#include "tooluse/http/client.hpp"
#include "tooluse/mcp/client.hpp"
#include "tooluse/mcp/http_client_transport.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "tooluse/mcp/server.hpp"

namespace auth = tooluse::auth;
namespace mcp = tooluse::mcp;
namespace http = tooluse::http;
using tooluse::json;

namespace {

long long now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct protected_server {
  auth::signing_key key = *auth::signing_key::generate("RS256");
  tooluse::tool_registry tools;
  mcp::server server{{.name = "protected", .version = "1"}, &tools};
  std::shared_ptr<auth::resource_server> rs;
  std::unique_ptr<mcp::http_server> http;

  protected_server() {
    tools.add({.name = "hello", .description = "Say hi"},
              [](const json&, tooluse::call_context&) { return tooluse::tool_result::text("hi"); });
    tools.add(
        {.name = "wipe", .description = "Needs admin"},
        [](const json&, tooluse::call_context&) { return tooluse::tool_result::text("wiped"); });
    // Bind first (port 0), then configure the audience with the real URL.
    http = std::make_unique<mcp::http_server>(
        server, mcp::http_options{.authorize = [this](const mcp::http_auth_request& r) {
          auto d = rs->check(r.method, r.target, r.headers, r.body, r.is_endpoint);
          return mcp::http_auth_decision{.status = d.status,
                                         .headers = d.headers,
                                         .body = d.body,
                                         .content_type = d.content_type,
                                         .principal = d.principal};
        }});
    json jwk = key.public_jwk();
    jwk["kid"] = "rsa-1";
    EXPECT_TRUE(http->start());
    rs = std::make_shared<auth::resource_server>(
        auth::resource_server_options{.resource = http->url(),
                                      .issuer = "https://as.example",
                                      .jwks = {{"keys", {jwk}}},
                                      .required_scopes = {"mcp:tools"},
                                      .tool_scopes = {{"wipe", {"mcp:admin"}}}});
  }
  std::string token(json claims, const auth::signing_key* signer = nullptr) {
    json base = {{"iss", "https://as.example"},
                 {"aud", http->url()},
                 {"sub", "u"},
                 {"exp", now() + 600},
                 {"scope", "mcp:tools"}};
    for (auto& [k, v] : claims.items()) base[k] = v;
    return *auth::sign_jwt({{"kid", "rsa-1"}}, base, signer ? *signer : key);
  }
  http::response post(const std::string& token, const std::string& tool = "hello") {
    json body = {{"jsonrpc", "2.0"},
                 {"id", 1},
                 {"method", "tools/call"},
                 {"params", {{"name", tool}, {"arguments", json::object()}}}};
    http::request r{.method = "POST", .url = http->url(), .body = body.dump()};
    r.headers = {{"Content-Type", "application/json"},
                 {"Accept", "application/json, text/event-stream"},
                 {"MCP-Protocol-Version", "2025-11-25"}};
    if (!token.empty()) r.headers.push_back({"Authorization", "Bearer " + token});
    auto res = http::send(r);
    EXPECT_TRUE(res);
    return res ? *res : http::response{};
  }
};

auth::challenge www(const http::response& r) {
  auto c = auth::parse_www_authenticate(r.header_value("www-authenticate").value_or(""));
  return c.empty() ? auth::challenge{} : c[0];
}

TEST(oauth_resource_server, valid_token_lists_and_calls_tools) {
  protected_server s;
  mcp::http_client_options o{.url = s.http->url(), .bearer_token = s.token({})};
  auto c = mcp::client::connect(mcp::make_http_client_transport(o),
                                {.client_info = {.name = "t", .version = "1"}});
  ASSERT_TRUE(c) << c.error().message;
  auto tools = (*c)->list_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  EXPECT_EQ(tools->size(), 2u);
  auto r = (*c)->call_tool_raw("hello", json::object());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)["content"][0]["text"], "hi");
  (*c)->close();
}

TEST(oauth_resource_server, refuses_bad_tokens_with_the_right_challenge) {
  protected_server s;
  std::string metadata = s.rs->metadata_url();
  auto none = s.post("");
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(www(none).param("resource_metadata"), metadata);
  auto other = *auth::signing_key::generate("RS256");
  for (const auto& [why, tok] : std::vector<std::pair<std::string, std::string>>{
           {"wrong audience", s.token({{"aud", "https://elsewhere.example/mcp"}})},
           {"expired", s.token({{"exp", now() - 3600}})},
           {"forged signature", s.token({}, &other)}}) {
    auto r = s.post(tok);
    EXPECT_EQ(r.status, 401) << why;
    EXPECT_EQ(www(r).scheme, "Bearer") << why;
    EXPECT_EQ(www(r).param("error"), "invalid_token") << why;
    EXPECT_EQ(www(r).param("resource_metadata"), metadata) << why;
  }
  auto scope = s.post(s.token({{"scope", "something-else"}}));
  EXPECT_EQ(scope.status, 403);
  EXPECT_EQ(www(scope).param("error"), "insufficient_scope");
  EXPECT_EQ(www(scope).param("scope"), "mcp:tools");
  auto tool_scope = s.post(s.token({}), "wipe");
  EXPECT_EQ(tool_scope.status, 403);
  EXPECT_EQ(www(tool_scope).param("scope"), "mcp:tools mcp:admin");
}

TEST(oauth_resource_server, serves_metadata_that_the_oauth_client_accepts) {
  protected_server s;
  auto r = http::send({.method = "GET", .url = s.rs->metadata_url()});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  json m = json::parse(r->body);
  EXPECT_EQ(m["resource"], s.http->url());
  EXPECT_EQ(m["authorization_servers"][0], "https://as.example");
  EXPECT_EQ(m["scopes_supported"], json::array({"mcp:tools", "mcp:admin"}));
}

}  // namespace
