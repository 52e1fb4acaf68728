#pragma once
/// \file oauth.hpp
/// tooluse::auth, the OAuth 2.1 client of the MCP authorization spec (2025-11-25, 2026-07-28)
/// and its extensions. An HTTP transport holds an http_authorizer: it asks it for the headers
/// of every request, and hands it every 401/403 so it can (re)authorize and say "send again".
///
/// make_oauth_authorizer gives the full client: protected resource metadata discovery
/// (RFC 9728: the WWW-Authenticate resource_metadata URL, then the path-suffixed and root
/// well-known URLs), authorization server metadata (RFC 8414 and OpenID Connect discovery in
/// the spec's order, issuer checked exactly), client registration (pre-registered, Client ID
/// Metadata Document, or dynamic registration RFC 7591, in that order), authorization code
/// with PKCE S256, the resource indicator (RFC 8707) and the RFC 9207 iss check, scope
/// selection and step-up, refresh tokens, authorization server migration; the grants of the
/// extensions (client credentials with a secret or a private-key JWT, RFC 7523 JWT bearer for
/// workload identity, enterprise-managed authorization: token exchange then JWT bearer); DPoP
/// (RFC 9449, with server nonces) whenever the authorization server offers it.
/// Secrets never reach the log callback.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/auth/jose.hpp"
#include "tooluse/http/client.hpp"
#include "tooluse/json.hpp"
#include "tooluse/result.hpp"

namespace tooluse::auth {

using header_list = std::vector<http::header>;

/// http_authorizer supplies credentials to an HTTP transport. Thread-safe.
class http_authorizer {
 public:
  virtual ~http_authorizer() = default;
  /// headers_for returns the headers to add to a request (Authorization, DPoP); empty before
  /// any authorization. An error means credentials exist but could not be produced.
  virtual result<header_list> headers_for(std::string_view method, std::string_view url) = 0;
  /// on_challenge is called with a 401 or 403 response to a request that carried `sent`.
  /// true: send the request again (with new headers_for()); false: let the response stand;
  /// an error: authorization failed, with a message saying why and what to do.
  virtual result<bool> on_challenge(int status, const std::vector<http::header>& response,
                                    const header_list& sent, std::string_view method,
                                    std::string_view url) = 0;
  /// on_response sees the headers of every other response (DPoP-Nonce updates).
  virtual void on_response(const std::vector<http::header>& response) { (void)response; }
};

/// challenge is one parsed WWW-Authenticate challenge (RFC 9110 §11.6.1).
struct challenge {
  std::string scheme;                                       ///< e.g. "Bearer" or "DPoP", as sent
  std::vector<std::pair<std::string, std::string>> params;  ///< names lower-cased
  std::string param(std::string_view name) const;
};
/// parse_www_authenticate reads every challenge of a WWW-Authenticate value.
std::vector<challenge> parse_www_authenticate(std::string_view value);

/// grant selects how tokens are obtained.
enum class grant {
  authorization_code,  ///< interactive: the user authorizes in a browser
  client_credentials,  ///< machine to machine: a client secret or private-key JWT
  jwt_bearer,          ///< RFC 7523 with a workload identity JWT (assertion)
  enterprise,          ///< token exchange at the enterprise IdP (ID-JAG), then JWT bearer
};

/// client_credentials are pre-registered client credentials, for one issuer or any.
struct client_credentials {
  std::string client_id;
  std::string client_secret;  ///< empty: a public client
  std::string issuer;         ///< empty: use with whatever authorization server
};

/// token_store persists per-server state (tokens, the registration); a JSON object per key.
class token_store {
 public:
  virtual ~token_store() = default;
  virtual std::optional<json> load(const std::string& key) = 0;
  virtual status save(const std::string& key, const json& state) = 0;
  virtual status erase(const std::string& key) = 0;
};

/// file_token_store keeps every server's state in one JSON file written with mode 0600
/// (default path: $XDG_STATE_HOME/tooluse/mcp-tokens.json, else
/// ~/.local/state/tooluse/mcp-tokens.json).
std::shared_ptr<token_store> make_file_token_store(std::string path = "");
std::string default_token_store_path();

/// oauth_options configure make_oauth_authorizer.
struct oauth_options {
  grant grant_type = grant::authorization_code;
  std::string client_name = "tooluse";
  /// redirect_uri is registered and sent in the authorization request (authorization_code).
  std::string redirect_uri = "http://127.0.0.1:33418/callback";
  /// open_browser shows the user the authorization URL and returns the URL the authorization
  /// server redirected back to (with code, state, iss). Required for authorization_code.
  std::function<result<std::string>(const std::string& authorization_url)> open_browser;
  /// client_metadata_url is this client's Client ID Metadata Document URL (https), used as the
  /// client_id where the authorization server supports it.
  std::string client_metadata_url;
  std::optional<client_credentials> preregistered;
  /// private_key_pem signs private_key_jwt client assertions (client_credentials).
  std::string private_key_pem;
  std::string signing_alg;  ///< default: from the key (ES256 for P-256)
  /// assertion returns the workload identity JWT (grant::jwt_bearer).
  std::function<result<std::string>()> assertion;
  /// enterprise-managed authorization: the IdP's token endpoint, our client there, and the
  /// user's ID token to exchange.
  std::string idp_token_endpoint, idp_client_id, idp_client_secret, id_token;
  /// scope is requested in addition to what the server asks for.
  std::string scope;
  /// dpop binds tokens to a key (RFC 9449) when the authorization server offers it.
  bool dpop = true;
  /// max_authorizations bounds authorizations triggered by one request (step-up loops).
  int max_authorizations = 2;
  std::shared_ptr<token_store> store;
  /// store_key names this server in the store; default: the server URL.
  std::string store_key;
  http::transport sender;  ///< empty: http::send
  /// log receives progress lines (never tokens or secrets).
  std::function<void(const std::string&)> log;
};

/// oauth_authorizer is the OAuth client for one MCP server URL.
class oauth_authorizer : public http_authorizer {
 public:
  /// authorize runs discovery and a grant now (CLI login) rather than on the first 401.
  virtual status authorize() = 0;
  /// logout forgets the tokens (and the store entry).
  virtual status logout() = 0;
  /// has_token is true once a token is held.
  virtual bool has_token() const = 0;
  /// state is the persisted state (with secrets), for tests and the store.
  virtual json state() const = 0;
};

/// make_oauth_authorizer makes the client for the MCP server at `server_url`. Throws
/// std::invalid_argument for a URL that is not http(s) or options a grant cannot use.
std::shared_ptr<oauth_authorizer> make_oauth_authorizer(std::string server_url,
                                                        oauth_options options);

/// dpop_proof makes a DPoP proof JWT (RFC 9449 §4.2) for `method` and `url` (query and
/// fragment dropped), with the server nonce and the access token hash when given.
result<std::string> dpop_proof(const signing_key& key, std::string_view method,
                               std::string_view url, std::string_view nonce = {},
                               std::string_view access_token = {});

}  // namespace tooluse::auth

namespace tooluse::auth {

/// loopback_receiver listens on 127.0.0.1 for the authorization server's redirect (RFC 8252
/// §7.3): the browser is sent to redirect_uri() and wait() returns the full URL it asked for.
class loopback_receiver {
 public:
  /// open binds 127.0.0.1:`port` (0: any free port). Errors: errc::io_error.
  static result<std::unique_ptr<loopback_receiver>> open(unsigned short port = 0);
  ~loopback_receiver();
  loopback_receiver(const loopback_receiver&) = delete;
  loopback_receiver& operator=(const loopback_receiver&) = delete;
  std::string redirect_uri() const;
  /// wait answers requests until one for /callback arrives and returns its URL.
  /// Errors: errc::timeout after `timeout`.
  result<std::string> wait(std::chrono::seconds timeout);

 private:
  loopback_receiver(int fd, unsigned short port) : fd_(fd), port_(port) {}
  int fd_;
  unsigned short port_;
};

/// make_token_command_authorizer runs `command` (through /bin/sh) for a bearer token and
/// runs it again when the server answers 401; its stdout, trimmed, is the token.
std::shared_ptr<http_authorizer> make_token_command_authorizer(std::string command);

}  // namespace tooluse::auth
