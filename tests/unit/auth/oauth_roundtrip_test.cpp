// Both sides of MCP authorization together over loopback HTTP: tooluse's resource_server
// guards an MCP endpoint whose metadata the scripted authorization server publishes, the
// authorization server issues JWTs signed with a key it serves as a JWKS, and tooluse's OAuth
// client answers the resource server's challenges: the first 401 leads to a grant, a tool that
// needs more scope leads to a step-up, and the resource server fetches the key set once.
#include <gtest/gtest.h>

#include <chrono>

#include "as_peer.hpp"
#include "tooluse/auth/resource_server.hpp"

namespace tooluse::auth::oauth_roundtrip_test {
namespace {

using namespace testing;

long long now_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::vector<http::header> as_http(const std::vector<std::pair<std::string, std::string>>& hs) {
  std::vector<http::header> out;
  for (const auto& [n, v] : hs) out.push_back({n, v});
  return out;
}

std::vector<std::pair<std::string, std::string>> as_pairs(const std::vector<http::header>& hs) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& h : hs) out.emplace_back(h.name, h.value);
  return out;
}

std::string tool_call(const std::string& name) {
  return json{{"jsonrpc", "2.0"},
              {"id", 1},
              {"method", "tools/call"},
              {"params", {{"name", name}, {"arguments", json::object()}}}}
      .dump();
}

struct roundtrip : as_peer {
  signing_key key;
  std::unique_ptr<resource_server> rs;
  std::vector<std::string> scopes_asked;

  void SetUp() override {
    as_peer::SetUp();
    key = *signing_key::generate("ES256");
    json jwk = key.public_jwk();
    jwk["kid"] = "k1";
    jwk["use"] = "sig";
    routes["GET /jwks"] = [jwk](const recorded_request&) { return json_reply({{"keys", {jwk}}}); };
    as_meta["jwks_uri"] = issuer + "/jwks";
    rs = std::make_unique<resource_server>(
        resource_server_options{.resource = server,
                                .issuer = issuer,
                                .scopes_supported = {"mcp:read"},  // mcp:admin is not offered
                                .required_scopes = {"mcp:read"},
                                .tool_scopes = {{"delete_all", {"mcp:admin"}}}});
    prm = rs->metadata();  // what the MCP server publishes
    routes["POST /token"] = [this](const recorded_request& r) {
      ++token_calls;
      std::string scope = find_param(form_of(r), "scope");
      scopes_asked.push_back(scope);
      json claims = {{"iss", issuer},  {"aud", find_param(form_of(r), "resource")},
                     {"sub", "svc-1"}, {"client_id", "agent-1"},
                     {"scope", scope}, {"exp", now_s() + 600}};
      auto jwt = sign_jwt({{"typ", "at+jwt"}, {"kid", "k1"}}, claims, key);
      return json_reply({{"access_token", *jwt}, {"token_type", "Bearer"}, {"scope", scope}});
    };
  }
  // send makes one request to the guarded endpoint with the authorizer's headers.
  rs_decision send(oauth_authorizer& a, const std::string& body, std::vector<http::header>& sent) {
    auto h = a.headers_for("POST", server);
    sent = h ? *h : std::vector<http::header>{};
    return rs->check("POST", "/mcp", as_pairs(sent), body, true);
  }
};

TEST_F(roundtrip, the_first_401_leads_to_a_token_the_resource_server_accepts) {
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  std::vector<http::header> sent;
  auto d = send(*a, tool_call("list_files"), sent);
  ASSERT_EQ(d.status, 401);  // no token yet
  EXPECT_TRUE(sent.empty());
  auto again = a->on_challenge(401, as_http(d.headers), sent, "POST", server);
  ASSERT_TRUE(again) << again.error().message;
  ASSERT_TRUE(*again);
  EXPECT_EQ(scopes_asked, (std::vector<std::string>{"mcp:read"}));  // from the challenge

  d = send(*a, tool_call("list_files"), sent);
  EXPECT_EQ(d.status, 0) << d.body;
  auto info = rs->validate(sent[0].value.substr(7));
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(info->subject, "svc-1");
  EXPECT_EQ(info->client_id, "agent-1");
  EXPECT_EQ(info->scopes, (std::vector<std::string>{"mcp:read"}));
  // The key came from the jwks_uri of the issuer's metadata, fetched once.
  EXPECT_EQ(to("/jwks").size(), 1u);
}

TEST_F(roundtrip, a_tool_that_needs_more_scope_leads_to_a_step_up) {
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  ASSERT_TRUE(a->authorize());  // asks for what the metadata offers
  EXPECT_EQ(scopes_asked, (std::vector<std::string>{"mcp:read"}));
  std::vector<http::header> sent;
  EXPECT_EQ(send(*a, tool_call("list_files"), sent).status, 0);

  auto d = send(*a, tool_call("delete_all"), sent);
  ASSERT_EQ(d.status, 403);
  EXPECT_TRUE(contains(d.headers[0].second, R"(error="insufficient_scope")"))
      << d.headers[0].second;
  auto again = a->on_challenge(403, as_http(d.headers), sent, "POST", server);
  ASSERT_TRUE(again) << again.error().message;
  ASSERT_TRUE(*again);
  ASSERT_EQ(scopes_asked.size(), 2u);
  EXPECT_TRUE(contains(scopes_asked[1], "mcp:admin")) << scopes_asked[1];
  EXPECT_TRUE(contains(scopes_asked[1], "mcp:read")) << scopes_asked[1];  // never dropped
  EXPECT_EQ(send(*a, tool_call("delete_all"), sent).status, 0);
  EXPECT_EQ(send(*a, tool_call("list_files"), sent).status, 0);

  // Refused again with the same scope, the client gives up instead of looping.
  auto stuck = a->on_challenge(403, as_http(d.headers), sent, "POST", server);
  ASSERT_TRUE(stuck);
  EXPECT_FALSE(*stuck);
  EXPECT_EQ(token_calls, 2);
}

TEST_F(roundtrip, a_token_for_another_resource_is_refused_by_the_resource_server) {
  // A client pointed at another MCP server on the same authorization server gets a token
  // whose audience is that server: this resource server refuses it.
  auto other = peer.url("/other-mcp");
  routes["GET /.well-known/oauth-protected-resource/other-mcp"] = [other,
                                                                   this](const recorded_request&) {
    return json_reply({{"resource", other}, {"authorization_servers", {issuer}}});
  };
  auto a = make_oauth_authorizer(other, machine(grant::client_credentials));
  ASSERT_TRUE(a->authorize());
  std::vector<http::header> sent;
  auto d = send(*a, tool_call("list_files"), sent);
  EXPECT_EQ(d.status, 401);
  EXPECT_TRUE(contains(d.body, "the token is not meant for " + server)) << d.body;
}

}  // namespace
}  // namespace tooluse::auth
