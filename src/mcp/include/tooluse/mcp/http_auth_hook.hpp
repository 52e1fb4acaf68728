#pragma once
/// \file http_auth_hook.hpp
/// The authorization hook of the MCP HTTP server: a function asked about each request with
/// its method, target, headers and body, that lets it through or answers it (401/403 with
/// WWW-Authenticate, or 200 with the protected resource metadata at its well-known URL).
/// tooluse::auth::resource_server::check() decides one (OAuth bearer tokens: JWT via the
/// issuer's JWKS, or RFC 7662 introspection; audience and per-tool scopes); a hook passes its
/// rs_decision on field by field, principal included (examples/oauth_protected_server.cpp).

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tooluse::mcp {

/// http_auth_request is what the hook sees of a request (header names as received).
struct http_auth_request {
  std::string_view method;  ///< "POST", "GET", ...
  std::string_view target;  ///< path without the query
  const std::vector<std::pair<std::string, std::string>>& headers;
  std::string_view body;
  bool is_endpoint = false;  ///< the MCP endpoint (else another path, e.g. a well-known one)
};

/// http_auth_decision: status 0 lets the request through; otherwise it is the answer.
struct http_auth_decision {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string content_type = "application/json";
  /// principal, when the request is let through: its authorization context (e.g. the token's
  /// subject). Tasks are bound to it: a task created under one principal is unknown to requests
  /// under another (tasks/get, tasks/result, tasks/cancel, tasks/update; tasks/list omits it).
  /// Empty: no binding beyond the session.
  std::string principal;
};

using http_auth_hook = std::function<http_auth_decision(const http_auth_request&)>;

}  // namespace tooluse::mcp
