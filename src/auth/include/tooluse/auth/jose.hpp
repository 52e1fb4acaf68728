#pragma once
/// \file jose.hpp
/// tooluse::auth JOSE helpers on OpenSSL EVP: base64url, SHA-256, random strings, asymmetric
/// keys (EC P-256/384/521, RSA) from PEM or generated, compact JWS signing and verification
/// (ES256/384/512, RS256/384/512, PS256/384/512), public JWKs and RFC 7638 thumbprints.
/// Signatures are computed by OpenSSL; this file only frames them as JOSE wants (ECDSA as
/// raw r||s rather than DER).

#include <memory>
#include <string>
#include <string_view>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"

namespace tooluse::auth {

std::string base64url_encode(std::string_view bytes);
/// base64url_decode accepts padded or unpadded input, in the base64url alphabet or the standard
/// one (some servers send it); an error for other characters.
result<std::string> base64url_decode(std::string_view text);
/// base64_encode is standard base64 with padding (HTTP Basic credentials).
std::string base64_encode(std::string_view bytes);
/// sha256 returns the 32-byte digest.
std::string sha256(std::string_view bytes);
/// random_token returns `bytes` random bytes (OpenSSL RAND_bytes) as base64url.
std::string random_token(std::size_t bytes = 32);

/// signing_key is an asymmetric key pair (or a public key only, for verification).
class signing_key {
 public:
  /// generate makes a fresh key: "ES256" (P-256), "ES384", "ES512", or RSA for "RS256"/"PS256".
  static result<signing_key> generate(std::string_view alg = "ES256");
  /// from_pem reads a PKCS#8 or traditional private key, or a public key, in PEM.
  static result<signing_key> from_pem(std::string_view pem, std::string_view alg = "");
  /// from_jwk builds a public key from an EC or RSA JWK.
  static result<signing_key> from_jwk(const json& jwk);

  signing_key();
  ~signing_key();
  signing_key(signing_key&&) noexcept;
  signing_key& operator=(signing_key&&) noexcept;
  signing_key(const signing_key&);
  signing_key& operator=(const signing_key&);

  bool valid() const;
  /// alg is the JWS algorithm this key signs with (e.g. "ES256").
  const std::string& alg() const { return alg_; }
  void set_alg(std::string alg) { alg_ = std::move(alg); }
  /// public_jwk is the public part as a JWK (kty, crv, x, y or kty, n, e).
  json public_jwk() const;
  /// thumbprint is the RFC 7638 SHA-256 JWK thumbprint, base64url.
  std::string thumbprint() const;
  /// private_pem is the PKCS#8 PEM of the private key (for a token store).
  std::string private_pem() const;
  /// sign returns the JWS signature of `input` with alg().
  result<std::string> sign(std::string_view input) const;
  /// verify checks a JWS signature made with `alg`.
  bool verify(std::string_view input, std::string_view signature, std::string_view alg) const;

 private:
  struct impl;
  std::shared_ptr<impl> p_;
  std::string alg_;
};

/// sign_jwt makes a compact JWS: header (alg is set from the key) and claims as JSON.
result<std::string> sign_jwt(json header, const json& claims, const signing_key& key);

/// decoded_jwt is a compact JWS split and decoded, not yet verified.
struct decoded_jwt {
  json header;
  json claims;
  std::string signing_input;  ///< base64url(header) "." base64url(claims)
  std::string signature;      ///< raw signature bytes
};
result<decoded_jwt> decode_jwt(std::string_view token);

}  // namespace tooluse::auth
