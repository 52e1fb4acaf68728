#include "tooluse/error.hpp"

namespace tooluse {

std::string_view to_string(errc code) noexcept {
  switch (code) {
    case errc::invalid_argument: return "invalid_argument";
    case errc::parse_error: return "parse_error";
    case errc::schema_error: return "schema_error";
    case errc::validation_failed: return "validation_failed";
    case errc::not_found: return "not_found";
    case errc::already_exists: return "already_exists";
    case errc::timeout: return "timeout";
    case errc::cancelled: return "cancelled";
    case errc::io_error: return "io_error";
    case errc::network_error: return "network_error";
    case errc::http_error: return "http_error";
    case errc::protocol_error: return "protocol_error";
    case errc::rate_limited: return "rate_limited";
    case errc::budget_exceeded: return "budget_exceeded";
    case errc::permission_denied: return "permission_denied";
    case errc::unsupported: return "unsupported";
    case errc::internal: return "internal";
    case errc::limit_exceeded: return "limit_exceeded";
  }
  return "unknown";
}

std::string error::what() const {
  std::string out(to_string(code));
  out += ": ";
  out += message;
  return out;
}

error limit_error(std::string_view what, std::string_view option, unsigned long long limit,
                  std::string_view unit) {
  std::string msg(what);
  msg += " exceeds the limit ";
  msg += option;
  msg += " = ";
  msg += std::to_string(limit);
  if (!unit.empty()) {
    msg += ' ';
    msg += unit;
  }
  msg += "; raise ";
  msg += option;
  msg += " if this peer is trusted (see docs/limits.md)";
  return error{errc::limit_exceeded, std::move(msg)};
}

}  // namespace tooluse
