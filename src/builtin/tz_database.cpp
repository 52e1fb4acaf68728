#include "builtin/tz_database.hpp"

#include <chrono>
#include <fstream>
#include <sstream>

namespace tooluse::builtin::detail {

namespace {

std::int64_t be(std::string_view d, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(d[at + static_cast<std::size_t>(i)]);
  if (bytes == 4) return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
  return static_cast<std::int64_t>(v);
}

// Parsing helpers for POSIX TZ strings; `p` advances.
bool parse_name(std::string_view s, std::size_t& p, std::string& out) {
  if (p < s.size() && s[p] == '<') {
    auto close = s.find('>', p);
    if (close == std::string_view::npos) return false;
    out = std::string(s.substr(p + 1, close - p - 1));
    p = close + 1;
    return true;
  }
  std::size_t start = p;
  while (p < s.size() && std::isalpha(static_cast<unsigned char>(s[p]))) ++p;
  out = std::string(s.substr(start, p - start));
  return out.size() >= 3;
}

bool parse_hms(std::string_view s, std::size_t& p, std::int64_t& out) {
  int sign = 1;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) sign = s[p++] == '-' ? -1 : 1;
  std::int64_t parts[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    if (p >= s.size() || !std::isdigit(static_cast<unsigned char>(s[p]))) return i > 0;
    std::int64_t v = 0;
    while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) v = v * 10 + (s[p++] - '0');
    parts[i] = v;
    out = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
    if (p >= s.size() || s[p] != ':') return true;
    ++p;
  }
  return true;
}

bool parse_date_rule(std::string_view s, std::size_t& p, posix_rule::date_rule& r) {
  if (p >= s.size() || s[p] != 'M') return false;  // Jn and n forms are not used by tzdata
  ++p;
  int vals[3];
  for (int i = 0; i < 3; ++i) {
    if (p >= s.size() || !std::isdigit(static_cast<unsigned char>(s[p]))) return false;
    int v = 0;
    while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) v = v * 10 + (s[p++] - '0');
    vals[i] = v;
    if (i < 2 && (p >= s.size() || s[p++] != '.')) return false;
  }
  r.month = vals[0];
  r.week = vals[1];
  r.weekday = vals[2];
  if (p < s.size() && s[p] == '/') {
    ++p;
    if (!parse_hms(s, p, r.time)) return false;
  }
  return true;
}

std::string offset_name(std::int64_t off) {
  char buf[48];
  std::int64_t a = off < 0 ? -off : off;
  std::snprintf(buf, sizeof buf, "%c%02lld%02lld", off < 0 ? '-' : '+', static_cast<long long>(a / 3600),
                static_cast<long long>(a % 3600 / 60));
  return buf;
}

// rule_instant returns local seconds (in the offset valid before the change) of a rule's date.
std::int64_t rule_local(int year, const posix_rule::date_rule& r) {
  using namespace std::chrono;
  sys_days first = year_month_day{std::chrono::year{year}, month{static_cast<unsigned>(r.month)}, day{1}};
  auto wd = weekday{first}.c_encoding();
  int delta = (r.weekday - static_cast<int>(wd) + 7) % 7;
  sys_days d = first + days{delta + 7 * (r.week - 1)};
  if (r.week == 5) {
    sys_days last = sys_days{year_month_day_last{std::chrono::year{year}, month_day_last{month{static_cast<unsigned>(r.month)}}}};
    while (d > last) d -= days{7};
  }
  return d.time_since_epoch().count() * 86400 + r.time;
}

zone_offset rule_at(const posix_rule& rule, std::int64_t utc) {
  if (!rule.has_dst) return rule.std_zone;
  using namespace std::chrono;
  auto ymd = year_month_day{floor<days>(sys_seconds{seconds{utc + rule.std_zone.utc_offset}})};
  int year = static_cast<int>(ymd.year());
  std::int64_t start = rule_local(year, rule.start) - rule.std_zone.utc_offset;
  std::int64_t end = rule_local(year, rule.end) - rule.dst_zone.utc_offset;
  bool in_dst = start < end ? (utc >= start && utc < end) : !(utc >= end && utc < start);
  return in_dst ? rule.dst_zone : rule.std_zone;
}

}  // namespace

result<posix_rule> parse_posix_tz(std::string_view s) {
  posix_rule r;
  std::size_t p = 0;
  std::int64_t off = 0;
  auto bad = [&] { return fail(errc::parse_error, "time zone rule \"" + std::string(s) + "\" is not understood"); };
  if (!parse_name(s, p, r.std_zone.abbreviation) || !parse_hms(s, p, off)) return bad();
  r.std_zone.utc_offset = -off;  // POSIX offsets are west-positive
  if (p == s.size()) return r;
  if (!parse_name(s, p, r.dst_zone.abbreviation)) return bad();
  r.has_dst = true;
  r.dst_zone.dst = true;
  r.dst_zone.utc_offset = r.std_zone.utc_offset + 3600;
  if (p < s.size() && s[p] != ',') {
    if (!parse_hms(s, p, off)) return bad();
    r.dst_zone.utc_offset = -off;
  }
  if (p >= s.size() || s[p++] != ',' || !parse_date_rule(s, p, r.start) || p >= s.size() ||
      s[p++] != ',' || !parse_date_rule(s, p, r.end) || p != s.size())
    return bad();
  return r;
}

result<std::shared_ptr<const time_zone>> parse_tzif(std::string name, std::string_view d) {
  auto bad = [&] { return fail(errc::parse_error, "time zone file for \"" + name + "\" is damaged"); };
  if (d.size() < 44 || d.substr(0, 4) != "TZif") return bad();
  auto counts = [&](std::size_t at, std::int64_t c[6]) {
    for (int i = 0; i < 6; ++i) c[i] = be(d, at + 20 + 4 * static_cast<std::size_t>(i), 4);
  };
  std::int64_t c[6];  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
  counts(0, c);
  std::size_t pos = 44;
  int tsize = 4;
  if (d[4] >= '2') {  // skip the v1 block, read the 64-bit one
    pos += static_cast<std::size_t>(c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]);
    if (d.size() < pos + 44) return bad();
    counts(pos, c);
    pos += 44;
    tsize = 8;
  }
  std::size_t need = static_cast<std::size_t>(c[3] * (tsize + 1) + c[4] * 6 + c[5] + c[2] * (tsize + 4) + c[1] + c[0]);
  if (c[4] <= 0 || d.size() < pos + need) return bad();
  auto tz = std::make_shared<time_zone>();
  tz->name_ = name;
  for (std::int64_t i = 0; i < c[3]; ++i) tz->transitions_.push_back(be(d, pos + static_cast<std::size_t>(i * tsize), tsize));
  pos += static_cast<std::size_t>(c[3] * tsize);
  for (std::int64_t i = 0; i < c[3]; ++i) tz->type_of_.push_back(static_cast<std::uint8_t>(d[pos + static_cast<std::size_t>(i)]));
  pos += static_cast<std::size_t>(c[3]);
  std::size_t chars = pos + static_cast<std::size_t>(c[4] * 6);
  for (std::int64_t i = 0; i < c[4]; ++i) {
    std::size_t at = pos + static_cast<std::size_t>(i * 6);
    zone_offset z{be(d, at, 4), {}, d[at + 4] != 0};
    auto idx = static_cast<unsigned char>(d[at + 5]);
    if (idx < c[5]) z.abbreviation = std::string(d.substr(chars + idx).data());
    tz->types_.push_back(std::move(z));
  }
  for (auto t : tz->type_of_)
    if (t >= tz->types_.size()) return bad();
  pos += need - static_cast<std::size_t>(c[3] * (tsize + 1));
  if (tsize == 8 && pos < d.size() && d[pos] == '\n') {
    auto end = d.find('\n', pos + 1);
    if (end != std::string_view::npos && end > pos + 1) {
      if (auto rule = parse_posix_tz(d.substr(pos + 1, end - pos - 1))) {
        tz->rule_ = *rule;
        tz->has_rule_ = true;
      }
    }
  }
  return std::shared_ptr<const time_zone>(std::move(tz));
}

result<std::shared_ptr<const time_zone>> time_zone::load(const std::filesystem::path& dir,
                                                         std::string_view name) {
  std::string n(name);
  if (n == "UTC" || n == "utc" || n == "Z" || n == "GMT") {
    auto tz = std::make_shared<time_zone>();
    tz->name_ = "UTC";
    tz->types_.push_back({0, "UTC", false});
    return std::shared_ptr<const time_zone>(std::move(tz));
  }
  if (!n.empty() && (n[0] == '+' || n[0] == '-')) {
    std::size_t p = 0;
    std::int64_t off = 0;
    if (parse_hms(n, p, off) && p == n.size() && off > -86400 && off < 86400) {
      auto tz = std::make_shared<time_zone>();
      tz->name_ = offset_name(off);
      tz->types_.push_back({off, tz->name_, false});
      return std::shared_ptr<const time_zone>(std::move(tz));
    }
  }
  bool ok = !n.empty() && n.find("..") == std::string::npos && n[0] != '/';
  for (char ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '/' && ch != '_' && ch != '-' && ch != '+')
      ok = false;
  std::ifstream in(dir / n, std::ios::binary);
  if (!ok || !in)
    return fail(errc::not_found, "unknown time zone \"" + n +
                                     "\"; use an IANA name such as \"Europe/Paris\", "
                                     "\"America/New_York\", \"Asia/Tokyo\", \"UTC\" or an offset like \"+05:30\"");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_tzif(n, ss.str());
}

zone_offset time_zone::at(std::int64_t utc) const {
  if (transitions_.empty()) return has_rule_ ? rule_at(rule_, utc) : types_.front();
  if (utc < transitions_.front()) {
    for (const auto& t : types_)
      if (!t.dst) return t;
    return types_.front();
  }
  if (utc >= transitions_.back() && has_rule_) return rule_at(rule_, utc);
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), utc);
  return types_[type_of_[static_cast<std::size_t>(it - transitions_.begin() - 1)]];
}

std::int64_t time_zone::to_utc(std::int64_t local, bool* adjusted) const {
  if (adjusted) *adjusted = false;
  std::int64_t before = at(local - 86400).utc_offset, after = at(local + 86400).utc_offset;
  for (std::int64_t off : {std::max(before, after), std::min(before, after)}) {
    // The larger offset gives the earlier instant: try it first for ambiguous times.
    if (at(local - off).utc_offset == off) return local - off;
  }
  if (adjusted) *adjusted = true;
  return local - before;
}

}  // namespace tooluse::builtin::detail
