#pragma once
/// \file datetime.hpp
/// The datetime tool: the current time in any IANA time zone, conversions between zones,
/// differences between dates and date arithmetic. Zones come from the system's tz database
/// (/usr/share/zoneinfo) through the date library's tz.

#include <chrono>
#include <functional>

#include "tooluse/tools/registry.hpp"

namespace tooluse::builtin {

/// datetime_options configures the datetime tool.
struct datetime_options {
  /// clock returns "now"; empty means std::chrono::system_clock::now (tests inject a clock).
  std::function<std::chrono::system_clock::time_point()> clock;
};

/// register_datetime adds the read-only `datetime` tool.
void register_datetime(tool_registry& registry, const datetime_options& options = {});

}  // namespace tooluse::builtin
