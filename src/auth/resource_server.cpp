// resource_server: protected resource metadata, bearer token validation (JWT via JWKS or
// RFC 7662 introspection), audience and scope checks, RFC 6750 challenges.

#include "tooluse/auth/resource_server.hpp"

#include <algorithm>
#include <stdexcept>

#include "tooluse/auth/oauth.hpp"
#include "util.hpp"
#include "wire.hpp"

namespace tooluse::auth {

namespace {

std::vector<std::string> scopes_of(const wire::token_claims& claims) {
  std::vector<std::string> out;
  if (claims.scope) {
    const std::string& s = *claims.scope;
    for (std::size_t i = 0; i < s.size();) {
      auto j = s.find(' ', i);
      if (j == std::string::npos) j = s.size();
      if (j > i) out.push_back(s.substr(i, j - i));
      i = j + 1;
    }
  } else if (claims.scp) {
    out = *claims.scp;
  }
  return out;
}

// audience_matches: aud is a string or an array of strings (RFC 7519 §4.1.3); anything else
// matches nothing.
bool audience_matches(const std::optional<json>& claim, const std::string& resource) {
  if (!claim) return false;
  const json& aud = *claim;
  auto strip = [](std::string s) {
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
  };
  if (aud.is_string()) return strip(aud.get<std::string>()) == strip(resource);
  if (aud.is_array())
    for (const auto& a : aud)
      if (a.is_string() && strip(a.get<std::string>()) == strip(resource)) return true;
  return false;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

std::string client_of(const wire::token_claims& c) {
  return c.client_id ? *c.client_id : c.azp.value_or("");
}

constexpr std::string_view allowed_algs[] = {"ES256", "ES384", "ES512", "RS256", "RS384",
                                             "RS512", "PS256", "PS384", "PS512"};

}  // namespace

resource_server::resource_server(resource_server_options o) : o_(std::move(o)) {
  if (!detail::split_url(o_.resource).http())
    throw std::invalid_argument("resource server: resource \"" + o_.resource +
                                "\" is not an http(s) URL");
  if (!detail::split_url(o_.issuer).http())
    throw std::invalid_argument("resource server: issuer \"" + o_.issuer +
                                "\" is not an http(s) URL");
  send_ = o_.sender ? o_.sender : http::default_transport();
  set_keys(o_.jwks);
}

void resource_server::set_keys(const json& jwks) {
  // Decoded once per key set, not per token. A key that is not a JWK this server can read, or
  // that is not for signatures, is skipped (RFC 7517 §5).
  keys_.clear();
  auto set = decode<wire::jwk_set>(jwks, "jwks");
  if (!set) return;
  for (const auto& k : set->keys) {
    auto meta = decode<wire::jwk>(k, "jwk");
    if (!meta || (meta->use && *meta->use != "sig")) continue;
    if (auto key = signing_key::from_jwk(k)) keys_.push_back({meta->kid.value_or(""), std::move(*key)});
  }
}

std::string resource_server::metadata_path() const {
  std::string path = detail::split_url(o_.resource).path;
  while (!path.empty() && path.back() == '/') path.pop_back();
  return "/.well-known/oauth-protected-resource" + path;
}

std::string resource_server::metadata_url() const {
  return detail::split_url(o_.resource).origin() + metadata_path();
}

json resource_server::metadata() const {
  json m = {{"resource", o_.resource},
            {"authorization_servers", json::array({o_.issuer})},
            {"bearer_methods_supported", json::array({"header"})}};
  std::vector<std::string> scopes = o_.scopes_supported;
  if (scopes.empty()) {
    scopes = o_.required_scopes;
    for (const auto& [tool, s] : o_.tool_scopes) scopes.insert(scopes.end(), s.begin(), s.end());
  }
  std::vector<std::string> unique;
  for (auto& s : scopes)
    if (std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(s);
  if (!unique.empty()) m["scopes_supported"] = unique;
  return m;
}

rs_decision resource_server::challenge(int status, const std::string& error,
                                       const std::string& description,
                                       const std::string& scope) const {
  auto quote = [](std::string s) {
    std::string out;
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out;
  };
  std::string v = "Bearer resource_metadata=\"" + metadata_url() + "\"";
  if (!scope.empty()) v += ", scope=\"" + quote(scope) + "\"";
  if (!error.empty()) v += ", error=\"" + error + "\"";
  if (!description.empty()) v += ", error_description=\"" + quote(description) + "\"";
  rs_decision d;
  d.status = status;
  d.headers = {{"WWW-Authenticate", v}};
  json body = {{"error", error.empty() ? "invalid_token" : error}};
  if (!description.empty()) body["error_description"] = description;
  d.body = body.dump();
  return d;
}

result<signing_key> resource_server::key_for(const std::string& kid, const std::string& alg) {
  std::lock_guard lock(mu_);
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& k : keys_) {
      if (!kid.empty() && k.kid != kid) continue;
      signing_key key = k.key;
      key.set_alg(alg);
      return key;
    }
    if (pass == 1 || (!o_.jwks.is_null() && o_.jwks_uri.empty())) break;  // static keys only
    // Unknown key id: fetch the key set (again, for key rotation), at most once an interval.
    auto now = std::chrono::steady_clock::now();
    if (fetched_at_ && now - *fetched_at_ < o_.jwks_refetch_interval) break;
    fetched_at_ = now;
    std::string uri = o_.jwks_uri;
    if (uri.empty()) {
      auto p = detail::split_url(o_.issuer);
      auto meta =
          detail::get_json(send_, p.origin() + "/.well-known/oauth-authorization-server" + p.path);
      if (meta && meta->status == 200)
        if (auto m = decode<wire::as_jwks_pointer>(meta->body, "authorization_server_metadata"))
          uri = m->jwks_uri.value_or("");
    }
    if (uri.empty()) break;
    auto r = detail::get_json(send_, uri);
    if (r && r->status == 200 && decode<wire::jwk_set>(r->body, "jwks")) set_keys(r->body);
  }
  return fail(errc::not_found, "no key of the issuer verifies this token (kid \"" + kid + "\")");
}

result<resource_server::token_info> resource_server::validate_jwt(const std::string& token) {
  auto jwt = decode_jwt(token);
  if (!jwt) return fail(errc::permission_denied, "the token is malformed");
  // Header and claims come from anyone: a field of the wrong type is a refusal naming it.
  auto header = decode<wire::jwt_header>(jwt->header, "header");
  if (!header)
    return fail(errc::permission_denied, "the token is malformed: " + header.error().message);
  std::string alg = header->alg.value_or("");
  if (std::find(std::begin(allowed_algs), std::end(allowed_algs), alg) == std::end(allowed_algs))
    return fail(errc::permission_denied, "the token's algorithm is not accepted");
  auto key = key_for(header->kid.value_or(""), alg);
  if (!key) return fail(errc::permission_denied, "the token's signing key is unknown");
  if (!key->verify(jwt->signing_input, jwt->signature, alg))
    return fail(errc::permission_denied, "the token's signature is invalid");
  auto c = decode<wire::token_claims>(jwt->claims, "claims");
  if (!c) return fail(errc::permission_denied, "the token is malformed: " + c.error().message);
  if (c->iss.value_or("") != o_.issuer)
    return fail(errc::permission_denied, "the token was not issued by " + o_.issuer);
  if (!audience_matches(c->aud, o_.resource))
    return fail(errc::permission_denied, "the token is not meant for " + o_.resource);
  auto now = static_cast<double>(detail::now_seconds());
  auto leeway = static_cast<double>(o_.leeway_seconds);
  if (!c->exp || *c->exp + leeway < now)
    return fail(errc::permission_denied, "the token has expired");
  if (c->nbf && *c->nbf - leeway > now)
    return fail(errc::permission_denied, "the token is not valid yet");
  return token_info{c->sub.value_or(""), client_of(*c), scopes_of(*c)};
}

result<resource_server::token_info> resource_server::introspect(const std::string& token) {
  std::vector<http::header> headers;
  if (!o_.introspection_client_id.empty())
    headers.push_back(
        {"Authorization",
         "Basic " + base64_encode(detail::percent_encode(o_.introspection_client_id) + ":" +
                                  detail::percent_encode(o_.introspection_client_secret))});
  auto r = detail::post_form(send_, o_.introspection_endpoint,
                             {{"token", token}, {"token_type_hint", "access_token"}}, headers);
  if (!r || r->status != 200 || !r->body.is_object())
    return fail(errc::permission_denied, "the token could not be introspected");
  auto c = decode<wire::token_claims>(r->body, "introspection");
  if (!c)
    return fail(errc::permission_denied, "the token could not be introspected: the answer of " +
                                             o_.introspection_endpoint +
                                             " is malformed: " + c.error().message);
  if (!c->active.value_or(false)) return fail(errc::permission_denied, "the token is not active");
  if (c->iss && *c->iss != o_.issuer)
    return fail(errc::permission_denied, "the token was not issued by " + o_.issuer);
  if (c->aud && !audience_matches(c->aud, o_.resource))
    return fail(errc::permission_denied, "the token is not meant for " + o_.resource);
  if (c->exp &&
      *c->exp + static_cast<double>(o_.leeway_seconds) < static_cast<double>(detail::now_seconds()))
    return fail(errc::permission_denied, "the token has expired");
  return token_info{c->sub.value_or(""), c->client_id.value_or(""), scopes_of(*c)};
}

result<resource_server::token_info> resource_server::validate(const std::string& token) {
  bool looks_jwt = std::count(token.begin(), token.end(), '.') == 2;
  if (looks_jwt &&
      (o_.introspection_endpoint.empty() || !o_.jwks.is_null() || !o_.jwks_uri.empty()))
    return validate_jwt(token);
  if (!o_.introspection_endpoint.empty()) return introspect(token);
  return validate_jwt(token);
}

rs_decision resource_server::check(std::string_view method, std::string_view target,
                                   const std::vector<std::pair<std::string, std::string>>& headers,
                                   std::string_view body, bool is_endpoint) {
  if (!is_endpoint) {
    if (target == metadata_path() && method == "GET") {
      rs_decision d;
      d.status = 200;
      d.body = metadata().dump();
      d.headers = {{"Cache-Control", "max-age=3600"}};
      return d;
    }
    return {};
  }
  std::string authz;
  for (const auto& [k, v] : headers)
    if (ascii_lower(k) == "authorization") authz = v;
  std::string required = join(o_.required_scopes);
  if (authz.empty()) return challenge(401, "", "", required);
  if (ascii_lower(authz.substr(0, 7)) != "bearer ")
    return challenge(401, "invalid_request", "use the Bearer scheme", required);
  std::string token = authz.substr(7);
  while (!token.empty() && token.front() == ' ') token.erase(0, 1);
  auto info = validate(token);
  if (!info) return challenge(401, "invalid_token", info.error().message, required);
  std::vector<std::string> need = o_.required_scopes;
  if (method == "POST" && !o_.tool_scopes.empty()) {
    // A body that is not one tools/call (a batch, another method, a malformed call) needs
    // no tool's scope here; the MCP server answers it.
    auto m = parse_json(body);
    auto call = decode<wire::call_request>(m ? *m : json(), "request");
    if (call && call->method == "tools/call" && call->params && call->params->name) {
      auto it = o_.tool_scopes.find(*call->params->name);
      if (it != o_.tool_scopes.end()) need.insert(need.end(), it->second.begin(), it->second.end());
    }
  }
  std::vector<std::string> missing;
  for (const auto& s : need)
    if (std::find(info->scopes.begin(), info->scopes.end(), s) == info->scopes.end())
      missing.push_back(s);
  if (!missing.empty()) {
    return challenge(403, "insufficient_scope", "the token lacks the scope " + join(missing),
                     join(need));
  }
  rs_decision ok;
  if (!info->subject.empty())
    ok.principal = "sub:" + info->subject;
  else if (!info->client_id.empty())
    ok.principal = "client_id:" + info->client_id;
  return ok;
}

}  // namespace tooluse::auth
