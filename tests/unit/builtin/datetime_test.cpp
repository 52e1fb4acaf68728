#include <gtest/gtest.h>

#include "builtin/time_zones.hpp"
#include "builtin_test_util.hpp"
#include "tooluse/builtin/datetime.hpp"

namespace {
using tooluse::json;
using tooluse::testing::call_tool;
using namespace std::chrono;

struct datetime_fixture : ::testing::Test {
  tooluse::tool_registry registry;
  void SetUp() override {
    // 2024-03-10T12:00:00Z, a Sunday; the US changed to DST at 07:00Z that day.
    tooluse::builtin::register_datetime(registry, {.clock = [] {
      return system_clock::time_point{seconds{1710072000}};
    }});
  }
  json run(const json& args) {
    auto r = call_tool(registry, "datetime", args);
    EXPECT_FALSE(r.is_error) << r.all_text();
    return r.structured_content.value_or(json());
  }
};

TEST_F(datetime_fixture, now_in_zones) {
  EXPECT_EQ(run({{"operation", "now"}})["iso"], "2024-03-10T12:00:00+00:00");
  auto tokyo = run({{"operation", "now"}, {"timezone", "Asia/Tokyo"}});
  EXPECT_EQ(tokyo["iso"], "2024-03-10T21:00:00+09:00");
  EXPECT_EQ(tokyo["weekday"], "Sunday");
  auto ny = run({{"operation", "now"}, {"timezone", "America/New_York"}});
  EXPECT_EQ(ny["iso"], "2024-03-10T08:00:00-04:00");
  EXPECT_EQ(ny["abbreviation"], "EDT");
  EXPECT_EQ(ny["dst"], true);
  EXPECT_EQ(run({{"operation", "now"}, {"timezone", "Asia/Kolkata"}})["utc_offset"], "+05:30");
  EXPECT_EQ(run({{"operation", "now"}, {"timezone", "+05:45"}})["iso"], "2024-03-10T17:45:00+05:45");
}

TEST_F(datetime_fixture, convert_between_zones_and_across_dst) {
  auto r = run({{"operation", "convert"}, {"datetime", "2024-07-01T09:00"},
                {"timezone", "America/New_York"}, {"to_timezone", "Europe/Berlin"}});
  EXPECT_EQ(r["to"]["iso"], "2024-07-01T15:00:00+02:00");
  auto winter = run({{"operation", "convert"}, {"datetime", "2024-01-15 09:00"},
                     {"timezone", "America/New_York"}, {"to_timezone", "Europe/Berlin"}});
  EXPECT_EQ(winter["to"]["iso"], "2024-01-15T15:00:00+01:00");
  auto offset = run({{"operation", "convert"}, {"datetime", "2024-01-15T09:00:00Z"},
                     {"to_timezone", "Australia/Sydney"}});
  EXPECT_EQ(offset["to"]["iso"], "2024-01-15T20:00:00+11:00");
}

TEST_F(datetime_fixture, nonexistent_local_time_is_shifted_and_noted) {
  auto r = run({{"operation", "convert"}, {"datetime", "2024-03-31T02:30"},
                {"timezone", "Europe/Paris"}, {"to_timezone", "UTC"}});
  EXPECT_EQ(r["to"]["iso"], "2024-03-31T01:30:00+00:00");
  EXPECT_TRUE(r.contains("note"));
}

// The system's compiled zone files list transitions up to 2037; after that the zone's POSIX rule
// (the TZif footer) gives summer time: north (London, Paris, New York) and south (Sydney).
TEST_F(datetime_fixture, future_summer_time_uses_the_zone_rule) {
  auto r = run({{"operation", "convert"}, {"datetime", "2040-07-04T12:00"},
                {"timezone", "UTC"}, {"to_timezone", "Europe/London"}});
  EXPECT_EQ(r["to"]["iso"], "2040-07-04T13:00:00+01:00");
  EXPECT_EQ(r["to"]["abbreviation"], "BST");
  EXPECT_EQ(r["to"]["dst"], true);
  r = run({{"operation", "convert"}, {"datetime", "2040-07-04T12:00"},
           {"timezone", "UTC"}, {"to_timezone", "Europe/Paris"}});
  EXPECT_EQ(r["to"]["iso"], "2040-07-04T14:00:00+02:00");
  EXPECT_EQ(r["to"]["abbreviation"], "CEST");
  r = run({{"operation", "convert"}, {"datetime", "2040-12-04T12:00"},
           {"timezone", "UTC"}, {"to_timezone", "Europe/Paris"}});
  EXPECT_EQ(r["to"]["iso"], "2040-12-04T13:00:00+01:00");
  r = run({{"operation", "convert"}, {"datetime", "2050-01-15T12:00"},
           {"timezone", "UTC"}, {"to_timezone", "Australia/Sydney"}});
  EXPECT_EQ(r["to"]["iso"], "2050-01-15T23:00:00+11:00");
  // Local times past 2037 are read with the rule too: 12:00 in New York in July is 16:00Z.
  r = run({{"operation", "convert"}, {"datetime", "2045-07-01T12:00"},
           {"timezone", "America/New_York"}, {"to_timezone", "UTC"}});
  EXPECT_EQ(r["to"]["iso"], "2045-07-01T16:00:00+00:00");
  // Adding across the 2037 edge keeps the wall clock of a summer day.
  r = run({{"operation", "add"}, {"datetime", "2036-07-04T12:00"}, {"timezone", "Europe/Paris"},
           {"years", 10}});
  EXPECT_EQ(r["result"]["iso"], "2046-07-04T12:00:00+02:00");
}

TEST_F(datetime_fixture, difference_gives_exact_and_calendar_parts) {
  auto r = run({{"operation", "difference"}, {"datetime", "1969-07-20"}, {"end", "2024-03-10"}});
  EXPECT_EQ(r["calendar"]["years"], 54);
  EXPECT_EQ(r["calendar"]["months"], 7);
  EXPECT_EQ(r["calendar"]["days"], 19);
  EXPECT_EQ(r["days"], 19957.0);
  auto neg = run({{"operation", "difference"}, {"datetime", "now"}, {"end", "2024-03-09T12:00:00Z"}});
  EXPECT_EQ(neg["seconds"], -86400);
}

TEST_F(datetime_fixture, add_months_clamps_and_days_cross_dst) {
  EXPECT_EQ(run({{"operation", "add"}, {"datetime", "2024-01-31"}, {"months", 1}})["result"]["date"],
            "2024-02-29");
  auto r = run({{"operation", "add"}, {"datetime", "2024-03-09T10:00"}, {"days", 1},
                {"timezone", "America/New_York"}});
  EXPECT_EQ(r["result"]["iso"], "2024-03-10T10:00:00-04:00");
  auto back = run({{"operation", "add"}, {"datetime", "2024-03-10"}, {"weeks", -2}});
  EXPECT_EQ(back["result"]["date"], "2024-02-25");
}

TEST_F(datetime_fixture, bad_inputs_are_errors_that_say_what_to_use) {
  auto zone = call_tool(registry, "datetime", {{"operation", "now"}, {"timezone", "Mars/Olympus"}});
  EXPECT_TRUE(zone.is_error);
  EXPECT_NE(zone.all_text().find("IANA"), std::string::npos);
  EXPECT_TRUE(call_tool(registry, "datetime", {{"operation", "now"}, {"timezone", "../../etc/passwd"}}).is_error);
  auto date = call_tool(registry, "datetime", {{"operation", "convert"}, {"datetime", "10/03/2024"}});
  EXPECT_TRUE(date.is_error);
  EXPECT_NE(date.all_text().find("ISO 8601"), std::string::npos);
  EXPECT_TRUE(call_tool(registry, "datetime", {{"operation", "convert"}, {"datetime", "2024-02-30"}}).is_error);
}

TEST(time_zone, fixed_offsets_and_iana_zones) {
  using tooluse::builtin::detail::time_zone;
  auto fixed = time_zone::load("+05:30");
  ASSERT_TRUE(fixed);
  EXPECT_EQ((*fixed)->name(), "+0530");
  EXPECT_EQ((*fixed)->at(0).utc_offset, 5 * 3600 + 30 * 60);
  EXPECT_EQ((*fixed)->to_utc(5 * 3600 + 30 * 60), 0);
  EXPECT_EQ((*time_zone::load("-03"))->at(0).utc_offset, -3 * 3600);
  EXPECT_EQ((*time_zone::load("+0545"))->at(0).utc_offset, 5 * 3600 + 45 * 60);
  EXPECT_FALSE(time_zone::load("+25:00"));
  EXPECT_FALSE(time_zone::load("+05:99"));
  auto paris = time_zone::load("Europe/Paris");
  ASSERT_TRUE(paris);
  // 2024-07-01T00:00:00Z is summer time (CEST, +2, dst); 2024-01-01T00:00:00Z is winter (CET, +1).
  auto summer = (*paris)->at(1719792000);
  EXPECT_EQ(summer.utc_offset, 7200);
  EXPECT_EQ(summer.abbreviation, "CEST");
  EXPECT_TRUE(summer.dst);
  auto winter = (*paris)->at(1704067200);
  EXPECT_EQ(winter.utc_offset, 3600);
  EXPECT_FALSE(winter.dst);
  // 2024-10-27T02:30 local happens twice: the earlier instant (CEST) is taken.
  bool adjusted = true;
  std::int64_t local = 1729996200;  // 2024-10-27T02:30:00 as if UTC
  EXPECT_EQ((*paris)->to_utc(local, &adjusted), local - 7200);
  EXPECT_FALSE(adjusted);
  // 2024-03-31T02:30 local does not exist: moved forward by the gap and flagged.
  local = 1711852200;  // 2024-03-31T02:30:00 as if UTC
  EXPECT_EQ((*paris)->to_utc(local, &adjusted), local - 3600);
  EXPECT_TRUE(adjusted);
  auto unknown = time_zone::load("Mars/Olympus");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, tooluse::errc::not_found);
}

}  // namespace
