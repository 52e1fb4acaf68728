// resource_server: a valid token passes; wrong audience, expired, forged signature and missing
// scope get the right 401/403 and WWW-Authenticate; the metadata has the RFC 9728 shape.

#include "tooluse/auth/resource_server.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "tooluse/auth/oauth.hpp"

namespace auth = tooluse::auth;
using tooluse::json;

namespace {

long long now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct fixture {
  auth::signing_key key = *auth::signing_key::generate("ES256");
  auth::resource_server rs{[this] {
    json jwk = key.public_jwk();
    jwk["kid"] = "k1";
    return auth::resource_server_options{.resource = "https://mcp.example/mcp",
                                         .issuer = "https://as.example",
                                         .jwks = {{"keys", {jwk}}},
                                         .required_scopes = {"mcp:read"},
                                         .tool_scopes = {{"delete_all", {"mcp:admin"}}}};
  }()};

  std::string token(json claims, const auth::signing_key* signer = nullptr) {
    json base = {{"iss", "https://as.example"},
                 {"aud", "https://mcp.example/mcp"},
                 {"sub", "user-1"},
                 {"exp", now() + 600},
                 {"iat", now()},
                 {"scope", "mcp:read"}};
    for (auto& [k, v] : claims.items()) base[k] = v;
    return *auth::sign_jwt({{"typ", "at+jwt"}, {"kid", "k1"}}, base, signer ? *signer : key);
  }
  auth::rs_decision call(const std::string& token, const std::string& tool = "echo") {
    std::vector<std::pair<std::string, std::string>> h;
    if (!token.empty()) h.emplace_back("Authorization", "Bearer " + token);
    json body = {{"jsonrpc", "2.0"},
                 {"id", 1},
                 {"method", "tools/call"},
                 {"params", {{"name", tool}, {"arguments", json::object()}}}};
    return rs.check("POST", "/mcp", h, body.dump(), true);
  }
};

std::string www(const auth::rs_decision& d) {
  for (const auto& [k, v] : d.headers)
    if (k == "WWW-Authenticate") return v;
  return "";
}

}  // namespace

TEST(resource_server, valid_token_passes) {
  fixture f;
  EXPECT_EQ(f.call(f.token({})).status, 0);
}

TEST(resource_server, a_token_let_through_names_its_principal) {
  fixture f;
  auto d = f.call(f.token({}));
  ASSERT_EQ(d.status, 0);
  EXPECT_EQ(d.principal, "sub:user-1");  // the MCP server binds tasks to it
  auto client_only = f.call(f.token({{"sub", nullptr}, {"client_id", "cli-9"}}));
  ASSERT_EQ(client_only.status, 0) << client_only.body;
  EXPECT_EQ(client_only.principal, "client_id:cli-9");
  auto refused = f.call("");
  EXPECT_EQ(refused.status, 401);
  EXPECT_EQ(refused.principal, "");
}

TEST(resource_server, missing_token_gets_401_with_resource_metadata) {
  fixture f;
  auto d = f.call("");
  EXPECT_EQ(d.status, 401);
  auto c = auth::parse_www_authenticate(www(d));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].scheme, "Bearer");
  EXPECT_EQ(c[0].param("resource_metadata"),
            "https://mcp.example/.well-known/oauth-protected-resource/mcp");
  EXPECT_EQ(c[0].param("error"), "");
}

TEST(resource_server, wrong_audience_expired_and_forged_get_401_invalid_token) {
  fixture f;
  auto other = *auth::signing_key::generate("ES256");
  for (const auto& [why, tok] : std::vector<std::pair<std::string, std::string>>{
           {"audience", f.token({{"aud", "https://other.example/mcp"}})},
           {"expired", f.token({{"exp", now() - 3600}})},
           {"signature", f.token({}, &other)},
           {"issuer", f.token({{"iss", "https://evil.example"}})}}) {
    auto d = f.call(tok);
    EXPECT_EQ(d.status, 401) << why;
    auto c = auth::parse_www_authenticate(www(d));
    ASSERT_FALSE(c.empty()) << why;
    EXPECT_EQ(c[0].param("error"), "invalid_token") << why;
    EXPECT_FALSE(c[0].param("resource_metadata").empty()) << why;
  }
  // "alg": "none" is refused whatever the claims say.
  std::string unsigned_token =
      auth::base64url_encode(R"({"alg":"none"})") + "." +
      auth::base64url_encode(json{{"aud", "https://mcp.example/mcp"}}.dump()) + ".";
  EXPECT_EQ(f.call(unsigned_token).status, 401);
}

TEST(resource_server, missing_scope_gets_403_insufficient_scope) {
  fixture f;
  auto d = f.call(f.token({{"scope", "other"}}));
  EXPECT_EQ(d.status, 403);
  auto c = auth::parse_www_authenticate(www(d));
  EXPECT_EQ(c.at(0).param("error"), "insufficient_scope");
  EXPECT_EQ(c.at(0).param("scope"), "mcp:read");
  // Per-tool scope: delete_all also needs mcp:admin.
  auto t = f.call(f.token({}), "delete_all");
  EXPECT_EQ(t.status, 403);
  EXPECT_EQ(auth::parse_www_authenticate(www(t)).at(0).param("scope"), "mcp:read mcp:admin");
  EXPECT_EQ(f.call(f.token({{"scope", "mcp:read mcp:admin"}}), "delete_all").status, 0);
}

TEST(resource_server, serves_protected_resource_metadata) {
  fixture f;
  std::vector<std::pair<std::string, std::string>> none;
  auto d = f.rs.check("GET", "/.well-known/oauth-protected-resource/mcp", none, "", false);
  ASSERT_EQ(d.status, 200);
  json m = json::parse(d.body);
  EXPECT_EQ(m["resource"], "https://mcp.example/mcp");
  EXPECT_EQ(m["authorization_servers"], json::array({"https://as.example"}));
  EXPECT_EQ(m["scopes_supported"], json::array({"mcp:read", "mcp:admin"}));
  EXPECT_EQ(m["bearer_methods_supported"], json::array({"header"}));
  EXPECT_EQ(f.rs.check("GET", "/other", none, "", false).status, 0);
}
