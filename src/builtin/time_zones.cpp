// time_zone over date::locate_zone (the date library's tz, reading the OS tz database).
#include "builtin/time_zones.hpp"

#include <date/tz.h>

#include <cctype>
#include <cstdio>
#include <optional>
#include <stdexcept>

namespace tooluse::builtin::detail {
namespace {

std::string offset_name(std::int64_t off) {
  char buf[48];
  std::int64_t a = off < 0 ? -off : off;
  std::snprintf(buf, sizeof buf, "%c%02lld%02lld", off < 0 ? '-' : '+',
                static_cast<long long>(a / 3600), static_cast<long long>(a % 3600 / 60));
  return buf;
}

// parse_offset reads "+05:30", "-03", "+0530" or "+05:30:15" into seconds east of UTC.
std::optional<std::int64_t> parse_offset(std::string_view s) {
  if (s.size() < 2 || (s[0] != '+' && s[0] != '-')) return std::nullopt;
  int sign = s[0] == '-' ? -1 : 1;
  std::size_t p = 1;
  std::int64_t parts[3] = {0, 0, 0};
  int n = 0;
  while (p < s.size() && n < 3) {
    std::size_t start = p;
    while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) ++p;
    std::string_view field = s.substr(start, p - start);
    if (field.empty() || field.size() > 2) {
      if (n == 0 && field.size() == 4) {  // "+0530"
        parts[0] = (field[0] - '0') * 10 + (field[1] - '0');
        parts[1] = (field[2] - '0') * 10 + (field[3] - '0');
        n = 2;
        break;
      }
      return std::nullopt;
    }
    parts[n++] = std::stoi(std::string(field));
    if (p < s.size() && s[p] != ':') return std::nullopt;
    if (p < s.size()) ++p;
  }
  if (p != s.size() || parts[1] > 59 || parts[2] > 59) return std::nullopt;
  std::int64_t off = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
  if (off <= -86400 || off >= 86400) return std::nullopt;
  return off;
}

// zoneinfo_dir is where the date library's USE_OS_TZDB build reads zone files from.
constexpr const char* zoneinfo_dir = "/usr/share/zoneinfo";

// load_rule reads the POSIX rule from the footer of the zone's TZif file, and the instant of
// the zone's last transition, after which the rule applies. A zone whose file has no usable
// footer keeps the date library's answer for all instants.
void load_rule(const date::time_zone& zone, const std::string& name,
               std::optional<posix_rule>& rule, std::int64_t& from) {
  auto footer = read_tzif_footer(std::string(zoneinfo_dir) + "/" + name);
  if (!footer)
    footer = read_tzif_footer(std::string(zoneinfo_dir) + "/" + std::string(zone.name()));
  if (!footer) return;
  rule = posix_rule::parse(*footer);
  if (!rule) return;
  // The last interval the library knows is open-ended: its begin is the last transition.
  using namespace std::chrono;
  auto far = date::sys_days{date::year{9999} / 1 / 1};
  from = zone.get_info(date::sys_seconds{far.time_since_epoch()}).begin.time_since_epoch().count();
}

}  // namespace

result<std::shared_ptr<const time_zone>> time_zone::load(std::string_view name) {
  std::string n(name);
  auto tz = std::make_shared<time_zone>();
  if (n == "UTC" || n == "utc" || n == "Z" || n == "GMT") {
    tz->name_ = "UTC";
    tz->fixed_ = {0, "UTC", false};
    return std::shared_ptr<const time_zone>(std::move(tz));
  }
  if (auto off = parse_offset(n)) {
    tz->name_ = offset_name(*off);
    tz->fixed_ = {*off, tz->name_, false};
    return std::shared_ptr<const time_zone>(std::move(tz));
  }
  try {
    tz->zone_ = date::locate_zone(n);
    tz->name_ = n;
    load_rule(*tz->zone_, n, tz->rule_, tz->rule_from_);
    return std::shared_ptr<const time_zone>(std::move(tz));
  } catch (const std::exception&) {
    return fail(errc::not_found,
                "unknown time zone \"" + n +
                    "\"; use an IANA name such as \"Europe/Paris\", "
                    "\"America/New_York\", \"Asia/Tokyo\", \"UTC\" or an offset like \"+05:30\"");
  }
}

zone_offset time_zone::at(std::int64_t utc) const {
  if (!zone_) return fixed_;
  if (rule_ && utc >= rule_from_) return rule_->at(utc);
  auto info = zone_->get_info(date::sys_seconds{std::chrono::seconds{utc}});
  return {info.offset.count(), info.abbrev, info.save != std::chrono::minutes{0}};
}

std::int64_t time_zone::to_utc(std::int64_t local, bool* adjusted) const {
  if (adjusted) *adjusted = false;
  if (!zone_) return local - fixed_.utc_offset;
  // Two days past the last transition no offset (under 26 hours) can reach back before it.
  if (rule_ && rule_from_ < std::numeric_limits<std::int64_t>::max() - 2 * 86400 &&
      local >= rule_from_ + 2 * 86400)
    return rule_->to_utc(local, adjusted);
  auto info = zone_->get_info(date::local_seconds{std::chrono::seconds{local}});
  // unique: first is the offset; ambiguous: first is the earlier instant; nonexistent: first is
  // the offset before the gap, which moves the time forward by the gap.
  if (info.result == date::local_info::nonexistent && adjusted) *adjusted = true;
  return local - info.first.offset.count();
}

}  // namespace tooluse::builtin::detail
