#pragma once
/// \file base64.hpp
/// Base64 (RFC 4648 §4) and base64url (§5) through OpenSSL's EVP_EncodeBlock/EVP_DecodeBlock.

#include <optional>
#include <string>
#include <string_view>

namespace tooluse {

/// base64_encode: standard alphabet, padded with '='.
std::string base64_encode(std::string_view bytes);

/// base64_decode accepts padded or unpadded input in the standard alphabet; nullopt when a
/// character is outside it or the length cannot be base64.
std::optional<std::string> base64_decode(std::string_view text);

/// base64url_encode: URL-safe alphabet ('-', '_'), without padding (as JWS and MCP use it).
std::string base64url_encode(std::string_view bytes);

/// base64url_decode accepts padded or unpadded URL-safe input; nullopt when it is not base64url.
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace tooluse
