// The auth module's wire types (src/auth/wire.hpp) on documents shaped like real servers'
// (Keycloak-style RFC 8414 metadata, a Google-style OpenID configuration, RFC 9728 metadata,
// RFC 6749 token answers, an RFC 7591 registration answer, a JWKS with an RSA and an EC key,
// JWT headers and claims, the token store's entry): what they read, what they ignore, and
// the path a malformed document's error names.
#include "auth/wire.hpp"

#include <gtest/gtest.h>

namespace tooluse::auth::wire {
namespace {

template <class T>
std::string mismatch(const json& j, const std::string& root) {
  auto r = decode<T>(j, root);
  return r ? "decoded" : r.error().message;
}

TEST(auth_wire, authorization_server_metadata_reads_what_the_client_uses) {
  auto j = json::parse(R"({
    "issuer": "https://kc.example/realms/mcp",
    "authorization_endpoint": "https://kc.example/realms/mcp/protocol/openid-connect/auth",
    "token_endpoint": "https://kc.example/realms/mcp/protocol/openid-connect/token",
    "introspection_endpoint": "https://kc.example/realms/mcp/protocol/openid-connect/token/introspect",
    "jwks_uri": "https://kc.example/realms/mcp/protocol/openid-connect/certs",
    "registration_endpoint": "https://kc.example/realms/mcp/clients-registrations/openid-connect",
    "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
    "response_types_supported": ["code", "none", "id_token"],
    "scopes_supported": ["openid", "offline_access", "mcp:tools"],
    "token_endpoint_auth_methods_supported": ["private_key_jwt", "client_secret_basic"],
    "code_challenge_methods_supported": ["plain", "S256"],
    "dpop_signing_alg_values_supported": ["ES256", "RS256"],
    "authorization_response_iss_parameter_supported": true,
    "mtls_endpoint_aliases": {"token_endpoint": "https://mtls.kc.example/token"},
    "require_pushed_authorization_requests": false
  })");
  auto m = decode<authorization_server_metadata>(j, "authorization_server_metadata");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->issuer, "https://kc.example/realms/mcp");
  EXPECT_EQ(m->token_endpoint, "https://kc.example/realms/mcp/protocol/openid-connect/token");
  EXPECT_EQ(m->registration_endpoint.value_or(""),
            "https://kc.example/realms/mcp/clients-registrations/openid-connect");
  EXPECT_EQ(m->code_challenge_methods_supported, (std::vector<std::string>{"plain", "S256"}));
  EXPECT_EQ(m->dpop_signing_alg_values_supported->at(0), "ES256");
  EXPECT_EQ(m->authorization_response_iss_parameter_supported, true);
  EXPECT_FALSE(m->client_id_metadata_document_supported);
}

TEST(auth_wire, an_openid_configuration_decodes_as_authorization_server_metadata) {
  auto j = json::parse(R"({
    "issuer": "https://accounts.example.com",
    "authorization_endpoint": "https://accounts.example.com/o/oauth2/v2/auth",
    "token_endpoint": "https://oauth2.example.com/token",
    "userinfo_endpoint": "https://openidconnect.example.com/v1/userinfo",
    "jwks_uri": "https://www.example.com/oauth2/v3/certs",
    "subject_types_supported": ["public"],
    "id_token_signing_alg_values_supported": ["RS256"],
    "claims_supported": ["aud", "email", "sub"],
    "code_challenge_methods_supported": ["plain", "S256"]
  })");
  auto m = decode<authorization_server_metadata>(j, "authorization_server_metadata");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->jwks_uri.value_or(""), "https://www.example.com/oauth2/v3/certs");
  EXPECT_FALSE(m->registration_endpoint);
  EXPECT_FALSE(m->scopes_supported);
}

TEST(auth_wire, malformed_authorization_server_metadata_names_the_path) {
  json j = {{"issuer", "https://as.example"}, {"token_endpoint", 3}};
  EXPECT_EQ(mismatch<authorization_server_metadata>(j, "authorization_server_metadata"),
            "authorization_server_metadata.token_endpoint: expected string, got integer 3");
  j = {{"issuer", "https://as.example"},
       {"token_endpoint", "https://as.example/token"},
       {"scopes_supported", {"read", 7}}};
  EXPECT_EQ(mismatch<authorization_server_metadata>(j, "authorization_server_metadata"),
            "authorization_server_metadata.scopes_supported[1]: expected string, got integer 7");
  EXPECT_EQ(mismatch<authorization_server_metadata>(json{{"token_endpoint", "x"}}, "m"),
            "m: missing required property \"issuer\"");
}

TEST(auth_wire, protected_resource_metadata_reads_resource_servers_and_scopes) {
  auto j = json::parse(R"({
    "resource": "https://mcp.example/mcp",
    "authorization_servers": ["https://as.example"],
    "scopes_supported": ["mcp:read", "mcp:write"],
    "bearer_methods_supported": ["header"],
    "resource_name": "Example MCP",
    "resource_signing_alg_values_supported": ["RS256"]
  })");
  auto m = decode<protected_resource_metadata>(j, "protected_resource_metadata");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->resource, "https://mcp.example/mcp");
  EXPECT_EQ(m->authorization_servers, (std::vector<std::string>{"https://as.example"}));
  EXPECT_EQ(m->scopes_supported->size(), 2u);
  EXPECT_EQ(mismatch<protected_resource_metadata>(
                json{{"resource", "https://mcp.example/mcp"}, {"authorization_servers", "x"}},
                "protected_resource_metadata"),
            "protected_resource_metadata.authorization_servers: expected array, got string \"x\"");
}

TEST(auth_wire, token_responses_and_token_errors) {
  auto j = json::parse(R"({
    "access_token": "eyJhbGciOiJSUzI1NiJ9.e30.c2ln", "token_type": "DPoP", "expires_in": 3599,
    "refresh_token": "rt-1", "scope": "mcp:read offline_access", "id_token": "x.y.z",
    "not-before-policy": 0
  })");
  auto t = decode<token_response>(j, "token_response");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->access_token, "eyJhbGciOiJSUzI1NiJ9.e30.c2ln");
  EXPECT_EQ(t->token_type, "DPoP");
  EXPECT_EQ(t->expires_in, json(3599));
  EXPECT_EQ(t->refresh_token, "rt-1");
  EXPECT_EQ(t->scope, "mcp:read offline_access");
  // expires_in is read by oauth_client_grants.cpp (a string of digits is let through there).
  EXPECT_TRUE(decode<token_response>(json{{"access_token", "a"}, {"expires_in", "3600"}}, "t"));
  EXPECT_EQ(mismatch<token_response>(json{{"access_token", "a"}, {"scope", {"a", "b"}}},
                                     "token_response"),
            "token_response.scope: expected string, got array");
  EXPECT_EQ(mismatch<token_response>(json{{"token_type", "Bearer"}}, "token_response"),
            "token_response: missing required property \"access_token\"");

  auto e = decode<token_error_response>(
      json::parse(R"({"error":"invalid_grant","error_description":"code expired",
                      "error_uri":"https://as.example/errors#invalid_grant","trace_id":"abc"})"),
      "token_error");
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_EQ(e->error, "invalid_grant");
  EXPECT_EQ(e->error_description, "code expired");
  EXPECT_EQ(mismatch<token_error_response>(json{{"error", 400}}, "token_error"),
            "token_error.error: expected string, got integer 400");
}

TEST(auth_wire, registration_response_keeps_the_client_and_ignores_the_rest) {
  auto j = json::parse(R"({
    "client_id": "s6BhdRkqt3", "client_secret": "cf136dc3c1fc93f31185e5885805d",
    "client_id_issued_at": 2893256800, "client_secret_expires_at": 0,
    "redirect_uris": ["http://127.0.0.1:33418/callback"], "grant_types": ["authorization_code"],
    "token_endpoint_auth_method": "client_secret_basic", "client_name": "tooluse",
    "registration_access_token": "this.is.an.access.token"
  })");
  auto r = decode<registration_response>(j, "registration_response");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->client_id, "s6BhdRkqt3");
  EXPECT_EQ(r->client_secret, "cf136dc3c1fc93f31185e5885805d");
  EXPECT_EQ(r->token_endpoint_auth_method, "client_secret_basic");
}

TEST(auth_wire, a_jwks_with_an_rsa_and_an_ec_key) {
  auto j = json::parse(R"({"keys": [
    {"kty": "RSA", "use": "sig", "alg": "RS256", "kid": "r1", "e": "AQAB",
     "n": "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
     "x5c": ["MIIC..."]},
    {"kty": "EC", "crv": "P-256", "kid": "e1", "use": "sig",
     "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
     "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
    {"kty": "oct", "k": "c2VjcmV0", "kid": "s1"}
  ]})");
  auto set = decode<jwk_set>(j, "jwks");
  ASSERT_TRUE(set) << set.error().message;
  ASSERT_EQ(set->keys.size(), 3u);
  auto rsa = decode<jwk>(set->keys[0], "jwks.keys[0]");
  ASSERT_TRUE(rsa) << rsa.error().message;
  EXPECT_EQ(rsa->kty, "RSA");
  EXPECT_EQ(rsa->e, "AQAB");
  EXPECT_EQ(rsa->kid, "r1");
  auto ec = decode<jwk>(set->keys[1], "jwks.keys[1]");
  ASSERT_TRUE(ec) << ec.error().message;
  EXPECT_EQ(ec->crv, "P-256");
  EXPECT_FALSE(ec->n);
  EXPECT_TRUE(decode<jwk>(set->keys[2], "jwks.keys[2]"));  // read; from_jwk refuses its kty
  // Unknown members of the set are ignored.
  EXPECT_EQ(mismatch<jwk_set>(json::parse(R"({"keys":[{"kty":"EC"}],"x":1})"), "jwks"), "decoded");
  EXPECT_EQ(mismatch<jwk_set>(json{{"keys", json::object()}}, "jwks"),
            "jwks.keys: expected array, got object");
  EXPECT_EQ(mismatch<jwk>(json{{"kty", "EC"}, {"kid", 7}}, "jwk"),
            "jwk.kid: expected string, got integer 7");
}

TEST(auth_wire, jwt_header_and_claims_with_aud_as_string_or_array) {
  auto h = decode<jwt_header>(
      json{{"alg", "ES256"}, {"typ", "at+jwt"}, {"kid", "k1"}, {"x5t#S256", "abc"}}, "header");
  ASSERT_TRUE(h) << h.error().message;
  EXPECT_EQ(h->alg, "ES256");
  EXPECT_EQ(h->kid, "k1");

  json c = {{"iss", "https://as.example"}, {"sub", "u-1"},          {"aud", "https://mcp.example"},
            {"exp", 1767225600},           {"iat", 1767222000},     {"jti", "j-1"},
            {"client_id", "cli"},          {"scope", "read write"}, {"auth_time", 1767221000}};
  auto one = decode<token_claims>(c, "claims");
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(one->aud, json("https://mcp.example"));
  EXPECT_EQ(one->exp, 1767225600.0);
  EXPECT_EQ(one->scope, "read write");
  c["aud"] = {"https://other.example", "https://mcp.example"};
  c["exp"] = 1767225600.5;  // a NumericDate may have a fraction
  auto many = decode<token_claims>(c, "claims");
  ASSERT_TRUE(many) << many.error().message;
  EXPECT_TRUE(many->aud->is_array());
  EXPECT_EQ(many->exp, 1767225600.5);
  c["scp"] = {"a", 2};
  EXPECT_EQ(mismatch<token_claims>(c, "claims"), "claims.scp[1]: expected string, got integer 2");
  EXPECT_EQ(mismatch<token_claims>(json{{"active", "yes"}}, "introspection"),
            "introspection.active: expected boolean, got string \"yes\"");
}

TEST(auth_wire, the_token_store_entry_reads_back_what_state_writes) {
  json s = {{"server", "https://mcp.example/mcp"},
            {"resource", "https://mcp.example/mcp"},
            {"issuer", "https://as.example"},
            {"client", {{"client_id", "c"}, {"client_secret", ""}, {"method", "none"}}},
            {"tokens",
             {{"access_token", "at"},
              {"token_type", "Bearer"},
              {"refresh_token", "rt"},
              {"scope", "read"},
              {"expires_at", 1767225600},
              {"issuer", "https://as.example"}}},
            {"dpop_key", "-----BEGIN PRIVATE KEY-----\n..."}};
  auto st = decode<stored_state>(s, "state");
  ASSERT_TRUE(st) << st.error().message;
  EXPECT_EQ(st->client->client_id, "c");
  EXPECT_EQ(st->tokens->expires_at, 1767225600);
  EXPECT_EQ(st->tokens->refresh_token, "rt");
  s["tokens"]["expires_at"] = "soon";
  EXPECT_EQ(mismatch<stored_state>(s, "state"),
            "state.tokens.expires_at: expected integer, got string \"soon\"");
}

TEST(auth_wire, malformed_is_a_protocol_error_naming_the_document_and_what_to_do) {
  auto r = decode<token_response>(json{{"access_token", "a"}, {"token_type", 1}}, "token_response");
  ASSERT_FALSE(r);
  auto e = malformed("token response of https://as.example/token", r.error(), "tell them");
  EXPECT_EQ(e.code, errc::protocol_error);
  EXPECT_EQ(e.message,
            "auth: the token response of https://as.example/token is malformed: "
            "token_response.token_type: expected string, got integer 1; tell them");
}

}  // namespace
}  // namespace tooluse::auth::wire
