// The OAuth client's machine grants and discovery errors against an authorization server on
// loopback HTTP (the scripted server of tests/support plays the MCP server's metadata, the
// authorization server and an enterprise IdP): JWT bearer, enterprise-managed authorization
// (token exchange, then JWT bearer), private-key JWT and client_secret_post client
// authentication, a token endpoint that keeps asking for DPoP nonces, token answers that are
// not usable, metadata that is incomplete, and logout clearing the token store.
#include <gtest/gtest.h>

#include "as_peer.hpp"
#include "support/test_support.hpp"

namespace tooluse::auth::oauth_grants_test {
namespace {

using namespace testing;

TEST_F(as_peer, jwt_bearer_sends_the_workload_assertion_and_uses_the_token) {
  token_answer({{"access_token", "at-jwt"}, {"token_type", "Bearer"}, {"expires_in", 3600}});
  auto o = machine(grant::jwt_bearer);
  int asked = 0;
  o.assertion = [&]() -> result<std::string> {
    ++asked;
    return std::string("workload.identity.jwt");
  };
  auto a = make_oauth_authorizer(server, o);
  ASSERT_TRUE(a->authorize());
  EXPECT_EQ(asked, 1);
  auto posts = to("/token");
  ASSERT_EQ(posts.size(), 1u);
  auto f = form_of(posts[0]);
  EXPECT_EQ(find_param(f, "grant_type"), jwt_bearer);
  EXPECT_EQ(find_param(f, "assertion"), "workload.identity.jwt");
  EXPECT_EQ(find_param(f, "resource"), server);
  EXPECT_EQ(posts[0].header("Authorization"), "Basic " + base64_encode("agent-1:s3cret"));
  auto h = a->headers_for("POST", server);
  ASSERT_TRUE(h);
  EXPECT_EQ(http::find_header(*h, "Authorization"), "Bearer at-jwt");
  EXPECT_GT(a->state()["tokens"]["expires_at"].get<long long>(), 0);
}

TEST_F(as_peer, jwt_bearer_stops_when_the_assertion_source_fails) {
  token_answer({{"access_token", "never"}});
  auto o = machine(grant::jwt_bearer);
  o.assertion = []() -> result<std::string> {
    return fail(errc::permission_denied, "no workload identity in this pod");
  };
  auto a = make_oauth_authorizer(server, o);
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::permission_denied);
  EXPECT_EQ(s.error().message, "no workload identity in this pod");
  EXPECT_EQ(token_calls, 0);
  EXPECT_FALSE(a->has_token());
}

TEST_F(as_peer, enterprise_exchanges_the_id_token_at_the_idp_then_uses_jwt_bearer) {
  routes["POST /idp/token"] = [](const recorded_request&) {
    return json_reply({{"access_token", "id-jag-1"},
                       {"issued_token_type", "urn:ietf:params:oauth:token-type:id-jag"}});
  };
  token_answer({{"access_token", "at-ent"}, {"scope", "read"}});
  oauth_options o;
  o.grant_type = grant::enterprise;
  o.preregistered = client_credentials{.client_id = "mcp-client"};
  o.idp_token_endpoint = peer.url("/idp/token");
  o.idp_client_id = "idp client";
  o.idp_client_secret = "idp:secret";
  o.id_token = "user.id.token";
  o.scope = "read";
  auto a = make_oauth_authorizer(server, o);
  ASSERT_TRUE(a->authorize());

  auto idp = to("/idp/token");
  ASSERT_EQ(idp.size(), 1u);
  auto x = form_of(idp[0]);
  EXPECT_EQ(find_param(x, "grant_type"), "urn:ietf:params:oauth:grant-type:token-exchange");
  EXPECT_EQ(find_param(x, "requested_token_type"), "urn:ietf:params:oauth:token-type:id-jag");
  EXPECT_EQ(find_param(x, "audience"), issuer);
  EXPECT_EQ(find_param(x, "resource"), server);
  EXPECT_EQ(find_param(x, "subject_token"), "user.id.token");
  EXPECT_EQ(find_param(x, "subject_token_type"), "urn:ietf:params:oauth:token-type:id_token");
  EXPECT_EQ(find_param(x, "scope"), "read");
  // Both parts percent-encoded before Basic (RFC 6749 §2.3.1).
  EXPECT_EQ(idp[0].header("Authorization"), "Basic " + base64_encode("idp%20client:idp%3Asecret"));

  auto as = to("/token");
  ASSERT_EQ(as.size(), 1u);
  auto g = form_of(as[0]);
  EXPECT_EQ(find_param(g, "grant_type"), jwt_bearer);
  EXPECT_EQ(find_param(g, "assertion"), "id-jag-1");
  EXPECT_EQ(find_param(g, "client_id"), "mcp-client");  // a public client names itself
  EXPECT_EQ(as[0].header("Authorization"), "");
  EXPECT_EQ(a->state()["tokens"]["access_token"], "at-ent");
}

TEST_F(as_peer, enterprise_without_a_secret_at_the_idp_sends_its_client_id_in_the_form) {
  routes["POST /idp/token"] = [](const recorded_request&) {
    return json_reply({{"access_token", "id-jag-2"}});
  };
  token_answer({{"access_token", "at-2"}});
  oauth_options o;
  o.grant_type = grant::enterprise;
  o.preregistered = client_credentials{.client_id = "mcp-client"};
  o.idp_token_endpoint = peer.url("/idp/token");
  o.idp_client_id = "idp-public";
  o.id_token = "tok";
  auto a = make_oauth_authorizer(server, o);
  ASSERT_TRUE(a->authorize());
  auto idp = to("/idp/token");
  ASSERT_EQ(idp.size(), 1u);
  EXPECT_EQ(find_param(form_of(idp[0]), "client_id"), "idp-public");
  EXPECT_EQ(idp[0].header("Authorization"), "");
}

TEST_F(as_peer, enterprise_refused_by_the_idp_names_the_idp_and_its_error) {
  routes["POST /idp/token"] = [](const recorded_request&) {
    return json_reply({{"error", "invalid_grant"}, {"error_description", "id token expired"}}, 400);
  };
  token_answer({{"access_token", "never"}});
  oauth_options o;
  o.grant_type = grant::enterprise;
  o.preregistered = client_credentials{.client_id = "mcp-client"};
  o.idp_token_endpoint = peer.url("/idp/token");
  o.id_token = "old.token";
  auto a = make_oauth_authorizer(server, o);
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::permission_denied);
  EXPECT_TRUE(
      contains(s.error().message, "the token endpoint " + peer.url("/idp/token") +
                                      " refused (HTTP 400, invalid_grant: id token expired)"))
      << s.error().message;
  EXPECT_FALSE(contains(s.error().message, "old.token"));  // the ID token is a secret
  EXPECT_EQ(token_calls, 0);
}

TEST_F(as_peer, enterprise_needs_the_idp_endpoint_and_an_id_token) {
  oauth_options o;
  o.grant_type = grant::enterprise;
  o.preregistered = client_credentials{.client_id = "mcp-client"};
  o.id_token = "tok";  // but no IdP endpoint
  auto a = make_oauth_authorizer(server, o);
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::invalid_argument);
  EXPECT_TRUE(contains(s.error().message, "IdP token endpoint")) << s.error().message;
}

TEST_F(as_peer, a_private_key_jwt_client_signs_an_assertion_the_server_can_verify) {
  token_answer({{"access_token", "at-pk"}});
  auto key = signing_key::generate("ES256");
  ASSERT_TRUE(key);
  auto o = machine(grant::client_credentials);
  o.preregistered = client_credentials{.client_id = "svc-7"};
  o.private_key_pem = key->private_pem();
  auto a = make_oauth_authorizer(server, o);
  ASSERT_TRUE(a->authorize());
  auto posts = to("/token");
  ASSERT_EQ(posts.size(), 1u);
  auto f = form_of(posts[0]);
  EXPECT_EQ(find_param(f, "grant_type"), "client_credentials");
  EXPECT_EQ(find_param(f, "client_assertion_type"),
            "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
  EXPECT_EQ(posts[0].header("Authorization"), "");
  auto jwt = decode_jwt(find_param(f, "client_assertion"));
  ASSERT_TRUE(jwt);
  EXPECT_EQ(jwt->header["alg"], "ES256");
  EXPECT_EQ(jwt->claims["iss"], "svc-7");
  EXPECT_EQ(jwt->claims["sub"], "svc-7");
  EXPECT_EQ(jwt->claims["aud"], issuer);
  EXPECT_EQ(jwt->claims["exp"].get<long long>() - jwt->claims["iat"].get<long long>(), 300);
  EXPECT_TRUE(key->verify(jwt->signing_input, jwt->signature, "ES256"));
}

TEST_F(as_peer, a_server_that_takes_only_client_secret_post_gets_the_secret_in_the_form) {
  as_meta["token_endpoint_auth_methods_supported"] = {"client_secret_post"};
  token_answer({{"access_token", "at-post"}});
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  ASSERT_TRUE(a->authorize());
  auto posts = to("/token");
  ASSERT_EQ(posts.size(), 1u);
  auto f = form_of(posts[0]);
  EXPECT_EQ(find_param(f, "client_id"), "agent-1");
  EXPECT_EQ(find_param(f, "client_secret"), "s3cret");
  EXPECT_EQ(posts[0].header("Authorization"), "");
}

TEST_F(as_peer, a_token_endpoint_that_keeps_asking_for_a_new_dpop_nonce_is_given_up) {
  as_meta["dpop_signing_alg_values_supported"] = {"ES256"};
  routes["POST /token"] = [this](const recorded_request&) -> scripted_response {
    int n = ++token_calls;
    return {.status = 400,
            .headers = {{"DPoP-Nonce", "nonce-" + std::to_string(n)}},
            .body = R"({"error":"use_dpop_nonce"})"};
  };
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::permission_denied);
  EXPECT_TRUE(contains(s.error().message, "kept asking for a new DPoP nonce")) << s.error().message;
  auto posts = to("/token");
  ASSERT_EQ(posts.size(), 2u);
  auto first = decode_jwt(posts[0].header("DPoP"));
  auto second = decode_jwt(posts[1].header("DPoP"));
  ASSERT_TRUE(first && second);
  EXPECT_FALSE(first->claims.contains("nonce"));
  EXPECT_EQ(second->claims["nonce"], "nonce-1");  // the nonce of the first answer
  EXPECT_EQ(second->claims["htu"], issuer + "/token");
  EXPECT_EQ(second->header["jwk"], first->header["jwk"]);  // one key for both proofs
}

TEST_F(as_peer, a_token_answer_whose_access_token_is_not_text_is_a_protocol_error) {
  token_answer({{"access_token", 42}});
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::protocol_error);
  EXPECT_EQ(s.error().message, "auth: the token response of " + issuer +
                                   "/token is malformed: token_response.access_token: expected "
                                   "string, got integer 42; the authorization server does not "
                                   "follow RFC 6749 §5.1; report it to its operator");
  EXPECT_FALSE(a->has_token());
}

TEST_F(as_peer, a_200_without_an_access_token_is_a_malformed_token_response) {
  token_answer({{"token_type", "Bearer"}});
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::protocol_error);
  EXPECT_TRUE(contains(s.error().message,
                       "token_response: missing required property \"access_token\""))
      << s.error().message;
}

TEST_F(as_peer, a_200_with_an_error_and_no_access_token_is_a_refusal_naming_the_endpoint) {
  // Some servers (GitHub's among them) refuse with 200 and an RFC 6749 §5.2 body.
  token_answer({{"error", "bad_verification_code"}, {"error_description", "expired"}});
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::permission_denied);
  EXPECT_EQ(s.error().message, "the token endpoint " + issuer +
                                   "/token refused (HTTP 200, bad_verification_code: expired)");
}

TEST_F(as_peer, resource_metadata_without_a_resource_or_an_authorization_server_is_refused) {
  prm = {{"authorization_servers", {issuer}}};
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::protocol_error);
  EXPECT_EQ(s.error().message,
            "auth: the protected resource metadata at " +
                peer.url("/.well-known/oauth-protected-resource/mcp") +
                " is malformed: protected_resource_metadata: missing required property "
                "\"resource\"; the MCP server publishes metadata that does not follow RFC 9728; "
                "report it to its operator");

  prm = {{"resource", server}, {"authorization_servers", json::array()}};
  s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::protocol_error);
  EXPECT_TRUE(contains(s.error().message, "names no authorization server")) << s.error().message;
}

TEST_F(as_peer, an_authorization_server_that_is_not_an_http_url_is_refused) {
  prm["authorization_servers"] = {"ftp://as.example/"};
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::protocol_error);
  EXPECT_EQ(s.error().message, "authorization server \"ftp://as.example/\" is not http(s)");

  prm["authorization_servers"] = {"not a url"};
  s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "authorization server \"not a url\" is not a URL");
}

TEST_F(as_peer, authorization_server_metadata_must_name_a_token_endpoint) {
  as_meta.erase("token_endpoint");
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::protocol_error);
  EXPECT_TRUE(contains(s.error().message,
                       "authorization_server_metadata: missing required property "
                       "\"token_endpoint\""))
      << s.error().message;
}

TEST_F(as_peer, no_authorization_server_metadata_says_what_was_tried) {
  routes.erase("GET /.well-known/oauth-authorization-server");
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::not_found);
  EXPECT_EQ(s.error().message, "no authorization server metadata for " + issuer + " (tried " +
                                   issuer + "/.well-known/oauth-authorization-server and 1 more)");
  EXPECT_EQ(to("/.well-known/openid-configuration").size(), 1u);  // the other one tried
}

TEST_F(as_peer, the_code_flow_needs_an_authorization_endpoint_and_a_way_to_register) {
  oauth_options o;
  int shown = 0;
  o.open_browser = [&](const std::string&) -> result<std::string> {
    ++shown;
    return fail(errc::cancelled, "not expected");
  };
  as_meta["code_challenge_methods_supported"] = {"S256"};
  auto a = make_oauth_authorizer(server, o);
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::protocol_error);
  EXPECT_EQ(s.error().message,
            "the authorization server " + issuer + " has no authorization_endpoint");

  as_meta["authorization_endpoint"] = issuer + "/authorize";  // but no registration endpoint
  auto b = make_oauth_authorizer(server, o);
  s = b->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::invalid_argument);
  EXPECT_TRUE(contains(s.error().message,
                       "offers neither dynamic registration nor client ID "
                       "metadata documents"))
      << s.error().message;
  EXPECT_EQ(shown, 0);  // the user was never sent anywhere
}

TEST_F(as_peer, logout_forgets_the_tokens_and_the_store_entry) {
  tooluse::testing::temp_dir dir;
  auto store = make_file_token_store((dir.path() / "tokens.json").string());
  token_answer({{"access_token", "at-store"}, {"refresh_token", "rt-store"}});
  auto o = machine(grant::client_credentials);
  o.store = store;
  auto a = make_oauth_authorizer(server, o);
  ASSERT_TRUE(a->authorize());
  auto saved = store->load(server);
  ASSERT_TRUE(saved);
  EXPECT_EQ((*saved)["tokens"]["refresh_token"], "rt-store");
  EXPECT_EQ((*saved)["issuer"], issuer);
  ASSERT_TRUE(a->logout());
  EXPECT_FALSE(a->has_token());
  EXPECT_FALSE(store->load(server));
  auto h = a->headers_for("POST", server);
  ASSERT_TRUE(h);
  EXPECT_TRUE(h->empty());  // nothing to send until authorized again
  auto again = make_oauth_authorizer(server, o);
  EXPECT_FALSE(again->has_token());
}

}  // namespace
}  // namespace tooluse::auth
