// schema_for<T>() for scalar types, enums and the per-field constraints (exact JSON).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "tooluse/describe.hpp"

namespace infer_scalar {

struct scalars {
  std::string s;
  bool b = false;
  double d = 0;
  float f = 0;
  tooluse::json any;
};
TOOLUSE_DESCRIBE(scalars, (s, "a string"), (b, "a flag"), (d), (f), (any, "anything"))

struct integers {
  std::int8_t i8 = 0;
  std::uint8_t u8 = 0;
  std::int16_t i16 = 0;
  std::uint16_t u16 = 0;
  int i32 = 0;
  unsigned u32 = 0;
  std::int64_t i64 = 0;
  std::uint64_t u64 = 0;
};
TOOLUSE_DESCRIBE(integers, (i8), (u8), (i16), (u16), (i32), (u32), (i64), (u64))

enum class unit { celsius, fahrenheit };
TOOLUSE_DESCRIBE_ENUM(unit, (celsius, "celsius"), (fahrenheit, "fahrenheit"))

enum color { red, dark_green };
TOOLUSE_DESCRIBE_ENUM(color, (red), (dark_green, "dark-green"))

struct with_enums {
  unit u = unit::celsius;
  std::optional<color> c;
};
TOOLUSE_DESCRIBE(with_enums, (u, "unit"), (c, "color"))

struct constrained {
  std::string name;
  int count = 0;
  double ratio = 0;
  std::string date;
  std::string mode;
  long long level = 0;
};
TOOLUSE_DESCRIBE(constrained,
                 (name, "Name", tooluse::min_length(1), tooluse::max_length(40),
                  tooluse::pattern("^[a-z]+$"), tooluse::examples({"ada", "bob"})),
                 (count, "Count", tooluse::minimum(1), tooluse::maximum(16), tooluse::multiple_of(2)),
                 (ratio, "Ratio", tooluse::exclusive_minimum(0), tooluse::exclusive_maximum(1.5)),
                 (date, "Date", tooluse::format("date"), tooluse::deprecated()),
                 (mode, "Mode", tooluse::one_of({"fast", "slow"})),
                 (level, "Level", tooluse::one_of({1, 2, 3})))

using tooluse::json;

TEST(infer_scalar, maps_string_bool_number_and_json) {
  EXPECT_EQ(tooluse::schema_for<scalars>().dump(),
            R"({"type":"object","properties":{"s":{"type":"string","description":"a string"},)"
            R"("b":{"type":"boolean","description":"a flag"},"d":{"type":"number"},)"
            R"("f":{"type":"number"},"any":{"description":"anything"}},)"
            R"("required":["s","b","d","f","any"],"additionalProperties":false})");
}

TEST(infer_scalar, integer_types_carry_their_range) {
  json p = tooluse::schema_for<integers>()["properties"];
  EXPECT_EQ(p["i8"].dump(), R"({"type":"integer","minimum":-128,"maximum":127})");
  EXPECT_EQ(p["u8"].dump(), R"({"type":"integer","minimum":0,"maximum":255})");
  EXPECT_EQ(p["i16"].dump(), R"({"type":"integer","minimum":-32768,"maximum":32767})");
  EXPECT_EQ(p["u16"].dump(), R"({"type":"integer","minimum":0,"maximum":65535})");
  EXPECT_EQ(p["i32"].dump(), R"({"type":"integer","minimum":-2147483648,"maximum":2147483647})");
  EXPECT_EQ(p["u32"].dump(), R"({"type":"integer","minimum":0,"maximum":4294967295})");
  EXPECT_EQ(p["i64"].dump(), R"({"type":"integer"})");
  EXPECT_EQ(p["u64"].dump(), R"({"type":"integer","minimum":0})");
}

TEST(infer_scalar, described_enums_are_string_enums) {
  EXPECT_EQ(tooluse::schema_for<unit>().dump(), R"({"type":"string","enum":["celsius","fahrenheit"]})");
  json s = tooluse::schema_for<with_enums>();
  EXPECT_EQ(s["properties"]["c"].dump(),
            R"({"type":"string","description":"color","enum":["red","dark-green"]})");
  EXPECT_EQ(s["required"].dump(), R"(["u"])");
}

TEST(infer_scalar, string_constraints) {
  json p = tooluse::schema_for<constrained>()["properties"];
  EXPECT_EQ(p["name"].dump(),
            R"({"type":"string","description":"Name","minLength":1,"maxLength":40,)"
            R"("pattern":"^[a-z]+$","examples":["ada","bob"]})");
  EXPECT_EQ(p["date"].dump(),
            R"({"type":"string","description":"Date","format":"date","deprecated":true})");
  EXPECT_EQ(p["mode"].dump(), R"({"type":"string","description":"Mode","enum":["fast","slow"]})");
}

TEST(infer_scalar, number_constraints_replace_the_type_range) {
  json p = tooluse::schema_for<constrained>()["properties"];
  EXPECT_EQ(p["count"].dump(),
            R"({"type":"integer","description":"Count","minimum":1,"maximum":16,"multipleOf":2})");
  EXPECT_EQ(p["ratio"].dump(),
            R"({"type":"number","description":"Ratio","exclusiveMinimum":0,"exclusiveMaximum":1.5})");
  EXPECT_EQ(p["level"].dump(), R"({"type":"integer","description":"Level","enum":[1,2,3]})");
}

struct bad_length {
  int n = 0;
};
TOOLUSE_DESCRIBE(bad_length, (n, "a number", tooluse::min_length(2)))

struct bad_items {
  std::string s;
};
TOOLUSE_DESCRIBE(bad_items, (s, "a string", tooluse::min_items(2)))

TEST(infer_scalar, constraint_on_the_wrong_type_is_a_setup_error) {
  try {
    (void)tooluse::schema_for<bad_length>();
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "field \"n\": minLength does not apply to a field of type integer");
  }
  try {
    (void)tooluse::schema_for<bad_items>();
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "field \"s\": minItems needs an array field (std::vector, std::set, std::array)");
  }
}

}  // namespace infer_scalar
