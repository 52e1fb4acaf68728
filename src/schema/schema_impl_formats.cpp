// "format" checks (asserted only when compile_options::format_assertion is set): dates and
// times (RFC 3339), durations (ISO 8601), e-mail, host names, IP addresses, URIs, UUIDs, JSON
// pointers and regular expressions.
#include <array>
#include <cctype>
#include <string>

#include "schema/schema_impl.hpp"

namespace tooluse::schema::detail {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// digits reads exactly n ASCII digits at s[pos] as a number, or -1.
int digits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return -1;
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (!is_digit(s[i])) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

int days_in_month(int year, int month) {
  static constexpr std::array<int, 12> k_days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : k_days[static_cast<std::size_t>(month - 1)];
}

bool check_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  int y = digits(s, 0, 4), m = digits(s, 5, 2), d = digits(s, 8, 2);
  return y >= 0 && m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

// RFC 3339 full-time: HH:MM:SS[.frac](Z|+HH:MM|-HH:MM); a leap second must fall on 23:59 UTC.
bool check_time(std::string_view s) {
  if (s.size() < 9 || s[2] != ':' || s[5] != ':') return false;
  int h = digits(s, 0, 2), m = digits(s, 3, 2), sec = digits(s, 6, 2);
  if (h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 60) return false;
  std::size_t i = 8;
  if (i < s.size() && s[i] == '.') {
    std::size_t start = ++i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == start) return false;
  }
  if (i >= s.size()) return false;
  int offset_minutes = 0;
  if (s[i] == 'Z' || s[i] == 'z') {
    if (i + 1 != s.size()) return false;
  } else if (s[i] == '+' || s[i] == '-') {
    if (s.size() != i + 6 || s[i + 3] != ':') return false;
    int oh = digits(s, i + 1, 2), om = digits(s, i + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return false;
    offset_minutes = (s[i] == '+' ? 1 : -1) * (oh * 60 + om);
  } else {
    return false;
  }
  if (sec == 60) {
    int utc = ((h * 60 + m - offset_minutes) % 1440 + 1440) % 1440;
    if (utc != 23 * 60 + 59) return false;
  }
  return true;
}

bool check_date_time(std::string_view s) {
  if (s.size() < 20 || (s[10] != 'T' && s[10] != 't')) return false;
  return check_date(s.substr(0, 10)) && check_time(s.substr(11));
}

// ISO 8601 duration as RFC 3339 appendix A: P[nY][nM][nD][T[nH][nM][nS]] or PnW.
bool check_duration(std::string_view s) {
  if (s.size() < 2 || s[0] != 'P') return false;
  std::string_view date_units = "YMD", time_units = "HMS";
  std::size_t i = 1, unit_pos = 0;
  bool in_time = false, any = false, time_any = false;
  while (i < s.size()) {
    if (s[i] == 'T') {
      if (in_time) return false;
      in_time = true;
      unit_pos = 0;
      ++i;
      continue;
    }
    std::size_t start = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == start || i >= s.size()) return false;
    char unit = s[i++];
    if (unit == 'W') {
      return !in_time && !any && i == s.size();
    }
    // Units come in order without gaps: Y, YM, YMD, M, MD, D (and H, HM, HMS, M, MS, S).
    std::string_view units = in_time ? time_units : date_units;
    auto pos = units.find(unit, unit_pos);
    if (pos == std::string_view::npos || (unit_pos > 0 && pos != unit_pos)) return false;
    unit_pos = pos + 1;
    any = true;
    if (in_time) time_any = true;
  }
  return any && (!in_time || time_any);
}

bool check_hostname(std::string_view s, bool allow_unicode) {
  if (s.empty() || s.size() > 253) return false;
  std::size_t start = 0;
  while (true) {
    auto dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-')
      return false;
    for (char c : label) {
      bool ok = is_alpha(c) || is_digit(c) || c == '-' ||
                (allow_unicode && static_cast<unsigned char>(c) >= 0x80);
      if (!ok) return false;
    }
    // "--" in the third and fourth positions is reserved for A-labels ("xn--").
    if (label.size() >= 4 && label.substr(2, 2) == "--" &&
        !(std::tolower(label[0]) == 'x' && std::tolower(label[1]) == 'n'))
      return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool check_ipv4(std::string_view s) {
  int parts = 0;
  std::size_t i = 0;
  while (true) {
    std::size_t start = i;
    int v = 0;
    while (i < s.size() && is_digit(s[i]) && i - start < 3) v = v * 10 + (s[i++] - '0');
    std::size_t len = i - start;
    if (len == 0 || v > 255 || (len > 1 && s[start] == '0')) return false;
    ++parts;
    if (i == s.size()) return parts == 4;
    if (s[i] != '.' || parts == 4) return false;
    ++i;
  }
}

bool check_ipv6(std::string_view s) {
  if (s.empty() || s.size() > 45) return false;
  int groups = 0;
  bool compressed = false;
  std::size_t i = 0;
  if (s.substr(0, 2) == "::") {
    compressed = true;
    i = 2;
    if (i == s.size()) return true;
  } else if (s[0] == ':') {
    return false;
  }
  while (i < s.size()) {
    std::size_t start = i;
    while (i < s.size() && is_hex(s[i])) ++i;
    std::size_t len = i - start;
    if (i < s.size() && s[i] == '.') {  // embedded IPv4 in the last 32 bits
      if (!check_ipv4(s.substr(start))) return false;
      groups += 2;
      i = s.size();
      break;
    }
    if (len == 0 || len > 4) return false;
    ++groups;
    if (i == s.size()) break;
    if (s[i] != ':') return false;
    ++i;
    if (i < s.size() && s[i] == ':') {
      if (compressed) return false;
      compressed = true;
      ++i;
      if (i == s.size()) break;
    } else if (i == s.size()) {
      return false;
    }
  }
  return compressed ? groups < 8 : groups == 8;
}

bool check_email(std::string_view s, bool allow_unicode) {
  auto at = s.rfind('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == s.size()) return false;
  std::string_view local = s.substr(0, at), domain = s.substr(at + 1);
  if (local.size() >= 2 && local.front() == '"' && local.back() == '"') {
    // quoted local part: anything printable except unescaped quotes
  } else {
    if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string_view::npos)
      return false;
    for (char c : local) {
      bool ok = std::isalnum(static_cast<unsigned char>(c)) ||
                std::string_view("!#$%&'*+-/=?^_`{|}~.").find(c) != std::string_view::npos ||
                (allow_unicode && static_cast<unsigned char>(c) >= 0x80);
      if (!ok) return false;
    }
  }
  if (domain.front() == '[' && domain.back() == ']') {
    std::string_view literal = domain.substr(1, domain.size() - 2);
    if (literal.substr(0, 5) == "IPv6:") return check_ipv6(literal.substr(5));
    return check_ipv4(literal);
  }
  return check_hostname(domain, allow_unicode);
}

// URIs: RFC 3986 syntax check (iri: also non-ASCII). `absolute` requires a scheme.
bool check_uri(std::string_view s, bool absolute, bool allow_unicode) {
  std::size_t colon = s.find(':');
  std::size_t first_delim = s.find_first_of("/?#");
  bool has_scheme = colon != std::string_view::npos && colon > 0 &&
                    (first_delim == std::string_view::npos || colon < first_delim);
  if (has_scheme) {
    if (!is_alpha(s[0])) return false;
    for (std::size_t i = 1; i < colon; ++i)
      if (!is_alpha(s[i]) && !is_digit(s[i]) && s[i] != '+' && s[i] != '-' && s[i] != '.')
        return false;
  } else if (absolute) {
    return false;
  }
  static constexpr std::string_view k_allowed = "-._~:/?#[]@!$&'()*+,;=%";
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '%') {
      if (i + 2 >= s.size() || !is_hex(s[i + 1]) || !is_hex(s[i + 2])) return false;
    } else if (c >= 0x80) {
      if (!allow_unicode) return false;
    } else if (!std::isalnum(c) && k_allowed.find(static_cast<char>(c)) == std::string_view::npos) {
      return false;
    }
  }
  std::string_view rest = has_scheme ? s.substr(colon + 1) : s;
  if (!has_scheme && colon != std::string_view::npos && colon < first_delim) return false;
  std::string_view after_authority = rest;
  if (rest.substr(0, 2) == "//") {
    std::string_view authority = rest.substr(2, rest.find_first_of("/?#", 2) - 2);
    after_authority = rest.substr(2 + authority.size());
    auto at = authority.rfind('@');
    if (at != std::string_view::npos && authority.find('@') != at) return false;
    if (at != std::string_view::npos && authority.substr(0, at).find_first_of("[]") !=
                                            std::string_view::npos)
      return false;
    std::string_view hostport = at == std::string_view::npos ? authority : authority.substr(at + 1);
    if (hostport.size() > 0 && hostport[0] == '[') {
      auto close = hostport.find(']');
      if (close == std::string_view::npos) return false;
      bool future = close > 1 && (hostport[1] == 'v' || hostport[1] == 'V');
      if (!future && !check_ipv6(hostport.substr(1, close - 1))) return false;
      hostport = hostport.substr(close + 1);
      if (!hostport.empty() && hostport[0] != ':') return false;
    } else if (hostport.find_first_of("[]") != std::string_view::npos) {
      return false;
    }
    if (auto port = hostport.find(':'); port != std::string_view::npos)
      for (char c : hostport.substr(port + 1))
        if (!is_digit(c)) return false;
  }
  // '[' and ']' are only allowed in the host; '#' only once.
  if (after_authority.find_first_of("[]") != std::string_view::npos) return false;
  auto hash = s.find('#');
  if (hash != std::string_view::npos && s.find('#', hash + 1) != std::string_view::npos)
    return false;
  return true;
}

// RFC 6570: literals, and expressions "{" [operator] varspec *("," varspec) "}" where a
// varspec is a dotted name with an optional ":maxlength" (1-9999) or "*".
bool check_uri_template_expression(std::string_view e) {
  if (!e.empty() && std::string_view("+#./;?&=,!@|").find(e[0]) != std::string_view::npos)
    e.remove_prefix(1);
  std::size_t start = 0;
  while (true) {
    auto comma = e.find(',', start);
    std::string_view spec = e.substr(start, comma == std::string_view::npos ? comma : comma - start);
    std::size_t i = 0;
    bool need_char = true;
    while (i < spec.size() && spec[i] != ':' && spec[i] != '*') {
      char c = spec[i];
      if (c == '.') {
        if (need_char) return false;
        need_char = true;
        ++i;
      } else if (c == '%') {
        if (i + 2 >= spec.size() || !is_hex(spec[i + 1]) || !is_hex(spec[i + 2])) return false;
        i += 3;
        need_char = false;
      } else if (is_alpha(c) || is_digit(c) || c == '_') {
        ++i;
        need_char = false;
      } else {
        return false;
      }
    }
    if (need_char) return false;
    std::string_view modifier = spec.substr(i);
    if (modifier == "*" || modifier.empty()) {
    } else if (modifier[0] == ':') {
      std::string_view n = modifier.substr(1);
      if (n.empty() || n.size() > 4 || n[0] == '0') return false;
      for (char c : n)
        if (!is_digit(c)) return false;
    } else {
      return false;
    }
    if (comma == std::string_view::npos) return true;
    start = comma + 1;
  }
}

bool check_uri_template(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '{') {
      auto close = s.find('}', i);
      if (close == std::string_view::npos) return false;
      std::string_view e = s.substr(i + 1, close - i - 1);
      if (e.find('{') != std::string_view::npos || !check_uri_template_expression(e)) return false;
      i = close + 1;
      continue;
    }
    if (c == '}' || c <= 0x20 || c == 0x7F) return false;
    ++i;
  }
  return true;
}

bool check_uuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !is_hex(s[i])) return false;
  }
  return true;
}

bool check_json_pointer(std::string_view s) {
  if (!s.empty() && s[0] != '/') return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '~' && (i + 1 >= s.size() || (s[i + 1] != '0' && s[i + 1] != '1'))) return false;
  return true;
}

bool check_relative_json_pointer(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i == 0 || (i > 1 && s[0] == '0')) return false;
  std::string_view rest = s.substr(i);
  return rest == "#" || check_json_pointer(rest);
}

}  // namespace

format_kind parse_format(std::string_view name) {
  static const std::pair<std::string_view, format_kind> k_formats[] = {
      {"date-time", format_kind::date_time},
      {"date", format_kind::date},
      {"time", format_kind::time},
      {"duration", format_kind::duration},
      {"email", format_kind::email},
      {"idn-email", format_kind::idn_email},
      {"hostname", format_kind::hostname},
      {"idn-hostname", format_kind::idn_hostname},
      {"ipv4", format_kind::ipv4},
      {"ipv6", format_kind::ipv6},
      {"uri", format_kind::uri},
      {"uri-reference", format_kind::uri_reference},
      {"iri", format_kind::iri},
      {"iri-reference", format_kind::iri_reference},
      {"uri-template", format_kind::uri_template},
      {"uuid", format_kind::uuid},
      {"json-pointer", format_kind::json_pointer},
      {"relative-json-pointer", format_kind::relative_json_pointer},
      {"regex", format_kind::regex},
  };
  for (const auto& [n, kind] : k_formats)
    if (n == name) return kind;
  return format_kind::unknown;
}

bool check_format(format_kind kind, std::string_view s) {
  switch (kind) {
    case format_kind::date_time: return check_date_time(s);
    case format_kind::date: return check_date(s);
    case format_kind::time: return check_time(s);
    case format_kind::duration: return check_duration(s);
    case format_kind::email: return check_email(s, false);
    case format_kind::idn_email: return check_email(s, true);
    case format_kind::hostname: return check_hostname(s, false);
    case format_kind::idn_hostname: return check_hostname(s, true);
    case format_kind::ipv4: return check_ipv4(s);
    case format_kind::ipv6: return check_ipv6(s);
    case format_kind::uri: return check_uri(s, true, false);
    case format_kind::uri_reference: return check_uri(s, false, false);
    case format_kind::iri: return check_uri(s, true, true);
    case format_kind::iri_reference: return check_uri(s, false, true);
    case format_kind::uri_template: return check_uri_template(s);
    case format_kind::uuid: return check_uuid(s);
    case format_kind::json_pointer: return check_json_pointer(s);
    case format_kind::relative_json_pointer: return check_relative_json_pointer(s);
    case format_kind::regex: return is_ecma_regex(s);
    default: return true;
  }
}

std::string_view format_description(format_kind kind) {
  switch (kind) {
    case format_kind::date_time: return "date-time (RFC 3339, e.g. 2024-05-01T13:45:00Z)";
    case format_kind::date: return "date (YYYY-MM-DD)";
    case format_kind::time: return "time (HH:MM:SS with a zone, e.g. 13:45:00Z)";
    case format_kind::duration: return "duration (ISO 8601, e.g. P3DT4H)";
    case format_kind::email: case format_kind::idn_email: return "e-mail address";
    case format_kind::hostname: case format_kind::idn_hostname: return "host name";
    case format_kind::ipv4: return "IPv4 address";
    case format_kind::ipv6: return "IPv6 address";
    case format_kind::uri: case format_kind::iri: return "absolute URI";
    case format_kind::uri_reference: case format_kind::iri_reference: return "URI reference";
    case format_kind::uri_template: return "URI template";
    case format_kind::uuid: return "UUID";
    case format_kind::json_pointer: return "JSON pointer";
    case format_kind::relative_json_pointer: return "relative JSON pointer";
    case format_kind::regex: return "regular expression";
    default: return "value of this format";
  }
}

}  // namespace tooluse::schema::detail
