// The OAuth client reads what the authorization server sends through its wire types
// (src/auth/wire.hpp), against the loopback authorization world of as_peer.hpp: a malformed
// token response, token exchange answer, metadata document or token store entry fails (or is
// set aside) with a message naming the document and the path; the leniencies are kept
// (unknown fields ignored, expires_in as a string of digits).
#include <gtest/gtest.h>

#include "as_peer.hpp"
#include "support/test_support.hpp"

namespace tooluse::auth::oauth_wire_test {
namespace {

using namespace testing;

TEST_F(as_peer, a_malformed_token_response_fails_the_grant_naming_the_endpoint_and_path) {
  token_answer({{"access_token", "at-1"}, {"expires_in", "x"}});
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::protocol_error);
  EXPECT_EQ(s.error().message,
            "auth: the token response of " + issuer +
                "/token is malformed: token_response.expires_in: expected integer, got string "
                "\"x\"; the authorization server does not follow RFC 6749 §5.1; report it to its "
                "operator");
  EXPECT_EQ(token_calls, 1);
  EXPECT_FALSE(a->has_token());
}

TEST_F(as_peer, expires_in_as_a_string_of_digits_is_taken_as_no_lifetime) {
  token_answer({{"access_token", "at-2"}, {"expires_in", "3600"}, {"vendor_field", {1, 2}}});
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  ASSERT_TRUE(a->authorize());
  EXPECT_EQ(a->state()["tokens"]["expires_at"], 0);
  EXPECT_EQ(a->state()["tokens"]["token_type"], "Bearer");  // absent: Bearer
}

TEST_F(as_peer, an_integer_expires_in_and_the_granted_scope_are_kept) {
  token_answer({{"access_token", "at-3"}, {"expires_in", 60}, {"scope", "granted"}});
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  ASSERT_TRUE(a->authorize());
  auto tokens = a->state()["tokens"];
  EXPECT_GT(tokens["expires_at"].get<long long>(), 0);
  EXPECT_EQ(tokens["scope"], "granted");
}

TEST_F(as_peer, a_malformed_token_exchange_answer_names_the_idp) {
  routes["POST /idp/token"] = [](const recorded_request&) {
    return json_reply({{"access_token", json::array()}});
  };
  token_answer({{"access_token", "never"}});
  auto o = machine(grant::enterprise);
  o.idp_token_endpoint = peer.url("/idp/token");
  o.id_token = "id.token.jwt";
  auto s = make_oauth_authorizer(server, o)->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::protocol_error);
  EXPECT_TRUE(contains(s.error().message,
                       "auth: the token response of " + peer.url("/idp/token") +
                           " is malformed: token_response.access_token: expected string, got "
                           "array"))
      << s.error().message;
  EXPECT_EQ(token_calls, 0);
}

TEST_F(as_peer, malformed_authorization_server_metadata_names_its_url_and_path) {
  as_meta["token_endpoint"] = 3;
  auto s = make_oauth_authorizer(server, machine(grant::client_credentials))->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::protocol_error);
  EXPECT_EQ(s.error().message,
            "auth: the authorization server metadata at " + issuer +
                "/.well-known/oauth-authorization-server is malformed: "
                "authorization_server_metadata.token_endpoint: expected string, got integer 3; "
                "the authorization server does not follow RFC 8414; report it to its operator");
}

TEST_F(as_peer, malformed_resource_metadata_names_its_url_and_path) {
  prm["scopes_supported"] = "read write";
  auto s = make_oauth_authorizer(server, machine(grant::client_credentials))->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::protocol_error);
  EXPECT_TRUE(contains(s.error().message,
                       "/.well-known/oauth-protected-resource/mcp is malformed: "
                       "protected_resource_metadata.scopes_supported: expected array, got string "
                       "\"read write\""))
      << s.error().message;
  EXPECT_EQ(token_calls, 0);
}

TEST_F(as_peer, unknown_metadata_fields_are_ignored) {
  prm["resource_name"] = "Example";
  prm["x-vendor"] = {{"nested", {1, 2, 3}}};
  as_meta["mtls_endpoint_aliases"] = {{"token_endpoint", 5}};
  as_meta["grant_types_supported"] = {"client_credentials"};
  token_answer({{"access_token", "at-4"}});
  auto a = make_oauth_authorizer(server, machine(grant::client_credentials));
  auto s = a->authorize();
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_TRUE(a->has_token());
}

TEST_F(as_peer, a_refusal_whose_error_is_not_text_still_names_the_endpoint_and_status) {
  token_answer({{"error", 17}}, 400);
  auto s = make_oauth_authorizer(server, machine(grant::client_credentials))->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::permission_denied);
  EXPECT_EQ(s.error().message, "the token endpoint " + issuer + "/token refused (HTTP 400)");
}

// memory_store is a token store whose entry a test writes by hand.
struct memory_store final : token_store {
  std::map<std::string, json> entries;
  std::optional<json> load(const std::string& key) override {
    auto it = entries.find(key);
    if (it == entries.end()) return std::nullopt;
    return it->second;
  }
  status save(const std::string& key, const json& state) override {
    entries[key] = state;
    return {};
  }
  status erase(const std::string& key) override {
    entries.erase(key);
    return {};
  }
};

TEST_F(as_peer, a_malformed_token_store_entry_is_logged_and_set_aside) {
  auto store = std::make_shared<memory_store>();
  store->entries[server] = {{"issuer", issuer},
                            {"tokens", {{"access_token", "old"}, {"expires_at", "soon"}}}};
  std::vector<std::string> lines;
  auto o = machine(grant::client_credentials);
  o.store = store;
  o.log = [&](const std::string& line) { lines.push_back(line); };
  auto a = make_oauth_authorizer(server, o);
  EXPECT_FALSE(a->has_token());
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front(), "auth: the token store entry for " + server +
                               " is malformed: state.tokens.expires_at: expected integer, got "
                               "string \"soon\"; ignoring it; log in again to replace it");

  store->entries[server]["tokens"]["expires_at"] = 0;  // well-formed: read back
  auto b = make_oauth_authorizer(server, o);
  EXPECT_TRUE(b->has_token());
  EXPECT_EQ(b->state()["tokens"]["access_token"], "old");
}

}  // namespace
}  // namespace tooluse::auth
