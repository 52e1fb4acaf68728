// Grants: client registration (pre-registered, Client ID Metadata Document, RFC 7591), the
// authorization code flow with PKCE S256, resource indicator and RFC 9207 iss check, refresh,
// client credentials (secret or RFC 7523 private-key JWT), JWT bearer (workload identity),
// enterprise-managed authorization (RFC 8693 token exchange for an ID-JAG, then JWT bearer),
// and DPoP proofs at the token endpoint with the server's nonce.

#include <algorithm>
#include <cmath>

#include "oauth_client.hpp"

namespace tooluse::auth::detail {

namespace {

constexpr const char* jwt_bearer = "urn:ietf:params:oauth:grant-type:jwt-bearer";

std::string join_scopes(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

// supports: `value` is in a metadata list; `if_absent` when the server publishes no list.
bool supports(const wire::strings& list, std::string_view value, bool if_absent) {
  if (!list) return if_absent;
  return std::find(list->begin(), list->end(), value) != list->end();
}

// error_of reads an RFC 6749 §5.2 error answer; one that does not decode gives no details
// (the refusal still names the endpoint and the status).
wire::token_error_response error_of(const json& body) {
  auto e = decode<wire::token_error_response>(body, "token_error");
  return e ? *e : wire::token_error_response{};
}

error token_error(const std::string& url, const json_response& r) {
  auto answer = error_of(r.body);
  std::string e = answer.error.value_or("");
  std::string d = answer.error_description.value_or("");
  return error{errc::permission_denied, "the token endpoint " + url + " refused (HTTP " +
                                            std::to_string(r.status) + (e.empty() ? "" : ", " + e) +
                                            (d.empty() ? "" : ": " + d) + ")"};
}

// token_answer reads a token endpoint's answer: a 200 is a token response (RFC 6749 §5.1),
// unless it has no access_token but an error (some servers refuse with 200); anything else
// is a refusal (§5.2).
result<wire::token_response> token_answer(const std::string& url, const json_response& r) {
  bool refusal = r.status != 200 || (r.body.is_object() && !r.body.contains("access_token") &&
                                     r.body.contains("error"));
  if (refusal) return fail(token_error(url, r));
  auto t = decode<wire::token_response>(r.body, "token_response");
  if (!t)
    return fail(wire::malformed("token response of " + url, t.error(),
                                "the authorization server does not follow RFC 6749 §5.1; "
                                "report it to its operator"));
  return std::move(*t);
}

// expires_in_of reads expires_in: an integer (a fraction is cut, as it always was), none, or
// a string of digits, which some servers send and which counts as no lifetime (as it always
// has); anything else is malformed.
result<std::optional<long long>> expires_in_of(const wire::token_response& t,
                                               const std::string& url) {
  if (!t.expires_in) return std::optional<long long>{};
  const json& v = *t.expires_in;
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::isfinite(d) && std::abs(d) < 1e15)
      return std::optional<long long>{static_cast<long long>(d)};
  } else if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (!s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::optional<long long>{};
  }
  auto as_integer = decode<long long>(v, "token_response.expires_in");
  if (as_integer) return std::optional<long long>{*as_integer};
  return fail(wire::malformed("token response of " + url, as_integer.error(),
                              "the authorization server does not follow RFC 6749 §5.1; "
                              "report it to its operator"));
}

}  // namespace

bool oauth_client::dpop_offered() const {
  return o_.dpop && as_meta_ &&
         supports(as_meta_->dpop_signing_alg_values_supported, "ES256", false);
}

result<registration> oauth_client::register_client() {
  std::string endpoint = as_meta_->registration_endpoint.value_or("");
  json body = {{"client_name", o_.client_name},
               {"redirect_uris", json::array({o_.redirect_uri})},
               {"grant_types", json::array({"authorization_code", "refresh_token"})},
               {"response_types", json::array({"code"})},
               {"application_type", "native"}};
  const auto& methods = as_meta_->token_endpoint_auth_methods_supported;
  std::string method = supports(methods, "none", true)                   ? "none"
                       : supports(methods, "client_secret_basic", false) ? "client_secret_basic"
                                                                         : "client_secret_post";
  body["token_endpoint_auth_method"] = method;
  if (!o_.client_metadata_url.empty()) body["client_uri"] = o_.client_metadata_url;
  http::request req{.method = "POST", .url = endpoint};
  req.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
  req.body = body.dump();
  req.total_timeout = std::chrono::seconds(30);
  auto r = send_(req, {});
  if (!r)
    return fail(r.error().code,
                "client registration at " + endpoint + " failed: " + r.error().message);
  auto parsed = parse_json(r->body);
  if (r->status / 100 != 2 || !parsed)
    return fail(errc::permission_denied, "client registration at " + endpoint +
                                             " was refused (HTTP " + std::to_string(r->status) +
                                             "): " + r->body.substr(0, 200) +
                                             "; register a client by hand and pass its id");
  auto answer = decode<wire::registration_response>(*parsed, "registration_response");
  if (!answer)
    return fail(wire::malformed("registration response of " + endpoint, answer.error(),
                                "register a client by hand and pass its id"));
  registration reg;
  reg.client_id = answer->client_id;
  reg.client_secret = answer->client_secret.value_or("");
  reg.method = answer->token_endpoint_auth_method.value_or("");
  log("authorization: registered client with " + issuer_);
  return reg;
}

result<registration> oauth_client::client_for_issuer() {
  if (auto it = registrations_.find(issuer_); it != registrations_.end()) return it->second;
  if (!as_meta_) return fail(errc::internal, "client registration before discovery");
  registration reg;
  if (o_.preregistered &&
      (o_.preregistered->issuer.empty() || o_.preregistered->issuer == issuer_)) {
    reg.client_id = o_.preregistered->client_id;
    reg.client_secret = o_.preregistered->client_secret;
    if (!o_.private_key_pem.empty()) reg.method = "private_key_jwt";
  } else if (o_.grant_type != grant::authorization_code) {
    return fail(errc::invalid_argument, "no client credentials for the authorization server " +
                                            issuer_ + "; pass a client id");
  } else if (!o_.client_metadata_url.empty() &&
             as_meta_->client_id_metadata_document_supported.value_or(false)) {
    reg.client_id = o_.client_metadata_url;
    reg.method = "none";
  } else if (as_meta_->registration_endpoint) {
    auto r = register_client();
    if (!r) return fail(r.error());
    reg = *r;
  } else {
    return fail(errc::invalid_argument,
                "the authorization server " + issuer_ +
                    " offers neither dynamic registration nor client ID metadata documents; "
                    "register a client there and pass its id and secret");
  }
  registrations_[issuer_] = reg;
  return reg;
}

void oauth_client::add_client_auth(const registration& reg, form& f,
                                   std::vector<http::header>& headers) {
  std::string method = reg.method;
  if (method.empty()) {
    if (reg.client_secret.empty())
      method = "none";
    else if (supports(as_meta_->token_endpoint_auth_methods_supported, "client_secret_basic", true))
      method = "client_secret_basic";
    else
      method = "client_secret_post";
  }
  if (method == "client_secret_basic") {
    headers.push_back(
        {"Authorization", "Basic " + base64_encode(percent_encode(reg.client_id) + ":" +
                                                   percent_encode(reg.client_secret))});
  } else if (method == "client_secret_post") {
    f.emplace_back("client_id", reg.client_id);
    f.emplace_back("client_secret", reg.client_secret);
  } else if (method == "private_key_jwt") {
    auto key = signing_key::from_pem(o_.private_key_pem, o_.signing_alg);
    if (key) {
      long long now = now_seconds();
      json claims = {{"iss", reg.client_id}, {"sub", reg.client_id}, {"aud", issuer_},
                     {"iat", now},           {"exp", now + 300},     {"jti", random_token(16)}};
      if (auto jwt = sign_jwt({{"typ", "JWT"}}, claims, *key)) {
        f.emplace_back("client_assertion_type",
                       "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
        f.emplace_back("client_assertion", *jwt);
      }
    }
  } else if (!reg.client_id.empty()) {
    f.emplace_back("client_id", reg.client_id);
  }
}

result<wire::token_response> oauth_client::token_request(form f, const registration& reg) {
  if (!as_meta_) return fail(errc::internal, "token request before discovery");
  std::string endpoint = as_meta_->token_endpoint;
  std::vector<http::header> headers;
  add_client_auth(reg, f, headers);
  bool dpop = dpop_offered();
  if (dpop && !dpop_key_.valid()) {
    auto k = signing_key::generate("ES256");
    if (!k) return fail(k.error());
    dpop_key_ = *k;
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto h = headers;
    if (dpop) {
      auto proof = dpop_proof(dpop_key_, "POST", endpoint, as_nonce_);
      if (!proof) return fail(proof.error());
      h.push_back({"DPoP", *proof});
    }
    auto r = post_form(send_, endpoint, f, h);
    if (!r) return fail(r.error());
    if (auto n = http::find_header(r->headers, "dpop-nonce")) {
      bool retry = dpop && r->status == 400 && error_of(r->body).error == "use_dpop_nonce" &&
                   *n != as_nonce_;
      as_nonce_ = *n;
      if (retry) continue;
    }
    auto t = token_answer(endpoint, *r);
    if (t) {
      if (auto e = expires_in_of(*t, endpoint); !e) return fail(e.error());
    }
    return t;
  }
  return fail(errc::permission_denied,
              "the token endpoint " + endpoint + " kept asking for a new DPoP nonce");
}

status oauth_client::accept_tokens(const wire::token_response& body, bool keep_refresh) {
  token_set t;
  t.access_token = body.access_token;
  t.token_type = body.token_type.value_or("Bearer");
  t.issuer = issuer_;
  t.scope =
      body.scope ? *body.scope : join_scopes({requested_scopes_.begin(), requested_scopes_.end()});
  // token_request has checked expires_in.
  if (auto e = expires_in_of(body, {}); e && *e) t.expires_at = now_seconds() + **e;
  if (body.refresh_token)
    t.refresh_token = *body.refresh_token;
  else if (keep_refresh)
    t.refresh_token = tokens_.refresh_token;
  dpop_bound_ = ascii_lower(t.token_type) == "dpop";
  tokens_ = std::move(t);
  save_state();
  return {};
}

status oauth_client::run_grant(const std::vector<std::string>& scopes) {
  for (const auto& s : scopes) requested_scopes_.insert(s);
  std::string scope = join_scopes(scopes);
  switch (o_.grant_type) {
    case grant::authorization_code:
      return authorization_code(scope);
    case grant::client_credentials:
      return client_credentials_grant(scope);
    case grant::jwt_bearer: {
      if (!o_.assertion)
        return fail(errc::invalid_argument, "JWT bearer grant: no assertion source");
      auto a = o_.assertion();
      if (!a) return fail(a.error());
      return jwt_bearer_grant(scope, *a);
    }
    case grant::enterprise:
      return enterprise_grant(scope);
  }
  return fail(errc::internal, "unknown grant");
}

status oauth_client::authorization_code(const std::string& scope) {
  if (!o_.open_browser)
    return fail(
        errc::invalid_argument,
        server_url_ + " needs you to log in: run `tooluse mcp login " + server_url_ + "` first");
  if (!as_meta_->authorization_endpoint)
    return fail(errc::protocol_error,
                "the authorization server " + issuer_ + " has no authorization_endpoint");
  // PKCE is required: refuse a server that does not say it supports S256.
  if (!supports(as_meta_->code_challenge_methods_supported, "S256", false))
    return fail(errc::permission_denied,
                "the authorization server " + issuer_ +
                    " does not advertise PKCE S256; refusing to authorize");
  auto reg = client_for_issuer();
  if (!reg) return fail(reg.error());
  std::string verifier = random_token(32);
  std::string state = random_token(16);
  form q = {{"response_type", "code"},
            {"client_id", reg->client_id},
            {"redirect_uri", o_.redirect_uri},
            {"state", state},
            {"code_challenge", base64url_encode(sha256(verifier))},
            {"code_challenge_method", "S256"},
            {"resource", resource_}};
  if (!scope.empty()) q.emplace_back("scope", scope);
  std::string endpoint = *as_meta_->authorization_endpoint;
  std::string url =
      endpoint + (endpoint.find('?') == std::string::npos ? "?" : "&") + form_encode(q);
  auto callback = o_.open_browser(url);
  if (!callback) return fail(callback.error());
  form p = query_params(*callback);
  if (std::string e = find_param(p, "error"); !e.empty())
    return fail(errc::permission_denied,
                "authorization was refused: " + e + " " + find_param(p, "error_description"));
  if (find_param(p, "state") != state)
    return fail(errc::permission_denied,
                "the authorization response's state does not match; refusing it");
  // RFC 9207: a present iss must equal the issuer exactly; one that was promised must be there.
  bool has_iss = false;
  for (const auto& [k, v] : p) has_iss |= k == "iss";
  if (has_iss && find_param(p, "iss") != issuer_)
    return fail(errc::permission_denied, "the authorization response came from issuer \"" +
                                             find_param(p, "iss") + "\", not " + issuer_ +
                                             "; refusing it");
  if (!has_iss && as_meta_->authorization_response_iss_parameter_supported.value_or(false))
    return fail(errc::permission_denied, "the authorization response lacks the iss parameter " +
                                             issuer_ + " promised; refusing it");
  std::string code = find_param(p, "code");
  if (code.empty()) return fail(errc::protocol_error, "the authorization response has no code");
  auto body = token_request({{"grant_type", "authorization_code"},
                             {"code", code},
                             {"redirect_uri", o_.redirect_uri},
                             {"code_verifier", verifier},
                             {"resource", resource_}},
                            *reg);
  if (!body) return fail(body.error());
  log("authorization: signed in to " + issuer_);
  return accept_tokens(*body, false);
}

status oauth_client::refresh() {
  if (tokens_.refresh_token.empty()) return fail(errc::not_found, "no refresh token");
  if (!as_meta_ || issuer_ != tokens_.issuer)
    if (auto d = discover_authorization_server(tokens_.issuer); !d) return d;
  auto reg = client_for_issuer();
  if (!reg) return fail(reg.error());
  form f = {{"grant_type", "refresh_token"}, {"refresh_token", tokens_.refresh_token}};
  if (!resource_.empty()) f.emplace_back("resource", resource_);
  auto body = token_request(std::move(f), *reg);
  if (!body) {
    tokens_.refresh_token.clear();
    return fail(body.error());
  }
  auto s = accept_tokens(*body, true);
  refreshed_token_ = tokens_.access_token;
  log("authorization: refreshed the access token");
  return s;
}

status oauth_client::client_credentials_grant(const std::string& scope) {
  auto reg = client_for_issuer();
  if (!reg) return fail(reg.error());
  form f = {{"grant_type", "client_credentials"}, {"resource", resource_}};
  if (!scope.empty()) f.emplace_back("scope", scope);
  auto body = token_request(std::move(f), *reg);
  if (!body) return fail(body.error());
  return accept_tokens(*body, false);
}

status oauth_client::jwt_bearer_grant(const std::string& scope, const std::string& assertion) {
  registration reg;
  if (o_.preregistered) {
    reg.client_id = o_.preregistered->client_id;
    reg.client_secret = o_.preregistered->client_secret;
  }
  form f = {{"grant_type", jwt_bearer}, {"assertion", assertion}, {"resource", resource_}};
  if (!scope.empty()) f.emplace_back("scope", scope);
  auto body = token_request(std::move(f), reg);
  if (!body) return fail(body.error());
  return accept_tokens(*body, false);
}

status oauth_client::enterprise_grant(const std::string& scope) {
  if (o_.idp_token_endpoint.empty() || o_.id_token.empty())
    return fail(errc::invalid_argument,
                "enterprise-managed authorization needs the IdP token endpoint and an ID token");
  form f = {{"grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"},
            {"requested_token_type", "urn:ietf:params:oauth:token-type:id-jag"},
            {"audience", issuer_},
            {"resource", resource_},
            {"subject_token", o_.id_token},
            {"subject_token_type", "urn:ietf:params:oauth:token-type:id_token"}};
  if (!scope.empty()) f.emplace_back("scope", scope);
  std::vector<http::header> headers;
  if (!o_.idp_client_secret.empty())
    headers.push_back(
        {"Authorization", "Basic " + base64_encode(percent_encode(o_.idp_client_id) + ":" +
                                                   percent_encode(o_.idp_client_secret))});
  else if (!o_.idp_client_id.empty())
    f.emplace_back("client_id", o_.idp_client_id);
  auto r = post_form(send_, o_.idp_token_endpoint, f, headers);
  if (!r) return fail(r.error());
  auto idp = token_answer(o_.idp_token_endpoint, *r);
  if (!idp) return fail(idp.error());
  log("authorization: exchanged the ID token for an authorization grant at the IdP");
  auto reg = client_for_issuer();
  if (!reg) return fail(reg.error());
  form g = {{"grant_type", jwt_bearer}, {"assertion", idp->access_token}};
  if (!scope.empty()) g.emplace_back("scope", scope);
  auto body = token_request(std::move(g), *reg);
  if (!body) return fail(body.error());
  return accept_tokens(*body, false);
}

}  // namespace tooluse::auth::detail
