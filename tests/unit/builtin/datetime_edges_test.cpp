// The datetime tool at its edges: every ISO 8601 spelling it reads and the near misses it
// refuses, offsets written in the text overriding the zone, calendar differences around month
// ends, leap days, and durations too large to add.
#include <gtest/gtest.h>

#include "builtin_test_util.hpp"
#include "tooluse/builtin/datetime.hpp"

namespace {

using tooluse::json;
using tooluse::testing::call_tool;
using namespace std::chrono;

struct datetime_edges : ::testing::Test {
  tooluse::tool_registry registry;
  void SetUp() override {
    // 2024-03-10T12:00:00Z, as in datetime_test.
    tooluse::builtin::register_datetime(registry, {.clock = [] {
      return system_clock::time_point{seconds{1710072000}};
    }});
  }
  json run(const json& args) {
    auto r = call_tool(registry, "datetime", args);
    EXPECT_FALSE(r.is_error) << r.all_text();
    return r.structured_content.value_or(json());
  }
  std::string error_of(const json& args) {
    auto r = call_tool(registry, "datetime", args);
    EXPECT_TRUE(r.is_error) << args.dump();
    return r.all_text();
  }
  std::string utc_iso(const std::string& datetime) {
    return run({{"operation", "convert"}, {"datetime", datetime}, {"to_timezone", "UTC"}})["to"]["iso"];
  }
};

TEST_F(datetime_edges, every_iso_spelling_it_reads) {
  EXPECT_EQ(utc_iso("2024-03-10"), "2024-03-10T00:00:00+00:00");
  EXPECT_EQ(utc_iso("2024-03-10T14:30"), "2024-03-10T14:30:00+00:00");
  EXPECT_EQ(utc_iso("2024-03-10 14:30:15"), "2024-03-10T14:30:15+00:00");
  EXPECT_EQ(utc_iso("2024-03-10t14:30:15z"), "2024-03-10T14:30:15+00:00");
  EXPECT_EQ(utc_iso("2024-03-10T14:30:15.999Z"), "2024-03-10T14:30:15+00:00");  // fractions dropped
  EXPECT_EQ(utc_iso("2024-03-10T14:30:15,5+01:00"), "2024-03-10T13:30:15+00:00");
  EXPECT_EQ(utc_iso("2024-03-10T14:30+0530"), "2024-03-10T09:00:00+00:00");
  EXPECT_EQ(utc_iso("2024-03-10T14:30-03"), "2024-03-10T17:30:00+00:00");
  EXPECT_EQ(utc_iso("2024-03-10T24:00"), "2024-03-11T00:00:00+00:00");
  EXPECT_EQ(utc_iso("2024-02-29"), "2024-02-29T00:00:00+00:00");
}

TEST_F(datetime_edges, near_misses_are_refused_with_examples) {
  for (const char* bad : {"2024-3-10", "24-03-10", "2024/03/10", "2024-03-10T14", "2024-03-10T1430",
                          "2024-03-10T14:30:1", "2024-03-10X", "2024-03-10T25:00", "2024-03-10T14:60",
                          "2024-03-10T14:30:61", "2023-02-29", "2024-13-01", "2024-03-10T14:30+5",
                          "2024-03-10T14:30+05:3", "2024-03-10T14:30+99:00", "2024-03-10T14:30+05:75",
                          "", "tomorrow"}) {
    std::string text = error_of({{"operation", "convert"}, {"datetime", bad}});
    EXPECT_NE(text.find("is not understood; use ISO 8601"), std::string::npos) << bad << ": " << text;
  }
}

TEST_F(datetime_edges, an_offset_in_the_text_wins_over_the_zone) {
  auto r = run({{"operation", "convert"}, {"datetime", "2024-07-01T09:00:00+00:00"},
                {"timezone", "America/New_York"}, {"to_timezone", "Asia/Tokyo"}});
  EXPECT_EQ(r["from"]["iso"], "2024-07-01T05:00:00-04:00");
  EXPECT_EQ(r["to"]["iso"], "2024-07-01T18:00:00+09:00");
  EXPECT_EQ(r["to"]["unix"], 1719824400);
  EXPECT_FALSE(r.contains("note"));
}

TEST_F(datetime_edges, an_ambiguous_local_time_takes_one_reading_without_a_note) {
  // 2024-11-03 01:30 happens twice in New York; either reading is a real instant.
  auto r = run({{"operation", "convert"}, {"datetime", "2024-11-03T01:30"},
                {"timezone", "America/New_York"}, {"to_timezone", "UTC"}});
  std::string iso = r["to"]["iso"];
  EXPECT_TRUE(iso == "2024-11-03T05:30:00+00:00" || iso == "2024-11-03T06:30:00+00:00") << iso;
  EXPECT_FALSE(r.contains("note"));
}

TEST_F(datetime_edges, difference_counts_months_from_the_end_of_a_month) {
  auto r = run({{"operation", "difference"}, {"datetime", "2024-01-31"}, {"end", "2024-03-01"}});
  EXPECT_EQ(r["seconds"], 30 * 86400);
  EXPECT_EQ(r["calendar"], json::parse(R"({"years": 0, "months": 1, "days": 1})"));
  EXPECT_EQ(r["direction"], "end is after start");
  auto text = call_tool(registry, "datetime", {{"operation", "difference"}, {"datetime", "2024-01-31"},
                                               {"end", "2024-03-01T01:02:03"}}).all_text();
  EXPECT_EQ(text, "30 days 1 hours 2 minutes 3 seconds (0 years, 1 months, 1 days); end is after start");
}

TEST_F(datetime_edges, difference_backwards_is_negative_with_the_same_calendar_parts) {
  auto forward = run({{"operation", "difference"}, {"datetime", "2020-02-29"}, {"end", "2024-02-28"}});
  auto back = run({{"operation", "difference"}, {"datetime", "2024-02-28"}, {"end", "2020-02-29"}});
  EXPECT_EQ(forward["seconds"], -back["seconds"].get<std::int64_t>());
  EXPECT_EQ(forward["calendar"], back["calendar"]);
  EXPECT_EQ(forward["calendar"], json::parse(R"({"years": 3, "months": 11, "days": 30})"));
  EXPECT_EQ(back["direction"], "end is before start");
  EXPECT_EQ(forward["weeks"], forward["days"].get<double>() / 7);
}

TEST_F(datetime_edges, difference_to_now_uses_the_clock_and_local_dates_of_the_zone) {
  auto r = run({{"operation", "difference"}, {"datetime", "2024-03-09T12:00:00Z"}});
  EXPECT_EQ(r["seconds"], 86400);
  EXPECT_EQ(r["hours"], 24.0);
  EXPECT_EQ(r["minutes"], 1440.0);
  // In Tokyo the start is 21:00 on the 9th and the end 21:00 on the 10th: one calendar day.
  auto tokyo = run({{"operation", "difference"}, {"datetime", "2024-03-09T12:00:00Z"},
                    {"timezone", "Asia/Tokyo"}});
  EXPECT_EQ(tokyo["calendar"]["days"], 1);
  auto same = run({{"operation", "difference"}, {"datetime", "now"}, {"end", "now"}});
  EXPECT_EQ(same["seconds"], 0);
  EXPECT_EQ(same["direction"], "end is after start");
}

TEST_F(datetime_edges, add_handles_leap_days_negative_parts_and_every_unit) {
  auto leap = run({{"operation", "add"}, {"datetime", "2024-02-29"}, {"years", 1}});
  EXPECT_EQ(leap["result"]["date"], "2025-02-28");
  auto four = run({{"operation", "add"}, {"datetime", "2024-02-29"}, {"years", 4}});
  EXPECT_EQ(four["result"]["date"], "2028-02-29");
  auto back = run({{"operation", "add"}, {"datetime", "2024-03-31"}, {"months", -1}});
  EXPECT_EQ(back["result"]["date"], "2024-02-29");
  auto across_year = run({{"operation", "add"}, {"datetime", "2024-11-15"}, {"months", 3}});
  EXPECT_EQ(across_year["result"]["date"], "2025-02-15");
  auto all = run({{"operation", "add"}, {"datetime", "2024-01-01T00:00:00Z"}, {"weeks", 1},
                  {"days", 1}, {"hours", 1}, {"minutes", 1}, {"seconds", 1}});
  EXPECT_EQ(all["result"]["iso"], "2024-01-09T01:01:01+00:00");
  EXPECT_EQ(all["start"]["iso"], "2024-01-01T00:00:00+00:00");
  auto minus = run({{"operation", "add"}, {"datetime", "2024-01-01"}, {"seconds", -1}});
  EXPECT_EQ(minus["result"]["iso"], "2023-12-31T23:59:59+00:00");
  EXPECT_EQ(minus["result"]["weekday"], "Sunday");
}

TEST_F(datetime_edges, add_from_now_in_a_zone_keeps_the_wall_clock_for_days) {
  // now is 08:00 EDT on 2024-03-10; one day later is 08:00 EDT again (24 h: no DST change).
  auto r = run({{"operation", "add"}, {"timezone", "America/New_York"}, {"days", 1}});
  EXPECT_EQ(r["start"]["iso"], "2024-03-10T08:00:00-04:00");
  EXPECT_EQ(r["result"]["iso"], "2024-03-11T08:00:00-04:00");
  // Back one day crosses the change: 08:00 EST on the 9th, 23 hours earlier.
  auto before = run({{"operation", "add"}, {"timezone", "America/New_York"}, {"days", -1}});
  EXPECT_EQ(before["result"]["iso"], "2024-03-09T08:00:00-05:00");
  EXPECT_EQ(r["start"]["unix"].get<std::int64_t>() - before["result"]["unix"].get<std::int64_t>(),
            23 * 3600);
}

TEST_F(datetime_edges, durations_beyond_ten_thousand_years_are_refused_not_overflowed) {
  const std::int64_t huge = INT64_MAX;
  for (const char* unit : {"years", "months", "weeks", "days", "hours", "minutes", "seconds"}) {
    std::string text = error_of({{"operation", "add"}, {"datetime", "2024-01-01"}, {unit, huge}});
    EXPECT_EQ(text, std::string("\"") + unit + "\" is too large: a duration may span at most 10000 years");
    std::string negative = error_of({{"operation", "add"}, {"datetime", "2024-01-01"}, {unit, INT64_MIN}});
    EXPECT_NE(negative.find("is too large"), std::string::npos) << unit;
  }
  EXPECT_EQ(error_of({{"operation", "add"}, {"datetime", "2024-01-01"}, {"years", 6000}, {"months", 60000}}),
            "the duration spans more than 10000 years");
  auto far = run({{"operation", "add"}, {"datetime", "2024-01-01"}, {"years", 9999}});
  EXPECT_EQ(far["result"]["date"], "12023-01-01");
  auto cancelled = run({{"operation", "add"}, {"datetime", "2024-01-01"}, {"years", 5000},
                        {"months", -60000}});
  EXPECT_EQ(cancelled["result"]["date"], "2024-01-01");
}

TEST_F(datetime_edges, the_text_result_is_one_line_per_instant) {
  auto now = call_tool(registry, "datetime", {{"operation", "now"}, {"timezone", "Europe/Paris"}});
  EXPECT_EQ(now.all_text(), "now: 2024-03-10T13:00:00+01:00 (Sunday, Europe/Paris, CET)");
  auto convert = call_tool(registry, "datetime", {{"operation", "convert"}, {"datetime", "2024-03-10T12:00Z"},
                                                  {"to_timezone", "Asia/Kolkata"}});
  EXPECT_EQ(convert.all_text(),
            "2024-03-10T12:00:00+00:00 (Sunday, UTC)\n= 2024-03-10T17:30:00+05:30 (Sunday, "
            "Asia/Kolkata, IST)");
}

TEST_F(datetime_edges, operation_names_and_zone_errors) {
  std::string op = error_of({{"operation", "tomorrow"}});
  EXPECT_NE(op.find("\"now\", \"convert\", \"difference\", \"add\""), std::string::npos) << op;
  std::string to = error_of({{"operation", "convert"}, {"datetime", "2024-01-01"}, {"to_timezone", "Mars/Olympus"}});
  EXPECT_NE(to.find("Mars/Olympus"), std::string::npos) << to;
  std::string diff_zone = error_of({{"operation", "difference"}, {"datetime", "2024-01-01"}, {"timezone", "Nowhere"}});
  EXPECT_NE(diff_zone.find("Nowhere"), std::string::npos);
  std::string diff_end = error_of({{"operation", "difference"}, {"datetime", "2024-01-01"}, {"end", "soon"}});
  EXPECT_NE(diff_end.find("\"soon\" is not understood"), std::string::npos);
  std::string add_zone = error_of({{"operation", "add"}, {"timezone", "Nowhere/Else"}});
  EXPECT_NE(add_zone.find("Nowhere/Else"), std::string::npos);
  std::string add_date = error_of({{"operation", "add"}, {"datetime", "2024-02-30"}});
  EXPECT_NE(add_date.find("\"2024-02-30\" is not understood"), std::string::npos);
}

}  // namespace
