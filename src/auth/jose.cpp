// JOSE on OpenSSL 3 EVP: keys, JWS sign/verify, JWK import/export, RFC 7638 thumbprints.
// ECDSA signatures are converted between DER (OpenSSL) and raw r||s (JWS, RFC 7518 §3.4).

#include "tooluse/auth/jose.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

#include "tooluse/base64.hpp"
#include "wire.hpp"

namespace tooluse::auth {

// The key's owner is a member of signing_key::impl, which has linkage, so it is not file-local.
namespace detail {
struct pkey_deleter {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_deleter>;
}  // namespace detail
using detail::pkey_ptr;

namespace {

const EVP_MD* digest_for(std::string_view alg) {
  if (alg.size() != 5) return nullptr;
  auto bits = alg.substr(2);
  if (bits == "256") return EVP_sha256();
  if (bits == "384") return EVP_sha384();
  if (bits == "512") return EVP_sha512();
  return nullptr;
}

std::size_t ec_coordinate_size(std::string_view alg) {
  if (alg == "ES256") return 32;
  if (alg == "ES384") return 48;
  if (alg == "ES512") return 66;
  return 0;
}

std::string bn_bytes(const BIGNUM* bn, std::size_t pad = 0) {
  std::size_t n = pad ? pad : static_cast<std::size_t>(BN_num_bytes(bn));
  std::string out(n, '\0');
  BN_bn2binpad(bn, reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n));
  return out;
}

std::string get_bn(EVP_PKEY* k, const char* name, std::size_t pad = 0) {
  BIGNUM* bn = nullptr;
  if (!EVP_PKEY_get_bn_param(k, name, &bn)) return {};
  std::string out = bn_bytes(bn, pad);
  BN_free(bn);
  return out;
}

std::string curve_name(EVP_PKEY* k) {
  std::array<char, 64> name{};
  std::size_t len = 0;
  if (!EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME, name.data(), name.size(),
                                      &len))
    return {};
  return std::string(name.data(), len);
}

std::string default_alg(EVP_PKEY* k) {
  if (EVP_PKEY_is_a(k, "EC")) {
    auto c = curve_name(k);
    if (c == "prime256v1" || c == "P-256") return "ES256";
    if (c == "secp384r1" || c == "P-384") return "ES384";
    if (c == "secp521r1" || c == "P-521") return "ES512";
    return {};
  }
  if (EVP_PKEY_is_a(k, "RSA")) return "RS256";
  return {};
}

}  // namespace

std::string base64url_encode(std::string_view bytes) { return tooluse::base64url_encode(bytes); }
std::string base64_encode(std::string_view bytes) { return tooluse::base64_encode(bytes); }

result<std::string> base64url_decode(std::string_view text) {
  // Either alphabet: some servers send standard base64 where base64url is due.
  std::string s(text);
  std::replace(s.begin(), s.end(), '+', '-');
  std::replace(s.begin(), s.end(), '/', '_');
  auto out = tooluse::base64url_decode(s);
  if (!out) return fail(errc::invalid_argument, "not base64url text");
  return std::move(*out);
}

std::string sha256(std::string_view bytes) {
  std::string out(32, '\0');
  unsigned len = 0;
  EVP_Digest(bytes.data(), bytes.size(), reinterpret_cast<unsigned char*>(out.data()), &len,
             EVP_sha256(), nullptr);
  return out;
}

std::string random_token(std::size_t bytes) {
  std::string raw(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(bytes)) != 1)
    throw std::runtime_error("OpenSSL RAND_bytes failed");
  return base64url_encode(raw);
}

struct signing_key::impl {
  pkey_ptr key;
};

signing_key::signing_key() = default;
signing_key::~signing_key() = default;
signing_key::signing_key(signing_key&&) noexcept = default;
signing_key& signing_key::operator=(signing_key&&) noexcept = default;
signing_key::signing_key(const signing_key&) = default;
signing_key& signing_key::operator=(const signing_key&) = default;

bool signing_key::valid() const { return p_ && p_->key; }

result<signing_key> signing_key::generate(std::string_view alg) {
  EVP_PKEY* k = nullptr;
  if (alg == "ES256")
    k = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
  else if (alg == "ES384")
    k = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-384");
  else if (alg == "ES512")
    k = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-521");
  else if (alg.starts_with("RS") || alg.starts_with("PS"))
    k = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(2048));
  else
    return fail(errc::invalid_argument, "signing key: unsupported algorithm \"" + std::string(alg) +
                                            "\"; use ES256, ES384, ES512, RS256 or PS256");
  if (!k) return fail(errc::internal, "signing key: OpenSSL could not generate a key");
  signing_key out;
  out.p_ = std::make_shared<impl>();
  out.p_->key.reset(k);
  out.alg_ = std::string(alg);
  return out;
}

result<signing_key> signing_key::from_pem(std::string_view pem, std::string_view alg) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  EVP_PKEY* k = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  if (!k) {
    BIO_free(bio);
    bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    k = PEM_read_bio_PUBKEY(bio, nullptr, nullptr, nullptr);
  }
  BIO_free(bio);
  if (!k)
    return fail(errc::invalid_argument,
                "signing key: the PEM text is not a private or public key OpenSSL can read");
  signing_key out;
  out.p_ = std::make_shared<impl>();
  out.p_->key.reset(k);
  out.alg_ = alg.empty() ? default_alg(k) : std::string(alg);
  if (out.alg_.empty()) return fail(errc::invalid_argument, "signing key: unsupported key type");
  return out;
}

result<signing_key> signing_key::from_jwk(const json& j) {
  auto jwk = decode<wire::jwk>(j, "jwk");
  if (!jwk) return fail(errc::invalid_argument, "JWK is malformed: " + jwk.error().message);
  const std::string& kty = jwk->kty;
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  std::vector<BIGNUM*> bns;
  std::string pub, type, alg = jwk->alg.value_or("");
  auto field = [](const std::optional<std::string>& v, const char* name) -> result<std::string> {
    if (!v) return fail(errc::invalid_argument, std::string("JWK: missing \"") + name + "\"");
    return base64url_decode(*v);
  };
  auto cleanup = [&] {
    for (auto* b : bns) BN_free(b);
    OSSL_PARAM_BLD_free(bld);
  };
  if (kty == "EC") {
    std::string crv = jwk->crv.value_or("");
    const char* group = crv == "P-256"   ? "prime256v1"
                        : crv == "P-384" ? "secp384r1"
                        : crv == "P-521" ? "secp521r1"
                                         : nullptr;
    auto x = field(jwk->x, "x");
    auto y = field(jwk->y, "y");
    if (!group || !x || !y) {
      cleanup();
      return fail(errc::invalid_argument, "JWK: an EC key needs crv P-256/384/521, x and y");
    }
    pub = std::string(1, '\x04') + *x + *y;
    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub.data(), pub.size());
    type = "EC";
    if (alg.empty()) alg = crv == "P-256" ? "ES256" : crv == "P-384" ? "ES384" : "ES512";
  } else if (kty == "RSA") {
    auto n = field(jwk->n, "n");
    auto e = field(jwk->e, "e");
    if (!n || !e) {
      cleanup();
      return fail(errc::invalid_argument, "JWK: an RSA key needs n and e");
    }
    for (const auto* s : {&*n, &*e})
      bns.push_back(BN_bin2bn(reinterpret_cast<const unsigned char*>(s->data()),
                              static_cast<int>(s->size()), nullptr));
    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bns[0]);
    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bns[1]);
    type = "RSA";
    if (alg.empty()) alg = "RS256";
  } else {
    cleanup();
    return fail(errc::invalid_argument, "JWK: unsupported kty \"" + kty + "\"");
  }
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, type.c_str(), nullptr);
  EVP_PKEY* k = nullptr;
  bool ok = ctx && EVP_PKEY_fromdata_init(ctx) == 1 &&
            EVP_PKEY_fromdata(ctx, &k, EVP_PKEY_PUBLIC_KEY, params) == 1;
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  cleanup();
  if (!ok || !k) return fail(errc::invalid_argument, "JWK: OpenSSL rejected the key");
  signing_key out;
  out.p_ = std::make_shared<impl>();
  out.p_->key.reset(k);
  out.alg_ = alg;
  return out;
}

json signing_key::public_jwk() const {
  if (!valid()) return json::object();
  EVP_PKEY* k = p_->key.get();
  if (EVP_PKEY_is_a(k, "EC")) {
    auto c = curve_name(k);
    std::string crv = c == "prime256v1" ? "P-256" : c == "secp384r1" ? "P-384" : "P-521";
    std::size_t size = crv == "P-256" ? 32 : crv == "P-384" ? 48 : 66;
    return {{"kty", "EC"},
            {"crv", crv},
            {"x", base64url_encode(get_bn(k, OSSL_PKEY_PARAM_EC_PUB_X, size))},
            {"y", base64url_encode(get_bn(k, OSSL_PKEY_PARAM_EC_PUB_Y, size))}};
  }
  return {{"kty", "RSA"},
          {"n", base64url_encode(get_bn(k, OSSL_PKEY_PARAM_RSA_N))},
          {"e", base64url_encode(get_bn(k, OSSL_PKEY_PARAM_RSA_E))}};
}

std::string signing_key::thumbprint() const {
  json j = public_jwk();  // nlohmann objects keep keys sorted; dump() has no whitespace
  json req = j["kty"] == "EC" ? json{{"crv", j["crv"]}, {"kty", "EC"}, {"x", j["x"]}, {"y", j["y"]}}
                              : json{{"e", j["e"]}, {"kty", "RSA"}, {"n", j["n"]}};
  return base64url_encode(sha256(req.dump()));
}

std::string signing_key::private_pem() const {
  if (!valid()) return {};
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, p_->key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  long len = BIO_get_mem_data(bio, &data);
  std::string out(data, static_cast<std::size_t>(len));
  BIO_free(bio);
  return out;
}

result<std::string> signing_key::sign(std::string_view input) const {
  const EVP_MD* md = digest_for(alg_);
  if (!valid() || !md) return fail(errc::invalid_argument, "JWS: no usable key for " + alg_);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_PKEY_CTX* pctx = nullptr;
  std::string sig;
  bool ok = EVP_DigestSignInit(ctx, &pctx, md, nullptr, p_->key.get()) == 1;
  if (ok && alg_.starts_with("PS")) {
    ok = EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1 &&
         EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1;
  }
  std::size_t len = 0;
  ok =
      ok && EVP_DigestSign(ctx, nullptr, &len, reinterpret_cast<const unsigned char*>(input.data()),
                           input.size()) == 1;
  if (ok) {
    sig.resize(len);
    ok = EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(sig.data()), &len,
                        reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
    sig.resize(len);
  }
  EVP_MD_CTX_free(ctx);
  if (!ok) return fail(errc::internal, "JWS: OpenSSL could not sign with " + alg_);
  if (std::size_t n = ec_coordinate_size(alg_)) {  // DER -> r||s
    const auto* p = reinterpret_cast<const unsigned char*>(sig.data());
    ECDSA_SIG* es = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(sig.size()));
    if (!es) return fail(errc::internal, "JWS: malformed ECDSA signature");
    std::string raw = bn_bytes(ECDSA_SIG_get0_r(es), n) + bn_bytes(ECDSA_SIG_get0_s(es), n);
    ECDSA_SIG_free(es);
    return raw;
  }
  return sig;
}

bool signing_key::verify(std::string_view input, std::string_view signature,
                         std::string_view alg) const {
  const EVP_MD* md = digest_for(alg);
  if (!valid() || !md) return false;
  EVP_PKEY* k = p_->key.get();
  bool is_ec = alg.starts_with("ES"), is_rsa = alg.starts_with("RS") || alg.starts_with("PS");
  if ((is_ec && !EVP_PKEY_is_a(k, "EC")) || (is_rsa && !EVP_PKEY_is_a(k, "RSA"))) return false;
  std::string sig(signature);
  if (std::size_t n = ec_coordinate_size(alg)) {  // r||s -> DER
    if (signature.size() != 2 * n) return false;
    ECDSA_SIG* es = ECDSA_SIG_new();
    auto* r = BN_bin2bn(reinterpret_cast<const unsigned char*>(signature.data()),
                        static_cast<int>(n), nullptr);
    auto* s = BN_bin2bn(reinterpret_cast<const unsigned char*>(signature.data() + n),
                        static_cast<int>(n), nullptr);
    ECDSA_SIG_set0(es, r, s);
    unsigned char* der = nullptr;
    int len = i2d_ECDSA_SIG(es, &der);
    ECDSA_SIG_free(es);
    if (len <= 0) return false;
    sig.assign(reinterpret_cast<char*>(der), static_cast<std::size_t>(len));
    OPENSSL_free(der);
  }
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_PKEY_CTX* pctx = nullptr;
  bool ok = EVP_DigestVerifyInit(ctx, &pctx, md, nullptr, k) == 1;
  if (ok && alg.starts_with("PS"))
    ok = EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1 &&
         EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1;
  ok = ok &&
       EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(sig.data()), sig.size(),
                        reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
  EVP_MD_CTX_free(ctx);
  return ok;
}

result<std::string> sign_jwt(json header, const json& claims, const signing_key& key) {
  header["alg"] = key.alg();
  std::string input = base64url_encode(header.dump()) + "." + base64url_encode(claims.dump());
  auto sig = key.sign(input);
  if (!sig) return fail(sig.error());
  return input + "." + base64url_encode(*sig);
}

result<decoded_jwt> decode_jwt(std::string_view token) {
  auto a = token.find('.');
  auto b = a == std::string_view::npos ? a : token.find('.', a + 1);
  if (b == std::string_view::npos || token.find('.', b + 1) != std::string_view::npos)
    return fail(errc::invalid_argument, "JWT: not three dot-separated parts");
  auto h = base64url_decode(token.substr(0, a));
  auto c = base64url_decode(token.substr(a + 1, b - a - 1));
  auto s = base64url_decode(token.substr(b + 1));
  if (!h || !c || !s) return fail(errc::invalid_argument, "JWT: a part is not base64url");
  // Peer input: parsed within the process's JSON limits.
  auto header = parse_json(*h);
  auto claims = parse_json(*c);
  if (!header || !claims || !header->is_object() || !claims->is_object())
    return fail(errc::invalid_argument, "JWT: header or claims are not JSON objects");
  decoded_jwt out;
  out.header = std::move(*header);
  out.claims = std::move(*claims);
  out.signing_input = std::string(token.substr(0, b));
  out.signature = std::move(*s);
  return out;
}

}  // namespace tooluse::auth
