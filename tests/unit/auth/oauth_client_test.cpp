// The OAuth client (make_oauth_authorizer) against an in-process authorization world: a
// resource server's metadata, an authorization server's metadata, registration and token
// endpoints, served through the authorizer's transport. Checks the discovery order, the
// resource and issuer checks, PKCE, state and iss, scope selection and step-up, the token
// store, refresh, DPoP, and that secrets never reach the log.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <mutex>

#include "auth/util.hpp"
#include "support/test_support.hpp"
#include "tooluse/auth/oauth.hpp"

namespace tooluse::auth::oauth_client_test {
namespace {

using detail::find_param;
using detail::query_params;

http::response json_reply(const json& body, int status = 200) {
  return {.status = status, .headers = {{"Content-Type", "application/json"}}, .body = body.dump()};
}

// world routes requests by URL (query dropped); unknown URLs get 404.
struct world {
  std::map<std::string, std::function<http::response(const http::request&)>> routes;
  std::vector<std::string> log;  // "METHOD url" in order
  std::vector<http::request> requests;
  std::mutex mu;

  http::transport transport() {
    return [this](const http::request& req, const http::send_options&) -> result<http::response> {
      std::function<http::response(const http::request&)> route;
      {
        std::lock_guard lock(mu);
        log.push_back(req.method + " " + req.url);
        requests.push_back(req);
        auto it = routes.find(detail::strip_query(req.url));
        if (it == routes.end()) return http::response{.status = 404, .body = "not found"};
        route = it->second;
      }
      return route(req);
    };
  }
  void serve(const std::string& url, json body) {
    routes[url] = [body](const http::request&) { return json_reply(body); };
  }
  std::vector<std::string> gets() {
    std::vector<std::string> out;
    for (const auto& l : log)
      if (l.rfind("GET ", 0) == 0) out.push_back(l.substr(4));
    return out;
  }
};

constexpr const char* server = "https://mcp.test/api/mcp";
constexpr const char* issuer = "https://as.test";

json as_metadata(json extra = json::object()) {
  json m = {{"issuer", issuer},
            {"authorization_endpoint", "https://as.test/authorize"},
            {"token_endpoint", "https://as.test/token"},
            {"registration_endpoint", "https://as.test/register"},
            {"code_challenge_methods_supported", {"S256"}},
            {"scopes_supported", {"read", "write", "offline_access"}}};
  for (auto& [k, v] : extra.items()) m[k] = v;
  return m;
}

struct oauth_test : ::testing::Test {
  world w;
  std::vector<std::string> log_lines;
  std::vector<std::string> auth_urls;  // what the "browser" was shown
  std::string browser_error;           // set: the user refuses
  std::string callback_iss = issuer;   // iss the AS puts in the redirect ("" = none)
  bool tamper_state = false;
  int token_calls = 0;
  std::string last_token_form;

  void SetUp() override {
    w.serve("https://mcp.test/.well-known/oauth-protected-resource/api/mcp",
            {{"resource", server},
             {"authorization_servers", {issuer}},
             {"scopes_supported", {"read"}}});
    w.serve("https://as.test/.well-known/oauth-authorization-server", as_metadata());
    w.routes["https://as.test/register"] = [](const http::request& req) {
      json asked = json::parse(req.body);
      return json_reply({{"client_id", "dyn-client"},
                         {"token_endpoint_auth_method", asked["token_endpoint_auth_method"]}},
                        201);
    };
    w.routes["https://as.test/token"] = [this](const http::request& req) {
      ++token_calls;
      last_token_form = req.body;
      auto f = query_params(req.body);
      std::string n = std::to_string(token_calls);
      if (find_param(f, "grant_type") == "refresh_token")
        return json_reply(
            {{"access_token", "refreshed-" + n}, {"token_type", "Bearer"}, {"expires_in", 3600}});
      return json_reply({{"access_token", "access-" + n},
                         {"token_type", "Bearer"},
                         {"refresh_token", "refresh-" + n},
                         {"expires_in", 3600}});
    };
  }

  oauth_options options() {
    return {.open_browser = [this](const std::string& url) -> result<std::string> {
              auth_urls.push_back(url);
              auto q = query_params(url);
              std::string back = find_param(q, "redirect_uri") + "?";
              if (!browser_error.empty())
                return back + "error=" + browser_error + "&error_description=no+way";
              back += "code=the-code&state=" +
                      (tamper_state ? std::string("forged") : find_param(q, "state"));
              if (!callback_iss.empty()) back += "&iss=" + detail::percent_encode(callback_iss);
              return back;
            },
            .sender = w.transport(),
            .log = [this](const std::string& line) { log_lines.push_back(line); }};
  }

  std::vector<http::header> challenge_401(const std::string& params = "") {
    return {{"WWW-Authenticate", "Bearer" + (params.empty() ? "" : " " + params)}};
  }
};

TEST(oauth_setup, refuses_bad_urls_and_a_jwt_bearer_grant_without_assertions) {
  EXPECT_THROW(make_oauth_authorizer("ftp://x/mcp", {}), std::invalid_argument);
  EXPECT_THROW(make_oauth_authorizer("not a url", {}), std::invalid_argument);
  EXPECT_THROW(make_oauth_authorizer("https://x/mcp", {.grant_type = grant::jwt_bearer}),
               std::invalid_argument);
}

TEST_F(oauth_test, authorization_code_with_pkce_s256_resource_and_scopes) {
  auto a = make_oauth_authorizer(server, options());
  EXPECT_TRUE(a->headers_for("POST", server)->empty());  // nothing before authorization
  auto s = a->authorize();
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_EQ(auth_urls.size(), 1u);
  auto q = query_params(auth_urls[0]);
  EXPECT_EQ(auth_urls[0].rfind("https://as.test/authorize?", 0), 0u);
  EXPECT_EQ(find_param(q, "response_type"), "code");
  EXPECT_EQ(find_param(q, "client_id"), "dyn-client");
  EXPECT_EQ(find_param(q, "code_challenge_method"), "S256");
  EXPECT_EQ(find_param(q, "resource"), server);
  // The resource's scopes, plus offline_access because the AS lists it.
  EXPECT_EQ(find_param(q, "scope"), "read offline_access");
  // The token request proves possession of the verifier behind the challenge.
  auto f = query_params(last_token_form);
  EXPECT_EQ(find_param(f, "grant_type"), "authorization_code");
  EXPECT_EQ(find_param(f, "code"), "the-code");
  EXPECT_EQ(find_param(f, "resource"), server);
  std::string verifier = find_param(f, "code_verifier");
  EXPECT_GE(verifier.size(), 43u);
  EXPECT_EQ(base64url_encode(sha256(verifier)), find_param(q, "code_challenge"));
  auto h = a->headers_for("POST", server);
  ASSERT_TRUE(h);
  EXPECT_EQ(*h, (header_list{{"Authorization", "Bearer access-1"}}));
  // Discovery order: path-suffixed resource metadata first, then RFC 8414 metadata.
  EXPECT_EQ(w.gets(), (std::vector<std::string>{
                          "https://mcp.test/.well-known/oauth-protected-resource/api/mcp",
                          "https://as.test/.well-known/oauth-authorization-server"}));
  // Registration asked for a native public client.
  for (const auto& r : w.requests)
    if (r.url == "https://as.test/register") {
      json body = json::parse(r.body);
      EXPECT_EQ(body["application_type"], "native");
      EXPECT_EQ(body["token_endpoint_auth_method"], "none");
      EXPECT_EQ(body["redirect_uris"], json::array({"http://127.0.0.1:33418/callback"}));
    }
}

TEST_F(oauth_test, challenge_metadata_url_first_then_path_then_root) {
  w.routes.erase("https://mcp.test/.well-known/oauth-protected-resource/api/mcp");
  w.serve("https://mcp.test/.well-known/oauth-protected-resource",
          {{"resource", "https://mcp.test"}, {"authorization_servers", {issuer}}});
  auto a = make_oauth_authorizer(server, options());
  auto again =
      a->on_challenge(401, challenge_401(R"(resource_metadata="https://mcp.test/prm-missing")"), {},
                      "POST", server);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(*again);
  auto gets = w.gets();
  ASSERT_GE(gets.size(), 3u);
  EXPECT_EQ(gets[0], "https://mcp.test/prm-missing");
  EXPECT_EQ(gets[1], "https://mcp.test/.well-known/oauth-protected-resource/api/mcp");
  EXPECT_EQ(gets[2], "https://mcp.test/.well-known/oauth-protected-resource");
  // A parent resource is accepted and sent exactly as published.
  EXPECT_EQ(find_param(query_params(auth_urls.at(0)), "resource"), "https://mcp.test");
  // No scope anywhere: the parameter is left out (offline_access alone is not asked for).
  EXPECT_EQ(find_param(query_params(auth_urls.at(0)), "scope"), "");
}

TEST_F(oauth_test, refuses_metadata_for_another_resource) {
  w.serve("https://mcp.test/.well-known/oauth-protected-resource/api/mcp",
          {{"resource", "https://evil.test/api/mcp"}, {"authorization_servers", {issuer}}});
  auto a = make_oauth_authorizer(server, options());
  auto s = a->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::permission_denied);
  EXPECT_EQ(s.error().message,
            "protected resource metadata at "
            "https://mcp.test/.well-known/oauth-protected-resource/api/mcp "
            "is for \"https://evil.test/api/mcp\", not for https://mcp.test/api/mcp; refusing to "
            "authorize (the server may be misconfigured or hostile)");
  // A sibling path is not a parent either.
  w.serve("https://mcp.test/.well-known/oauth-protected-resource/api/mcp",
          {{"resource", "https://mcp.test/api/mc"}, {"authorization_servers", {issuer}}});
  EXPECT_FALSE(make_oauth_authorizer(server, options())->authorize());
  EXPECT_TRUE(auth_urls.empty());
}

TEST_F(oauth_test, no_metadata_anywhere_names_every_url_tried_and_the_way_out) {
  w.routes.clear();
  auto s = make_oauth_authorizer(server, options())->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::not_found);
  EXPECT_EQ(s.error().message,
            "https://mcp.test/api/mcp requires authorization but publishes no protected resource "
            "metadata (tried https://mcp.test/.well-known/oauth-protected-resource/api/mcp, "
            "https://mcp.test/.well-known/oauth-protected-resource); if it takes a fixed token, "
            "pass it as a header (--header 'Authorization: Bearer ...')");
}

TEST_F(oauth_test, authorization_server_metadata_order_for_an_issuer_with_a_path) {
  const std::string tenant = "https://as.test/tenant1";
  w.serve("https://mcp.test/.well-known/oauth-protected-resource/api/mcp",
          {{"resource", server}, {"authorization_servers", {tenant}}});
  json meta = as_metadata();
  meta["issuer"] = tenant;
  w.serve("https://as.test/tenant1/.well-known/openid-configuration", meta);
  callback_iss = tenant;
  auto s = make_oauth_authorizer(server, options())->authorize();
  ASSERT_TRUE(s) << s.error().message;
  auto gets = w.gets();
  EXPECT_EQ(
      std::vector<std::string>(gets.begin() + 1, gets.end()),
      (std::vector<std::string>{"https://as.test/.well-known/oauth-authorization-server/tenant1",
                                "https://as.test/.well-known/openid-configuration/tenant1",
                                "https://as.test/tenant1/.well-known/openid-configuration"}));
}

TEST_F(oauth_test, an_issuer_that_differs_by_one_byte_is_refused) {
  w.serve("https://as.test/.well-known/oauth-authorization-server",
          as_metadata({{"issuer", "https://as.test/"}}));
  auto s = make_oauth_authorizer(server, options())->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::permission_denied);
  EXPECT_EQ(
      s.error().message,
      "authorization server metadata at https://as.test/.well-known/oauth-authorization-server "
      "names issuer \"https://as.test/\", not \"https://as.test\"; refusing to use it");
}

TEST_F(oauth_test, pkce_state_and_iss_are_enforced) {
  struct row {
    const char* why;
    std::function<void(oauth_test&)> setup;
    const char* want;
  };
  std::vector<row> rows = {
      {"no S256",
       [](oauth_test& t) {
         t.w.serve("https://as.test/.well-known/oauth-authorization-server",
                   as_metadata({{"code_challenge_methods_supported", {"plain"}}}));
       },
       "the authorization server https://as.test does not advertise PKCE S256; refusing to "
       "authorize"},
      {"state", [](oauth_test& t) { t.tamper_state = true; },
       "the authorization response's state does not match; refusing it"},
      {"iss", [](oauth_test& t) { t.callback_iss = "https://as.test/"; },
       "the authorization response came from issuer \"https://as.test/\", not https://as.test; "
       "refusing it"},
      {"promised iss",
       [](oauth_test& t) {
         t.callback_iss = "";
         t.w.serve("https://as.test/.well-known/oauth-authorization-server",
                   as_metadata({{"authorization_response_iss_parameter_supported", true}}));
       },
       "the authorization response lacks the iss parameter https://as.test promised; refusing it"},
      {"user refused", [](oauth_test& t) { t.browser_error = "access_denied"; },
       "authorization was refused: access_denied no way"},
  };
  for (const auto& r : rows) {
    SetUp();
    tamper_state = false;
    callback_iss = issuer;
    browser_error.clear();
    r.setup(*this);
    int before = token_calls;
    auto s = make_oauth_authorizer(server, options())->authorize();
    ASSERT_FALSE(s) << r.why;
    EXPECT_EQ(s.error().code, errc::permission_denied) << r.why;
    EXPECT_EQ(s.error().message, r.want) << r.why;
    EXPECT_EQ(token_calls, before) << r.why << ": no code may be redeemed";
  }
}

TEST_F(oauth_test, without_a_browser_the_user_is_told_to_log_in) {
  auto o = options();
  o.open_browser = nullptr;
  auto r = make_oauth_authorizer(server, o)->on_challenge(401, challenge_401(), {}, "POST", server);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "https://mcp.test/api/mcp needs you to log in: run `tooluse mcp login "
            "https://mcp.test/api/mcp` first");
}

TEST_F(oauth_test, step_up_asks_for_the_union_once_and_then_gives_up) {
  auto a = make_oauth_authorizer(server, options());
  ASSERT_TRUE(a->authorize());
  auto sent = *a->headers_for("POST", server);
  auto step = a->on_challenge(403, challenge_401(R"(error="insufficient_scope", scope="write")"),
                              sent, "POST", server);
  ASSERT_TRUE(step) << step.error().message;
  EXPECT_TRUE(*step);
  ASSERT_EQ(auth_urls.size(), 2u);
  // The challenged scope first, then everything asked for before (step-up never drops).
  EXPECT_EQ(find_param(query_params(auth_urls[1]), "scope"), "write offline_access read");
  // The same refusal again names nothing new: no third authorization.
  sent = *a->headers_for("POST", server);
  auto again = a->on_challenge(403, challenge_401(R"(error="insufficient_scope", scope="write")"),
                               sent, "POST", server);
  ASSERT_TRUE(again);
  EXPECT_FALSE(*again);
  EXPECT_EQ(auth_urls.size(), 2u);
  // A 403 that is not about scope stands.
  auto other =
      a->on_challenge(403, challenge_401(R"(error="invalid_request")"), sent, "POST", server);
  ASSERT_TRUE(other);
  EXPECT_FALSE(*other);
}

TEST_F(oauth_test, a_token_renewed_meanwhile_is_just_resent) {
  auto a = make_oauth_authorizer(server, options());
  ASSERT_TRUE(a->authorize());
  size_t requests = w.log.size();
  auto r = a->on_challenge(401, challenge_401(), {{"Authorization", "Bearer stale-token"}}, "POST",
                           server);
  ASSERT_TRUE(r);
  EXPECT_TRUE(*r);
  EXPECT_EQ(w.log.size(), requests);  // no network
}

TEST_F(oauth_test, a_401_with_the_current_token_refreshes_it) {
  auto a = make_oauth_authorizer(server, options());
  ASSERT_TRUE(a->authorize());
  auto sent = *a->headers_for("POST", server);
  auto r = a->on_challenge(401, challenge_401(R"(error="invalid_token")"), sent, "POST", server);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(*r);
  EXPECT_EQ(auth_urls.size(), 1u);  // no second login
  auto f = query_params(last_token_form);
  EXPECT_EQ(find_param(f, "grant_type"), "refresh_token");
  EXPECT_EQ(find_param(f, "refresh_token"), "refresh-1");
  EXPECT_EQ(find_param(f, "resource"), server);
  EXPECT_EQ(a->headers_for("POST", server)->at(0).value, "Bearer refreshed-2");
  // The refreshed token refused again: refreshing once more would loop, so log in again.
  sent = *a->headers_for("POST", server);
  r = a->on_challenge(401, challenge_401(R"(error="invalid_token")"), sent, "POST", server);
  ASSERT_TRUE(r);
  EXPECT_EQ(auth_urls.size(), 2u);
}

TEST_F(oauth_test, the_store_keeps_tokens_across_authorizers_in_a_0600_file) {
  tooluse::testing::temp_dir dir;
  auto o = options();
  o.store = make_file_token_store((dir.path() / "t.json").string());
  ASSERT_TRUE(make_oauth_authorizer(server, o)->authorize());
  size_t requests = w.log.size();
  auto later = make_oauth_authorizer(server, o);
  EXPECT_TRUE(later->has_token());
  EXPECT_EQ(later->headers_for("GET", server)->at(0).value, "Bearer access-1");
  EXPECT_EQ(w.log.size(), requests);
  json st = later->state();
  EXPECT_EQ(st["tokens"]["refresh_token"], "refresh-1");
  EXPECT_EQ(st["tokens"]["issuer"], issuer);
  ASSERT_TRUE(later->logout());
  EXPECT_FALSE(later->has_token());
  EXPECT_FALSE(o.store->load(server));
  EXPECT_FALSE(make_oauth_authorizer(server, o)->has_token());
}

TEST_F(oauth_test, a_token_about_to_expire_is_refreshed_before_use) {
  tooluse::testing::temp_dir dir;
  auto o = options();
  o.store = make_file_token_store((dir.path() / "t.json").string());
  long long soon = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count() +
                   10;
  ASSERT_TRUE(
      o.store->save(server, {{"issuer", issuer},
                             {"resource", server},
                             {"client", {{"client_id", "stored-client"}, {"method", "none"}}},
                             {"tokens",
                              {{"access_token", "old"},
                               {"refresh_token", "r0"},
                               {"token_type", "Bearer"},
                               {"expires_at", soon},
                               {"issuer", issuer}}}}));
  auto a = make_oauth_authorizer(server, o);
  auto h = a->headers_for("POST", server);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->at(0).value, "Bearer refreshed-1");
  auto f = query_params(last_token_form);
  EXPECT_EQ(find_param(f, "client_id"), "stored-client");
  EXPECT_EQ(find_param(f, "refresh_token"), "r0");
  // The refresh response had no refresh token: the old one is kept.
  EXPECT_EQ((*o.store->load(server))["tokens"]["refresh_token"], "r0");
}

TEST_F(oauth_test, client_id_metadata_document_and_preregistered_clients_skip_registration) {
  w.serve("https://as.test/.well-known/oauth-authorization-server",
          as_metadata({{"client_id_metadata_document_supported", true}}));
  auto o = options();
  o.client_metadata_url = "https://client.test/meta.json";
  ASSERT_TRUE(make_oauth_authorizer(server, o)->authorize());
  EXPECT_EQ(find_param(query_params(auth_urls.back()), "client_id"),
            "https://client.test/meta.json");
  o = options();
  o.preregistered =
      client_credentials{.client_id = "pre", .client_secret = "s3cret", .issuer = issuer};
  ASSERT_TRUE(make_oauth_authorizer(server, o)->authorize());
  EXPECT_EQ(find_param(query_params(auth_urls.back()), "client_id"), "pre");
  // A confidential client authenticates with HTTP Basic by default.
  auto token_req = w.requests.back();
  EXPECT_EQ(http::find_header(token_req.headers, "authorization").value_or(""),
            "Basic " + base64_encode("pre:s3cret"));
  for (const auto& r : w.requests) EXPECT_NE(r.url, "https://as.test/register");
  for (const auto& line : log_lines) {
    EXPECT_EQ(line.find("s3cret"), std::string::npos) << line;
    EXPECT_EQ(line.find("access-"), std::string::npos) << line;
  }
}

TEST_F(oauth_test, registration_answers_that_are_not_usable_are_errors) {
  struct row {
    const char* why;
    http::response reply;
    errc code;
    const char* says;
  };
  const std::string refused = "client registration at https://as.test/register was refused (HTTP ";
  const std::string malformed =
      "auth: the registration response of https://as.test/register is malformed: ";
  for (const auto& [why, reply, code, says] :
       {row{"refused", json_reply({{"error", "invalid_client_metadata"}}, 400),
            errc::permission_denied, ""},
        row{"no client_id", json_reply({{"client_name", "x"}}, 201), errc::protocol_error,
            "registration_response: missing required property \"client_id\""},
        row{"client_id not a string", json_reply({{"client_id", 42}}, 201), errc::protocol_error,
            "registration_response.client_id: expected string, got integer 42"}}) {
    http::response answer = reply;
    w.routes["https://as.test/register"] = [answer](const http::request&) { return answer; };
    auto s = make_oauth_authorizer(server, options())->authorize();
    ASSERT_FALSE(s) << why;
    EXPECT_EQ(s.error().code, code) << why;
    const std::string& m = s.error().message;
    if (code == errc::permission_denied)
      EXPECT_EQ(m.rfind(refused, 0), 0u) << why << ": " << m;
    else
      EXPECT_EQ(m.rfind(malformed + says + ";", 0), 0u) << why << ": " << m;
    EXPECT_NE(m.find("register a client by hand"), std::string::npos) << why;
  }
}

TEST_F(oauth_test, token_endpoint_refusal_names_the_error_and_nothing_secret) {
  w.routes["https://as.test/token"] = [](const http::request&) {
    return json_reply({{"error", "invalid_grant"}, {"error_description", "code expired"}}, 400);
  };
  auto s = make_oauth_authorizer(server, options())->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(
      s.error().message,
      "the token endpoint https://as.test/token refused (HTTP 400, invalid_grant: code expired)");
  EXPECT_EQ(s.error().message.find("the-code"), std::string::npos);
}

TEST_F(oauth_test, client_credentials_need_a_client_and_send_the_secret_by_basic) {
  auto o = options();
  o.grant_type = grant::client_credentials;
  auto s = make_oauth_authorizer(server, o)->authorize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::invalid_argument);
  EXPECT_EQ(s.error().message,
            "no client credentials for the authorization server https://as.test; pass a client id");
  o.preregistered = client_credentials{.client_id = "svc", .client_secret = "p@ss word"};
  ASSERT_TRUE(make_oauth_authorizer(server, o)->authorize());
  auto f = query_params(last_token_form);
  EXPECT_EQ(find_param(f, "grant_type"), "client_credentials");
  EXPECT_EQ(find_param(f, "scope"), "read");  // no offline_access for machine clients
  // RFC 6749 2.3.1: id and secret are form-encoded before base64.
  EXPECT_EQ(http::find_header(w.requests.back().headers, "authorization").value_or(""),
            "Basic " + base64_encode("svc:p%40ss%20word"));
  EXPECT_TRUE(auth_urls.empty());
}

TEST_F(oauth_test, dpop_binds_tokens_and_follows_server_nonces) {
  w.serve("https://as.test/.well-known/oauth-authorization-server",
          as_metadata({{"dpop_signing_alg_values_supported", {"ES256"}}}));
  int calls = 0;
  w.routes["https://as.test/token"] = [&](const http::request& req) {
    auto proof = decode_jwt(http::find_header(req.headers, "dpop").value_or(""));
    EXPECT_TRUE(proof) << "token request without a DPoP proof";
    if (++calls == 1) {
      auto r = json_reply({{"error", "use_dpop_nonce"}}, 400);
      r.headers.push_back({"DPoP-Nonce", "as-nonce-1"});
      return r;
    }
    EXPECT_EQ(proof->claims["nonce"], "as-nonce-1");
    EXPECT_EQ(proof->claims["htu"], "https://as.test/token");
    return json_reply({{"access_token", "bound"}, {"token_type", "DPoP"}});
  };
  auto a = make_oauth_authorizer(server, options());
  auto s = a->authorize();
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(calls, 2);
  auto h = a->headers_for("POST", "https://mcp.test/api/mcp?session=1");
  ASSERT_TRUE(h);
  ASSERT_EQ(h->size(), 2u);
  EXPECT_EQ(h->at(0).value, "DPoP bound");
  auto proof = decode_jwt(h->at(1).value);
  ASSERT_TRUE(proof);
  EXPECT_EQ(proof->claims["htu"], server);
  EXPECT_EQ(proof->claims["ath"], base64url_encode(sha256("bound")));
  EXPECT_FALSE(proof->claims.contains("nonce"));
  // The resource server asks for a nonce: resend once with it; the same nonce again stands.
  std::vector<http::header> nonce_401 = {{"WWW-Authenticate", R"(DPoP error="use_dpop_nonce")"},
                                         {"DPoP-Nonce", "rs-nonce-1"}};
  EXPECT_TRUE(*a->on_challenge(401, nonce_401, *h, "POST", server));
  auto h2 = a->headers_for("POST", server);
  EXPECT_EQ(decode_jwt(h2->at(1).value)->claims["nonce"], "rs-nonce-1");
  EXPECT_FALSE(*a->on_challenge(401, nonce_401, *h2, "POST", server));
  // on_response picks up a rotated nonce.
  a->on_response({{"DPoP-Nonce", "rs-nonce-2"}});
  EXPECT_EQ(decode_jwt(a->headers_for("POST", server)->at(1).value)->claims["nonce"], "rs-nonce-2");
}

TEST_F(oauth_test, a_new_authorization_server_gets_a_fresh_registration_and_scopes) {
  auto a = make_oauth_authorizer(server, options());
  ASSERT_TRUE(a->authorize());
  const std::string other = "https://as2.test";
  w.serve(
      "https://mcp.test/.well-known/oauth-protected-resource/api/mcp",
      {{"resource", server}, {"authorization_servers", {other}}, {"scopes_supported", {"read"}}});
  json meta = as_metadata();
  meta["issuer"] = other;
  meta["authorization_endpoint"] = other + "/authorize";
  meta["token_endpoint"] = "https://as.test/token";
  meta["registration_endpoint"] = other + "/register";
  w.serve(other + "/.well-known/oauth-authorization-server", meta);
  w.routes[other + "/register"] = [](const http::request&) {
    return json_reply({{"client_id", "client-at-as2"}}, 201);
  };
  callback_iss = other;
  auto sent = *a->headers_for("POST", server);
  auto r = a->on_challenge(401, challenge_401(), sent, "POST", server);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(*r);
  ASSERT_EQ(auth_urls.size(), 2u);
  auto q = query_params(auth_urls[1]);
  EXPECT_EQ(auth_urls[1].rfind(other + "/authorize?", 0), 0u);
  EXPECT_EQ(find_param(q, "client_id"), "client-at-as2");  // never dyn-client
  EXPECT_EQ(a->state()["tokens"]["issuer"], other);
}

}  // namespace
}  // namespace tooluse::auth
