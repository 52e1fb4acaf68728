#pragma once
// Time zones for the datetime tool, over the date library's tz (libhowardhinnant-date, built with
// USE_OS_TZDB: it reads the system's /usr/share/zoneinfo). g++ 12's libstdc++ has no
// std::chrono::tzdb, and TZ/localtime_r is process-global state, so neither is an option.
// Past the last transition of a zone's file (2037), the zone's POSIX rule (the TZif footer,
// which the date library does not read) gives the offsets: posix_tz.hpp.

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "builtin/posix_tz.hpp"
#include "tooluse/result.hpp"

namespace date {
class time_zone;
}

namespace tooluse::builtin::detail {

/// time_zone is an IANA zone or a fixed offset. Immutable; safe to share between threads.
class time_zone {
 public:
  /// load finds `name` ("Europe/Paris", "UTC", "Etc/GMT+5") in the system's tz database, or
  /// makes a fixed zone from "UTC", "Z", "GMT" or an offset such as "+05:30". Errors: not_found.
  static result<std::shared_ptr<const time_zone>> load(std::string_view name);
  /// at returns the offset in force at `utc` (seconds since the epoch).
  zone_offset at(std::int64_t utc) const;
  /// to_utc maps local wall-clock seconds to UTC. Ambiguous times (clocks going back) take the
  /// earlier instant; nonexistent ones (clocks going forward) are shifted forward and
  /// `adjusted` is set.
  std::int64_t to_utc(std::int64_t local, bool* adjusted = nullptr) const;
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  const date::time_zone* zone_ = nullptr;  ///< null for a fixed offset
  std::optional<posix_rule> rule_;         ///< the zone file's footer rule, if any
  /// rule_from_ is the zone's last transition (UTC seconds): from there on rule_ applies.
  std::int64_t rule_from_ = std::numeric_limits<std::int64_t>::max();
  zone_offset fixed_;
};

}  // namespace tooluse::builtin::detail
