// JSON value helpers for validation: equality as JSON Schema defines it, numbers, code points,
// and how values are shown in error messages.
#include <cmath>
#include <cstdio>

#include "schema/schema_impl.hpp"

namespace tooluse::schema::detail {

bool is_integer_value(const json& value) {
  if (value.is_number_integer()) return true;
  if (!value.is_number_float()) return false;
  double d = value.get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

long double to_long_double(const json& value) {
  if (value.is_number_unsigned()) return static_cast<long double>(value.get<std::uint64_t>());
  if (value.is_number_integer()) return static_cast<long double>(value.get<std::int64_t>());
  return static_cast<long double>(value.get<double>());
}

bool json_equal(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_number_integer() && b.is_number_integer() && !a.is_number_unsigned() &&
        !b.is_number_unsigned())
      return a.get<std::int64_t>() == b.get<std::int64_t>();
    return to_long_double(a) == to_long_double(b);
  }
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(); it != a.end(); ++it) {
        auto other = b.find(it.key());
        if (other == b.end() || !json_equal(it.value(), *other)) return false;
      }
      return true;
    }
    case json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (!json_equal(a[i], b[i])) return false;
      return true;
    }
    case json::value_t::string:
      return a.get_ref<const std::string&>() == b.get_ref<const std::string&>();
    case json::value_t::boolean:
      return a.get<bool>() == b.get<bool>();
    default:
      return true;  // null == null
  }
}

std::uint64_t utf8_length(std::string_view text) {
  std::uint64_t n = 0;
  for (char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

std::string short_json(const json& value, std::size_t limit) {
  std::string s = dump_json(value);
  if (s.size() > limit) {
    std::size_t cut = limit;
    // Do not cut a UTF-8 sequence in half.
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    s = s.substr(0, cut) + "...";
  }
  return s;
}

std::string describe_value(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return std::string("boolean ") + (value.get<bool>() ? "true" : "false");
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "integer " + dump_json(value);
    case json::value_t::number_float:
      return "number " + dump_json(value);
    case json::value_t::string:
      return "string " + short_json(value);
    case json::value_t::array:
      return value.empty() ? "an empty array" : "an array of " + std::to_string(value.size()) +
                                                     (value.size() == 1 ? " item" : " items");
    case json::value_t::object:
      return "an object";
    default:
      return "a value";
  }
}

std::string format_number(long double value) {
  if (std::isfinite(value) && std::floor(value) == value && std::fabs(value) < 1e18L) {
    return std::to_string(static_cast<long long>(value));
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17Lg", value);
  // Prefer the shortest form that reads back as the same double.
  for (int precision = 1; precision <= 17; ++precision) {
    char shorter[64];
    std::snprintf(shorter, sizeof shorter, "%.*Lg", precision, value);
    if (std::strtod(shorter, nullptr) == static_cast<double>(value)) return shorter;
  }
  return buf;
}

}  // namespace tooluse::schema::detail
