#pragma once
// The JSON documents the auth module receives, each declared once with TOOLUSE_WIRE (field
// names as on the wire, unknown fields ignored): authorization server metadata (RFC 8414 and
// OpenID Connect Discovery), protected resource metadata (RFC 9728), token responses and
// token error responses (RFC 6749 §5.1, §5.2; RFC 8693), dynamic client registration
// responses (RFC 7591 §3.2.1), JWK sets and JWKs (RFC 7517), JWT headers, access token claims
// and introspection answers (RFC 9068, RFC 7662), and the token store's entry.
// Decode with `tooluse::decode<T>(j, "<root>")`; malformed() turns a mismatch into the
// module's protocol error naming the document and the path. Only the fields the module reads
// are declared, so a field it does not use can never make a document malformed.
// design/codec.md explains the wire mode.

#include <optional>
#include <string>
#include <vector>

#include "tooluse/describe.hpp"
#include "tooluse/json.hpp"
#include "tooluse/result.hpp"

namespace tooluse::auth::wire {

using strings = std::optional<std::vector<std::string>>;

/// authorization_server_metadata (RFC 8414 §2; OpenID Connect Discovery uses the same
/// names). token_endpoint is required: every grant this client runs needs it.
struct authorization_server_metadata {
  std::string issuer;
  std::string token_endpoint;
  std::optional<std::string> authorization_endpoint;
  std::optional<std::string> registration_endpoint;
  std::optional<std::string> jwks_uri;
  strings scopes_supported;
  strings token_endpoint_auth_methods_supported;
  strings code_challenge_methods_supported;
  strings dpop_signing_alg_values_supported;
  std::optional<bool> authorization_response_iss_parameter_supported;
  std::optional<bool> client_id_metadata_document_supported;
};
TOOLUSE_WIRE(authorization_server_metadata, (issuer), (token_endpoint), (authorization_endpoint),
             (registration_endpoint), (jwks_uri), (scopes_supported),
             (token_endpoint_auth_methods_supported), (code_challenge_methods_supported),
             (dpop_signing_alg_values_supported), (authorization_response_iss_parameter_supported),
             (client_id_metadata_document_supported))

/// as_jwks_pointer: what the resource server reads of its issuer's metadata.
struct as_jwks_pointer {
  std::optional<std::string> jwks_uri;
};
TOOLUSE_WIRE(as_jwks_pointer, (jwks_uri))

/// protected_resource_metadata (RFC 9728 §2). authorization_servers is optional there; the
/// client refuses metadata that names none, with its own message.
struct protected_resource_metadata {
  std::string resource;
  strings authorization_servers;
  strings scopes_supported;
};
TOOLUSE_WIRE(protected_resource_metadata, (resource), (authorization_servers), (scopes_supported))

/// token_response (RFC 6749 §5.1; RFC 8693 §2.2.1 for the token exchange). expires_in is json: an
/// integer is read, a string of digits (some servers send "3600") is taken as no lifetime, as
/// before the codec; anything else is malformed (expires_in_of in oauth_client_grants.cpp).
struct token_response {
  std::string access_token;
  std::optional<std::string> token_type;
  std::optional<json> expires_in;
  std::optional<std::string> refresh_token;
  std::optional<std::string> scope;
  std::optional<std::string> issued_token_type;
};
TOOLUSE_WIRE(token_response, (access_token), (token_type), (expires_in), (refresh_token), (scope),
             (issued_token_type))

/// token_error_response (RFC 6749 §5.2).
struct token_error_response {
  std::optional<std::string> error;
  std::optional<std::string> error_description;
  std::optional<std::string> error_uri;
};
TOOLUSE_WIRE(token_error_response, (error), (error_description), (error_uri))

/// registration_response (RFC 7591 §3.2.1): the fields the client keeps.
struct registration_response {
  std::string client_id;
  std::optional<std::string> client_secret;
  std::optional<std::string> token_endpoint_auth_method;
};
TOOLUSE_WIRE(registration_response, (client_id), (client_secret), (token_endpoint_auth_method))

/// jwk (RFC 7517 §4, RFC 7518 §6): the public members of EC and RSA keys.
struct jwk {
  std::string kty;
  std::optional<std::string> kid;
  std::optional<std::string> use;
  std::optional<std::string> alg;
  std::optional<std::string> crv;
  std::optional<std::string> x;
  std::optional<std::string> y;
  std::optional<std::string> n;
  std::optional<std::string> e;
};
TOOLUSE_WIRE(jwk, (kty), (kid), (use), (alg), (crv), (x), (y), (n), (e))

/// jwk_set (RFC 7517 §5). The keys stay json: each is decoded on its own, and one the
/// resource server cannot read is skipped (§5: ignore keys that are not understood).
struct jwk_set {
  std::vector<json> keys;
};
TOOLUSE_WIRE(jwk_set, (keys))

/// jwt_header (RFC 7515 §4.1): what the resource server reads before the signature check.
struct jwt_header {
  std::optional<std::string> alg;
  std::optional<std::string> kid;
  std::optional<std::string> typ;
};
TOOLUSE_WIRE(jwt_header, (alg), (kid), (typ))

/// token_claims: a JWT access token's claims (RFC 9068 §2.2) or an introspection answer
/// (RFC 7662 §2.2), which share their names. aud is json: a string or an array of strings
/// (RFC 7519 §4.1.3), checked by audience_matches. exp and nbf are NumericDates, which may
/// have a fraction.
struct token_claims {
  std::optional<bool> active;
  std::optional<std::string> iss;
  std::optional<std::string> sub;
  std::optional<json> aud;
  std::optional<double> exp;
  std::optional<double> nbf;
  std::optional<std::string> client_id;
  std::optional<std::string> azp;
  std::optional<std::string> scope;
  strings scp;
};
TOOLUSE_WIRE(token_claims, (active), (iss), (sub), (aud), (exp), (nbf), (client_id), (azp), (scope),
             (scp))

/// call_request: what the resource server reads of an MCP request (a tools/call's name, for
/// the tool's scopes).
struct call_name {
  std::optional<std::string> name;
};
TOOLUSE_WIRE(call_name, (name))

struct call_request {
  std::optional<std::string> method;
  std::optional<call_name> params;
};
TOOLUSE_WIRE(call_request, (method), (params))

/// stored_client, stored_tokens, stored_state: one server's entry in the token store (what
/// oauth_client::state() writes).
struct stored_client {
  std::string client_id;
  std::optional<std::string> client_secret;
  std::optional<std::string> method;
};
TOOLUSE_WIRE(stored_client, (client_id), (client_secret), (method))

struct stored_tokens {
  std::optional<std::string> access_token;
  std::optional<std::string> token_type;
  std::optional<std::string> refresh_token;
  std::optional<std::string> scope;
  std::optional<long long> expires_at;
  std::optional<std::string> issuer;
};
TOOLUSE_WIRE(stored_tokens, (access_token), (token_type), (refresh_token), (scope), (expires_at),
             (issuer))

struct stored_state {
  std::optional<std::string> server;
  std::optional<std::string> resource;
  std::optional<std::string> issuer;
  std::optional<stored_client> client;
  std::optional<stored_tokens> tokens;
  std::optional<std::string> dpop_key;
};
TOOLUSE_WIRE(stored_state, (server), (resource), (issuer), (client), (tokens), (dpop_key))

/// malformed is the protocol error for a document that does not decode: `auth: the <what> is
/// malformed: <path>: <mismatch>; <todo>`.
inline error malformed(const std::string& what, const error& e, const std::string& todo) {
  return error{errc::protocol_error, "auth: the " + what + " is malformed: " + e.message +
                                         (todo.empty() ? "" : "; " + todo)};
}

}  // namespace tooluse::auth::wire
