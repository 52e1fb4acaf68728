#pragma once
/// \file datetime.hpp
/// The datetime tool: the current time in any IANA time zone, conversions between zones,
/// differences between dates and date arithmetic. Reads the system's tz database (TZif files).

#include <chrono>
#include <filesystem>
#include <functional>

#include "tooluse/tools/registry.hpp"

namespace tooluse::builtin {

/// datetime_options configures the datetime tool.
struct datetime_options {
  /// clock returns "now"; empty means std::chrono::system_clock::now (tests inject a clock).
  std::function<std::chrono::system_clock::time_point()> clock;
  std::filesystem::path zoneinfo_dir = "/usr/share/zoneinfo";  ///< $TZDIR overrides
};

/// register_datetime adds the read-only `datetime` tool.
void register_datetime(tool_registry& registry, const datetime_options& options = {});

}  // namespace tooluse::builtin
