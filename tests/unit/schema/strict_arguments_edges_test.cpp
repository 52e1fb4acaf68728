// to_strict_arguments / from_strict_arguments beyond plain nested objects: arrays of objects,
// objects behind $ref, keys the schema does not know, required properties, values that are
// not objects, every way a property can accept null, and a $ref cycle a peer's schema may
// contain (which must not recurse forever).
#include <gtest/gtest.h>

#include <algorithm>

#include "tooluse/schema/translate.hpp"

namespace tooluse::schema {
namespace {

const json k_schema = json::parse(R"({
  "type": "object",
  "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"},
                                                      "label": {"type": "string"}},
                      "required": ["x"]}},
  "properties": {
    "name": {"type": "string"},
    "points": {"type": "array", "items": {"$ref": "#/$defs/point"}},
    "origin": {"$ref": "#/$defs/point"},
    "tags": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["name"]
})");

TEST(strict_arguments_edges, arrays_of_objects_and_refs_are_filled_item_by_item) {
  json args = json::parse(R"({"name": "n", "points": [{"x": 1}, {"x": 2, "label": "b"}],
                              "origin": {"x": 0}})");
  json strict = to_strict_arguments(k_schema, args);
  EXPECT_EQ(strict, json::parse(R"({"name": "n",
      "points": [{"x": 1, "label": null}, {"x": 2, "label": "b"}],
      "origin": {"x": 0, "label": null}, "tags": null})"));
  EXPECT_EQ(from_strict_arguments(k_schema, strict), args);
}

TEST(strict_arguments_edges, required_properties_are_never_filled_or_dropped) {
  json strict = to_strict_arguments(k_schema, json::object());
  EXPECT_FALSE(strict.contains("name"));
  EXPECT_EQ(strict["points"], nullptr);
  json back = from_strict_arguments(k_schema, json::parse(R"({"name": null, "tags": null})"));
  EXPECT_EQ(back, json::parse(R"({"name": null})"));  // invalid, but left for the validator to say
}

TEST(strict_arguments_edges, unknown_keys_and_non_objects_pass_through) {
  json args = json::parse(R"({"name": "n", "extra": {"deep": null}, "tags": ["a", null]})");
  json strict = to_strict_arguments(k_schema, args);
  EXPECT_EQ(strict["extra"], json::parse(R"({"deep": null})"));
  EXPECT_EQ(strict["tags"], json::parse(R"(["a", null])"));
  EXPECT_EQ(to_strict_arguments(k_schema, json("text")), json("text"));
  EXPECT_EQ(from_strict_arguments(k_schema, json::array({1})), json::array({1}));
  EXPECT_EQ(to_strict_arguments(json(true), json::parse(R"({"a": 1})")), json::parse(R"({"a": 1})"));
  EXPECT_EQ(from_strict_arguments(json::parse(R"({"$ref": "#/nowhere"})"), json::parse(R"({"a": null})")),
            json::parse(R"({"a": null})"));
}

TEST(strict_arguments_edges, nulls_stay_wherever_the_original_schema_accepts_them) {
  json s = json::parse(R"({"type": "object", "$defs": {"nullable": {"type": ["string", "null"]}},
      "properties": {
        "t": {"type": ["integer", "null"]}, "e": {"enum": ["a", null]}, "c": {"const": null},
        "any": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "one": {"oneOf": [{"type": "null"}, {"type": "integer"}]},
        "free": {"description": "anything"}, "yes": true, "r": {"$ref": "#/$defs/nullable"},
        "no_t": {"type": "integer"}, "no_e": {"enum": ["a"]}, "no_c": {"const": 1},
        "no_any": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "no": false}})");
  json nulls = json::object();
  for (const auto& [k, _] : s["properties"].items()) nulls[k] = nullptr;
  json back = from_strict_arguments(s, nulls);
  EXPECT_EQ(back, json::parse(R"({"t": null, "e": null, "c": null, "any": null, "one": null,
                                  "free": null, "yes": null, "r": null})"));
}

TEST(strict_arguments_edges, a_ref_cycle_through_alternatives_does_not_recurse_forever) {
  json s = json::parse(R"({"type": "object",
      "$defs": {"loop": {"anyOf": [{"$ref": "#/$defs/loop"}, {"type": "string"}]}},
      "properties": {"p": {"$ref": "#/$defs/loop"}}})");
  json back = from_strict_arguments(s, json::parse(R"({"p": null})"));
  EXPECT_EQ(back, json::object());  // null is not certainly accepted: the property is left out
  EXPECT_EQ(to_strict_arguments(s, json::object()), json::parse(R"({"p": null})"));
}

TEST(strict_arguments_edges, strict_schema_and_arguments_agree) {
  auto strict_schema = make_strict_schema(k_schema);
  ASSERT_TRUE(strict_schema.has_value()) << strict_schema.error().message;
  const json& required = (*strict_schema)["required"];
  ASSERT_EQ(required.size(), 4u);
  for (const char* name : {"name", "points", "origin", "tags"})
    EXPECT_NE(std::find(required.begin(), required.end(), json(name)), required.end()) << name;
  EXPECT_EQ((*strict_schema)["additionalProperties"], false);
  json strict_args = to_strict_arguments(k_schema, json::parse(R"({"name": "n"})"));
  for (const auto& name : (*strict_schema)["required"])
    EXPECT_TRUE(strict_args.contains(name.get<std::string>())) << name;
}

}  // namespace
}  // namespace tooluse::schema
