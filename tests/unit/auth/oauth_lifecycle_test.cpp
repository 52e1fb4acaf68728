// The OAuth client over the life of its tokens, against an authorization server on loopback
// HTTP: a DPoP-bound token and its key restored from the store, a refresh that fails before a
// request (the old token is still sent, the refresh token dropped), a 401 whose refresh fails
// falling back to a new grant, a 403 that is not about scope, store keys, and a store that
// cannot be written. Tokens and secrets never reach the log.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "as_peer.hpp"
#include "support/test_support.hpp"

namespace tooluse::auth::oauth_lifecycle_test {
namespace {

using namespace testing;

struct lifecycle : as_peer {
  std::vector<std::string> log;
  std::vector<std::string> grants;  // grant_type of each token request, in order
  std::function<scripted_response(const std::string& grant, int n)> token;

  void SetUp() override {
    as_peer::SetUp();
    routes["POST /token"] = [this](const recorded_request& r) {
      const std::string g = find_param(form_of(r), "grant_type");
      grants.push_back(g);
      return token(g, ++token_calls);
    };
  }
  oauth_options options() {
    auto o = machine(grant::client_credentials);
    o.log = [this](const std::string& l) { log.push_back(l); };
    return o;
  }
  bool logged(const std::string& part) const {
    for (const auto& l : log)
      if (contains(l, part)) return true;
    return false;
  }
};

TEST_F(lifecycle, a_dpop_bound_token_comes_back_from_the_store_with_its_key) {
  as_meta["dpop_signing_alg_values_supported"] = {"ES256"};
  token = [](const std::string&, int) {
    return json_reply({{"access_token", "bound-1"}, {"token_type", "DPoP"}});
  };
  tooluse::testing::temp_dir dir;
  auto o = options();
  o.store = make_file_token_store((dir.path() / "tokens.json").string());
  auto a = make_oauth_authorizer(server, o);
  ASSERT_TRUE(a->authorize());
  auto first = a->headers_for("POST", server);
  ASSERT_TRUE(first);
  ASSERT_EQ(first->size(), 2u);
  EXPECT_EQ(http::find_header(*first, "Authorization"), "DPoP bound-1");

  auto b = make_oauth_authorizer(server, o);  // a later process, same store
  EXPECT_TRUE(b->has_token());
  auto again = b->headers_for("GET", server);
  ASSERT_TRUE(again);
  EXPECT_EQ(http::find_header(*again, "Authorization"), "DPoP bound-1");
  auto p1 = decode_jwt(http::find_header(*first, "DPoP").value_or(""));
  auto p2 = decode_jwt(http::find_header(*again, "DPoP").value_or(""));
  ASSERT_TRUE(p1 && p2);
  EXPECT_EQ(p2->header["jwk"], p1->header["jwk"]);  // the same key: the token stays usable
  EXPECT_EQ(p2->claims["htm"], "GET");
  EXPECT_EQ(token_calls, 1);  // nothing was fetched again
}

TEST_F(lifecycle, a_refresh_that_fails_before_a_request_keeps_the_old_token_and_drops_the_refresh) {
  token = [](const std::string& g, int) {
    if (g == "refresh_token")
      return json_reply({{"error", "invalid_grant"}, {"error_description", "revoked"}}, 400);
    // Expires within the 30 s margin: the next request refreshes first.
    return json_reply({{"access_token", "at-short"}, {"expires_in", 5}, {"refresh_token", "rt-1"}});
  };
  auto a = make_oauth_authorizer(server, options());
  ASSERT_TRUE(a->authorize());
  auto h = a->headers_for("POST", server);
  ASSERT_TRUE(h);
  EXPECT_EQ(http::find_header(*h, "Authorization"), "Bearer at-short");
  EXPECT_EQ(grants, (std::vector<std::string>{"client_credentials", "refresh_token"}));
  auto refresh = form_of(to("/token").back());
  EXPECT_EQ(find_param(refresh, "refresh_token"), "rt-1");
  EXPECT_EQ(find_param(refresh, "resource"), server);
  EXPECT_TRUE(logged("authorization: refreshing failed: the token endpoint")) << log.size();
  EXPECT_TRUE(logged("invalid_grant: revoked"));
  EXPECT_EQ(a->state()["tokens"]["refresh_token"], "");
  ASSERT_TRUE(a->headers_for("POST", server));
  EXPECT_EQ(token_calls, 2);  // without a refresh token it does not try again
  for (const auto& l : log) {
    EXPECT_FALSE(contains(l, "at-short")) << l;
    EXPECT_FALSE(contains(l, "rt-1")) << l;
    EXPECT_FALSE(contains(l, "s3cret")) << l;
  }
}

TEST_F(lifecycle, a_401_whose_refresh_fails_falls_back_to_a_new_grant) {
  token = [](const std::string& g, int n) {
    if (g == "refresh_token") return json_reply({{"error", "invalid_grant"}}, 400);
    return json_reply({{"access_token", "at-" + std::to_string(n)},
                       {"expires_in", 3600},
                       {"refresh_token", "rt-" + std::to_string(n)}});
  };
  auto a = make_oauth_authorizer(server, options());
  ASSERT_TRUE(a->authorize());
  auto sent = a->headers_for("POST", server);
  ASSERT_TRUE(sent);
  EXPECT_EQ(http::find_header(*sent, "Authorization"), "Bearer at-1");
  std::vector<http::header> www = {{"WWW-Authenticate", R"(Bearer error="invalid_token")"}};
  auto again = a->on_challenge(401, www, *sent, "POST", server);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(*again);
  EXPECT_EQ(grants, (std::vector<std::string>{"client_credentials", "refresh_token",
                                              "client_credentials"}));
  auto now = a->headers_for("POST", server);
  ASSERT_TRUE(now);
  EXPECT_EQ(http::find_header(*now, "Authorization"), "Bearer at-3");
  EXPECT_EQ(a->state()["tokens"]["refresh_token"], "rt-3");
}

TEST_F(lifecycle, a_403_that_is_not_about_scope_is_left_to_stand) {
  token = [](const std::string&, int) { return json_reply({{"access_token", "at-x"}}); };
  auto a = make_oauth_authorizer(server, options());
  ASSERT_TRUE(a->authorize());
  auto sent = a->headers_for("POST", server);
  ASSERT_TRUE(sent);
  std::vector<http::header> forbidden = {{"WWW-Authenticate", R"(Bearer error="access_denied")"}};
  auto r = a->on_challenge(403, forbidden, *sent, "POST", server);
  ASSERT_TRUE(r);
  EXPECT_FALSE(*r);
  auto plain = a->on_challenge(403, {}, *sent, "POST", server);  // no challenge at all
  ASSERT_TRUE(plain);
  EXPECT_FALSE(*plain);
  EXPECT_EQ(token_calls, 1);
}

TEST_F(lifecycle, a_failing_grant_during_a_challenge_says_authorization_failed) {
  token = [](const std::string&, int n) {
    if (n == 1) return json_reply({{"access_token", "at-1"}});
    return json_reply({{"error", "unauthorized_client"}}, 401);
  };
  auto a = make_oauth_authorizer(server, options());
  ASSERT_TRUE(a->authorize());
  auto sent = a->headers_for("POST", server);
  ASSERT_TRUE(sent);
  auto r = a->on_challenge(401, {{"WWW-Authenticate", "Bearer"}}, *sent, "POST", server);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::permission_denied);
  EXPECT_TRUE(contains(r.error().message, "refused (HTTP 401, unauthorized_client)"))
      << r.error().message;
}

TEST_F(lifecycle, the_store_key_names_the_entry) {
  token = [](const std::string&, int) { return json_reply({{"access_token", "at-k"}}); };
  tooluse::testing::temp_dir dir;
  auto store = make_file_token_store((dir.path() / "tokens.json").string());
  auto o = options();
  o.store = store;
  o.store_key = "work-account";
  ASSERT_TRUE(make_oauth_authorizer(server, o)->authorize());
  auto saved = store->load("work-account");
  ASSERT_TRUE(saved);
  EXPECT_EQ((*saved)["server"], server);
  EXPECT_EQ((*saved)["client"]["client_id"], "agent-1");
  EXPECT_FALSE(store->load(server));
  o.store_key = "home-account";
  EXPECT_FALSE(make_oauth_authorizer(server, o)->has_token());
  o.store_key = "work-account";
  EXPECT_TRUE(make_oauth_authorizer(server, o)->has_token());
}

TEST_F(lifecycle, a_store_that_cannot_be_written_is_logged_and_the_token_still_used) {
  token = [](const std::string&, int) { return json_reply({{"access_token", "at-mem"}}); };
  tooluse::testing::temp_dir dir;
  std::ofstream(dir.path() / "a-file") << "not a folder";
  auto o = options();
  o.store = make_file_token_store((dir.path() / "a-file" / "tokens.json").string());
  auto a = make_oauth_authorizer(server, o);
  ASSERT_TRUE(a->authorize());
  EXPECT_TRUE(logged("authorization: could not save tokens: cannot write the token file"));
  auto h = a->headers_for("POST", server);
  ASSERT_TRUE(h);
  EXPECT_EQ(http::find_header(*h, "Authorization"), "Bearer at-mem");
  auto erased = o.store->erase(server);  // erasing writes the file too
  ASSERT_FALSE(erased);
  EXPECT_EQ(erased.error().code, errc::io_error);
}

TEST(token_store_file, entries_are_kept_apart_and_erased_one_by_one) {
  tooluse::testing::temp_dir dir;
  auto store = make_file_token_store((dir.path() / "nested" / "deeper" / "tokens.json").string());
  EXPECT_FALSE(store->load("a"));
  ASSERT_TRUE(store->save("a", {{"n", 1}}));
  ASSERT_TRUE(store->save("b", {{"n", 2}}));
  ASSERT_TRUE(store->save("a", {{"n", 3}}));  // replaced, not appended
  ASSERT_TRUE(store->erase("b"));
  ASSERT_TRUE(store->erase("never-there"));
  EXPECT_EQ(*store->load("a"), (json{{"n", 3}}));
  EXPECT_FALSE(store->load("b"));
  auto text = tooluse::testing::read_file(dir.path() / "nested" / "deeper" / "tokens.json");
  EXPECT_EQ(parse_json(text).value(), (json{{"a", {{"n", 3}}}}));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "nested" / "deeper" / "tokens.json.tmp"));
}

}  // namespace
}  // namespace tooluse::auth
