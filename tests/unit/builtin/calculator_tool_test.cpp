// The `calculator` tool through the registry, as a model would call it.
#include <gtest/gtest.h>

#include "tooluse/builtin/builtins.hpp"
#include "tooluse/builtin/calculator.hpp"

namespace {

tooluse::tool_result call(const tooluse::tool_registry& r, const std::string& args) {
  tooluse::call_context ctx;
  return r.call(tooluse::tool_call::from_text("1", "calculator", args), ctx);
}

}  // namespace

TEST(calculator_tool, returns_the_number_as_text) {
  tooluse::tool_registry r;
  tooluse::builtin::register_calculator(r);
  auto res = call(r, R"({"expression":"1234*5678"})");
  EXPECT_FALSE(res.is_error);
  EXPECT_EQ(res.all_text(), "7006652");
  EXPECT_FALSE(res.structured_content.has_value());
}

TEST(calculator_tool, errors_are_error_results_for_the_model) {
  tooluse::tool_registry r;
  tooluse::builtin::register_calculator(r);
  auto res = call(r, R"({"expression":"1/0"})");
  EXPECT_TRUE(res.is_error);
  EXPECT_EQ(res.all_text(), "division by zero at position 2");
  auto bad = call(r, R"({"expr":"1"})");
  EXPECT_TRUE(bad.is_error);
}

TEST(calculator_tool, definition_and_schema) {
  tooluse::tool_registry r;
  tooluse::builtin::register_calculator(r);
  auto entry = r.find("calculator");
  ASSERT_NE(entry, nullptr);
  const auto& d = entry->definition;
  EXPECT_EQ(d.category, "math");
  EXPECT_EQ(d.annotations.read_only, true);
  EXPECT_EQ(d.input_schema["required"].dump(), R"(["expression"])");
  EXPECT_EQ(d.input_schema["properties"]["expression"]["type"], "string");
  EXPECT_EQ(d.input_schema["additionalProperties"], false);
}

TEST(calculator_tool, limits_are_configurable) {
  tooluse::tool_registry r;
  tooluse::builtin::register_calculator(r, {.max_length = 5});
  auto res = call(r, R"({"expression":"1+2+3+4"})");
  EXPECT_TRUE(res.is_error);
  EXPECT_EQ(res.all_text(), "the expression is too long: 7 characters, the limit is 5");
}

TEST(calculator_tool, is_among_the_builtins) {
  tooluse::tool_registry r;
  tooluse::builtin::register_builtins(r);
  EXPECT_NE(r.find("calculator"), nullptr);
}
