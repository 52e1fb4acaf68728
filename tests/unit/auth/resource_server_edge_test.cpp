// resource_server's token checks case by case, each with the RFC 6750 error_description it
// answers: audience forms, exp and nbf with the leeway, algorithm confusion ("none", HS256, a
// header that lies about the alg), unknown and rotated keys fetched from a JWKS URI, the
// issuer's metadata as the key source, introspection of opaque tokens, and the challenge shape.
#include <gtest/gtest.h>

#include <chrono>
#include <map>

#include "tooluse/auth/oauth.hpp"
#include "tooluse/auth/resource_server.hpp"

namespace tooluse::auth::resource_server_edge_test {
namespace {

long long now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const std::string resource = "https://mcp.example/mcp";
const std::string issuer = "https://as.example";

json jwk_of(const signing_key& k, const std::string& kid) {
  json j = k.public_jwk();
  j["kid"] = kid;
  return j;
}

json claims(json overrides = json::object()) {
  json c = {{"iss", issuer},
            {"aud", resource},
            {"sub", "user-1"},
            {"exp", now() + 600},
            {"scope", "mcp:read mcp:write"},
            {"client_id", "cli-1"}};
  for (auto& [k, v] : overrides.items()) c[k] = v;
  return c;
}

std::string jwt(const signing_key& key, const std::string& kid, json c = claims()) {
  return *sign_jwt({{"typ", "at+jwt"}, {"kid", kid}}, c, key);
}

// keyserver serves JSON documents by URL and counts the fetches.
struct keyserver {
  std::map<std::string, json> docs;
  std::map<std::string, int> fetches;
  http::transport transport() {
    return [this](const http::request& req, const http::send_options&) -> result<http::response> {
      ++fetches[req.url];
      auto it = docs.find(req.url);
      if (it == docs.end()) return http::response{.status = 404, .body = "{}"};
      return http::response{.status = 200, .body = it->second.dump()};
    };
  }
};

struct rs_edges : ::testing::Test {
  signing_key key = *signing_key::generate("ES256");
  resource_server rs{
      {.resource = resource, .issuer = issuer, .jwks = {{"keys", {jwk_of(key, "k1")}}}}};

  std::string rejects(const std::string& token) {
    auto r = rs.validate(token);
    if (r) return "accepted";
    EXPECT_EQ(r.error().code, errc::permission_denied);
    return r.error().message;
  }
};

TEST(rs_setup, refuses_a_resource_or_issuer_that_is_not_a_url) {
  EXPECT_THROW(resource_server({.resource = "mcp", .issuer = issuer}), std::invalid_argument);
  EXPECT_THROW(resource_server({.resource = resource, .issuer = "as.example"}),
               std::invalid_argument);
  EXPECT_THROW(resource_server({.resource = "ws://mcp.example/mcp", .issuer = issuer}),
               std::invalid_argument);
  EXPECT_THROW(resource_server({.resource = resource, .issuer = "urn://as.example"}),
               std::invalid_argument);
}

TEST_F(rs_edges, a_good_token_yields_its_subject_client_and_scopes) {
  auto info = rs.validate(jwt(key, "k1"));
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(info->subject, "user-1");
  EXPECT_EQ(info->client_id, "cli-1");
  EXPECT_EQ(info->scopes, (std::vector<std::string>{"mcp:read", "mcp:write"}));
  // "scp" arrays are read too; azp stands in for client_id.
  json c = claims({{"scp", {"a", "b"}}, {"azp", "cli-2"}});
  c.erase("scope");
  c.erase("client_id");
  info = rs.validate(jwt(key, "k1", c));
  ASSERT_TRUE(info);
  EXPECT_EQ(info->scopes, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(info->client_id, "cli-2");
}

TEST_F(rs_edges, audience_may_be_a_list_or_carry_a_trailing_slash) {
  EXPECT_EQ(rejects(jwt(key, "k1", claims({{"aud", {"https://other/x", resource}}}))), "accepted");
  EXPECT_EQ(rejects(jwt(key, "k1", claims({{"aud", resource + "/"}}))), "accepted");
  EXPECT_EQ(rejects(jwt(key, "k1", claims({{"aud", "https://mcp.example/mcp2"}}))),
            "the token is not meant for https://mcp.example/mcp");
  EXPECT_EQ(rejects(jwt(key, "k1", claims({{"aud", {"https://other/x"}}}))),
            "the token is not meant for https://mcp.example/mcp");
  json no_aud = claims();
  no_aud.erase("aud");
  EXPECT_EQ(rejects(jwt(key, "k1", no_aud)), "the token is not meant for https://mcp.example/mcp");
  EXPECT_EQ(rejects(jwt(key, "k1", claims({{"aud", 5}}))),
            "the token is not meant for https://mcp.example/mcp");
}

TEST_F(rs_edges, exp_and_nbf_allow_the_leeway_and_no_more) {
  EXPECT_EQ(rejects(jwt(key, "k1", claims({{"exp", now() - 30}}))), "accepted");  // within 60 s
  EXPECT_EQ(rejects(jwt(key, "k1", claims({{"exp", now() - 120}}))), "the token has expired");
  json no_exp = claims();
  no_exp.erase("exp");
  EXPECT_EQ(rejects(jwt(key, "k1", no_exp)), "the token has expired");
  EXPECT_EQ(rejects(jwt(key, "k1", claims({{"exp", "tomorrow"}}))),
            "the token is malformed: claims.exp: expected number, got string \"tomorrow\"");
  EXPECT_EQ(rejects(jwt(key, "k1", claims({{"nbf", now() + 30}}))), "accepted");
  EXPECT_EQ(rejects(jwt(key, "k1", claims({{"nbf", now() + 600}}))), "the token is not valid yet");
  resource_server strict({.resource = resource,
                          .issuer = issuer,
                          .jwks = {{"keys", {jwk_of(key, "k1")}}},
                          .leeway_seconds = 0});
  EXPECT_FALSE(strict.validate(jwt(key, "k1", claims({{"exp", now() - 30}}))));
}

TEST_F(rs_edges, issuer_must_match_exactly) {
  EXPECT_EQ(rejects(jwt(key, "k1", claims({{"iss", issuer + "/"}}))),
            "the token was not issued by https://as.example");
  json no_iss = claims();
  no_iss.erase("iss");
  EXPECT_EQ(rejects(jwt(key, "k1", no_iss)), "the token was not issued by https://as.example");
}

TEST_F(rs_edges, algorithm_confusion_is_refused) {
  auto unsigned_token = [](const json& header) {
    return base64url_encode(header.dump()) + "." + base64url_encode(claims().dump()) + ".";
  };
  EXPECT_EQ(rejects(unsigned_token({{"alg", "none"}, {"kid", "k1"}})),
            "the token's algorithm is not accepted");
  EXPECT_EQ(rejects(unsigned_token({{"alg", "NONE"}})), "the token's algorithm is not accepted");
  EXPECT_EQ(rejects(unsigned_token({{"kid", "k1"}})), "the token's algorithm is not accepted");
  // HS256 keyed with the public key (the classic confusion attack) is not an accepted alg.
  std::string hs = base64url_encode(R"({"alg":"HS256","kid":"k1"})") + "." +
                   base64url_encode(claims().dump()) + "." + base64url_encode("mac");
  EXPECT_EQ(rejects(hs), "the token's algorithm is not accepted");
  // A header that claims ES384 over an ES256 signature does not verify.
  auto d = decode_jwt(jwt(key, "k1"));
  ASSERT_TRUE(d);
  std::string relabeled = base64url_encode(R"({"alg":"ES384","kid":"k1"})") + "." +
                          d->signing_input.substr(d->signing_input.find('.') + 1) + "." +
                          base64url_encode(d->signature);
  EXPECT_EQ(rejects(relabeled), "the token's signature is invalid");
}

TEST_F(rs_edges, tampered_claims_and_malformed_tokens) {
  std::string good = jwt(key, "k1");
  auto d = decode_jwt(good);
  ASSERT_TRUE(d);
  json more = d->claims;
  more["scope"] = "mcp:admin";
  std::string tampered = d->signing_input.substr(0, d->signing_input.find('.')) + "." +
                         base64url_encode(more.dump()) + good.substr(good.rfind('.'));
  EXPECT_EQ(rejects(tampered), "the token's signature is invalid");
  EXPECT_EQ(rejects("a.b.c"), "the token is malformed");
  EXPECT_EQ(rejects(base64url_encode("[]") + "." + base64url_encode("{}") + ".x"),
            "the token is malformed");
  // Header fields of the wrong type are refused with their path, not thrown on (they are read
  // before any signature check, so anyone can send them).
  auto header_only = [](const json& header) {
    return base64url_encode(header.dump()) + "." + base64url_encode(claims().dump()) + "." +
           base64url_encode("sig");
  };
  EXPECT_EQ(rejects(header_only({{"alg", 5}})),
            "the token is malformed: header.alg: expected string, got integer 5");
  EXPECT_EQ(rejects(header_only({{"alg", {"ES256"}}})),
            "the token is malformed: header.alg: expected string, got array");
  EXPECT_EQ(rejects(header_only({{"alg", "ES256"}, {"kid", 7}})),
            "the token is malformed: header.kid: expected string, got integer 7");
  EXPECT_EQ(rejects(good.substr(0, good.size() - 4)), "the token's signature is invalid");
}

TEST_F(rs_edges, a_token_signed_by_a_key_not_in_the_static_set_is_unknown) {
  auto other = *signing_key::generate("ES256");
  EXPECT_EQ(rejects(jwt(other, "k2")), "the token's signing key is unknown");
  // Same kid, other key: the kid finds k1, whose check fails.
  EXPECT_EQ(rejects(jwt(other, "k1")), "the token's signature is invalid");
}

TEST(rs_jwks, keys_are_fetched_from_the_jwks_uri_and_again_when_a_kid_is_new) {
  auto k1 = *signing_key::generate("ES256");
  auto k2 = *signing_key::generate("RS256");
  keyserver ks;
  ks.docs["https://as.example/jwks"] = {{"keys", {jwk_of(k1, "k1")}}};
  resource_server rs({.resource = resource,
                      .issuer = issuer,
                      .jwks_uri = "https://as.example/jwks",
                      .jwks_refetch_interval = std::chrono::milliseconds(0),
                      .sender = ks.transport()});
  ASSERT_TRUE(rs.validate(jwt(k1, "k1")));
  ASSERT_TRUE(rs.validate(jwt(k1, "k1")));
  EXPECT_EQ(ks.fetches["https://as.example/jwks"], 1);  // cached
  // The issuer rotates to k2: the unknown kid triggers one refetch.
  ks.docs["https://as.example/jwks"] = {{"keys", {jwk_of(k1, "k1"), jwk_of(k2, "k2")}}};
  auto info = rs.validate(jwt(k2, "k2"));
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(ks.fetches["https://as.example/jwks"], 2);
  // A key marked for encryption is not used to verify.
  auto k3 = *signing_key::generate("ES256");
  json enc = jwk_of(k3, "k3");
  enc["use"] = "enc";
  ks.docs["https://as.example/jwks"] = {{"keys", {enc}}};
  auto r = rs.validate(jwt(k3, "k3"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "the token's signing key is unknown");
}

TEST(rs_jwks, unreadable_keys_in_the_set_are_skipped_and_the_readable_ones_verify) {
  auto good = *signing_key::generate("ES256");
  auto other = *signing_key::generate("ES256");
  json broken = jwk_of(other, "k1");
  broken["x"] = "not base64url!";  // an EC key whose point cannot be read
  json enc = jwk_of(other, "k1");
  enc["use"] = "enc";
  resource_server rs({.resource = resource,
                      .issuer = issuer,
                      .jwks = {{"keys", {json("not a key"), broken, enc, jwk_of(good, "k1")}}}});
  // Keys are decoded once, when the set arrives; every token after that uses them.
  for (int i = 0; i < 3; ++i) {
    auto info = rs.validate(jwt(good, "k1"));
    ASSERT_TRUE(info) << info.error().message;
    EXPECT_EQ(info->subject, "user-1");
  }
  auto r = rs.validate(jwt(other, "k1"));
  ASSERT_FALSE(r);  // the only readable k1 is `good`
  EXPECT_EQ(r.error().message, "the token's signature is invalid");
}

TEST(rs_jwks, made_up_key_ids_cannot_make_the_server_fetch_keys_on_every_request) {
  auto k1 = *signing_key::generate("ES256");
  auto k2 = *signing_key::generate("ES256");
  keyserver ks;
  ks.docs["https://as.example/jwks"] = {{"keys", {jwk_of(k1, "k1")}}};
  resource_server rs({.resource = resource,
                      .issuer = issuer,
                      .jwks_uri = "https://as.example/jwks",
                      .jwks_refetch_interval = std::chrono::hours(1),
                      .sender = ks.transport()});
  ASSERT_TRUE(rs.validate(jwt(k1, "k1")));
  for (int i = 0; i < 20; ++i) {
    auto r = rs.validate(jwt(k2, "made-up-" + std::to_string(i)));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "the token's signing key is unknown");
  }
  EXPECT_EQ(ks.fetches["https://as.example/jwks"], 1);  // the first use only
  EXPECT_TRUE(rs.validate(jwt(k1, "k1")));               // known keys keep working
  // Without a first fetch yet, an unknown kid still fetches once.
  keyserver fresh;
  fresh.docs["https://as.example/jwks"] = {{"keys", {jwk_of(k1, "k1")}}};
  resource_server cold({.resource = resource,
                        .issuer = issuer,
                        .jwks_uri = "https://as.example/jwks",
                        .jwks_refetch_interval = std::chrono::hours(1),
                        .sender = fresh.transport()});
  EXPECT_FALSE(cold.validate(jwt(k2, "nope")));
  EXPECT_FALSE(cold.validate(jwt(k2, "nope-again")));
  EXPECT_EQ(fresh.fetches["https://as.example/jwks"], 1);
}

TEST(rs_jwks, without_keys_the_issuer_metadata_names_the_jwks_uri) {
  auto k = *signing_key::generate("ES384");
  keyserver ks;
  ks.docs["https://as.example/.well-known/oauth-authorization-server"] = {
      {"issuer", issuer}, {"jwks_uri", "https://as.example/keys"}};
  ks.docs["https://as.example/keys"] = {{"keys", {jwk_of(k, "a")}}};
  resource_server rs({.resource = resource, .issuer = issuer, .sender = ks.transport()});
  auto info = rs.validate(jwt(k, "a"));
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(ks.fetches["https://as.example/keys"], 1);
  // An unreachable key source: the token cannot be checked, so it is refused.
  keyserver empty;
  resource_server blind({.resource = resource, .issuer = issuer, .sender = empty.transport()});
  auto r = blind.validate(jwt(k, "a"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "the token's signing key is unknown");
}

TEST(rs_introspection, opaque_tokens_are_introspected_with_basic_credentials) {
  std::vector<http::request> seen;
  json answer;
  http::transport introspect = [&](const http::request& req,
                                   const http::send_options&) -> result<http::response> {
    seen.push_back(req);
    return http::response{.status = 200, .body = answer.dump()};
  };
  resource_server rs({.resource = resource,
                      .issuer = issuer,
                      .introspection_endpoint = "https://as.example/introspect",
                      .introspection_client_id = "rs client",
                      .introspection_client_secret = "s:cret",
                      .sender = introspect});
  answer = {{"active", true},  {"sub", "u"},    {"client_id", "c"}, {"scope", "x y"},
            {"aud", resource}, {"iss", issuer}, {"exp", now() + 60}};
  auto info = rs.validate("opaque-token-123");
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(info->scopes, (std::vector<std::string>{"x", "y"}));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].method, "POST");
  EXPECT_EQ(seen[0].body, "token=opaque-token-123&token_type_hint=access_token");
  EXPECT_EQ(http::find_header(seen[0].headers, "authorization").value_or(""),
            "Basic " + base64_encode("rs%20client:s%3Acret"));
  struct row {
    json answer;
    const char* want;
  };
  for (const auto& [a, want] :
       std::vector<row>{{{{"active", false}}, "the token is not active"},
                        {{{"active", true}, {"iss", "https://evil"}},
                         "the token was not issued by https://as.example"},
                        {{{"active", true}, {"aud", "https://other"}},
                         "the token is not meant for https://mcp.example/mcp"},
                        {{{"active", true}, {"exp", now() - 3600}}, "the token has expired"},
                        {json::array(), "the token could not be introspected"}}) {
    answer = a;
    auto r = rs.validate("opaque");
    ASSERT_FALSE(r) << want;
    EXPECT_EQ(r.error().message, want);
  }
}

TEST(rs_challenge, answers_name_the_metadata_scope_and_error_with_quotes_escaped) {
  auto key = *signing_key::generate("ES256");
  resource_server rs({.resource = "https://mcp.example/a/b/",
                      .issuer = issuer,
                      .jwks = {{"keys", {jwk_of(key, "k")}}},
                      .scopes_supported = {"s1", "s2"},
                      .required_scopes = {"s1"}});
  EXPECT_EQ(rs.metadata_path(), "/.well-known/oauth-protected-resource/a/b");
  EXPECT_EQ(rs.metadata_url(), "https://mcp.example/.well-known/oauth-protected-resource/a/b");
  EXPECT_EQ(rs.metadata()["scopes_supported"], json::array({"s1", "s2"}));
  std::vector<std::pair<std::string, std::string>> basic = {
      {"authorization", "Basic dXNlcjpwYXNz"}};
  auto d = rs.check("POST", "/a/b/", basic, "{}", true);
  EXPECT_EQ(d.status, 401);
  ASSERT_EQ(d.headers.size(), 1u);
  EXPECT_EQ(
      d.headers[0].second,
      "Bearer resource_metadata=\"https://mcp.example/.well-known/oauth-protected-resource/a/b\", "
      "scope=\"s1\", error=\"invalid_request\", error_description=\"use the Bearer scheme\"");
  EXPECT_EQ(
      json::parse(d.body),
      json::parse(R"({"error":"invalid_request","error_description":"use the Bearer scheme"})"));
  // The scheme is case-insensitive, and extra spaces before the token are tolerated.
  json c = {
      {"iss", issuer}, {"aud", "https://mcp.example/a/b/"}, {"exp", now() + 60}, {"scope", "s1"}};
  std::vector<std::pair<std::string, std::string>> ok = {
      {"Authorization", "bearer   " + jwt(key, "k", c)}};
  EXPECT_EQ(rs.check("POST", "/a/b/", ok, "{}", true).status, 0);
  // The description survives the quoting of the header value.
  json wrong_iss = c;
  wrong_iss["iss"] = "https://x\"y";
  std::vector<std::pair<std::string, std::string>> bad = {
      {"Authorization", "Bearer " + jwt(key, "k", wrong_iss)}};
  auto r = rs.check("POST", "/a/b/", bad, "{}", true);
  EXPECT_EQ(r.status, 401);
  auto parsed = parse_www_authenticate(r.headers[0].second);
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed[0].param("error_description"), "the token was not issued by https://as.example");
  // Metadata is served only for GET on its path; other paths pass through untouched.
  EXPECT_EQ(rs.check("POST", rs.metadata_path(), {}, "", false).status, 0);
  EXPECT_EQ(rs.check("GET", rs.metadata_path(), {}, "", false).status, 200);
}

}  // namespace
}  // namespace tooluse::auth
