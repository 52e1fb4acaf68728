// Coercion beyond coerce_test.cpp: where it descends (patternProperties, additionalProperties,
// prefixItems, allOf, nested arrays) and the paths it reports there, which number texts count,
// chained repairs (a JSON string whose items are then repaired), alternatives that cannot be
// repaired, clamping to fractional and integer bounds, and the root name and error cap.
#include <gtest/gtest.h>

#include "tooluse/schema/coerce.hpp"

namespace coerce_paths_test {
namespace {

using tooluse::json;
using tooluse::schema::coerce;
using tooluse::schema::coerce_outcome;
using tooluse::schema::validator;

validator compile(const char* text) {
  auto v = validator::compile(json::parse(text));
  EXPECT_TRUE(v.has_value()) << (v ? "" : v.error().message);
  return *v;
}

// changes renders the coercions as "path: from -> to (rule)" lines, to compare exactly.
std::vector<std::string> changes(const coerce_outcome& out) {
  std::vector<std::string> lines;
  for (const auto& c : out.coercions)
    lines.push_back(c.path + ": " + c.from.dump() + " -> " + c.to.dump() + " (" + c.rule + ")");
  return lines;
}

using lines = std::vector<std::string>;

TEST(coerce_paths, pattern_and_additional_properties_are_repaired_under_their_keys) {
  auto v = compile(R"({"type":"object",
      "properties":{"id":{"type":"integer"}},
      "patternProperties":{"^n_":{"type":"number"}},
      "additionalProperties":{"type":"boolean"}})");
  auto out = coerce(v, json::parse(R"({"id":"1","n_x":"2.5","flag":"yes","odd key":"no"})"));
  EXPECT_TRUE(out.valid());
  EXPECT_EQ(out.value, json::parse(R"({"id":1,"n_x":2.5,"flag":true,"odd key":false})"));
  EXPECT_EQ(changes(out), (lines{R"(arguments.id: "1" -> 1 (string_to_integer))",
                                 R"(arguments.n_x: "2.5" -> 2.5 (string_to_number))",
                                 R"(arguments.flag: "yes" -> true (string_to_boolean))",
                                 R"(arguments["odd key"]: "no" -> false (string_to_boolean))"}));
}

TEST(coerce_paths, prefix_items_are_repaired_by_position_and_the_rest_by_items) {
  auto v = compile(R"({"type":"array",
      "prefixItems":[{"type":"integer"},{"type":"boolean"}],
      "items":{"type":"number"}})");
  auto out = coerce(v, json::parse(R"(["4","false","1.5","2"])"));
  EXPECT_TRUE(out.valid());
  EXPECT_EQ(out.value, json::parse(R"([4,false,1.5,2])"));
  EXPECT_EQ(changes(out), (lines{R"(arguments[0]: "4" -> 4 (string_to_integer))",
                                 R"(arguments[1]: "false" -> false (string_to_boolean))",
                                 R"(arguments[2]: "1.5" -> 1.5 (string_to_number))",
                                 R"(arguments[3]: "2" -> 2 (string_to_number))"}));
}

TEST(coerce_paths, all_of_members_give_their_types_in_place) {
  auto v = compile(R"({"allOf":[{"type":"object","properties":{"a":{"type":"integer"}}},
                                {"properties":{"b":{"type":"boolean"}}}]})");
  auto out = coerce(v, json::parse(R"({"a":"7","b":"TRUE"})"));
  EXPECT_TRUE(out.valid());
  EXPECT_EQ(out.value, json::parse(R"({"a":7,"b":true})"));
}

TEST(coerce_paths, a_json_string_is_parsed_and_then_its_items_repaired) {
  auto v = compile(R"({"type":"object","properties":{
      "ids":{"type":"array","items":{"type":"integer"}}}})");
  auto out = coerce(v, json::parse(R"({"ids":"[\"1\", 2]"})"));
  EXPECT_TRUE(out.valid());
  EXPECT_EQ(out.value, json::parse(R"({"ids":[1,2]})"));
  EXPECT_EQ(changes(out), (lines{R"(arguments.ids: "[\"1\", 2]" -> ["1",2] (json_string))",
                                 R"(arguments.ids[0]: "1" -> 1 (string_to_integer))"}));
}

TEST(coerce_paths, a_single_object_is_wrapped_where_a_list_of_objects_is_expected) {
  auto v = compile(R"({"type":"array","items":{"type":"object","properties":{"n":{"type":"integer"}}}})");
  auto out = coerce(v, json::parse(R"({"n":"3"})"));
  EXPECT_TRUE(out.valid());
  EXPECT_EQ(out.value, json::parse(R"([{"n":3}])"));
  EXPECT_EQ(changes(out), (lines{R"(arguments: {"n":"3"} -> [{"n":"3"}] (wrap_in_array))",
                                 R"(arguments[0].n: "3" -> 3 (string_to_integer))"}));
}

TEST(coerce_numbers, only_json_number_text_becomes_a_number) {
  auto v = compile(R"({"type":"object","properties":{"x":{"type":"number"},"i":{"type":"integer"}}})");
  struct row {
    const char* text;
    json number;  ///< null: left as the string (and invalid)
  } numbers[] = {
      {"0", 0},        {"-0.5", -0.5},   {"1e3", 1000.0}, {"2E-1", 0.2}, {"-12", -12},
      {"01", nullptr}, {"1.", nullptr},  {".5", nullptr}, {"+1", nullptr}, {"1e", nullptr},
      {"0x10", nullptr}, {" 1", nullptr}, {"1,5", nullptr}, {"NaN", nullptr},
      {"1e400", nullptr},  // not finite
  };
  for (const auto& r : numbers) {
    auto out = coerce(v, json{{"x", r.text}});
    if (r.number.is_null()) {
      EXPECT_FALSE(out.valid()) << r.text;
      EXPECT_EQ(out.value["x"], r.text);
      EXPECT_TRUE(out.coercions.empty()) << r.text;
    } else {
      EXPECT_TRUE(out.valid()) << r.text;
      EXPECT_EQ(out.value["x"], r.number) << r.text;
    }
  }
  // An integer wanted: integral texts in any notation, nothing with a fraction.
  EXPECT_EQ(coerce(v, json{{"i", "1e3"}}).value["i"], json(1000));
  EXPECT_TRUE(coerce(v, json{{"i", "1e3"}}).value["i"].is_number_integer());
  EXPECT_EQ(coerce(v, json{{"i", "2.0"}}).value["i"], json(2));
  auto frac = coerce(v, json{{"i", "2.5"}});
  EXPECT_FALSE(frac.valid());
  EXPECT_EQ(frac.value["i"], "2.5");
}

TEST(coerce_numbers, an_integral_float_for_an_integer_is_reported_as_number_to_integer) {
  auto v = compile(R"({"type":"object","properties":{"i":{"type":"integer"},"x":{"type":"number"}}})");
  auto out = coerce(v, json::parse(R"({"i": 4.0, "x": 4.0})"));
  EXPECT_TRUE(out.valid());
  EXPECT_TRUE(out.value["i"].is_number_integer());
  EXPECT_TRUE(out.value["x"].is_number_float());  // a number may stay 4.0
  EXPECT_EQ(changes(out), (lines{"arguments.i: 4.0 -> 4 (number_to_integer)"}));
}

TEST(coerce_types, a_value_valid_under_a_type_union_is_left_alone) {
  auto v = compile(R"({"type":"object","properties":{"v":{"type":["integer","string"]},
                                                     "b":{"type":["boolean","null"]}}})");
  auto out = coerce(v, json::parse(R"({"v":"5","b":null})"));
  EXPECT_TRUE(out.valid());
  EXPECT_EQ(out.value, json::parse(R"({"v":"5","b":null})"));
  EXPECT_TRUE(out.coercions.empty());
  auto b = coerce(v, json::parse(R"({"b":"No"})"));
  EXPECT_EQ(b.value["b"], false);
}

TEST(coerce_types, a_json_string_of_the_wrong_shape_is_not_used) {
  auto v = compile(R"({"type":"object","properties":{"o":{"type":"object"}}})");
  auto out = coerce(v, json::parse(R"({"o":"[1,2]"})"));
  EXPECT_FALSE(out.valid());
  EXPECT_EQ(out.value["o"], "[1,2]");
  EXPECT_TRUE(out.coercions.empty());
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].path, "arguments.o");
}

TEST(coerce_alternatives, one_of_takes_the_first_branch_the_repair_satisfies) {
  auto v = compile(R"({"type":"object","properties":{"when":{"oneOf":[
      {"type":"boolean"},{"type":"integer","minimum":100}]}}})");
  EXPECT_EQ(coerce(v, json::parse(R"({"when":"yes"})")).value["when"], true);
  auto num = coerce(v, json::parse(R"({"when":"250"})"));
  EXPECT_TRUE(num.valid());
  EXPECT_EQ(num.value["when"], 250);
  // "5" repairs to an integer below the minimum: no branch takes it, nothing changes.
  auto none = coerce(v, json::parse(R"({"when":"5"})"));
  EXPECT_FALSE(none.valid());
  EXPECT_EQ(none.value["when"], "5");
  EXPECT_TRUE(none.coercions.empty());
}

TEST(coerce_clamp, clamps_to_integer_and_fractional_bounds_only_when_asked) {
  auto v = compile(R"({"type":"object","properties":{
      "n":{"type":"integer","minimum":1,"maximum":10},
      "r":{"type":"number","minimum":0.25,"maximum":1.5}}})");
  auto off = coerce(v, json::parse(R"({"n":-3,"r":2})"));
  EXPECT_EQ(off.errors.size(), 2u);
  EXPECT_TRUE(off.coercions.empty());
  auto on = coerce(v, json::parse(R"({"n":-3,"r":2})"), {.clamp = true});
  EXPECT_TRUE(on.valid());
  EXPECT_EQ(on.value["n"], 1);
  EXPECT_TRUE(on.value["n"].is_number_integer());
  EXPECT_EQ(on.value["r"], 1.5);
  EXPECT_EQ(changes(on), (lines{"arguments.n: -3 -> 1 (clamp)", "arguments.r: 2 -> 1.5 (clamp)"}));
  // A numeric string is first converted, then clamped: two changes on one path.
  auto both = coerce(v, json::parse(R"({"r":"0"})"), {.clamp = true});
  EXPECT_EQ(changes(both), (lines{R"(arguments.r: "0" -> 0 (string_to_number))",
                                  "arguments.r: 0 -> 0.25 (clamp)"}));
}

TEST(coerce_options, the_root_name_and_the_error_cap_apply_to_paths_and_errors) {
  auto v = compile(R"({"type":"object","properties":{
      "a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"}}})");
  auto out = coerce(v, json::parse(R"({"a":"x","b":"y","c":"2"})"),
                    {.root_path = "input", .max_errors = 1});
  EXPECT_EQ(changes(out), (lines{R"(input.c: "2" -> 2 (string_to_integer))"}));
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].path.rfind("input.", 0), 0u);
  auto all = coerce(v, json::parse(R"({"a":"x","b":"y"})"), {.max_errors = 0});
  EXPECT_EQ(all.errors.size(), 2u);  // 0: no cap
}

TEST(coerce_options, coercions_render_every_field_for_metadata) {
  auto v = compile(R"({"type":"object","properties":{"t":{"type":"array"}}})");
  auto out = coerce(v, json::parse(R"({"t":"x"})"));
  EXPECT_EQ(tooluse::schema::coercions_to_json(out.coercions),
            json::parse(R"([{"path":"arguments.t","from":"x","to":["x"],"rule":"wrap_in_array"}])"));
  EXPECT_EQ(tooluse::schema::coercions_to_json({}), json::array());
}

}  // namespace
}  // namespace coerce_paths_test
