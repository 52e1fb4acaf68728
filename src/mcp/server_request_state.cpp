// Sealing of 2026-07-28 requestState: base64url(JSON) "." hex(HMAC-SHA256(key, base64url part)),
// so a handler can trust the state a client sends back.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <stdexcept>

#include "mcp/server_impl.hpp"
#include "tooluse/base64.hpp"

namespace tooluse::mcp {
namespace {

std::string to_hex(const unsigned char* data, std::size_t n) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(hex[data[i] >> 4]);
    out.push_back(hex[data[i] & 15]);
  }
  return out;
}

std::string mac(const std::string& key, std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(), &len);
  return to_hex(out.data(), len);
}

}  // namespace

std::string random_token(std::size_t bytes) {
  std::string buf(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(buf.data()), static_cast<int>(bytes)) != 1)
    throw std::runtime_error("random_token: the system random generator failed");
  return to_hex(reinterpret_cast<const unsigned char*>(buf.data()), bytes);
}

std::string seal_state(const std::string& key, const json& state) {
  std::string body = base64url_encode(dump_json(state));
  return body + "." + mac(key, body);
}

std::optional<json> open_state(const std::string& key, std::string_view sealed) {
  auto dot = sealed.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view body = sealed.substr(0, dot);
  std::string expected = mac(key, body);
  std::string_view got = sealed.substr(dot + 1);
  if (got.size() != expected.size() || CRYPTO_memcmp(got.data(), expected.data(), got.size()) != 0)
    return std::nullopt;
  auto text = base64url_decode(body);
  if (!text) return std::nullopt;
  auto j = parse_json(*text);
  if (!j) return std::nullopt;
  return *j;
}

}  // namespace tooluse::mcp
