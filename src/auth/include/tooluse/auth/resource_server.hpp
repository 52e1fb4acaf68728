#pragma once
/// \file resource_server.hpp
/// tooluse::auth::resource_server, the OAuth resource server side of an MCP HTTP server:
/// it serves the protected resource metadata (RFC 9728) at
/// /.well-known/oauth-protected-resource<endpoint path>, answers requests without a valid
/// token with 401 and `WWW-Authenticate: Bearer resource_metadata="..."` (RFC 6750 errors),
/// validates bearer tokens — a JWT signed by a key of the issuer's JWKS (ES256/384/512,
/// RS256/384/512, PS256/384/512; iss, aud = this resource, exp, nbf checked) or, for opaque
/// tokens, RFC 7662 introspection — and checks scopes: required for every request and per
/// tool for tools/call (403 insufficient_scope naming the scope). The token is only read,
/// never passed on. Thread-safe.

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tooluse/auth/jose.hpp"
#include "tooluse/http/client.hpp"
#include "tooluse/json.hpp"

namespace tooluse::auth {

struct resource_server_options {
  /// resource is this server's canonical URL (the endpoint), e.g. "https://mcp.example.com/mcp";
  /// tokens must name it in "aud".
  std::string resource;
  /// issuer is the authorization server; JWTs must carry it as "iss".
  std::string issuer;
  /// jwks (a {"keys": [...]} object) or jwks_uri (fetched on first use and when a key id is
  /// unknown); without both, the issuer's metadata's jwks_uri is used.
  json jwks;
  std::string jwks_uri;
  /// jwks_refetch_interval: after a fetch, a token with an unknown key id waits this long
  /// before it can cause another (so a peer sending made-up key ids cannot make the server
  /// fetch the key set on every request); 0 refetches on every unknown id.
  std::chrono::milliseconds jwks_refetch_interval = std::chrono::seconds(30);
  /// introspection_endpoint, when set, validates tokens that are not JWTs (RFC 7662), with
  /// these client credentials (HTTP Basic).
  std::string introspection_endpoint, introspection_client_id, introspection_client_secret;
  std::vector<std::string> scopes_supported;  ///< published in the metadata
  std::vector<std::string> required_scopes;   ///< needed for every request
  /// tool_scopes: tool name -> scopes tools/call of that tool needs (besides required_scopes).
  std::map<std::string, std::vector<std::string>> tool_scopes;
  long long leeway_seconds = 60;  ///< clock skew allowed on exp/nbf
  http::transport sender;         ///< empty: http::send
};

/// rs_decision: status 0 lets the request through; otherwise it is the answer to send.
struct rs_decision {
  int status = 0;
  /// principal, when the request is let through: who the token speaks for ("sub:" and the
  /// token's subject, or "client_id:" and the client when it has no subject). The MCP server
  /// binds the tasks a request creates to it (http_auth_decision::principal).
  std::string principal;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string content_type = "application/json";
};

class resource_server {
 public:
  /// Throws std::invalid_argument when resource or issuer is not an http(s) URL.
  explicit resource_server(resource_server_options o);

  /// check decides one request. `is_endpoint`: the MCP endpoint (else another path; the
  /// metadata path gets the metadata, anything else passes through).
  rs_decision check(std::string_view method, std::string_view target,
                    const std::vector<std::pair<std::string, std::string>>& headers,
                    std::string_view body, bool is_endpoint);
  /// metadata is the protected resource metadata document.
  json metadata() const;
  /// metadata_url is where it is served.
  std::string metadata_url() const;
  std::string metadata_path() const;

  /// token_info is a validated token's claims (for tests and logging: never the token).
  struct token_info {
    std::string subject, client_id;
    std::vector<std::string> scopes;
  };
  /// validate checks a token; the error message is the RFC 6750 error_description.
  result<token_info> validate(const std::string& token);

 private:
  rs_decision challenge(int status, const std::string& error, const std::string& description,
                        const std::string& scope) const;
  result<token_info> validate_jwt(const std::string& token);
  result<token_info> introspect(const std::string& token);
  result<signing_key> key_for(const std::string& kid, const std::string& alg);

  /// issuer_key is a key of the issuer's key set, decoded once when the set arrives.
  struct issuer_key {
    std::string kid;
    signing_key key;
  };
  void set_keys(const json& jwks);

  resource_server_options o_;
  http::transport send_;
  std::mutex mu_;
  std::vector<issuer_key> keys_;  ///< the readable signing keys of the last key set
  std::optional<std::chrono::steady_clock::time_point> fetched_at_;  ///< the last key-set fetch
};

}  // namespace tooluse::auth
