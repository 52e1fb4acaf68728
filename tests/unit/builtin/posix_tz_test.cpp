// The POSIX TZ rule evaluator (TZif footers, RFC 8536 section 3.3) and the time zones that use
// it after the last transition of the system's zone files.
#include "builtin/posix_tz.hpp"

#include <date/date.h>
#include <gtest/gtest.h>

#include "builtin/time_zones.hpp"

namespace {
using tooluse::builtin::detail::posix_rule;
using tooluse::builtin::detail::read_tzif_footer;
using tooluse::builtin::detail::time_zone;

// utc returns the UTC seconds of y-m-d h:mi:s (UTC).
std::int64_t utc(int y, unsigned m, unsigned d, int h = 0, int mi = 0, int s = 0) {
  auto day = date::sys_days{date::year{y} / date::month{m} / date::day{d}};
  return day.time_since_epoch().count() * 86400LL + h * 3600 + mi * 60 + s;
}

posix_rule must_parse(const char* tz) {
  auto r = posix_rule::parse(tz);
  EXPECT_TRUE(r.has_value()) << tz;
  return r.value_or(posix_rule{});
}

TEST(posix_tz, parses_the_three_date_forms_and_times) {
  auto paris = must_parse("CET-1CEST,M3.5.0,M10.5.0/3");
  EXPECT_EQ(paris.std_abbreviation, "CET");
  EXPECT_EQ(paris.std_offset, 3600);
  EXPECT_EQ(paris.dst_abbreviation, "CEST");
  EXPECT_EQ(paris.dst_offset, 7200);  // one hour more unless given
  EXPECT_EQ(paris.start.month, 3);
  EXPECT_EQ(paris.start.week, 5);
  EXPECT_EQ(paris.start.time, 7200);  // 02:00 unless given
  EXPECT_EQ(paris.end.time, 3 * 3600);

  auto quoted = must_parse("<-03>3<-02>,M3.2.0/-2:30,J365/25");
  EXPECT_EQ(quoted.std_abbreviation, "-03");
  EXPECT_EQ(quoted.std_offset, -3 * 3600);
  EXPECT_EQ(quoted.start.time, -(2 * 3600 + 30 * 60));
  EXPECT_EQ(quoted.end.kind, posix_rule::transition_date::form::julian);
  EXPECT_EQ(quoted.end.time, 25 * 3600);

  auto zero = must_parse("AAA5BBB4,0/0,365/24");
  EXPECT_EQ(zero.start.kind, posix_rule::transition_date::form::zero_based);
  EXPECT_EQ(zero.dst_offset, -4 * 3600);

  auto tokyo = must_parse("JST-9");
  EXPECT_FALSE(tokyo.has_dst());
  EXPECT_EQ(tokyo.std_offset, 9 * 3600);
}

TEST(posix_tz, rejects_malformed_strings) {
  for (const char* bad :
       {"", "C-1", "CET", "CET-1CEST", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0",
        "CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,J0,J365",
        "CET-1CEST,M3.5.0,M10.5.0/168", "<AB>1", "CET-1CEST,M3.5.0,M10.5.0x"})
    EXPECT_FALSE(posix_rule::parse(bad).has_value()) << bad;
}

TEST(posix_tz, northern_hemisphere_new_york) {
  auto ny = must_parse("EST5EDT,M3.2.0,M11.1.0");
  // 2040: second Sunday of March is the 11th, first Sunday of November the 4th.
  EXPECT_EQ(ny.at(utc(2040, 3, 11, 6, 59, 59)).abbreviation, "EST");
  EXPECT_EQ(ny.at(utc(2040, 3, 11, 7)).abbreviation, "EDT");  // 02:00 EST
  EXPECT_EQ(ny.at(utc(2040, 7, 1)).utc_offset, -4 * 3600);
  EXPECT_TRUE(ny.at(utc(2040, 7, 1)).dst);
  EXPECT_EQ(ny.at(utc(2040, 11, 4, 5, 59, 59)).abbreviation, "EDT");
  EXPECT_EQ(ny.at(utc(2040, 11, 4, 6)).abbreviation, "EST");  // 02:00 EDT
  EXPECT_EQ(ny.at(utc(2040, 12, 31, 23)).utc_offset, -5 * 3600);
}

TEST(posix_tz, southern_hemisphere_sydney) {
  auto sydney = must_parse("AEST-10AEDT,M10.1.0,M4.1.0/3");
  // Summer time spans the new year: in force in January, not in July.
  EXPECT_EQ(sydney.at(utc(2050, 1, 15)).utc_offset, 11 * 3600);
  EXPECT_EQ(sydney.at(utc(2050, 7, 15)).utc_offset, 10 * 3600);
  // 2050: ends first Sunday of April (the 3rd) at 03:00 AEDT = 16:00Z on the 2nd; starts
  // first Sunday of October (the 2nd) at 02:00 AEST = 16:00Z on the 1st.
  EXPECT_TRUE(sydney.at(utc(2050, 4, 2, 15, 59, 59)).dst);
  EXPECT_FALSE(sydney.at(utc(2050, 4, 2, 16)).dst);
  EXPECT_FALSE(sydney.at(utc(2050, 10, 1, 15, 59, 59)).dst);
  EXPECT_EQ(sydney.at(utc(2050, 10, 1, 16)).abbreviation, "AEDT");
}

TEST(posix_tz, zone_without_summer_time) {
  auto kolkata = must_parse("IST-5:30");
  EXPECT_EQ(kolkata.at(utc(2060, 6, 1)).utc_offset, 5 * 3600 + 1800);
  EXPECT_EQ(kolkata.at(utc(2060, 1, 1)).abbreviation, "IST");
  bool adjusted = true;
  EXPECT_EQ(kolkata.to_utc(utc(2060, 6, 1, 12), &adjusted), utc(2060, 6, 1, 6, 30));
  EXPECT_FALSE(adjusted);
}

TEST(posix_tz, julian_and_zero_based_days) {
  // Jn never counts February 29: J60 is March 1 in leap and other years. n counts it: 59 is
  // February 29 in a leap year, March 1 otherwise.
  auto j = must_parse("AAA0BBB,J60/0,J300/0");
  EXPECT_FALSE(j.at(utc(2040, 2, 29, 23, 59, 59)).dst);
  EXPECT_TRUE(j.at(utc(2040, 3, 1)).dst);
  EXPECT_FALSE(j.at(utc(2041, 2, 28, 23, 59, 59)).dst);
  EXPECT_TRUE(j.at(utc(2041, 3, 1)).dst);
  auto n = must_parse("AAA0BBB,59/0,299/0");
  EXPECT_TRUE(n.at(utc(2040, 2, 29)).dst);
  EXPECT_FALSE(n.at(utc(2040, 2, 28, 23, 59, 59)).dst);
  EXPECT_TRUE(n.at(utc(2041, 3, 1)).dst);
  EXPECT_FALSE(n.at(utc(2041, 2, 28, 23, 59, 59)).dst);
}

TEST(posix_tz, transition_times_beyond_a_day_and_negative) {
  // Start at "-1:00" of day 0 (Dec 31, 23:00 of the year before); end at 25:00 of J365.
  auto r = must_parse("AAA0BBB,0/-1,J365/25");
  EXPECT_TRUE(r.at(utc(2040, 12, 31, 23, 59)).dst);  // before 25:00 BBB = Jan 1 00:00Z
  // Whole-year summer time (RFC 8536 3.3.1): Jan 1 00:00 to Dec 31 24:00 plus the difference.
  auto always = must_parse("EST5EDT,0/0,J365/25");
  for (int m = 1; m <= 12; ++m)
    EXPECT_TRUE(always.at(utc(2045, static_cast<unsigned>(m), 1)).dst) << m;
  EXPECT_TRUE(always.at(utc(2046, 1, 1, 4, 30)).dst);
}

TEST(posix_tz, local_times_in_gaps_and_overlaps) {
  auto paris = must_parse("CET-1CEST,M3.5.0,M10.5.0/3");
  bool adjusted = false;
  // 2040-03-25 02:30 does not exist: moved forward to 03:30 CEST = 01:30Z.
  EXPECT_EQ(paris.to_utc(utc(2040, 3, 25, 2, 30), &adjusted), utc(2040, 3, 25, 1, 30));
  EXPECT_TRUE(adjusted);
  // 2040-10-28 02:30 happens twice: the earlier one is 00:30Z (CEST).
  EXPECT_EQ(paris.to_utc(utc(2040, 10, 28, 2, 30), &adjusted), utc(2040, 10, 28, 0, 30));
  EXPECT_FALSE(adjusted);
  EXPECT_EQ(paris.to_utc(utc(2040, 7, 1, 12), &adjusted), utc(2040, 7, 1, 10));
}

TEST(posix_tz, reads_the_footer_of_system_zone_files) {
  auto footer = read_tzif_footer("/usr/share/zoneinfo/Europe/Paris");
  ASSERT_TRUE(footer.has_value());
  EXPECT_EQ(*footer, "CET-1CEST,M3.5.0,M10.5.0/3");
  EXPECT_FALSE(read_tzif_footer("/usr/share/zoneinfo/no/such/zone").has_value());
  EXPECT_FALSE(read_tzif_footer("/etc/hostname").has_value());  // not TZif
}

TEST(posix_tz, time_zone_follows_the_rule_after_2037_and_agrees_before) {
  for (const char* name : {"Europe/Paris", "America/New_York", "Australia/Sydney", "Asia/Tokyo"}) {
    auto tz = time_zone::load(name);
    ASSERT_TRUE(tz.has_value()) << name;
    auto rule = posix_rule::parse(
        read_tzif_footer(std::string("/usr/share/zoneinfo/") + name).value_or(""));
    ASSERT_TRUE(rule.has_value()) << name;
    // Every 10 days from 2030 to 2060 the zone and its rule agree (before 2037 the zone's
    // answer comes from the compiled transitions, after it from the rule).
    for (std::int64_t t = utc(2030, 1, 1); t < utc(2060, 1, 1); t += 10 * 86400 + 3599) {
      auto z = (*tz)->at(t);
      auto p = rule->at(t);
      ASSERT_EQ(z.utc_offset, p.utc_offset) << name << " at " << t;
      ASSERT_EQ(z.abbreviation, p.abbreviation) << name << " at " << t;
      bool near_change = (*tz)->at(t - 7200).utc_offset != z.utc_offset ||
                         (*tz)->at(t + 7200).utc_offset != z.utc_offset;
      if (!near_change) {
        ASSERT_EQ((*tz)->to_utc(t + z.utc_offset), t) << name << " at " << t;
      }
    }
  }
  auto paris = time_zone::load("Europe/Paris");
  ASSERT_TRUE(paris.has_value());
  EXPECT_EQ((*paris)->at(utc(2040, 7, 4, 12)).utc_offset, 7200);
}

}  // namespace
