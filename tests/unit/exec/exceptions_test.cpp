// Handler exceptions and argument problems become error results; nothing escapes.
#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;

TEST(executor_exceptions, throwing_tool_becomes_error_result) {
  tool_registry reg;
  reg.add({.name = "boom"}, [](const json&, call_context&) -> tool_result {
    throw std::runtime_error("disk on fire");
  });
  reg.add({.name = "weird"}, [](const json&, call_context&) -> tool_result { throw 42; });
  add_echo(reg);
  executor ex(reg);
  std::vector<tool_call> calls = {make_call("boom"), make_call("weird"), make_call("echo", {{"i", 3}})};
  auto results = ex.run_all(calls);
  EXPECT_TRUE(results[0].is_error);
  EXPECT_EQ(results[0].all_text(), "tool \"boom\" failed: disk on fire");
  EXPECT_TRUE(results[1].is_error);
  EXPECT_EQ(results[1].all_text(), "tool \"weird\" failed with an unknown exception");
  EXPECT_EQ(results[2].all_text(), "3");
}

TEST(executor_validation, invalid_arguments_return_errors_and_schema_without_running) {
  tool_registry reg;
  int runs = 0;
  reg.add({.name = "add", .input_schema = int_schema("a")}, [&](const json&, call_context&) {
    ++runs;
    return tool_result::text("ran");
  });
  executor ex(reg);
  tool_result r = ex.call(make_call("add", {{"a", "two"}}));
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(runs, 0);
  const std::string text = r.all_text();
  EXPECT_EQ(text.rfind("invalid arguments for tool \"add\":\narguments.a: ", 0), 0u) << text;
  EXPECT_NE(text.find(dump_json(int_schema("a"))), std::string::npos);
  ASSERT_TRUE(r.meta.contains("validation_errors"));
  EXPECT_EQ(r.meta["validation_errors"][0]["path"], "arguments.a");
  EXPECT_EQ(r.meta["input_schema"], int_schema("a"));
  EXPECT_FALSE(ex.call(make_call("add", {{"a", 2}})).is_error);
  EXPECT_EQ(runs, 1);
}

TEST(executor_validation, unparsed_arguments_and_unknown_tools_are_errors) {
  tool_registry reg;
  add_echo(reg);
  executor ex(reg);
  tool_call bad = tool_call::from_text("c1", "echo", "{\"i\": 1,");
  ASSERT_TRUE(bad.arguments.is_null());
  tool_result r = ex.call(bad);
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text().rfind("the arguments for tool \"echo\" are not valid JSON", 0), 0u);
  tool_result u = ex.call(make_call("missing"));
  EXPECT_EQ(u.all_text(), "unknown tool \"missing\"; available tools: echo");
}

TEST(executor_validation, opted_in_tools_get_coerced_arguments_reported) {
  tool_registry reg;
  json seen;
  reg.add({.name = "strict", .input_schema = int_schema("n")},
          [&](const json&, call_context&) { return tool_result::text("ran"); });
  reg.add({.name = "lenient", .input_schema = int_schema("n"), .coerce_arguments = true},
          [&](const json& args, call_context&) {
            seen = args;
            return tool_result::text("ran");
          });
  executor ex(reg);
  EXPECT_TRUE(ex.call(make_call("strict", {{"n", "3"}})).is_error);
  tool_result r = ex.call(make_call("lenient", {{"n", "3"}}));
  EXPECT_FALSE(r.is_error);
  EXPECT_EQ(seen, json({{"n", 3}}));
  ASSERT_TRUE(r.meta.contains("coerced"));
  EXPECT_EQ(r.meta["coerced"][0]["path"], "arguments.n");
  EXPECT_EQ(r.meta["coerced"][0]["rule"], "string_to_integer");
  tool_result bad = ex.call(make_call("lenient", {{"n", "three"}}));
  EXPECT_TRUE(bad.is_error);
  EXPECT_EQ(bad.all_text().rfind("invalid arguments for tool \"lenient\"", 0), 0u);
}

TEST(executor_events, throwing_observer_does_not_break_the_call) {
  tool_registry reg;
  add_echo(reg);
  executor ex(reg, {.on_event = [](const call_event&) { throw std::runtime_error("observer"); }});
  EXPECT_EQ(ex.call(make_call("echo", {{"i", 9}})).all_text(), "9");
}

}  // namespace
}  // namespace tooluse::exec
