#pragma once
// A reader of the system's tz database (TZif v1-v3 files plus their POSIX TZ footer), because
// g++ 12's libstdc++ has no std::chrono::tzdb and TZ/localtime_r is process-global state.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/result.hpp"

namespace tooluse::builtin::detail {

/// zone_offset is the state of a zone at an instant.
struct zone_offset {
  std::int64_t utc_offset = 0;  ///< seconds east of UTC
  std::string abbreviation;     ///< e.g. "CET", "+0530"
  bool dst = false;
};

/// posix_rule is a TZif footer such as "CET-1CEST,M3.5.0,M10.5.0/3".
struct posix_rule {
  struct date_rule {
    int month = 0, week = 0, weekday = 0;  ///< Mm.w.d
    std::int64_t time = 7200;              ///< seconds after local midnight
  };
  zone_offset std_zone, dst_zone;
  bool has_dst = false;
  date_rule start, end;
};

/// time_zone is one loaded zone: transitions and the rule for later instants. Immutable.
class time_zone {
 public:
  /// load reads `name` ("Europe/Paris", "UTC", "Etc/GMT+5") from `dir`, or makes a fixed zone
  /// from "UTC", "Z" or an offset such as "+05:30". Errors: not_found, parse_error.
  static result<std::shared_ptr<const time_zone>> load(const std::filesystem::path& dir,
                                                       std::string_view name);
  /// at returns the offset in force at `utc` (seconds since the epoch).
  zone_offset at(std::int64_t utc) const;
  /// to_utc maps local wall-clock seconds to UTC. Ambiguous times (clocks going back) take the
  /// earlier instant; nonexistent ones (clocks going forward) are shifted forward and
  /// `adjusted` is set.
  std::int64_t to_utc(std::int64_t local, bool* adjusted = nullptr) const;
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::vector<std::int64_t> transitions_;
  std::vector<std::uint8_t> type_of_;
  std::vector<zone_offset> types_;
  bool has_rule_ = false;
  posix_rule rule_;
  friend result<std::shared_ptr<const time_zone>> parse_tzif(std::string name, std::string_view data);
};

/// parse_posix_tz parses a POSIX TZ string. Errors: parse_error.
result<posix_rule> parse_posix_tz(std::string_view s);

}  // namespace tooluse::builtin::detail
