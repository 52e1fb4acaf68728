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
    auto m = decode<wire::protected_resource_metadata>(r->body, "protected_resource_metadata");
    if (!m)
      return fail(wire::malformed("protected resource metadata at " + url, m.error(),
                                  "the MCP server publishes metadata that does not follow RFC "
                                  "9728; report it to its operator"));
    const std::string& resource = m->resource;
    if (!resource_covers(resource, server_url_))
      return fail(errc::permission_denied,
                  "protected resource metadata at " + url + " is for \"" + resource +
                      "\", not for " + server_url_ +
                      "; refusing to authorize (the server may be misconfigured or hostile)");
    if (!m->authorization_servers || m->authorization_servers->empty())
      return fail(errc::protocol_error,
                  "protected resource metadata at " + url + " names no authorization server");
    resource_ = resource;
    prm_ = std::move(*m);
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
  if (issuer == issuer_ && as_meta_) return {};
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
    auto m = decode<wire::authorization_server_metadata>(r->body, "authorization_server_metadata");
    if (!m)
      return fail(wire::malformed("authorization server metadata at " + url, m.error(),
                                  "the authorization server does not follow RFC 8414; report it "
                                  "to its operator"));
    // RFC 8414 §3.3: the issuer must be identical to the one the URL was built from.
    if (m->issuer != issuer)
      return fail(errc::permission_denied, "authorization server metadata at " + url +
                                               " names issuer \"" + m->issuer + "\", not \"" +
                                               issuer + "\"; refusing to use it");
    as_meta_ = std::move(*m);
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
  if (want.empty() && prm_ && prm_->scopes_supported) want = *prm_->scopes_supported;
  for (const auto& s : split_scopes(o_.scope)) want.push_back(s);
  // Re-authorization keeps what was asked for before (step-up adds, never drops).
  for (const auto& s : requested_scopes_) want.push_back(s);
  bool offline = false;
  if (o_.grant_type == grant::authorization_code && as_meta_ && as_meta_->scopes_supported)
    for (const auto& s : *as_meta_->scopes_supported) offline |= s == "offline_access";
  if (offline && !want.empty()) want.push_back("offline_access");
  std::vector<std::string> out;
  for (auto& s : want)
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  return out;
}

}  // namespace tooluse::auth::detail
