// Translation limits and refusals not covered by the other translate tests: OpenAI strict
// mode's nesting, property and enum limits, the node budget against $refs that expand
// exponentially (strict and Gemini), what strict mode refuses or merges (allOf, false schemas,
// untyped schemas, $ref with siblings), the strict argument round trip on nested objects,
// Gemini's rewrites of type unions and non-string enums, Anthropic's root rule, and the names
// and messages of the export functions.
#include <gtest/gtest.h>

#include "tooluse/schema/translate.hpp"

namespace {

using tooluse::errc;
using tooluse::json;
using namespace tooluse::schema;

// same compares JSON values ignoring the order of object keys.
bool same(const json& a, const json& b) {
  return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
}

json obj(json properties, json required = json::array()) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
}

// nested wraps a string property in `levels` objects: {"a": {"a": ... {"leaf": string}}}.
json nested(int levels) {
  json s = obj({{"leaf", {{"type", "string"}}}}, {"leaf"});
  for (int i = 0; i < levels; ++i) s = obj({{"a", s}}, {"a"});
  return s;
}

TEST(strict_limits, ten_levels_of_nesting_pass_and_eleven_do_not) {
  EXPECT_TRUE(make_strict_schema(nested(10)));
  auto deep = make_strict_schema(nested(11));
  ASSERT_FALSE(deep);
  EXPECT_EQ(deep.error().code, errc::unsupported);
  EXPECT_NE(deep.error().message.find("nesting deeper than openai strict mode's limit of 10 levels"),
            std::string::npos)
      << deep.error().message;
  EXPECT_EQ(deep.error().message.rfind("arguments.a.a.", 0), 0u) << deep.error().message;
}

TEST(strict_limits, five_thousand_properties_pass_and_one_more_does_not) {
  json props = json::object();
  for (int i = 0; i < 5000; ++i) props["p" + std::to_string(i)] = {{"type", "integer"}};
  EXPECT_TRUE(make_strict_schema(obj(props)));
  props["one_more"] = {{"type", "integer"}};
  auto r = make_strict_schema(obj(props));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "arguments: more than openai strict mode's 5000 properties");
}

TEST(strict_limits, enum_values_are_counted_over_the_whole_schema) {
  json half = json::array();
  for (int i = 0; i < 500; ++i) half.push_back("v" + std::to_string(i));
  json two = obj({{"a", {{"type", "string"}, {"enum", half}}}, {"b", {{"type", "string"}, {"enum", half}}}},
                 {"a", "b"});
  EXPECT_TRUE(make_strict_schema(two));  // exactly 1000
  two["properties"]["c"] = {{"const", "x"}};  // a const counts as one more value
  two["required"].push_back("c");
  auto r = make_strict_schema(two);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "arguments.c: more than openai strict mode's 1000 enum values");
}

// Each definition uses the next one twice: inlining would visit 2^30 schemas.
json exponential_refs() {
  json defs = json::object();
  for (int i = 0; i < 30; ++i)
    defs["d" + std::to_string(i)] =
        obj({{"x", {{"$ref", "#/$defs/d" + std::to_string(i + 1)}, {"description", "x"}}},
             {"y", {{"$ref", "#/$defs/d" + std::to_string(i + 1)}, {"description", "y"}}}},
            {"x", "y"});
  defs["d30"] = {{"type", "string"}};
  json s = obj({{"root", {{"$ref", "#/$defs/d0"}}}}, {"root"});
  s["$defs"] = defs;
  return s;
}

TEST(translate_budget, a_schema_over_the_node_budget_is_refused_with_the_option_to_raise) {
  // Strict mode keeps $refs (inlining only those with siblings, at most 8 deep), so its budget
  // is reached by breadth; Gemini inlines every $ref, so exponential refs reach it.
  json props = json::object();
  for (int i = 0; i < 200; ++i) props["p" + std::to_string(i)] = {{"type", "integer"}};
  auto strict = make_strict_schema(obj(props), {.max_schema_nodes = 100});
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code, errc::limit_exceeded);
  EXPECT_NE(strict.error().message.find("visits more than 100 schemas"), std::string::npos)
      << strict.error().message;
  EXPECT_NE(strict.error().message.find("strict_options::max_schema_nodes"), std::string::npos);
  EXPECT_TRUE(make_strict_schema(obj(props), {.max_schema_nodes = 201}));
  auto gemini = make_gemini_schema(exponential_refs(), 5000);
  ASSERT_FALSE(gemini);
  EXPECT_EQ(gemini.error().code, errc::limit_exceeded);
  auto exported = export_tool({.name = "t", .input_schema = exponential_refs()}, export_target::gemini,
                              {}, {.max_schema_nodes = 1000});
  ASSERT_FALSE(exported);
  EXPECT_EQ(exported.error().code, errc::limit_exceeded);
  EXPECT_EQ(exported.error().message.rfind("tool \"t\": ", 0), 0u) << exported.error().message;
}

TEST(strict_refusals, each_names_the_path_and_the_reason) {
  struct row {
    json property;
    std::string message;
  } rows[] = {
      {false, "arguments.p: a schema that accepts nothing has no openai strict mode equivalent"},
      {json::object(), "arguments.p: a schema that accepts any value (no \"type\") has no openai "
                       "strict mode equivalent; give it a type"},
      {{{"allOf", {{{"type", "string"}}, {{"minimum", 1}}}}},
       "arguments.p: \"allOf\" is not supported by openai strict mode"},
      {{{"type", "string"}, {"enum", "a"}}, "arguments.p: \"enum\" must be an array"},
      {{{"type", "object"}, {"additionalProperties", {{"type", "string"}}}},
       "arguments.p: \"additionalProperties\" must be false in openai strict mode (an object "
       "with free-form keys cannot be made strict)"},
      {{{"$ref", "#/$defs/none"}}, "arguments.p: $ref \"#/$defs/none\" does not resolve to a local schema"},
  };
  for (const auto& r : rows) {
    auto out = make_strict_schema(obj({{"p", r.property}}, {"p"}));
    ASSERT_FALSE(out) << r.property.dump();
    EXPECT_EQ(out.error().code, errc::unsupported);
    EXPECT_EQ(out.error().message, r.message) << r.property.dump();
  }
  auto root = make_strict_schema({{"type", "string"}});
  ASSERT_FALSE(root);
  EXPECT_EQ(root.error().message, "arguments: openai strict mode needs an object schema at the root");
}

TEST(strict_rewrites, a_single_all_of_is_merged_and_a_ref_with_siblings_is_inlined) {
  json s = obj({{"p", {{"allOf", {{{"type", "integer"}, {"minimum", 1}}}}, {"description", "n"}}},
                {"q", {{"$ref", "#/$defs/name"}, {"format", "email"}}},
                {"r", {{"$ref", "#/$defs/name"}, {"description", "who"}}}},
               {"p", "q", "r"});
  s["$defs"] = {{"name", {{"type", "string"}, {"maxLength", 5}}}};
  auto out = make_strict_schema(s, {.drop_unsupported = true});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_TRUE(same((*out)["properties"]["p"], json::parse(R"({"type":"integer","minimum":1,"description":"n"})")))
      << (*out)["properties"]["p"].dump();
  // A sibling other than description or title: inlined, maxLength dropped as asked.
  EXPECT_TRUE(same((*out)["properties"]["q"], json::parse(R"({"type":"string","format":"email"})")))
      << (*out)["properties"]["q"].dump();
  // Only a description beside it: the $ref stays.
  EXPECT_TRUE(same((*out)["properties"]["r"], json::parse(R"({"$ref":"#/$defs/name","description":"who"})")))
      << (*out)["properties"]["r"].dump();
}

TEST(strict_arguments, nested_optional_properties_are_filled_and_removed_again) {
  json s = obj({{"name", {{"type", "string"}}},
                {"opts", obj({{"depth", {{"type", "integer"}}}, {"tag", {{"type", json::array({"string", "null"})}}}})}},
               {"name"});
  json args = json::parse(R"({"name":"x","opts":{"tag":null}})");
  json strict = to_strict_arguments(s, args);
  EXPECT_TRUE(same(strict, json::parse(R"({"name":"x","opts":{"depth":null,"tag":null}})")))
      << strict.dump();
  // Back: depth's null is removed (the original does not accept it), tag's null stays.
  EXPECT_TRUE(same(from_strict_arguments(s, strict), json::parse(R"({"name":"x","opts":{"tag":null}})")));
  EXPECT_TRUE(same(to_strict_arguments(s, json::parse(R"({"name":"x"})")),
                   json::parse(R"({"name":"x","opts":null})")));
}

TEST(gemini_rewrites, type_unions_and_non_string_enums) {
  json s = obj({{"n", {{"type", json::array({"integer", "null"})}}},
                {"v", {{"type", json::array({"string", "integer"})}}},
                {"level", {{"type", "integer"}, {"enum", {1, 2, 3}}, {"description", "how much"}}},
                {"c", {{"const", "fixed"}}}});
  auto out = make_gemini_schema(s);
  ASSERT_TRUE(out) << out.error().message;
  const json& p = (*out)["properties"];
  EXPECT_TRUE(same(p["n"], json::parse(R"({"type":"integer","nullable":true})"))) << p["n"].dump();
  EXPECT_TRUE(same(p["v"], json::parse(R"({"anyOf":[{"type":"string"},{"type":"integer"}]})")))
      << p["v"].dump();
  EXPECT_FALSE(p["level"].contains("enum"));
  EXPECT_NE(p["level"]["description"].get<std::string>().find("how much"), std::string::npos);
  EXPECT_NE(p["level"]["description"].get<std::string>().find("1, 2, 3"), std::string::npos)
      << p["level"].dump();
  EXPECT_EQ(p["c"]["enum"], json::array({"fixed"}));
}

TEST(gemini_rewrites, refusals_name_the_path) {
  auto multi = make_gemini_schema(obj({{"p", {{"allOf", {{{"type", "string"}}, {{"minLength", 1}}}}}}}));
  ASSERT_FALSE(multi);
  EXPECT_EQ(multi.error().code, errc::unsupported);
  EXPECT_EQ(multi.error().message.rfind("arguments.p: \"allOf\" with several schemas", 0), 0u)
      << multi.error().message;
  auto missing = make_gemini_schema(obj({{"p", {{"$ref", "#/$defs/x"}}}}));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "arguments.p: $ref \"#/$defs/x\" does not resolve");
  auto nothing = make_gemini_schema(obj({{"p", false}}));
  ASSERT_FALSE(nothing);
  EXPECT_EQ(nothing.error().message, "arguments.p: a schema that accepts nothing cannot be expressed");
}

TEST(export_rules, anthropic_refuses_combinators_at_the_root) {
  for (const char* key : {"anyOf", "oneOf", "allOf"}) {
    tool_spec t{.name = "t", .input_schema = {{"type", "object"}, {key, {{{"required", {"a"}}}}}}};
    auto r = export_tool(t, export_target::anthropic);
    ASSERT_FALSE(r) << key;
    EXPECT_EQ(r.error().code, errc::unsupported);
    EXPECT_EQ(r.error().message, std::string("tool \"t\": anthropic does not accept \"") + key +
                                     "\" at the root of input_schema");
  }
}

TEST(export_rules, a_gemini_tool_without_parameters_omits_the_field) {
  auto r = export_tool({.name = "ping", .description = "d"}, export_target::gemini);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(same(*r, json::parse(R"({"name":"ping","description":"d"})"))) << r->dump();
}

TEST(export_rules, names_rules_and_targets) {
  EXPECT_EQ(name_rule_for(export_target::openai).max_length, 64u);
  EXPECT_EQ(name_rule_for(export_target::openai_strict).extra_chars, "_-");
  EXPECT_EQ(name_rule_for(export_target::responses).extra_chars, "_-");
  EXPECT_EQ(name_rule_for(export_target::gemini).extra_chars, "_.-");
  EXPECT_EQ(name_rule_for(export_target::mcp).max_length, 128u);
  auto bad = parse_export_target("claude");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "unknown export target \"claude\"; use one of openai, openai-strict, responses, "
            "anthropic, gemini, mcp");
  auto name = export_tool({.name = "a b"}, export_target::mcp);
  ASSERT_FALSE(name);
  EXPECT_EQ(name.error().message,
            "tool name \"a b\" is not accepted by mcp; map it with tooluse::schema::name_map "
            "(export_tools does this)");
}

TEST(export_rules, export_tools_maps_names_and_names_the_failing_tool) {
  auto ok = export_tools({{.name = "math.add"}, {.name = "math_add"}}, export_target::openai);
  ASSERT_TRUE(ok) << ok.error().message;
  ASSERT_EQ(ok->tools.size(), 2u);
  EXPECT_EQ(ok->names.provider_name("math_add"), "math_add");  // valid names keep theirs
  std::string mapped = *ok->names.provider_name("math.add");
  EXPECT_NE(mapped, "math_add");
  EXPECT_EQ(ok->tools[0]["function"]["name"], mapped);
  auto bad = export_tools({{.name = "good"}, {.name = "bad", .input_schema = {{"type", "array"}}}},
                          export_target::openai);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "tool \"bad\": the input schema must be an object schema (\"type\": \"object\")");
}

}  // namespace
