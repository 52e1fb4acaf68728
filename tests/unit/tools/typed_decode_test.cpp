// tooluse::decode / encode and the generated to_json / from_json: values, defaults, error paths.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tooluse/describe.hpp"

namespace typed_decode {

enum class unit { celsius, fahrenheit };
TOOLUSE_DESCRIBE_ENUM(unit, (celsius, "celsius"), (fahrenheit, "fahrenheit"))

struct stop {
  std::string name;
  std::optional<double> lat;
};
TOOLUSE_DESCRIBE(stop, (name), (lat))

struct trip {
  std::string city;
  std::optional<unit> temp;
  int days = 1;
  std::uint8_t level = 0;
  bool fast = false;
  std::vector<stop> stops;
  std::map<std::string, int> budget;
  std::array<int, 2> span{};
};
TOOLUSE_DESCRIBE(trip, (city), (temp), (days), (level, "Level", tooluse::default_value(3)),
                 (fast, "Fast", tooluse::default_value(false)), (stops, "Stops", tooluse::default_value(tooluse::json::array())),
                 (budget, "Budget", tooluse::default_value(tooluse::json::object())),
                 (span, "Span", tooluse::default_value(std::vector<int>{0, 0})))

using tooluse::json;

std::string decode_error(const json& j) {
  auto r = tooluse::decode<trip>(j);
  if (r) return "(decoded)";
  EXPECT_EQ(r.error().code, tooluse::errc::invalid_argument);
  return r.error().message;
}

TEST(typed_decode, decodes_every_kind_of_field) {
  auto r = tooluse::decode<trip>(json::parse(R"({"city":"Paris","temp":"fahrenheit","days":3.0,
      "level":200,"fast":true,"stops":[{"name":"a","lat":1.5},{"name":"b","lat":null}],
      "budget":{"food":10},"span":[1,2]})"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->city, "Paris");
  EXPECT_EQ(r->temp, unit::fahrenheit);
  EXPECT_EQ(r->days, 3);
  EXPECT_EQ(r->level, 200);
  EXPECT_TRUE(r->fast);
  ASSERT_EQ(r->stops.size(), 2u);
  EXPECT_EQ(r->stops[0].lat, 1.5);
  EXPECT_FALSE(r->stops[1].lat.has_value());
  EXPECT_EQ(r->budget.at("food"), 10);
  EXPECT_EQ(r->span[1], 2);
}

TEST(typed_decode, missing_fields_take_their_defaults) {
  auto r = tooluse::decode<trip>(json::parse(R"({"city":"Oslo"})"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->temp.has_value());
  EXPECT_EQ(r->days, 1);
  EXPECT_EQ(r->level, 3);
  EXPECT_TRUE(r->stops.empty());
}

TEST(typed_decode, errors_name_the_json_path) {
  EXPECT_EQ(decode_error(json::parse(R"({"days":2})")),
            R"(arguments: missing required property "city")");
  EXPECT_EQ(decode_error(json::parse(R"({"city":5})")),
            R"(arguments.city: expected string, got integer 5)");
  EXPECT_EQ(decode_error(json::parse(R"({"city":"x","days":"three"})")),
            R"(arguments.days: expected integer, got string "three")");
  EXPECT_EQ(decode_error(json::parse(R"({"city":"x","days":2.5})")),
            R"(arguments.days: expected integer, got number 2.5)");
  EXPECT_EQ(decode_error(json::parse(R"({"city":"x","level":256})")),
            R"(arguments.level: integer 256 is out of range [0, 255])");
  EXPECT_EQ(decode_error(json::parse(R"({"city":"x","days":1e10})")),
            R"(arguments.days: number 10000000000.0 is out of range [-2147483648, 2147483647])");
  EXPECT_EQ(decode_error(json::parse(R"({"city":"x","temp":"kelvin"})")),
            R"(arguments.temp: expected one of "celsius", "fahrenheit", got string "kelvin")");
  EXPECT_EQ(decode_error(json::parse(R"({"city":"x","stops":[{"name":"a"},{"name":1}]})")),
            R"(arguments.stops[1].name: expected string, got integer 1)");
  EXPECT_EQ(decode_error(json::parse(R"({"city":"x","budget":{"two words":"a"}})")),
            R"(arguments.budget["two words"]: expected integer, got string "a")");
  EXPECT_EQ(decode_error(json::parse(R"({"city":"x","span":[1]})")),
            R"(arguments.span: expected exactly 2 items, got 1)");
  EXPECT_EQ(decode_error(json::parse(R"({"city":"x","citty":"y"})")),
            R"(arguments: unknown property "citty"; expected: city, temp, days, level, fast, stops, budget, span)");
  EXPECT_EQ(decode_error(json::parse(R"([1])")), R"(arguments: expected object, got array)");
  EXPECT_EQ(decode_error(json::parse(R"({"city":"x","fast":"yes"})")),
            R"(arguments.fast: expected boolean, got string "yes")");
}

TEST(typed_decode, sixty_four_bit_limits) {
  auto i64 = tooluse::decode<std::int64_t>(json::parse("-9223372036854775808"));
  ASSERT_TRUE(i64);
  EXPECT_EQ(*i64, INT64_MIN);
  auto u64 = tooluse::decode<std::uint64_t>(json::parse("18446744073709551615"));
  ASSERT_TRUE(u64);
  EXPECT_EQ(*u64, UINT64_MAX);
  EXPECT_FALSE(tooluse::decode<std::uint64_t>(json(-1)));
  EXPECT_FALSE(tooluse::decode<std::int64_t>(json(9223372036854775808.0)));
  EXPECT_FALSE(tooluse::decode<float>(json(1e300)));
}

TEST(typed_decode, encode_leaves_out_absent_optionals) {
  trip t;
  t.city = "Rome";
  t.temp = unit::celsius;
  t.stops.push_back({"a", std::nullopt});
  EXPECT_EQ(tooluse::encode(t).dump(),
            R"({"city":"Rome","temp":"celsius","days":1,"level":0,"fast":false,)"
            R"("stops":[{"name":"a"}],"budget":{},"span":[0,0]})");
}

TEST(typed_decode, nlohmann_conversions_round_trip) {
  stop s{"x", 2.0};
  json j = s;
  EXPECT_EQ(j.dump(), R"({"name":"x","lat":2.0})");
  EXPECT_EQ(j.get<stop>().lat, 2.0);
  json u = unit::fahrenheit;
  EXPECT_EQ(u.dump(), R"("fahrenheit")");
  try {
    (void)json::parse(R"({"name":3})").get<stop>();
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "$.name: expected string, got integer 3");
  }
}

}  // namespace typed_decode
