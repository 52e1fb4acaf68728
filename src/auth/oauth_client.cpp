// The transport-facing side of the OAuth client: credentials for each request (Bearer or
// DPoP with a fresh proof), reactions to 401/403 (server nonce, refresh, full authorization,
// step-up, authorization server migration), and persistence in a token_store.

#include <stdexcept>

#include "oauth_client.hpp"

namespace tooluse::auth {

namespace detail {

namespace {

std::string joined_www_authenticate(const std::vector<http::header>& hs) {
  std::string v;
  for (const auto& h : hs)
    if (ascii_lower(h.name) == "www-authenticate") v += (v.empty() ? "" : ", ") + h.value;
  return v;
}

std::string sent_token(const header_list& sent) {
  auto a = http::find_header(sent, "authorization").value_or("");
  auto sp = a.find(' ');
  return sp == std::string::npos ? std::string() : a.substr(sp + 1);
}

}  // namespace

oauth_client::oauth_client(std::string server_url, oauth_options o)
    : server_url_(std::move(server_url)), o_(std::move(o)) {
  if (!split_url(server_url_).http())
    throw std::invalid_argument("oauth: \"" + server_url_ + "\" is not an http(s) URL");
  send_ = o_.sender ? o_.sender : http::default_transport();
  if (o_.store_key.empty()) o_.store_key = server_url_;
  if (o_.grant_type == grant::jwt_bearer && !o_.assertion)
    throw std::invalid_argument("oauth: the JWT bearer grant needs an assertion source");
  load_state();
}

result<header_list> oauth_client::headers_for(std::string_view method, std::string_view url) {
  std::lock_guard lock(mu_);
  if (tokens_.access_token.empty()) return header_list{};
  if (tokens_.expires_at && now_seconds() + 30 >= tokens_.expires_at &&
      !tokens_.refresh_token.empty()) {
    if (auto s = refresh(); !s) log("authorization: refreshing failed: " + s.error().message);
  }
  header_list out;
  if (dpop_bound_ && dpop_key_.valid()) {
    auto proof = dpop_proof(dpop_key_, method, url, rs_nonce_, tokens_.access_token);
    if (!proof) return fail(proof.error());
    out.push_back({"Authorization", "DPoP " + tokens_.access_token});
    out.push_back({"DPoP", *proof});
  } else {
    out.push_back({"Authorization", "Bearer " + tokens_.access_token});
  }
  return out;
}

void oauth_client::on_response(const std::vector<http::header>& response) {
  if (auto n = http::find_header(response, "dpop-nonce")) {
    std::lock_guard lock(mu_);
    if (dpop_bound_) rs_nonce_ = *n;
  }
}

status oauth_client::full_authorization(const std::string& challenged_scope,
                                        const std::string& resource_metadata_url) {
  if (auto s = discover_resource(resource_metadata_url); !s) return s;
  std::string issuer = prm_->authorization_servers->front();
  if (!tokens_.issuer.empty() && tokens_.issuer != issuer) {
    // The server moved to another authorization server: its tokens and the client
    // registration there are the new one's business; nothing carries over.
    log("authorization: " + server_url_ + " now uses " + issuer + " (was " + tokens_.issuer + ")");
    tokens_ = {};
    requested_scopes_.clear();
  }
  if (auto s = discover_authorization_server(issuer); !s) return s;
  return run_grant(select_scopes(challenged_scope));
}

result<bool> oauth_client::on_challenge(int status, const std::vector<http::header>& response,
                                        const header_list& sent, std::string_view,
                                        std::string_view) {
  std::lock_guard lock(mu_);
  auto challenges = parse_www_authenticate(joined_www_authenticate(response));
  challenge c;
  for (const auto& x : challenges) {
    auto s = ascii_lower(x.scheme);
    if (s == "bearer" || s == "dpop") {
      c = x;
      if (!x.param("error").empty() || !x.param("resource_metadata").empty()) break;
    }
  }
  std::string err = c.param("error");
  if (status == 401 && err == "use_dpop_nonce") {
    auto n = http::find_header(response, "dpop-nonce");
    if (!n || *n == rs_nonce_) return false;
    rs_nonce_ = *n;
    return true;
  }
  std::string used = sent_token(sent);
  if (!tokens_.access_token.empty() && used != tokens_.access_token)
    return true;  // renewed meanwhile
  if (status == 403) {
    if (err != "insufficient_scope") return false;
    // Step up only when the challenge asks for a scope we have not asked for yet.
    std::string granted = " " + tokens_.scope + " ";
    bool grows = false;
    std::string s = c.param("scope");
    for (std::size_t i = 0; i < s.size();) {
      auto j = s.find(' ', i);
      if (j == std::string::npos) j = s.size();
      if (j > i && granted.find(" " + s.substr(i, j - i) + " ") == std::string::npos &&
          !requested_scopes_.contains(s.substr(i, j - i)))
        grows = true;
      i = j + 1;
    }
    if (!grows) {
      log("authorization: " + server_url_ + " still refuses with insufficient_scope; giving up");
      return false;
    }
    log("authorization: " + server_url_ + " asks for more scope (" + s + ")");
  } else if (!tokens_.refresh_token.empty() && used != refreshed_token_) {
    // 401 with a token: the server may have moved; if not, a refresh is enough.
    if (auto d = discover_resource(c.param("resource_metadata"));
        d && prm_->authorization_servers->front() == tokens_.issuer && refresh())
      return true;
  }
  if (auto s = full_authorization(c.param("scope"), c.param("resource_metadata")); !s)
    return fail(s.error());
  return true;
}

status oauth_client::authorize() {
  std::lock_guard lock(mu_);
  return full_authorization("", "");
}

status oauth_client::logout() {
  std::lock_guard lock(mu_);
  tokens_ = {};
  registrations_.clear();
  requested_scopes_.clear();
  dpop_key_ = {};
  dpop_bound_ = false;
  if (o_.store) return o_.store->erase(o_.store_key);
  return {};
}

bool oauth_client::has_token() const {
  std::lock_guard lock(mu_);
  return !tokens_.access_token.empty();
}

json oauth_client::state() const {
  json s = {{"server", server_url_}, {"resource", resource_}, {"issuer", issuer_}};
  if (auto it = registrations_.find(issuer_); it != registrations_.end())
    s["client"] = {{"client_id", it->second.client_id},
                   {"client_secret", it->second.client_secret},
                   {"method", it->second.method}};
  s["tokens"] = {{"access_token", tokens_.access_token},   {"token_type", tokens_.token_type},
                 {"refresh_token", tokens_.refresh_token}, {"scope", tokens_.scope},
                 {"expires_at", tokens_.expires_at},       {"issuer", tokens_.issuer}};
  if (dpop_bound_ && dpop_key_.valid()) s["dpop_key"] = dpop_key_.private_pem();
  return s;
}

void oauth_client::save_state() {
  if (!o_.store) return;
  if (auto s = o_.store->save(o_.store_key, state()); !s)
    log("authorization: could not save tokens: " + s.error().message);
}

void oauth_client::load_state() {
  if (!o_.store) return;
  auto loaded = o_.store->load(o_.store_key);
  if (!loaded) return;
  auto s = decode<wire::stored_state>(*loaded, "state");
  if (!s) {
    log(wire::malformed("token store entry for " + o_.store_key, s.error(),
                        "ignoring it; log in again to replace it")
            .message);
    return;
  }
  resource_ = s->resource.value_or("");
  std::string issuer = s->issuer.value_or("");
  if (s->client && !issuer.empty())
    registrations_[issuer] = {s->client->client_id, s->client->client_secret.value_or(""),
                              s->client->method.value_or("")};
  if (s->tokens) {
    const auto& t = *s->tokens;
    tokens_.access_token = t.access_token.value_or("");
    tokens_.token_type = t.token_type.value_or("Bearer");
    tokens_.refresh_token = t.refresh_token.value_or("");
    tokens_.scope = t.scope.value_or("");
    tokens_.expires_at = t.expires_at.value_or(0);
    tokens_.issuer = t.issuer.value_or(issuer);
  }
  if (s->dpop_key) {
    if (auto k = signing_key::from_pem(*s->dpop_key, "ES256")) {
      dpop_key_ = *k;
      dpop_bound_ = ascii_lower(tokens_.token_type) == "dpop";
    }
  }
  // The metadata is fetched again when first needed (refresh needs the token endpoint).
}

}  // namespace detail

result<std::string> dpop_proof(const signing_key& key, std::string_view method,
                               std::string_view url, std::string_view nonce,
                               std::string_view access_token) {
  json header = {{"typ", "dpop+jwt"}, {"alg", key.alg()}, {"jwk", key.public_jwk()}};
  json claims = {{"jti", random_token(16)},
                 {"htm", std::string(method)},
                 {"htu", detail::strip_query(url)},
                 {"iat", detail::now_seconds()}};
  if (!nonce.empty()) claims["nonce"] = std::string(nonce);
  if (!access_token.empty()) claims["ath"] = base64url_encode(sha256(access_token));
  return sign_jwt(std::move(header), claims, key);
}

std::shared_ptr<oauth_authorizer> make_oauth_authorizer(std::string server_url,
                                                        oauth_options options) {
  return std::make_shared<detail::oauth_client>(std::move(server_url), std::move(options));
}

}  // namespace tooluse::auth
