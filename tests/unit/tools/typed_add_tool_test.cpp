// tooluse::add_tool: inferred schemas, argument checking, return-value and error mapping.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "tooluse/tools/typed.hpp"

namespace typed_add_tool {

using tooluse::json;

struct weather_args {
  std::string city;
  std::optional<std::string> unit;
  int days = 1;
};
TOOLUSE_DESCRIBE(weather_args,
                 (city, "City name, e.g. \"Paris\"", tooluse::min_length(1)),
                 (unit, "Temperature unit", tooluse::one_of({"celsius", "fahrenheit"})),
                 (days, "Forecast days", tooluse::minimum(1), tooluse::maximum(16)))

struct forecast {
  std::string city;
  double high = 0;
};
TOOLUSE_DESCRIBE(forecast, (city, "City"), (high, "High temperature"))

struct add_args {
  double a = 0;
  double b = 0;
};
TOOLUSE_DESCRIBE(add_args, (a, "first addend"), (b, "second addend"))

tooluse::tool_result call(const tooluse::tool_registry& r, const std::string& name,
                          const std::string& args) {
  tooluse::call_context ctx;
  return r.call(tooluse::tool_call::from_text("1", name, args), ctx);
}

void add_weather(tooluse::tool_registry& r) {
  tooluse::add_tool(r, {.name = "weather", .description = "Forecast for a city"},
                    [](const weather_args& a) -> tooluse::result<std::string> {
                      if (a.city == "Atlantis")
                        return tooluse::fail(tooluse::errc::not_found, "no city named Atlantis");
                      return a.city + " " + a.unit.value_or("celsius") + " x" + std::to_string(a.days);
                    });
}

TEST(typed_add_tool, infers_the_input_schema) {
  tooluse::tool_registry r;
  add_weather(r);
  auto entry = r.find("weather");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->definition.input_schema, tooluse::schema_for<weather_args>());
  EXPECT_EQ(entry->definition.input_schema["additionalProperties"], false);
  EXPECT_FALSE(entry->definition.output_schema.has_value());
}

TEST(typed_add_tool, string_return_is_a_text_result) {
  tooluse::tool_registry r;
  add_weather(r);
  auto res = call(r, "weather", R"({"city":"Paris","days":3})");
  EXPECT_FALSE(res.is_error);
  EXPECT_EQ(res.all_text(), "Paris celsius x3");
  EXPECT_FALSE(res.structured_content.has_value());
}

TEST(typed_add_tool, null_for_an_optional_means_absent) {
  tooluse::tool_registry r;
  add_weather(r);
  auto res = call(r, "weather", R"({"city":"Oslo","unit":null})");
  EXPECT_FALSE(res.is_error) << res.all_text();
  EXPECT_EQ(res.all_text(), "Oslo celsius x1");
}

// The engine validates every call against the tool's input schema and says so in
// call_context::validated_against; a typed tool then does not check the same schema again, and
// does check when the schema named is another one (or none).
TEST(typed_add_tool, arguments_checked_against_its_own_schema_are_not_checked_again) {
  tooluse::tool_registry r;
  add_weather(r);
  const json& own = r.find("weather")->definition.input_schema;
  auto with = [&](const json* validated, const std::string& args) {
    tooluse::call_context ctx;
    ctx.validated_against = validated;
    return r.call(tooluse::tool_call::from_text("1", "weather", args), ctx);
  };
  // Out of range for the schema (days <= 16), but it decodes: taken as checked, it runs.
  auto trusted = with(&own, R"({"city":"Paris","days":40})");
  EXPECT_FALSE(trusted.is_error) << trusted.all_text();
  json other = {{"type", "object"}};
  for (const json* validated : {static_cast<const json*>(nullptr), static_cast<const json*>(&other)}) {
    auto checked = with(validated, R"({"city":"Paris","days":40})");
    EXPECT_TRUE(checked.is_error);
    EXPECT_EQ(checked.all_text().rfind("invalid arguments for tool \"weather\"", 0), 0u) << checked.all_text();
  }
}

// The registry's entry checks calls with the typed handler's own validator (compiled once,
// add_options::compiled_input), so the engine's schema is the handler's by identity; an equal
// schema elsewhere (a copy) is still recognised by value.
TEST(typed_add_tool, the_entry_shares_the_handlers_validator) {
  tooluse::tool_registry r;
  add_weather(r);
  auto entry = r.find("weather");
  ASSERT_TRUE(entry);
  ASSERT_TRUE(entry->input_validator);
  EXPECT_EQ(entry->input_validator->schema(), entry->definition.input_schema);
  const json copy = entry->input_validator->schema();
  tooluse::call_context ctx;
  ctx.validated_against = &copy;
  auto trusted = r.call(tooluse::tool_call::from_text("1", "weather", R"({"city":"Paris","days":40})"), ctx);
  EXPECT_FALSE(trusted.is_error) << trusted.all_text();
  ctx.validated_against = &entry->input_validator->schema();
  trusted = r.call(tooluse::tool_call::from_text("2", "weather", R"({"city":"Paris","days":40})"), ctx);
  EXPECT_FALSE(trusted.is_error) << trusted.all_text();
}

// A validator passed for another schema is not used: the entry compiles its own.
TEST(typed_add_tool, a_compiled_input_of_another_schema_is_not_shared) {
  tooluse::tool_registry r;
  auto wrong = std::make_shared<const tooluse::schema::validator>(
      *tooluse::schema::validator::compile(json{{"type", "object"}, {"required", {"zzz"}}}));
  r.add({.name = "echo", .description = "Echo", .input_schema = {{"type", "object"}}},
        [](const json&, tooluse::call_context&) { return tooluse::tool_result::text("ok"); },
        {.compiled_input = wrong});
  auto entry = r.find("echo");
  ASSERT_TRUE(entry);
  EXPECT_NE(entry->input_validator, wrong);
  EXPECT_TRUE(entry->input_validator->validate(json::object()).empty());
}

TEST(typed_add_tool, result_error_becomes_an_error_result) {
  tooluse::tool_registry r;
  add_weather(r);
  auto res = call(r, "weather", R"({"city":"Atlantis"})");
  EXPECT_TRUE(res.is_error);
  EXPECT_EQ(res.all_text(), "no city named Atlantis");
}

TEST(typed_add_tool, bad_arguments_become_an_error_result_with_the_path) {
  tooluse::tool_registry r;
  add_weather(r);
  auto res = call(r, "weather", R"({"city":"Paris","days":"two"})");
  EXPECT_TRUE(res.is_error);
  EXPECT_NE(res.all_text().find("arguments.days"), std::string::npos) << res.all_text();
  auto missing = call(r, "weather", R"({"days":2})");
  EXPECT_TRUE(missing.is_error);
  EXPECT_NE(missing.all_text().find("missing required property \"city\""), std::string::npos)
      << missing.all_text();
  EXPECT_EQ(missing.all_text().rfind("invalid arguments for tool \"weather\"", 0), 0u);
}

TEST(typed_add_tool, exceptions_become_error_results) {
  tooluse::tool_registry r;
  tooluse::add_tool(r, {.name = "boom", .description = "Throws"},
                    [](const add_args&) -> std::string { throw std::runtime_error("disk full"); });
  auto res = call(r, "boom", R"({"a":1,"b":2})");
  EXPECT_TRUE(res.is_error);
  EXPECT_EQ(res.all_text(), "tool \"boom\" failed: disk full");
}

TEST(typed_add_tool, described_struct_return_is_structured_with_an_output_schema) {
  tooluse::tool_registry r;
  tooluse::add_tool(r, {.name = "forecast", .description = "Structured forecast"},
                    [](const weather_args& a) { return forecast{a.city, 21.5}; });
  auto entry = r.find("forecast");
  ASSERT_TRUE(entry->definition.output_schema.has_value());
  EXPECT_EQ(*entry->definition.output_schema, tooluse::schema_for<forecast>());
  auto res = call(r, "forecast", R"({"city":"Lima"})");
  ASSERT_TRUE(res.structured_content.has_value());
  EXPECT_EQ(res.structured_content->dump(), R"({"city":"Lima","high":21.5})");
  EXPECT_EQ(res.all_text(), R"({"city":"Lima","high":21.5})");
}

TEST(typed_add_tool, number_json_and_tool_result_returns) {
  tooluse::tool_registry r;
  tooluse::add_tool(r, {.name = "add", .description = "Add two numbers"},
                    [](const add_args& in) -> tooluse::result<double> { return in.a + in.b; });
  tooluse::add_tool(r, {.name = "sum_json", .description = "Sum as JSON"},
                    [](const add_args& in) { return json{{"sum", in.a + in.b}}; });
  tooluse::add_tool(r, {.name = "raw", .description = "Raw result"},
                    [](const add_args&) { return tooluse::tool_result::error("raw error"); });
  EXPECT_EQ(call(r, "add", R"({"a":2,"b":40.5})").all_text(), "42.5");
  auto j = call(r, "sum_json", R"({"a":2,"b":3})");
  ASSERT_TRUE(j.structured_content.has_value());
  EXPECT_EQ((*j.structured_content)["sum"], 5.0);
  EXPECT_TRUE(call(r, "raw", "{}").is_error);
}

TEST(typed_add_tool, callable_may_take_the_call_context) {
  tooluse::tool_registry r;
  tooluse::add_tool(r, {.name = "ctx", .description = "Echo the call id"},
                    [](const add_args&, tooluse::call_context& ctx) { return "id=" + ctx.call_id; });
  tooluse::call_context ctx;
  ctx.call_id = "call_7";
  auto res = r.call(tooluse::tool_call::from_text("call_7", "ctx", R"({"a":1,"b":1})"), ctx);
  EXPECT_EQ(res.all_text(), "id=call_7");
}

TEST(typed_add_tool, generic_callable_names_its_argument_type) {
  tooluse::tool_registry r;
  tooluse::add_tool<add_args>(r, {.name = "generic", .description = "Generic lambda"},
                              [](const auto& in) { return std::to_string(static_cast<int>(in.a * in.b)); });
  EXPECT_EQ(call(r, "generic", R"({"a":6,"b":7})").all_text(), "42");
}

TEST(typed_add_tool, registry_rules_still_apply) {
  tooluse::tool_registry r;
  add_weather(r);
  EXPECT_THROW(add_weather(r), std::invalid_argument);
  EXPECT_THROW(tooluse::add_tool(r, {.name = "bad name"}, [](const add_args&) { return 1; }),
               std::invalid_argument);
  tooluse::add_tool(r, {.name = "weather"}, [](const add_args&) { return 1; }, {.replace = true});
  EXPECT_EQ(r.find("weather")->definition.input_schema, tooluse::schema_for<add_args>());
}

}  // namespace typed_add_tool
