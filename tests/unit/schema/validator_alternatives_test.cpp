// Messages for anyOf / oneOf when no alternative matches: one merged "expected A, B or C" when
// every alternative refused the value's kind, otherwise the errors of the alternative that got
// furthest, so a model is told the constraint it actually broke.
#include <gtest/gtest.h>

#include <string>

#include "tooluse/schema/validator.hpp"

namespace {

using tooluse::json;
using tooluse::schema::validator;

std::string errors_of(const char* schema, const char* instance) {
  auto v = validator::compile(json::parse(schema));
  EXPECT_TRUE(v.has_value()) << schema;
  if (!v) return "";
  json inst = json::parse(instance);
  auto errors = v->validate(inst);
  EXPECT_EQ(v->is_valid(inst), errors.empty());
  return tooluse::schema::format_errors(errors);
}

TEST(validator_alternatives, kinds_refused_by_every_branch_merge_into_one_message) {
  EXPECT_EQ(errors_of(R"({"anyOf": [{"const": "a"}, {"const": "b"}, {"type": "integer"}]})", R"("c")"),
            R"(arguments: expected "a", "b" or integer, got string "c")");
  EXPECT_EQ(errors_of(R"({"oneOf": [{"enum": [1, 2]}, {"type": "boolean"}]})", "3"),
            "arguments: expected one of 1, 2 or boolean, got integer 3");
  EXPECT_EQ(errors_of(R"({"$defs": {"id": {"type": "string"}},
                          "anyOf": [{"$ref": "#/$defs/id"}, {"type": "null"}]})", "1"),
            "arguments: expected string or null, got integer 1");
  EXPECT_EQ(errors_of(R"({"anyOf": [{"type": "number", "minimum": 5}, {"type": "string"}, false]})", "[]"),
            "arguments: expected number, string or a value matching #/anyOf/2, got an empty array");
}

TEST(validator_alternatives, a_branch_that_took_the_kind_reports_the_constraint_it_broke) {
  EXPECT_EQ(errors_of(R"({"anyOf": [{"type": "string", "minLength": 5}, {"type": "integer"}]})", R"("abc")"),
            "arguments: expected at least 5 characters, got 3");
  EXPECT_EQ(errors_of(R"({"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9]+$"}]})",
                      R"("12a")"),
            R"(arguments: expected a string matching "^[0-9]+$", got "12a")");
  EXPECT_EQ(errors_of(R"({"oneOf": [{"type": "integer", "maximum": 9}, {"type": "string"}]})", "10"),
            "arguments: expected an integer <= 9, got 10");
}

TEST(validator_alternatives, missing_properties_beat_a_merged_object_or_object) {
  EXPECT_EQ(errors_of(R"({"anyOf": [{"type": "object", "required": ["a"]},
                                    {"type": "object", "required": ["b"]}]})", "{}"),
            R"(arguments: missing required property "a")");
}

TEST(validator_alternatives, the_branch_that_got_deepest_wins_then_the_one_with_fewest_errors) {
  const char* schema = R"({"oneOf": [
      {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
       "required": ["kind", "r"]},
      {"type": "object", "properties": {"kind": {"const": "rect"},
                                        "size": {"type": "object", "properties": {
                                          "w": {"type": "number"}, "h": {"type": "number"}}}},
       "required": ["kind", "size"]}]})";
  EXPECT_EQ(errors_of(schema, R"({"kind": "rect", "size": {"w": 1, "h": "2"}})"),
            R"(arguments.size.h: expected number, got string "2")");
}

TEST(validator_alternatives, alternatives_inside_items_report_at_the_item) {
  const char* schema = R"({"type": "array", "items": {"anyOf": [{"type": "integer", "minimum": 0},
                                                              {"type": "string", "format": "x"}]}})";
  EXPECT_EQ(errors_of(schema, R"([1, "a", -1, null])"),
            "arguments[2]: expected an integer >= 0, got -1\n"
            "arguments[3]: expected integer or string, got null");
}

TEST(validator_alternatives, nested_alternatives_that_refuse_the_kind_still_merge) {
  EXPECT_EQ(errors_of(R"({"anyOf": [{"anyOf": [{"type": "string"}, {"type": "null"}]},
                                    {"type": "integer"}]})", "true"),
            "arguments: expected a value matching #/anyOf/0 or integer, got boolean true");
}

}  // namespace
