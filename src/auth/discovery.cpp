// Discovery: protected resource metadata (RFC 9728) with the resource check, authorization
// server metadata (RFC 8414 / OpenID Connect Discovery) with the exact issuer check, and the
// scope selection strategy of the MCP authorization spec.

#include <algorithm>

#include "oauth_client.hpp"

namespace tooluse::auth::detail {

namespace {

// resource_covers: the metadata's resource identifies the server we talk to: same scheme and
// authority, and its path is the server's path or a parent of it.
bool resource_covers(const std::string& resource, const std::string& server) {
  auto r = split_url(resource);
  auto s = split_url(server);
  if (!r.ok || !s.ok || r.scheme != s.scheme || r.authority != s.authority) return false;
  std::string rp = r.path;
  while (!rp.empty() && rp.back() == '/') rp.pop_back();
  if (rp.empty()) return true;
  return s.path == rp || s.path.starts_with(rp + "/");
}

std::vector<std::string> split_scopes(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    auto j = s.find(' ', i);
    if (j == std::string::npos) j = s.size();
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

}  // namespace

status oauth_client::discover_resource(const std::string& resource_metadata_url) {
  auto server = split_url(server_url_);
  std::vector<std::string> candidates;
  if (!resource_metadata_url.empty()) candidates.push_back(resource_metadata_url);
  std::string path = server.path;
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (!path.empty())
    candidates.push_back(server.origin() + "/.well-known/oauth-protected-resource" + path);
  candidates.push_back(server.origin() + "/.well-known/oauth-protected-resource");
  std::string tried;
  for (const auto& url : candidates) {
    auto r = get_json(send_, url);
    if (!r || r->status != 200 || !r->body.is_object()) {
      tried += (tried.empty() ? "" : ", ") + url;
      continue;
    }
    const json& m = r->body;
    if (!m.contains("resource") || !m["resource"].is_string())
      return fail(errc::protocol_error,
                  "protected resource metadata at " + url + " has no \"resource\"");
    std::string resource = m["resource"].get<std::string>();
    if (!resource_covers(resource, server_url_))
      return fail(errc::permission_denied,
                  "protected resource metadata at " + url + " is for \"" + resource +
                      "\", not for " + server_url_ +
                      "; refusing to authorize (the server may be misconfigured or hostile)");
    if (!m.contains("authorization_servers") || !m["authorization_servers"].is_array() ||
        m["authorization_servers"].empty() || !m["authorization_servers"][0].is_string())
      return fail(errc::protocol_error,
                  "protected resource metadata at " + url + " names no authorization server");
    prm_ = m;
    resource_ = resource;
    log("authorization: protected resource metadata from " + url);
    return {};
  }
  return fail(errc::not_found, server_url_ +
                                   " requires authorization but publishes no protected resource "
                                   "metadata (tried " +
                                   tried +
                                   "); if it takes a fixed token, pass it as a header "
                                   "(--header 'Authorization: Bearer ...')");
}

status oauth_client::discover_authorization_server(const std::string& issuer) {
  if (issuer == issuer_ && as_meta_.is_object()) return {};
  auto p = split_url(issuer);
  if (!p.ok)
    return fail(errc::protocol_error, "authorization server \"" + issuer + "\" is not a URL");
  if (p.scheme != "https" && p.scheme != "http")
    return fail(errc::protocol_error, "authorization server \"" + issuer + "\" is not http(s)");
  std::string path = p.path;
  while (!path.empty() && path.back() == '/') path.pop_back();
  std::vector<std::string> candidates;
  if (!path.empty()) {
    candidates = {p.origin() + "/.well-known/oauth-authorization-server" + path,
                  p.origin() + "/.well-known/openid-configuration" + path,
                  p.origin() + path + "/.well-known/openid-configuration"};
  } else {
    candidates = {p.origin() + "/.well-known/oauth-authorization-server",
                  p.origin() + "/.well-known/openid-configuration"};
  }
  for (const auto& url : candidates) {
    auto r = get_json(send_, url);
    if (!r || r->status != 200 || !r->body.is_object()) continue;
    const json& m = r->body;
    std::string got = m.value("issuer", "");
    // RFC 8414 §3.3: the issuer must be identical to the one the URL was built from.
    if (got != issuer)
      return fail(errc::permission_denied, "authorization server metadata at " + url +
                                               " names issuer \"" + got + "\", not \"" + issuer +
                                               "\"; refusing to use it");
    if (!m.contains("token_endpoint") || !m["token_endpoint"].is_string())
      return fail(errc::protocol_error,
                  "authorization server metadata at " + url + " has no token_endpoint");
    as_meta_ = m;
    issuer_ = issuer;
    log("authorization: authorization server " + issuer + " (metadata from " + url + ")");
    return {};
  }
  return fail(errc::not_found, "no authorization server metadata for " + issuer + " (tried " +
                                   candidates.front() + " and " +
                                   std::to_string(candidates.size() - 1) + " more)");
}

std::vector<std::string> oauth_client::select_scopes(const std::string& challenged) {
  std::vector<std::string> want = split_scopes(challenged);
  if (want.empty() && prm_.contains("scopes_supported") && prm_["scopes_supported"].is_array())
    for (const auto& s : prm_["scopes_supported"])
      if (s.is_string()) want.push_back(s.get<std::string>());
  for (const auto& s : split_scopes(o_.scope)) want.push_back(s);
  // Re-authorization keeps what was asked for before (step-up adds, never drops).
  for (const auto& s : requested_scopes_) want.push_back(s);
  bool offline = false;
  if (o_.grant_type == grant::authorization_code && as_meta_.contains("scopes_supported") &&
      as_meta_["scopes_supported"].is_array())
    for (const auto& s : as_meta_["scopes_supported"]) offline |= s == "offline_access";
  if (offline && !want.empty()) want.push_back("offline_access");
  std::vector<std::string> out;
  for (auto& s : want)
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  return out;
}

}  // namespace tooluse::auth::detail
