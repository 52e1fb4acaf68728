// schema_for<T>() for optionals, containers, maps, nested and recursive structs, and defaults.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tooluse/describe.hpp"

namespace infer_compound {

struct weather_args {
  std::string city;
  std::optional<std::string> unit;
  int days = 1;
};
TOOLUSE_DESCRIBE(weather_args,
                 (city, "City name, e.g. \"Paris\"", tooluse::min_length(1)),
                 (unit, "Temperature unit", tooluse::one_of({"celsius", "fahrenheit"})),
                 (days, "Forecast days", tooluse::minimum(1), tooluse::maximum(16)))

struct lists {
  std::vector<std::string> tags;
  std::set<int> ids;
  std::array<double, 3> point{};
  std::map<std::string, int> counts;
  std::vector<std::vector<int>> grid;
};
TOOLUSE_DESCRIBE(lists,
                 (tags, "Tags", tooluse::min_items(1), tooluse::max_items(5), tooluse::min_length(2)),
                 (ids, "Ids", tooluse::minimum(0)),
                 (point, "x, y, z"),
                 (counts, "Counts by name", tooluse::minimum(0)),
                 (grid))

struct address {
  std::string street;
  std::optional<std::string> zip;
};
TOOLUSE_DESCRIBE(address, (street, "Street"), (zip, "Postal code", tooluse::pattern("^[0-9]{5}$")))

struct person {
  std::string name;
  address home;
  std::vector<address> others;
};
TOOLUSE_DESCRIBE(person, (name, "Name"), (home, "Home address"), (others))

struct defaults {
  bool verbose = false;
  bool colour = true;
  std::string mode = "fast";
  int retries = 0;
  std::optional<int> limit = 10;
  std::string name;
  int forced = 3;
};
TOOLUSE_DESCRIBE(defaults, (verbose, "Verbose", tooluse::default_value(false)), (colour), (mode),
                 (retries), (limit), (name), (forced, "Forced", tooluse::required()))

struct node {
  std::string label;
  std::vector<node> children;
};
TOOLUSE_DESCRIBE(node, (label), (children, "Sub-nodes"))

struct tree_holder {
  std::string title;
  node root;
};
TOOLUSE_DESCRIBE(tree_holder, (title), (root))

using tooluse::json;

TEST(infer_compound, weather_example_schema) {
  EXPECT_EQ(tooluse::schema_for<weather_args>().dump(),
            R"({"type":"object","properties":{)"
            R"("city":{"type":"string","description":"City name, e.g. \"Paris\"","minLength":1},)"
            R"("unit":{"type":"string","description":"Temperature unit","enum":["celsius","fahrenheit"]},)"
            R"("days":{"type":"integer","description":"Forecast days","minimum":1,"maximum":16,"default":1}},)"
            R"("required":["city"],"additionalProperties":false})");
}

TEST(infer_compound, containers_and_where_constraints_land) {
  json p = tooluse::schema_for<lists>()["properties"];
  EXPECT_EQ(p["tags"].dump(),
            R"({"type":"array","description":"Tags","items":{"type":"string","minLength":2},)"
            R"("minItems":1,"maxItems":5})");
  EXPECT_EQ(p["ids"].dump(),
            R"({"type":"array","description":"Ids","items":{"type":"integer","minimum":0,)"
            R"("maximum":2147483647},"uniqueItems":true})");
  EXPECT_EQ(p["point"].dump(),
            R"({"type":"array","description":"x, y, z","items":{"type":"number"},)"
            R"("minItems":3,"maxItems":3})");
  EXPECT_EQ(p["counts"].dump(),
            R"({"type":"object","description":"Counts by name","additionalProperties":)"
            R"({"type":"integer","minimum":0,"maximum":2147483647}})");
  EXPECT_EQ(p["grid"].dump(),
            R"({"type":"array","items":{"type":"array","items":{"type":"integer",)"
            R"("minimum":-2147483648,"maximum":2147483647}}})");
}

TEST(infer_compound, nested_structs_are_inline_objects) {
  json s = tooluse::schema_for<person>();
  const std::string addr =
      R"("properties":{"street":{"type":"string","description":"Street"},)"
      R"("zip":{"type":"string","description":"Postal code","pattern":"^[0-9]{5}$"}},)"
      R"("required":["street"],"additionalProperties":false)";
  EXPECT_EQ(s["properties"]["home"].dump(),
            R"({"type":"object","description":"Home address",)" + addr + "}");
  EXPECT_EQ(s["properties"]["others"].dump(),
            R"({"type":"array","items":{"type":"object",)" + addr + "}}");
  EXPECT_EQ(s["required"].dump(), R"(["name","home","others"])");
}

TEST(infer_compound, defaults_decide_what_is_required) {
  json s = tooluse::schema_for<defaults>();
  json p = s["properties"];
  EXPECT_EQ(p["verbose"].dump(), R"({"type":"boolean","description":"Verbose","default":false})");
  EXPECT_EQ(p["colour"].dump(), R"({"type":"boolean","default":true})");
  EXPECT_EQ(p["mode"].dump(), R"({"type":"string","default":"fast"})");
  EXPECT_EQ(p["retries"].dump(), R"({"type":"integer","minimum":-2147483648,"maximum":2147483647})");
  EXPECT_EQ(p["limit"].dump(), R"({"type":"integer","minimum":-2147483648,"maximum":2147483647,"default":10})");
  EXPECT_EQ(p["forced"].dump(),
            R"({"type":"integer","description":"Forced","minimum":-2147483648,"maximum":2147483647,"default":3})");
  EXPECT_EQ(s["required"].dump(), R"(["retries","name","forced"])");
}

TEST(infer_compound, recursive_root_refers_to_itself) {
  EXPECT_EQ(tooluse::schema_for<node>().dump(),
            R"({"type":"object","properties":{"label":{"type":"string"},)"
            R"("children":{"type":"array","description":"Sub-nodes","items":{"$ref":"#"}}},)"
            R"("required":["label","children"],"additionalProperties":false})");
}

TEST(infer_compound, recursive_nested_struct_goes_to_defs) {
  EXPECT_EQ(tooluse::schema_for<tree_holder>().dump(),
            R"({"type":"object","properties":{"title":{"type":"string"},)"
            R"("root":{"$ref":"#/$defs/node"}},"required":["title","root"],)"
            R"("additionalProperties":false,"$defs":{"node":{"type":"object","properties":)"
            R"({"label":{"type":"string"},"children":{"type":"array","description":"Sub-nodes",)"
            R"("items":{"$ref":"#/$defs/node"}}},"required":["label","children"],)"
            R"("additionalProperties":false}}})");
}

TEST(infer_compound, top_level_non_struct_types) {
  EXPECT_EQ(tooluse::schema_for<std::vector<std::optional<bool>>>().dump(),
            R"({"type":"array","items":{"type":"boolean"}})");
  using json_map = std::map<std::string, tooluse::json>;
  EXPECT_EQ(tooluse::schema_for<json_map>().dump(),
            R"({"type":"object","additionalProperties":{}})");
}

}  // namespace infer_compound
