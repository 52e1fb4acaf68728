#pragma once
// posix_tz: the POSIX TZ rule in the footer of a TZif v2+ file (RFC 8536 section 3.3), e.g.
// "CET-1CEST,M3.5.0,M10.5.0/3". It says how a zone's offsets go on after the last transition
// of the file's table (2037 in Debian's "fat" files). The date library (USE_OS_TZDB) does not
// read it, and glibc applies it only through the process-global TZ variable, so it is
// evaluated here (design/builtin.md, "Time zones").

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tooluse::builtin::detail {

/// zone_offset is the state of a zone at an instant.
struct zone_offset {
  std::int64_t utc_offset = 0;  ///< seconds east of UTC
  std::string abbreviation;     ///< e.g. "CET", "+0530"
  bool dst = false;
};

/// posix_rule is a parsed POSIX TZ string with the RFC 8536 extensions (transition times from
/// -167 to 167 hours). Immutable once parsed.
struct posix_rule {
  /// transition_date is one of the three POSIX date forms, plus the local time of the change.
  struct transition_date {
    enum class form {
      julian,          ///< "Jn": day n of 1..365, February 29 never counted
      zero_based,      ///< "n": day n of 0..365, February 29 counted
      month_week_day,  ///< "Mm.w.d": day d (0 = Sunday) of week w (5 = last) of month m
    };
    form kind = form::month_week_day;
    int day = 0;  ///< n for julian / zero_based, d for month_week_day
    int month = 0;
    int week = 0;
    std::int64_t time = 7200;  ///< seconds after local midnight (default 02:00)
  };

  std::string std_abbreviation;
  std::string dst_abbreviation;  ///< empty when the zone has no summer time
  std::int64_t std_offset = 0;   ///< seconds east of UTC (POSIX writes west as positive)
  std::int64_t dst_offset = 0;   ///< seconds east of UTC; std_offset + 3600 unless given
  transition_date start;         ///< summer time starts (in standard local time)
  transition_date end;           ///< summer time ends (in summer local time)

  bool has_dst() const { return !dst_abbreviation.empty(); }

  /// parse reads a POSIX TZ string; nullopt if it is malformed or names summer time without
  /// a rule (TZif footers always give one).
  static std::optional<posix_rule> parse(std::string_view tz);
  /// at returns the offset in force at `utc` (seconds since the epoch).
  zone_offset at(std::int64_t utc) const;
  /// to_utc maps local wall-clock seconds to UTC: ambiguous times take the earlier instant,
  /// nonexistent ones are shifted forward by the gap and set `adjusted`.
  std::int64_t to_utc(std::int64_t local, bool* adjusted) const;
  /// transition_utc returns when `which` (start or end) happens in `year`, in UTC seconds.
  std::int64_t transition_utc(const transition_date& which, int year,
                              std::int64_t offset_before) const;
};

/// read_tzif_footer returns the POSIX TZ string at the end of a TZif v2+ file, or nullopt if
/// the file cannot be read, is not TZif version 2 or later, or its footer is empty.
std::optional<std::string> read_tzif_footer(const std::string& path);

}  // namespace tooluse::builtin::detail
