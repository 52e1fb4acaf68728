#include "tooluse/error.hpp"

#include "tooluse/enum_names.hpp"
namespace tooluse {

TOOLUSE_ENUM_NAMES(errc, (invalid_argument), (parse_error), (schema_error), (validation_failed),
                   (not_found), (already_exists), (timeout), (cancelled), (io_error),
                   (network_error), (http_error), (protocol_error), (rate_limited),
                   (budget_exceeded), (permission_denied), (unsupported), (internal),
                   (limit_exceeded))

std::string_view to_string(errc code) noexcept { return enum_name(code, "unknown"); }

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
