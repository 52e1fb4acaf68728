// tooluse::decode / encode for the containers and scalars typed_decode_test does not use: sets,
// lists, deques, unordered maps, small and unsigned integers, floats, nested optionals and
// enums inside containers; the root name; and values shown shortened in messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tooluse/describe.hpp"

namespace codec_containers {

enum class level { low, high };
TOOLUSE_DESCRIBE_ENUM(level, (low, "low"), (high, "high"))

struct bag {
  std::set<int> ids;
  std::list<std::string> names;
  std::deque<double> weights;
  std::unordered_map<std::string, std::vector<level>> levels;
  std::optional<std::vector<std::optional<int>>> maybe;
  std::int8_t small = 0;
  std::uint16_t port = 0;
  float ratio = 0;
};
TOOLUSE_DESCRIBE(bag, (ids, "d", tooluse::default_value(tooluse::json::array())),
                 (names, "d", tooluse::default_value(tooluse::json::array())),
                 (weights, "d", tooluse::default_value(tooluse::json::array())),
                 (levels, "d", tooluse::default_value(tooluse::json::object())), (maybe),
                 (small, "d", tooluse::default_value(0)), (port, "d", tooluse::default_value(0)),
                 (ratio, "d", tooluse::default_value(0)))

using tooluse::json;

std::string error_of(const json& j, std::string root = "arguments") {
  auto r = tooluse::decode<bag>(j, std::move(root));
  if (r) return "(decoded)";
  EXPECT_EQ(r.error().code, tooluse::errc::invalid_argument);
  return r.error().message;
}

TEST(codec_containers, every_container_decodes_and_sets_drop_duplicates) {
  auto r = tooluse::decode<bag>(json::parse(R"({"ids": [3, 1, 3], "names": ["a", "b"],
      "weights": [0.5, 2], "levels": {"x": ["low", "high"], "y": []},
      "maybe": [1, null, 3], "small": -128, "port": 65535, "ratio": 0.25})"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->ids, (std::set<int>{1, 3}));
  EXPECT_EQ(r->names, (std::list<std::string>{"a", "b"}));
  EXPECT_EQ(r->weights, (std::deque<double>{0.5, 2.0}));
  EXPECT_EQ(r->levels.at("x"), (std::vector<level>{level::low, level::high}));
  EXPECT_TRUE(r->levels.at("y").empty());
  ASSERT_TRUE(r->maybe.has_value());
  EXPECT_EQ(*r->maybe, (std::vector<std::optional<int>>{1, std::nullopt, 3}));
  EXPECT_EQ(r->small, -128);
  EXPECT_EQ(r->port, 65535);
  EXPECT_FLOAT_EQ(r->ratio, 0.25f);
}

TEST(codec_containers, defaults_fill_what_is_missing_and_null_empties_an_optional) {
  auto r = tooluse::decode<bag>(json::parse(R"({"maybe": null})"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->ids.empty());
  EXPECT_FALSE(r->maybe.has_value());
  EXPECT_EQ(r->port, 0);
}

TEST(codec_containers, errors_inside_containers_name_the_element) {
  EXPECT_EQ(error_of(json::parse(R"({"ids": [1, "2"]})")),
            R"(arguments.ids[1]: expected integer, got string "2")");
  EXPECT_EQ(error_of(json::parse(R"({"levels": {"a b": ["low", "mid"]}})")),
            R"(arguments.levels["a b"][1]: expected one of "low", "high", got string "mid")");
  EXPECT_EQ(error_of(json::parse(R"({"levels": {"x": "low"}})")),
            R"(arguments.levels.x: expected array, got string "low")");
  EXPECT_EQ(error_of(json::parse(R"({"maybe": [1, 2.5]})")),
            R"(arguments.maybe[1]: expected integer, got number 2.5)");
  EXPECT_EQ(error_of(json::parse(R"({"levels": [1]})")), R"(arguments.levels: expected object, got array)");
  EXPECT_EQ(error_of(json::parse(R"({"weights": [true]})")),
            R"(arguments.weights[0]: expected number, got boolean true)");
  EXPECT_EQ(error_of(json::parse(R"({"names": [null]})")), R"(arguments.names[0]: expected string, got null)");
}

TEST(codec_containers, small_integer_and_float_ranges) {
  EXPECT_EQ(error_of(json::parse(R"({"small": -129})")),
            "arguments.small: integer -129 is out of range [-128, 127]");
  EXPECT_EQ(error_of(json::parse(R"({"port": 65536})")),
            "arguments.port: integer 65536 is out of range [0, 65535]");
  EXPECT_EQ(error_of(json::parse(R"({"port": -1})")), "arguments.port: integer -1 is out of range [0, 65535]");
  EXPECT_EQ(error_of(json::parse(R"({"port": 80.0})")), "(decoded)");
  EXPECT_EQ(error_of(json::parse(R"({"ratio": 1e39})")),
            "arguments.ratio: number 1e+39 is out of range for a 32-bit float");
  EXPECT_EQ(error_of(json::parse(R"({"ratio": 3})")), "(decoded)");
}

TEST(codec_containers, the_root_is_named_by_the_caller_and_long_values_are_shortened) {
  EXPECT_EQ(error_of(json::parse(R"({"ids": "x"})"), "input"), R"(input.ids: expected array, got string "x")");
  EXPECT_EQ(error_of(json::parse(R"([])"), ""), ": expected object, got array");
  std::string long_text(60, 'z');
  EXPECT_EQ(error_of(json{{"small", long_text}}),
            "arguments.small: expected integer, got string \"" + std::string(36, 'z') + "...");
  EXPECT_EQ(error_of(json::parse(R"({"unknown": 1})")),
            "arguments: unknown property \"unknown\"; expected: ids, names, weights, levels, maybe, "
            "small, port, ratio");
}

TEST(codec_containers, encode_writes_every_container_as_json) {
  bag b;
  b.ids = {2, 1};
  b.names = {"n"};
  b.weights = {1.5};
  b.levels["k"] = {level::high};
  b.maybe = std::vector<std::optional<int>>{std::nullopt, 4};
  b.small = -1;
  b.port = 8080;
  b.ratio = 0.5f;
  EXPECT_EQ(tooluse::encode(b),
            json::parse(R"({"ids": [1, 2], "names": ["n"], "weights": [1.5], "levels": {"k": ["high"]},
                            "maybe": [null, 4], "small": -1, "port": 8080, "ratio": 0.5})"));
  auto back = tooluse::decode<bag>(tooluse::encode(b));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->ids, b.ids);
  EXPECT_EQ(back->levels, b.levels);
  EXPECT_EQ(back->maybe, b.maybe);
  bag empty;
  EXPECT_FALSE(tooluse::encode(empty).contains("maybe"));
}

TEST(codec_containers, unordered_sets_and_top_level_scalars) {
  auto set = tooluse::decode<std::unordered_set<std::string>>(json::parse(R"(["a", "a", "b"])"));
  ASSERT_TRUE(set);
  EXPECT_EQ(set->size(), 2u);
  auto flag = tooluse::decode<bool>(json(1), "flag");
  ASSERT_FALSE(flag);
  EXPECT_EQ(flag.error().message, "flag: expected boolean, got integer 1");
  auto text = tooluse::decode<std::string>(json("x"));
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "x");
  auto any = tooluse::decode<json>(json::parse(R"({"k": [1]})"));
  ASSERT_TRUE(any);
  EXPECT_EQ((*any)["k"][0], 1);
  EXPECT_EQ(tooluse::encode(std::optional<int>{}), json(nullptr));
  EXPECT_EQ(tooluse::encode(level::low), json("low"));
}

}  // namespace codec_containers
