// $ref pointers as the translations read them when they inline definitions: escaped (~0, ~1)
// and percent-encoded tokens, indexes into arrays, and pointers that lead nowhere; plus the
// comparisons of negative integers enum, const and uniqueItems rely on.
#include <gtest/gtest.h>

#include "tooluse/schema/translate.hpp"
#include "tooluse/schema/validator.hpp"

namespace tooluse::schema {
namespace {

json object_with(const json& property) {
  return json{{"type", "object"}, {"properties", {{"p", property}}}, {"required", {"p"}}};
}

TEST(translate_refs, escaped_and_percent_encoded_tokens_are_decoded) {
  json s = object_with({{"$ref", "#/$defs/a~1b"}});
  s["$defs"] = {{"a/b", {{"type", "integer"}}}, {"c d", {{"type", "boolean"}}}, {"e~f", {{"type", "string"}}}};
  s["properties"]["q"] = {{"$ref", "#/$defs/c%20d"}};
  s["properties"]["r"] = {{"$ref", "#/$defs/e~0f"}};
  auto g = make_gemini_schema(s);
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ((*g)["properties"]["p"], json({{"type", "integer"}}));
  EXPECT_EQ((*g)["properties"]["q"], json({{"type", "boolean"}}));
  EXPECT_EQ((*g)["properties"]["r"], json({{"type", "string"}}));
  EXPECT_FALSE(g->contains("$defs"));
}

TEST(translate_refs, a_pointer_may_index_into_an_array) {
  json s = object_with({{"$ref", "#/$defs/pair/prefixItems/1"}});
  s["$defs"] = {{"pair", {{"type", "array"}, {"prefixItems", {{{"type", "string"}}, {{"type", "number"}}}}}}};
  auto g = make_gemini_schema(s);
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ((*g)["properties"]["p"], json({{"type", "number"}}));
}

TEST(translate_refs, pointers_that_lead_nowhere_are_errors_naming_the_ref) {
  for (std::string ref : {"#/$defs/pair/prefixItems/2", "#/$defs/pair/prefixItems/x",
                          "#/$defs/pair/prefixItems/", "#/$defs/pair/type/0", "#/$defs/missing",
                          "#$defs", "#/$defs/pair/prefixItems/1234567890"}) {
    json s = object_with({{"$ref", ref}});
    s["$defs"] = {{"pair", {{"type", "array"}, {"prefixItems", {{{"type", "string"}}}}}}};
    auto g = make_gemini_schema(s);
    ASSERT_FALSE(g) << ref;
    EXPECT_EQ(g.error().code, errc::unsupported) << ref;
    EXPECT_NE(g.error().message.find(ref), std::string::npos) << ref << ": " << g.error().message;
  }
}

TEST(translate_refs, strict_mode_inlines_a_ref_with_siblings_through_an_escaped_pointer) {
  json s = object_with({{"$ref", "#/$defs/x~1y"}, {"type", "string"}});
  s["$defs"] = {{"x/y", {{"enum", {"a", "b"}}}}};
  auto strict = make_strict_schema(s);
  ASSERT_TRUE(strict) << strict.error().message;
  const json& p = (*strict)["properties"]["p"];
  EXPECT_FALSE(p.contains("$ref")) << dump_json(p);
  EXPECT_EQ(p["enum"], json({"a", "b"})) << dump_json(p);
  EXPECT_EQ(p["type"], "string") << dump_json(p);
  // A description beside the $ref is no sibling keyword: the $ref stays.
  json described = object_with({{"$ref", "#/$defs/x~1y"}, {"description", "the p"}});
  described["$defs"] = s["$defs"];
  auto kept = make_strict_schema(described);
  ASSERT_TRUE(kept) << kept.error().message;
  EXPECT_EQ((*kept)["properties"]["p"]["$ref"], "#/$defs/x~1y") << dump_json(*kept);
}

TEST(translate_refs, a_root_whose_type_is_not_a_name_or_a_list_is_refused) {
  for (json s : {json{{"type", 5}, {"properties", json::object()}}, json{{"type", 5}}}) {
    auto exported = export_tool({.name = "t", .input_schema = s}, export_target::openai);
    ASSERT_FALSE(exported) << dump_json(s);
    EXPECT_EQ(exported.error().code, errc::invalid_argument);
    EXPECT_EQ(exported.error().message,
              "tool \"t\": the input schema must be an object schema (\"type\": \"object\")");
  }
}

TEST(values, negative_integers_compare_exactly_in_const_enum_and_unique_items) {
  auto c = validator::compile(json::parse(R"({"const": -5})"));
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->is_valid(-5));
  EXPECT_TRUE(c->is_valid(-5.0));
  EXPECT_FALSE(c->is_valid(-6));
  auto big = validator::compile(json::parse(R"({"enum": [-9223372036854775807]})"));
  ASSERT_TRUE(big);
  EXPECT_TRUE(big->is_valid(json(INT64_C(-9223372036854775807))));
  EXPECT_FALSE(big->is_valid(json(INT64_MIN)));
  auto unique = validator::compile(json::parse(R"({"uniqueItems": true})"));
  ASSERT_TRUE(unique);
  EXPECT_FALSE(unique->is_valid(json::parse("[-1, 2, -1]")));
  EXPECT_TRUE(unique->is_valid(json::parse("[-1, 1]")));
  auto errors = c->validate(-6);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].keyword, "const");
  EXPECT_EQ(errors[0].message, "expected -5, got -6");
}

TEST(values, numbers_in_messages_take_their_shortest_exact_form) {
  auto v = validator::compile(json::parse(R"({"maximum": 0.1, "minimum": -1e300})"));
  ASSERT_TRUE(v);
  auto errors = v->validate(0.5);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("0.1"), std::string::npos) << errors[0].message;
  EXPECT_EQ(errors[0].message.find("0.10000"), std::string::npos) << errors[0].message;
  auto low = v->validate(-1e301);
  ASSERT_EQ(low.size(), 1u);
  EXPECT_NE(low[0].message.find("1e+300"), std::string::npos) << low[0].message;
}

}  // namespace
}  // namespace tooluse::schema
