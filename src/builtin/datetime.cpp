// datetime: now, convert, difference, add. Models get dates wrong; this tool does not.
#include "tooluse/builtin/datetime.hpp"

#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include "builtin/time_zones.hpp"
#include "builtin/tool_util.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin {
namespace {
using namespace std::chrono;
using detail::time_zone;

enum class datetime_op { now, convert, difference, add };
TOOLUSE_DESCRIBE_ENUM(datetime_op, (now), (convert), (difference), (add))

struct datetime_args {
  datetime_op operation = datetime_op::now;
  std::string timezone = "UTC";
  std::string datetime = "now";
  std::string end = "now";
  std::string to_timezone = "UTC";
  std::int64_t years = 0;
  std::int64_t months = 0;
  std::int64_t weeks = 0;
  std::int64_t days = 0;
  std::int64_t hours = 0;
  std::int64_t minutes = 0;
  std::int64_t seconds = 0;
};
TOOLUSE_DESCRIBE(
    datetime_args,
    (operation, "What to compute. Default \"now\"", tooluse::default_value(datetime_op::now)),
    (timezone,
     "IANA time zone of the result (now) or of datetime/end when they have no offset. Default "
     "\"UTC\""),
    (datetime,
     "ISO 8601 date or date-time, or \"now\". The start for difference and add, the time to "
     "convert "
     "for convert"),
    (end, "For difference: the second date-time (ISO 8601 or \"now\")"),
    (to_timezone, "For convert: the target IANA time zone"),
    (years, "For add", tooluse::default_value(0)),
    (months, "For add (the day is clamped to the month's end: Jan 31 + 1 month = Feb 28/29)",
     tooluse::default_value(0)),
    (weeks, "For add", tooluse::default_value(0)), (days, "For add", tooluse::default_value(0)),
    (hours, "For add (exact hours, across DST changes)", tooluse::default_value(0)),
    (minutes, "For add", tooluse::default_value(0)),
    (seconds, "For add", tooluse::default_value(0)))

struct datetime_state {
  datetime_options options;
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const time_zone>, std::less<>> cache;

  result<std::shared_ptr<const time_zone>> zone(const std::string& name) {
    std::lock_guard lock(mutex);
    if (auto it = cache.find(name); it != cache.end()) return it->second;
    auto z = time_zone::load(name);
    if (z) cache.emplace(name, *z);
    return z;
  }
  std::int64_t now() const {
    auto t = options.clock ? options.clock() : system_clock::now();
    return duration_cast<seconds>(t.time_since_epoch()).count();
  }
};

// parsed_time is a user's date-time: local wall-clock seconds, and the offset if one was given.
struct parsed_time {
  std::int64_t local = 0;
  std::optional<std::int64_t> offset;
};

result<parsed_time> parse_datetime(std::string_view s) {
  auto bad = [&] {
    return fail(
        errc::invalid_argument,
        "date-time \"" + std::string(s) +
            "\" is not understood; use ISO 8601 such as \"2024-03-10\", "
            "\"2024-03-10T14:30\", \"2024-03-10 14:30:00\" or \"2024-03-10T14:30:00+01:00\"");
  };
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0;
  std::size_t p = 0;
  auto num = [&](int digits, int& out) {
    if (p + static_cast<std::size_t>(digits) > s.size()) return false;
    out = 0;
    for (int i = 0; i < digits; ++i, ++p) {
      if (!std::isdigit(static_cast<unsigned char>(s[p]))) return false;
      out = out * 10 + (s[p] - '0');
    }
    return true;
  };
  if (!num(4, y) || p >= s.size() || s[p++] != '-' || !num(2, mo) || p >= s.size() ||
      s[p++] != '-' || !num(2, d))
    return bad();
  if (p < s.size() && (s[p] == 'T' || s[p] == 't' || s[p] == ' ')) {
    ++p;
    if (!num(2, h) || p >= s.size() || s[p++] != ':' || !num(2, mi)) return bad();
    if (p < s.size() && s[p] == ':') {
      ++p;
      if (!num(2, se)) return bad();
      if (p < s.size() && (s[p] == '.' || s[p] == ','))  // fractions are dropped
        for (++p; p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]));) ++p;
    }
  }
  year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
  if (!ymd.ok() || h > 24 || mi > 59 || se > 60) return bad();
  parsed_time out;
  out.local = sys_days{ymd}.time_since_epoch().count() * 86400 + h * 3600 + mi * 60 + se;
  if (p < s.size()) {
    if (s[p] == 'Z' || s[p] == 'z') {
      out.offset = 0;
      ++p;
    } else if (s[p] == '+' || s[p] == '-') {
      int sign = s[p++] == '-' ? -1 : 1, oh = 0, om = 0;
      if (!num(2, oh)) return bad();
      if (p < s.size() && s[p] == ':') ++p;
      if (p < s.size() && !num(2, om)) return bad();
      if (oh > 23 || om > 59) return bad();
      out.offset = sign * (oh * 3600 + om * 60);
    }
  }
  if (p != s.size()) return bad();
  return out;
}

std::string two(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

std::string offset_text(std::int64_t off) {
  std::int64_t a = off < 0 ? -off : off;
  return std::string(off < 0 ? "-" : "+") + two(static_cast<int>(a / 3600)) + ":" +
         two(static_cast<int>(a % 3600 / 60));
}

json describe(std::int64_t utc, const time_zone& tz) {
  auto z = tz.at(utc);
  std::int64_t local = utc + z.utc_offset;
  auto dp = floor<days>(sys_seconds{seconds{local}});
  year_month_day ymd{dp};
  hh_mm_ss<seconds> hms{seconds{local} - dp.time_since_epoch()};
  static const char* names[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                "Thursday", "Friday", "Saturday"};
  std::string date = std::to_string(static_cast<int>(ymd.year())) + "-" +
                     two(static_cast<int>(static_cast<unsigned>(ymd.month()))) + "-" +
                     two(static_cast<int>(static_cast<unsigned>(ymd.day())));
  std::string time = two(static_cast<int>(hms.hours().count())) + ":" +
                     two(static_cast<int>(hms.minutes().count())) + ":" +
                     two(static_cast<int>(hms.seconds().count()));
  return {{"iso", date + "T" + time + offset_text(z.utc_offset)},
          {"date", date},
          {"time", time},
          {"weekday", names[weekday{dp}.c_encoding()]},
          {"timezone", tz.name()},
          {"utc_offset", offset_text(z.utc_offset)},
          {"abbreviation", z.abbreviation},
          {"dst", z.dst},
          {"unix", utc}};
}

std::string line(const json& d) {
  // The abbreviation only when it adds something: "UTC", not "UTC, UTC".
  const auto zone = d["timezone"].get<std::string>(), abbr = d["abbreviation"].get<std::string>();
  return d["iso"].get<std::string>() + " (" + d["weekday"].get<std::string>() + ", " + zone +
         (abbr.empty() || abbr == zone ? "" : ", " + abbr) + ")";
}

// instant turns an argument into UTC seconds, using the zone when no offset was written.
result<std::int64_t> instant(datetime_state& s, const std::string& text, const time_zone& tz,
                             bool* adjusted = nullptr) {
  if (text == "now") return s.now();
  auto p = parse_datetime(text);
  if (!p) return fail(p.error());
  if (p->offset) return p->local - *p->offset;
  return tz.to_utc(p->local, adjusted);
}

tool_result op_now(datetime_state& s, const datetime_args& args) {
  auto tz = s.zone(args.timezone);
  if (!tz) return detail::error_result(tz.error());
  json d = describe(s.now(), **tz);
  return detail::text_and_data("now: " + line(d), d);
}

tool_result op_convert(datetime_state& s, const datetime_args& args) {
  auto from = s.zone(args.timezone);
  auto to = s.zone(args.to_timezone);
  if (!from) return detail::error_result(from.error());
  if (!to) return detail::error_result(to.error());
  bool adjusted = false;
  auto t = instant(s, args.datetime, **from, &adjusted);
  if (!t) return detail::error_result(t.error());
  json out = {{"from", describe(*t, **from)}, {"to", describe(*t, **to)}};
  std::string text = line(out["from"]) + "\n= " + line(out["to"]);
  if (adjusted) {
    out["note"] = "the local time does not exist in " + (*from)->name() +
                  " (clocks moved forward); it was shifted forward";
    text += "\nnote: " + out["note"].get<std::string>();
  }
  return detail::text_and_data(text, out);
}

tool_result op_difference(datetime_state& s, const datetime_args& args) {
  auto tz = s.zone(args.timezone);
  if (!tz) return detail::error_result(tz.error());
  auto a = instant(s, args.datetime, **tz);
  auto b = instant(s, args.end, **tz);
  if (!a) return detail::error_result(a.error());
  if (!b) return detail::error_result(b.error());
  std::int64_t diff = *b - *a, mag = diff < 0 ? -diff : diff;
  // Calendar difference in the zone's local dates: whole years, months, days.
  std::int64_t la = *a + (**tz).at(*a).utc_offset, lb = *b + (**tz).at(*b).utc_offset;
  if (la > lb) std::swap(la, lb);
  year_month_day da{floor<days>(sys_seconds{seconds{la}})},
      db{floor<days>(sys_seconds{seconds{lb}})};
  int months = (static_cast<int>(db.year()) - static_cast<int>(da.year())) * 12 +
               static_cast<int>(static_cast<unsigned>(db.month())) -
               static_cast<int>(static_cast<unsigned>(da.month()));
  if (db.day() < da.day()) --months;
  auto anchor = year_month_day{da.year(), da.month(), day{1}} + std::chrono::months{months};
  auto last = year_month_day_last{anchor.year(), month_day_last{anchor.month()}}.day();
  sys_days anchor_day = year_month_day{anchor.year(), anchor.month(), std::min(da.day(), last)};
  auto rem_days = (floor<days>(sys_seconds{seconds{lb}}) - anchor_day).count();
  json out = {{"seconds", diff},
              {"minutes", static_cast<double>(diff) / 60},
              {"hours", static_cast<double>(diff) / 3600},
              {"days", static_cast<double>(diff) / 86400},
              {"weeks", static_cast<double>(diff) / 604800},
              {"calendar", {{"years", months / 12}, {"months", months % 12}, {"days", rem_days}}},
              {"direction", diff >= 0 ? "end is after start" : "end is before start"}};
  std::string text = std::to_string(mag / 86400) + " days " + std::to_string(mag % 86400 / 3600) +
                     " hours " + std::to_string(mag % 3600 / 60) + " minutes " +
                     std::to_string(mag % 60) + " seconds (" + std::to_string(months / 12) +
                     " years, " + std::to_string(months % 12) + " months, " +
                     std::to_string(rem_days) + " days); " + out["direction"].get<std::string>();
  return detail::text_and_data(text, out);
}

// add_span_error refuses durations beyond 10000 years, in any one unit or in total: a model
// may send any integer, and larger ones would overflow the date arithmetic.
std::optional<std::string> add_span_error(const datetime_args& a) {
  constexpr long double year_seconds = 365.2425L * 86400, limit = 10000 * year_seconds;
  const std::pair<const char*, long double> parts[] = {
      {"years", a.years * year_seconds},           {"months", a.months * year_seconds / 12},
      {"weeks", a.weeks * 604800.0L},              {"days", a.days * 86400.0L},
      {"hours", a.hours * 3600.0L},                {"minutes", a.minutes * 60.0L},
      {"seconds", static_cast<long double>(a.seconds)}};
  long double total = 0;
  for (const auto& [name, span] : parts) {
    if (span > limit || span < -limit)
      return std::string("\"") + name + "\" is too large: a duration may span at most 10000 years";
    total += span;
  }
  if (total > limit || total < -limit) return "the duration spans more than 10000 years";
  return std::nullopt;
}

tool_result op_add(datetime_state& s, const datetime_args& args) {
  if (auto e = add_span_error(args)) return tool_result::error(*e);
  auto tz = s.zone(args.timezone);
  if (!tz) return detail::error_result(tz.error());
  auto t = instant(s, args.datetime, **tz);
  if (!t) return detail::error_result(t.error());
  std::int64_t local = *t + (**tz).at(*t).utc_offset;
  auto dp = floor<days>(sys_seconds{seconds{local}});
  std::int64_t tod = local - dp.time_since_epoch().count() * 86400;
  year_month_day ymd{dp};
  auto months = args.years * 12 + args.months;
  ymd = year_month_day{ymd.year(), ymd.month(), day{1}} + std::chrono::months{months};
  auto last = year_month_day_last{ymd.year(), month_day_last{ymd.month()}}.day();
  ymd = year_month_day{ymd.year(), ymd.month(), std::min(year_month_day{dp}.day(), last)};
  std::int64_t new_local =
      (sys_days{ymd} + days{args.days + 7 * args.weeks}).time_since_epoch().count() * 86400 + tod;
  std::int64_t utc =
      (**tz).to_utc(new_local) + args.hours * 3600 + args.minutes * 60 + args.seconds;
  json out = {{"start", describe(*t, **tz)}, {"result", describe(utc, **tz)}};
  return detail::text_and_data(line(out["result"]), out);
}

tool_result run(datetime_state& s, const datetime_args& args) {
  switch (args.operation) {
    case datetime_op::now:
      return op_now(s, args);
    case datetime_op::convert:
      return op_convert(s, args);
    case datetime_op::difference:
      return op_difference(s, args);
    case datetime_op::add:
      break;
  }
  return op_add(s, args);
}

}  // namespace

void register_datetime(tool_registry& registry, const datetime_options& options) {
  auto state = std::make_shared<datetime_state>();
  state->options = options;
  add_tool(
      registry,
      detail::builtin_tool(
          "datetime", "Date and time",
          "Get the current date and time in any time zone, convert a time between zones, compute "
          "the difference between two dates, or add a duration to a date. Use it whenever an "
          "answer depends on today's date, a weekday, an age, a deadline or a time zone: do not "
          "guess dates. Returns one line per instant (ISO 8601, weekday, zone) or the "
          "difference in days, hours, minutes and seconds, with the same as structured data.\n"
          "Operations: \"now\" (timezone); \"convert\" (datetime in timezone -> to_timezone); "
          "\"difference\" (from datetime to end, in timezone); \"add\" (datetime plus years, "
          "months, weeks, days, hours, minutes, seconds; negative values subtract).\n"
          "Dates are ISO 8601: \"2024-03-10\", \"2024-03-10T14:30\", or with an offset "
          "\"2024-03-10T14:30:00+01:00\"; \"now\" means the current time. Time zones are IANA "
          "names (\"Europe/Paris\", \"America/New_York\", \"Asia/Kolkata\"), \"UTC\" or offsets "
          "(\"+05:30\").\n"
          "Examples: {\"operation\": \"now\", \"timezone\": \"Asia/Tokyo\"}; "
          "{\"operation\": \"convert\", \"datetime\": \"2024-07-01T09:00\", \"timezone\": "
          "\"America/New_York\", \"to_timezone\": \"Europe/Berlin\"}; {\"operation\": "
          "\"difference\", \"datetime\": \"1969-07-20\", \"end\": \"now\"}",
          // Reads, but not idempotent: "now" moves on.
          {.annotations = detail::hints::make(false, false, false),
           .category = "time",
           .tags = {"time", "date"},
           .timeout = std::chrono::seconds(5)}),
      [state](const datetime_args& a) { return run(*state, a); });
}

}  // namespace tooluse::builtin
