// lint_tools: each rule fires on the definition it is about and stays quiet on a good one;
// mistyped definitions are reported, never thrown on.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tooluse/tools/lint.hpp"

namespace tooluse {
namespace {

const char* const k_good_description =
    "Looks up the current weather for a city. Use it when the user asks about weather. "
    "Returns the temperature and conditions.";

tool good_tool(std::string name = "get_weather") {
  return tool{.name = std::move(name),
              .description = k_good_description,
              .input_schema = json::parse(R"({"type": "object", "properties": {
                  "city": {"type": "string", "description": "City name, e.g. Paris"}}})")};
}

std::vector<std::string> rules_of(const std::vector<lint_finding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) out.push_back(f.rule + (f.parameter.empty() ? "" : ":" + f.parameter));
  return out;
}

std::vector<std::string> rules_for(const tool& t) { return rules_of(lint_tools({t})); }

bool has(const std::vector<std::string>& rules, const std::string& rule) {
  return std::find(rules.begin(), rules.end(), rule) != rules.end();
}

TEST(lint, a_good_tool_has_no_findings) {
  EXPECT_TRUE(lint_tools({good_tool()}).empty());
  EXPECT_TRUE(lint_tools({}).empty());
}

TEST(lint, a_missing_description_is_an_error_and_stops_the_other_description_rules) {
  tool t = good_tool();
  t.description = " \n\t";
  auto findings = lint_tools({t});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].level, lint_finding::severity::error);
  EXPECT_EQ(findings[0].rule, "description-missing");
  EXPECT_EQ(findings[0].tool, "get_weather");
}

TEST(lint, short_descriptions_without_when_or_returns_get_three_warnings) {
  tool t = good_tool();
  t.description = "Weather.";
  auto findings = lint_tools({t});
  EXPECT_EQ(rules_of(findings),
            (std::vector<std::string>{"description-what", "description-when", "description-returns"}));
  EXPECT_EQ(findings[0].message, "description is too short to say what the tool does (8 characters)");
  for (const auto& f : findings) EXPECT_EQ(f.level, lint_finding::severity::warning);
}

TEST(lint, parameters_without_descriptions_unless_enum_or_ref) {
  tool t = good_tool();
  t.input_schema = json::parse(R"({"type": "object", "properties": {
      "a": {"type": "string"}, "b": {"enum": ["x", "y"]}, "c": {"$ref": "#/$defs/c"},
      "d": "not a schema"}})");
  auto rules = rules_for(t);
  EXPECT_TRUE(has(rules, "param-description:a"));
  EXPECT_FALSE(has(rules, "param-description:b"));
  EXPECT_FALSE(has(rules, "param-description:c"));
  EXPECT_FALSE(has(rules, "param-description:d"));
  EXPECT_TRUE(has(rules, "provider-schema-feature"));  // $ref is not for Gemini
}

TEST(lint, quantities_need_a_unit_in_the_name_or_description) {
  tool t = good_tool();
  t.input_schema = json::parse(R"({"type": "object", "properties": {
      "timeout": {"type": "integer", "description": "How long to wait"},
      "timeout_ms": {"type": "integer", "description": "How long to wait"},
      "max_size": {"type": "number", "description": "Largest file, in bytes"},
      "price": {"type": "number", "description": "Price in EUR"},
      "weight": {"type": "string", "description": "Any text"},
      "count": {"type": "integer", "description": "How many"}}})");
  auto rules = rules_for(t);
  EXPECT_TRUE(has(rules, "param-unit:timeout"));
  EXPECT_FALSE(has(rules, "param-unit:timeout_ms"));
  EXPECT_FALSE(has(rules, "param-unit:max_size"));
  EXPECT_FALSE(has(rules, "param-unit:price"));
  EXPECT_FALSE(has(rules, "param-unit:weight"));  // a string, not a quantity
  EXPECT_FALSE(has(rules, "param-unit:count"));   // not a unit-bearing name
}

TEST(lint, dates_urls_and_emails_need_a_format) {
  tool t = good_tool();
  t.input_schema = json::parse(R"({"type": "object", "properties": {
      "start_date": {"type": "string", "description": "When to start"},
      "end_date": {"type": "string", "description": "End, ISO 8601"},
      "due": {"type": "string", "format": "date-time", "description": "Due time"},
      "homepage_url": {"type": "string", "description": "The page"},
      "email": {"type": "string", "pattern": "@", "description": "Address"}}})");
  auto findings = lint_tools({t});
  auto rules = rules_of(findings);
  EXPECT_TRUE(has(rules, "param-format:start_date"));
  EXPECT_FALSE(has(rules, "param-format:end_date"));
  EXPECT_FALSE(has(rules, "param-format:due"));
  EXPECT_TRUE(has(rules, "param-format:homepage_url"));
  EXPECT_FALSE(has(rules, "param-format:email"));
  auto it = std::find_if(findings.begin(), findings.end(),
                         [](const auto& f) { return f.parameter == "homepage_url"; });
  ASSERT_NE(it, findings.end());
  EXPECT_EQ(it->message, "is a url string without a format; add \"format\" or say it (e.g. ISO 8601)");
}

TEST(lint, values_listed_in_prose_should_be_an_enum) {
  tool t = good_tool();
  t.input_schema = json::parse(R"({"type": "object", "properties": {
      "unit": {"type": "string", "description": "One of celsius, fahrenheit"},
      "mode": {"type": "string", "description": "'fast', 'safe' or 'slow'"},
      "lang": {"type": "string", "description": "A language code such as 'en' or 'fr'"},
      "sort": {"type": "string", "enum": ["a", "b"], "description": "Must be either a or b"},
      "kind": {"type": "string", "description": "Possible values: x, y"},
      "name": {"type": "string", "description": "The user's name"}}})");
  auto rules = rules_for(t);
  EXPECT_TRUE(has(rules, "param-closed-set:unit"));
  EXPECT_TRUE(has(rules, "param-closed-set:mode"));
  EXPECT_FALSE(has(rules, "param-closed-set:lang"));  // examples, not a closed set
  EXPECT_FALSE(has(rules, "param-closed-set:sort"));  // already an enum
  EXPECT_TRUE(has(rules, "param-closed-set:kind"));
  EXPECT_FALSE(has(rules, "param-closed-set:name"));
}

TEST(lint, provider_rules_on_names_and_the_schema_root) {
  tool dotted = good_tool("math.add");
  auto findings = lint_tools({dotted});
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].rule, "provider-name");
  EXPECT_EQ(findings[0].level, lint_finding::severity::error);
  EXPECT_NE(findings[0].message.find("\"math.add\" is rejected by OpenAI and Anthropic"), std::string::npos);
  EXPECT_TRUE(has(rules_for(good_tool(std::string(65, 'a'))), "provider-name"));
  EXPECT_FALSE(has(rules_for(good_tool(std::string(64, 'a'))), "provider-name"));

  tool root = good_tool();
  root.input_schema = json::parse(R"({"type": "object", "anyOf": [{"required": ["a"]}],
                                      "enum": [{}]})");
  auto root_findings = lint_tools({root});
  std::vector<std::string> messages;
  for (const auto& f : root_findings)
    if (f.rule == "provider-schema-root") messages.push_back(f.message);
  EXPECT_EQ(messages, (std::vector<std::string>{
                          "input schema has \"anyOf\" at the top level; OpenAI rejects it",
                          "input schema has \"enum\" at the top level; OpenAI rejects it"}));
}

TEST(lint, gemini_unsupported_features_are_named_once_each_wherever_they_are) {
  tool t = good_tool();
  t.input_schema = json::parse(R"({"type": "object", "$defs": {"x": {"type": "string"}},
      "properties": {"a": {"description": "A list", "type": "array",
                           "prefixItems": [{"$ref": "#/$defs/x"}], "items": {"$ref": "#/$defs/x"}},
                     "b": {"description": "Keyed", "type": "object",
                           "patternProperties": {"^x": {"if": {}, "then": {}}}}}})");
  std::vector<std::string> features;
  for (const auto& f : lint_tools({t}))
    if (f.rule == "provider-schema-feature") features.push_back(f.message.substr(0, f.message.find(',')));
  EXPECT_EQ(features, (std::vector<std::string>{
                          "input schema uses \"$defs\"", "input schema uses \"$ref\"",
                          "input schema uses \"if\"", "input schema uses \"patternProperties\"",
                          "input schema uses \"prefixItems\"", "input schema uses \"then\""}));
}

TEST(lint, duplicates_and_overlapping_descriptions) {
  tool a = good_tool("weather_now");
  tool b = good_tool("weather_today");
  tool other = good_tool("send_mail");
  other.description = "Sends an e-mail message to a recipient. Use it when asked to notify "
                      "someone. Returns the message id.";
  auto findings = lint_tools({a, b, other});
  auto rules = rules_of(findings);
  EXPECT_EQ(std::count(rules.begin(), rules.end(), "overlap"), 1);  // the e-mail tool is apart
  auto overlap = std::find_if(findings.begin(), findings.end(),
                              [](const auto& f) { return f.rule == "overlap"; });
  ASSERT_NE(overlap, findings.end());
  EXPECT_EQ(overlap->tool, "weather_now");
  EXPECT_EQ(overlap->message.rfind("overlaps with \"weather_today\" (100% of their description", 0), 0u)
      << overlap->message;
  auto twice = rules_of(lint_tools({other, other}));
  EXPECT_EQ(std::count(twice.begin(), twice.end(), "duplicate-name"), 1);
  EXPECT_EQ(std::count(twice.begin(), twice.end(), "overlap"), 1);
}

TEST(lint, short_descriptions_are_not_compared_for_overlap) {
  tool a = good_tool("a");
  tool b = good_tool("b");
  a.description = b.description = "Weather now";  // two content words: too few to compare
  auto rules = rules_of(lint_tools({a, b}));
  EXPECT_FALSE(has(rules, "overlap"));
}

TEST(lint, mistyped_definitions_are_reported_not_thrown_on) {
  tool array_type = good_tool();
  array_type.input_schema = json::parse(R"({"type": ["object", "null"], "properties": {
      "x": {"type": "string", "description": 5}}})");
  std::vector<lint_finding> findings;
  ASSERT_NO_THROW(findings = lint_tools({array_type}));
  auto rules = rules_of(findings);
  EXPECT_TRUE(has(rules, "provider-schema-root"));
  EXPECT_TRUE(has(rules, "param-description:x"));  // a non-string description is no description

  tool not_object = good_tool();
  not_object.input_schema = json(true);
  ASSERT_NO_THROW(findings = lint_tools({not_object}));
  EXPECT_TRUE(has(rules_of(findings), "provider-schema-root"));

  tool props_list = good_tool();
  props_list.input_schema = json::parse(R"({"type": "object", "properties": ["a"]})");
  ASSERT_NO_THROW(findings = lint_tools({props_list}));
  EXPECT_TRUE(findings.empty());
}

TEST(lint, findings_render_as_json) {
  lint_finding f{lint_finding::severity::error, "t", "p", "rule-x", "message"};
  EXPECT_EQ(lint_finding_to_json(f),
            json::parse(R"({"level": "error", "tool": "t", "parameter": "p", "rule": "rule-x",
                            "message": "message"})"));
  EXPECT_EQ(to_string(lint_finding::severity::warning), "warning");
  EXPECT_EQ(to_string(lint_finding::severity::error), "error");
}

}  // namespace
}  // namespace tooluse
