// Base64 over OpenSSL: EVP_EncodeBlock writes padded standard base64; EVP_DecodeBlock decodes
// whole 4-character groups and counts padding as zero bytes, so we pad and trim around it.
#include "tooluse/base64.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>

namespace tooluse {
namespace {

const unsigned char* bytes_of(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes_of(bytes),
                          static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  // EVP_DecodeBlock skips leading/trailing whitespace; we do not accept any.
  std::size_t pad = 0;
  while (pad < text.size() && pad < 2 && text[text.size() - 1 - pad] == '=') ++pad;
  std::string_view body = text.substr(0, text.size() - pad);
  if (body.size() % 4 == 1) return std::nullopt;
  if (pad && (body.size() + pad) % 4 != 0) return std::nullopt;
  if (std::any_of(body.begin(), body.end(), [](char c) {
        return !(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/');
      }))
    return std::nullopt;
  std::string padded(body);
  std::size_t missing = (4 - padded.size() % 4) % 4;
  padded.append(missing, '=');
  std::string out(padded.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes_of(padded),
                          static_cast<int>(padded.size()));
  if (n < 0) return std::nullopt;
  out.resize(static_cast<std::size_t>(n) - missing);
  return out;
}

std::string base64url_encode(std::string_view bytes) {
  std::string out = base64_encode(bytes);
  while (!out.empty() && out.back() == '=') out.pop_back();
  std::replace(out.begin(), out.end(), '+', '-');
  std::replace(out.begin(), out.end(), '/', '_');
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  if (text.find_first_of("+/") != std::string_view::npos) return std::nullopt;
  std::string s(text);
  std::replace(s.begin(), s.end(), '-', '+');
  std::replace(s.begin(), s.end(), '_', '/');
  return base64_decode(s);
}

}  // namespace tooluse
