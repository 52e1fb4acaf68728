// The POSIX TZ rule of a TZif footer (RFC 8536 section 3.3), evaluated with the date library's
// calendar (date/date.h).
#include "builtin/posix_tz.hpp"

#include <date/date.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <iterator>

namespace tooluse::builtin::detail {
namespace {

// cursor walks a TZ string; each read_* returns false (and leaves the rule unusable) on error.
struct cursor {
  std::string_view s;
  std::size_t p = 0;
  bool done() const { return p >= s.size(); }
  char peek() const { return done() ? '\0' : s[p]; }
  bool eat(char c) {
    if (peek() != c) return false;
    ++p;
    return true;
  }

  // name: three or more letters, or <...> quoting letters, digits, '+' and '-'.
  bool read_name(std::string& out) {
    std::size_t start = p;
    if (eat('<')) {
      while (!done() &&
             (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '+' || peek() == '-'))
        ++p;
      out = std::string(s.substr(start + 1, p - start - 1));
      return eat('>') && out.size() >= 3;
    }
    while (!done() && std::isalpha(static_cast<unsigned char>(peek()))) ++p;
    out = std::string(s.substr(start, p - start));
    return out.size() >= 3;
  }

  bool read_number(int max, int& out) {
    std::size_t start = p;
    long v = 0;
    while (!done() && std::isdigit(static_cast<unsigned char>(peek())) && p - start < 4)
      v = v * 10 + (s[p++] - '0');
    if (p == start || v > max) return false;
    out = static_cast<int>(v);
    return true;
  }

  // hh[:mm[:ss]] with an optional sign, hours up to max_hours.
  bool read_hms(int max_hours, std::int64_t& out) {
    int sign = 1;
    if (eat('-'))
      sign = -1;
    else
      eat('+');
    int h = 0, m = 0, sec = 0;
    if (!read_number(max_hours, h)) return false;
    if (eat(':')) {
      if (!read_number(59, m)) return false;
      if (eat(':') && !read_number(59, sec)) return false;
    }
    out = sign * (h * 3600LL + m * 60LL + sec);
    return true;
  }

  bool read_date(posix_rule::transition_date& d) {
    using form = posix_rule::transition_date::form;
    if (eat('J')) {
      d.kind = form::julian;
      if (!read_number(365, d.day) || d.day < 1) return false;
    } else if (eat('M')) {
      d.kind = form::month_week_day;
      if (!read_number(12, d.month) || d.month < 1 || !eat('.') || !read_number(5, d.week) ||
          d.week < 1 || !eat('.') || !read_number(6, d.day))
        return false;
    } else {
      d.kind = form::zero_based;
      if (!read_number(365, d.day)) return false;
    }
    d.time = 7200;
    if (eat('/')) return read_hms(167, d.time);  // RFC 8536: -167 to 167 hours
    return true;
  }
};

// day_of returns the day (days since the epoch) a transition date falls on in `y`.
std::int64_t day_of(const posix_rule::transition_date& d, int y) {
  using form = posix_rule::transition_date::form;
  date::year yr{y};
  date::sys_days jan1 = date::sys_days{yr / date::January / 1};
  switch (d.kind) {
    case form::julian: {
      int n = d.day - 1;  // 0-based, February 29 not counted
      if (yr.is_leap() && d.day >= 60) ++n;
      return (jan1 + date::days{n}).time_since_epoch().count();
    }
    case form::zero_based:
      return (jan1 + date::days{d.day}).time_since_epoch().count();
    case form::month_week_day:
      break;
  }
  date::month m{static_cast<unsigned>(d.month)};
  date::weekday wd{static_cast<unsigned>(d.day)};
  date::sys_days day = d.week == 5 ? date::sys_days{yr / m / wd[date::last]}
                                   : date::sys_days{yr / m / wd[static_cast<unsigned>(d.week)]};
  return day.time_since_epoch().count();
}

}  // namespace

std::optional<posix_rule> posix_rule::parse(std::string_view tz) {
  posix_rule r;
  cursor c{tz};
  std::int64_t west = 0;
  if (!c.read_name(r.std_abbreviation) || !c.read_hms(24, west)) return std::nullopt;
  r.std_offset = -west;
  if (c.done()) return r;
  if (!c.read_name(r.dst_abbreviation)) return std::nullopt;
  r.dst_offset = r.std_offset + 3600;
  if (c.peek() != ',') {
    if (!c.read_hms(24, west)) return std::nullopt;
    r.dst_offset = -west;
  }
  if (!c.eat(',') || !c.read_date(r.start) || !c.eat(',') || !c.read_date(r.end) || !c.done())
    return std::nullopt;
  return r;
}

std::int64_t posix_rule::transition_utc(const transition_date& which, int year,
                                        std::int64_t offset_before) const {
  return day_of(which, year) * 86400 + which.time - offset_before;
}

zone_offset posix_rule::at(std::int64_t utc) const {
  zone_offset standard{std_offset, std_abbreviation, false};
  if (!has_dst()) return standard;
  zone_offset summer{dst_offset, dst_abbreviation, true};
  // The transitions of the year before, this one and the next, in time order; the last one at
  // or before `utc` is in force. At equal instants an end sorts before a start, so a zone in
  // summer time all year (RFC 8536 section 3.3.1) stays in it.
  date::sys_seconds local{std::chrono::seconds{utc + std_offset}};
  int y = static_cast<int>(date::year_month_day{date::floor<date::days>(local)}.year());
  std::array<std::pair<std::int64_t, bool>, 6> changes{};
  std::size_t n = 0;
  for (int k = y - 1; k <= y + 1; ++k) {
    changes[n++] = {transition_utc(end, k, dst_offset), false};
    changes[n++] = {transition_utc(start, k, std_offset), true};
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  bool in_dst = false;
  for (const auto& [when, starts_dst] : changes)
    if (when <= utc) in_dst = starts_dst;
  return in_dst ? summer : standard;
}

std::int64_t posix_rule::to_utc(std::int64_t local, bool* adjusted) const {
  if (adjusted) *adjusted = false;
  if (!has_dst()) return local - std_offset;
  std::int64_t as_std = local - std_offset, as_dst = local - dst_offset;
  bool std_ok = at(as_std).utc_offset == std_offset && !at(as_std).dst;
  bool dst_ok = at(as_dst).dst;
  if (std_ok && dst_ok) return std::min(as_std, as_dst);  // ambiguous: the earlier instant
  if (std_ok) return as_std;
  if (dst_ok) return as_dst;
  if (adjusted) *adjusted = true;  // in the gap: the offset before it moves the time forward
  return local - std::min(std_offset, dst_offset);
}

std::optional<std::string> read_tzif_footer(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Header: "TZif", then the version byte ('2', '3', '4'...); version 1 files have no footer.
  if (data.size() < 46 || data.compare(0, 4, "TZif") != 0 || data[4] < '2') return std::nullopt;
  // The footer is the last line: "\n<TZ string>\n", and the TZ string holds no newline.
  if (data.back() != '\n') return std::nullopt;
  auto open = data.rfind('\n', data.size() - 2);
  if (open == std::string::npos) return std::nullopt;
  std::string footer = data.substr(open + 1, data.size() - open - 2);
  if (footer.empty()) return std::nullopt;
  return footer;
}

}  // namespace tooluse::builtin::detail
