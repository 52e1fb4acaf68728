// JOSE on OpenSSL: sign/verify round trips, RFC 7638 thumbprints, JWK import, DPoP proofs;
// WWW-Authenticate parsing; the 0600 token file.

#include "tooluse/auth/jose.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "support/test_support.hpp"
#include "tooluse/auth/oauth.hpp"

namespace auth = tooluse::auth;
using tooluse::json;

TEST(jose, base64url_round_trip) {
  EXPECT_EQ(auth::base64url_encode("\xfb\xff"), "-_8");
  EXPECT_EQ(*auth::base64url_decode("-_8"), "\xfb\xff");
  EXPECT_EQ(auth::base64_encode("user:pass"), "dXNlcjpwYXNz");
  EXPECT_FALSE(auth::base64url_decode("a*b"));
}

TEST(jose, rfc7638_thumbprint_of_the_rfc_example_key) {
  json jwk = {
      {"kty", "RSA"},
      {"n",
       "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_"
       "BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_"
       "FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-"
       "bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"},
      {"e", "AQAB"}};
  auto key = auth::signing_key::from_jwk(jwk);
  ASSERT_TRUE(key) << key.error().message;
  EXPECT_EQ(key->thumbprint(), "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
}

TEST(jose, es256_and_rs256_sign_and_verify_through_the_public_jwk) {
  for (const char* alg : {"ES256", "ES384", "RS256", "PS256"}) {
    auto key = auth::signing_key::generate(alg);
    ASSERT_TRUE(key) << alg;
    auto jwt = auth::sign_jwt({{"typ", "JWT"}}, {{"sub", "me"}}, *key);
    ASSERT_TRUE(jwt) << alg;
    auto d = auth::decode_jwt(*jwt);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->header["alg"], alg);
    auto pub = auth::signing_key::from_jwk(key->public_jwk());
    ASSERT_TRUE(pub) << alg;
    EXPECT_TRUE(pub->verify(d->signing_input, d->signature, alg)) << alg;
    EXPECT_FALSE(pub->verify(d->signing_input + "x", d->signature, alg)) << alg;
    // A key from PEM signs the same way.
    auto again = auth::signing_key::from_pem(key->private_pem());
    ASSERT_TRUE(again) << alg;
    EXPECT_EQ(again->thumbprint(), key->thumbprint());
  }
}

TEST(jose, dpop_proof_has_the_rfc9449_shape) {
  auto key = auth::signing_key::generate("ES256");
  ASSERT_TRUE(key);
  auto proof = auth::dpop_proof(*key, "POST", "https://rs.example/mcp?x=1#f", "n-1", "token");
  ASSERT_TRUE(proof);
  auto d = auth::decode_jwt(*proof);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->header["typ"], "dpop+jwt");
  EXPECT_FALSE(d->header["jwk"].contains("d"));
  EXPECT_EQ(d->claims["htu"], "https://rs.example/mcp");
  EXPECT_EQ(d->claims["htm"], "POST");
  EXPECT_EQ(d->claims["nonce"], "n-1");
  EXPECT_EQ(d->claims["ath"], auth::base64url_encode(auth::sha256("token")));
  EXPECT_TRUE(d->claims.contains("jti"));
}

TEST(www_authenticate, parses_several_challenges_and_quoted_values) {
  auto cs = auth::parse_www_authenticate(
      R"(Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp", DPoP algs="ES256")");
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_EQ(cs[0].scheme, "Bearer");
  EXPECT_EQ(cs[0].param("error"), "insufficient_scope");
  EXPECT_EQ(cs[0].param("scope"), "a b");
  EXPECT_EQ(cs[0].param("resource_metadata"), "https://x/.well-known/oauth-protected-resource/mcp");
  EXPECT_EQ(cs[1].scheme, "DPoP");
  EXPECT_EQ(cs[1].param("algs"), "ES256");
  EXPECT_EQ(auth::parse_www_authenticate("Bearer").at(0).scheme, "Bearer");
}

TEST(token_store, file_is_created_with_mode_0600) {
  tooluse::testing::temp_dir dir;
  auto path = (dir.path() / "state" / "tokens.json").string();
  auto store = auth::make_file_token_store(path);
  ASSERT_TRUE(store->save("https://a/mcp", {{"tokens", {{"access_token", "t"}}}}));
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ((*store->load("https://a/mcp"))["tokens"]["access_token"], "t");
  ASSERT_TRUE(store->erase("https://a/mcp"));
  EXPECT_FALSE(store->load("https://a/mcp"));
}
